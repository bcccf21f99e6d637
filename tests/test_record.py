"""The frozen records of ``chinese_poker._record``: what a frozen dataclass would do, checked against one."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from typing import Any

import pytest
from chinese_poker._record import field_names, record, replace
from chinese_poker.rules import KNOBS, Rules


def copy_replace(instance: Any, **changes: Any) -> Any:
    """``copy.replace`` (Python 3.13), or what it calls on older versions."""
    if hasattr(copy, "replace"):
        return copy.replace(instance, **changes)
    return instance.__replace__(**changes)


@record()
class Point:
    x: int
    y: int = 0
    label: str | None = None


@record(kw_only=True, uncompared=("note",))
class Tagged:
    value: int = 1
    note: str = ""

    def __post_init__(self) -> None:
        if self.value < 0:
            raise ValueError("value must not be negative")


@dataclasses.dataclass(frozen=True)
class PointDataclass:
    x: int
    y: int = 0
    label: str | None = None


def test_a_record_behaves_as_the_frozen_dataclass() -> None:
    for args, kwargs in [((1,), {}), ((1, 2), {}), ((1,), {"label": "a"}), ((), {"x": 3, "y": 4})]:
        made, reference = Point(*args, **kwargs), PointDataclass(*args, **kwargs)
        assert repr(made) == repr(reference).replace("PointDataclass", "Point")
        assert (made.x, made.y, made.label) == (reference.x, reference.y, reference.label)
        assert hash(made) == hash(reference)
    assert Point(1, 2) == Point(x=1, y=2)
    assert Point(1, 2) != Point(1, 3)
    assert Point(1) != PointDataclass(1)  # another class never compares equal
    assert field_names(Point) == ("x", "y", "label") == field_names(Point(1))
    assert Point.__match_args__ == ("x", "y", "label")
    assert str(inspect.signature(Point)) == "(x: 'int', y: 'int' = 0, label: 'str | None' = None)"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (Point, r"missing 1 required positional argument: 'x'"),
        (lambda: Point(1, 2, "a", 4), r"takes from 2 to 4 positional arguments but 5 were given"),
        (lambda: Point(1, z=2), r"unexpected keyword argument 'z'"),
        (lambda: Point(1, x=2), r"multiple values for argument 'x'"),
        (lambda: Tagged(3), r"takes 1 positional argument but 2 were given"),
    ],
)
def test_bad_arguments_are_the_errors_python_gives(make: object, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        make()  # type: ignore[operator]


def test_frozen_as_a_dataclass_is() -> None:
    point = Point(1)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
        point.x = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'y'"):
        del point.y  # type: ignore[misc]
    assert point == Point(1, 0, None)


def test_post_init_uncompared_fields_and_replace() -> None:
    with pytest.raises(ValueError, match="must not be negative"):
        Tagged(value=-1)
    assert Tagged(value=2, note="a") == Tagged(value=2, note="b")
    assert hash(Tagged(value=2, note="a")) == hash(Tagged(value=2))
    assert replace(Point(1, 2), y=5) == Point(1, 5)
    assert copy_replace(Tagged(value=2), note="c").note == "c"
    with pytest.raises(ValueError, match="must not be negative"):
        replace(Tagged(), value=-5)  # validated again, through __init__


def test_records_pickle_and_copy() -> None:
    for made in (Point(1, 2, "é"), Tagged(value=3, note="n")):
        assert pickle.loads(pickle.dumps(made)) == made
        assert copy.deepcopy(made) == made
    assert pickle.loads(pickle.dumps(Tagged(note="n"))).note == "n"


def test_rules_signature_and_replace_are_the_knobs() -> None:
    parameters = inspect.signature(Rules).parameters
    assert tuple(parameters) == (*KNOBS, "name")
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters.values())
    assert parameters["scoop_bonus"].default == 0
    bonus = Rules.preset("pagat-bonus")
    changed = copy_replace(bonus, scoop_bonus=2)
    assert changed == bonus.replace(scoop_bonus=2)
    assert changed.name is None  # a changed knob drops the preset name, as Rules.replace does
    assert copy_replace(bonus, scoop_bonus=0).name == "pagat-bonus"
