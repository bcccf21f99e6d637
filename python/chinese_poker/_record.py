"""Frozen records for the modules every command imports, without the ``dataclasses`` module.

``@record`` makes a class a frozen record as ``@dataclass(frozen=True)`` would: an ``__init__`` taking the
annotated fields in order (keywords only with ``kw_only=True``), each with its class-level default if it has
one, then ``__post_init__`` if the class defines it; equality and a hash over the compared fields (all but
``uncompared``); a ``repr`` and ``copy.replace`` support (each unless the class defines its own); and
assignment refused with ``dataclasses.FrozenInstanceError``. Type checkers read it as a dataclass
(``dataclass_transform``).

Why not ``dataclasses``: importing it imports ``inspect`` (with ``ast``, ``dis`` and ``tokenize``), and it
compiles each class's methods from source. Together that was about a quarter of a command's start-up, which is
most of the time a command takes on a small file. Modules that no command imports use ``dataclasses``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

__all__ = ["field_names", "record", "replace"]

_Class = TypeVar("_Class", bound=type)
_Record = TypeVar("_Record")

# What a record class gets even when it defines its own (the others it may define: hash, repr, replace).
_ALWAYS_MADE = frozenset({"__init__", "__eq__", "__setattr__", "__delattr__"})

# The attribute holding a record class's field names, in order.
_FIELDS = "__record_fields__"


@dataclass_transform(kw_only_default=False, frozen_default=True)
def record(*, kw_only: bool = False, uncompared: tuple[str, ...] = ()) -> Callable[[_Class], _Class]:
    """The class decorator: ``@record()`` or ``@record(kw_only=True, uncompared=("name",))``."""

    def build(cls: _Class) -> _Class:
        # The class's own annotations (strings, the modules using records importing annotations from
        # __future__), read as the language guarantees since Python 3.10: the class's __dict__ holds them
        # no longer from 3.14, and inspect.get_annotations would cost its import.
        annotations: dict[str, object] = dict(cls.__annotations__)
        names = tuple(annotations)
        defaults = {name: cls.__dict__[name] for name in names if name in cls.__dict__}
        compared = tuple(name for name in names if name not in uncompared)
        made: dict[str, Callable[..., Any]] = {
            "__init__": _make_init(cls, annotations, defaults, kw_only),
            "__eq__": _make_eq(compared),
            "__hash__": _make_hash(compared),
            "__repr__": _make_repr(names),
        }
        for name, method in made.items():
            method.__name__ = name
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            method.__module__ = cls.__module__
        shared = {"__setattr__": _refuse_assignment, "__delattr__": _refuse_deletion, "__replace__": replace}
        attributes: dict[str, object] = {_FIELDS: names, "__match_args__": () if kw_only else names}
        attributes.update(
            (name, method)
            for name, method in (made | shared).items()
            if name in _ALWAYS_MADE or name not in cls.__dict__
        )
        for name, value in attributes.items():
            setattr(cls, name, value)  # through setattr: type checkers refuse assigning to a method
        return cls

    return build


def field_names(record_or_class: object) -> tuple[str, ...]:
    """The fields of a record (or record class), in order."""
    names: tuple[str, ...] = getattr(record_or_class, _FIELDS)
    return names


def replace(instance: _Record, /, **changes: Any) -> _Record:
    """A copy of ``instance`` with ``changes``, made through its ``__init__`` (so validated again), as
    ``dataclasses.replace`` does."""
    values = {name: getattr(instance, name) for name in field_names(instance)}
    values.update(changes)
    made: _Record = type(instance)(**values)
    return made


def _make_init(
    cls: type, annotations: dict[str, object], defaults: dict[str, Any], kw_only: bool
) -> Callable[..., None]:
    names = tuple(annotations)
    # Compiled from the field names (identifiers, as annotations are), so that the signature is the real
    # one (help() and inspect.signature show every field) and Python itself reports a missing, unknown or
    # doubled argument.
    parameters = ", ".join(f"{name}=_default_{name}" if name in defaults else name for name in names)
    lines = [f"    _set(self, {name!r}, {name})" for name in names]
    if hasattr(cls, "__post_init__"):
        lines.append("    self.__post_init__()")
    star = "*, " if kw_only and names else ""
    source = f"def __init__(self, {star}{parameters}):\n" + "\n".join(lines or ["    pass"]) + "\n"
    namespace: dict[str, Any] = {f"_default_{name}": value for name, value in defaults.items()}
    namespace["_set"] = object.__setattr__
    exec(source, namespace)
    init: Callable[..., None] = namespace["__init__"]
    init.__code__ = init.__code__.replace(co_qualname=f"{cls.__qualname__}.__init__")
    init.__annotations__ = dict(annotations)
    return init


def _make_eq(compared: tuple[str, ...]) -> Callable[[Any, object], object]:
    def _eq(self: Any, other: object) -> object:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(bool(getattr(self, name) == getattr(other, name)) for name in compared)

    return _eq


def _make_hash(compared: tuple[str, ...]) -> Callable[[Any], int]:
    def _hash(self: Any) -> int:
        return hash(tuple(getattr(self, name) for name in compared))

    return _hash


def _make_repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    def _repr(self: Any) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{type(self).__qualname__}({fields})"

    return _repr


def _frozen_error(name: str) -> AttributeError:
    # The error a frozen dataclass raises, so that code catching it keeps working; dataclasses is imported
    # only on this path.
    from dataclasses import FrozenInstanceError  # noqa: PLC0415

    return FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_assignment(_self: Any, name: str, _value: Any) -> None:
    raise _frozen_error(name)


def _refuse_deletion(_self: Any, name: str) -> None:
    raise _frozen_error(name)


def __dir__() -> list[str]:
    return list(__all__)
