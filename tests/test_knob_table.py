"""The knob table is the one description of every knob: Rules, the Python vocabulary, the core's RulesSpec,
help(Rules), the command line and docs/RULES.md's table of every knob all agree with it."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import numpy as np
import pytest
from chinese_poker import _core
from chinese_poker.knobs import BOOL_KNOBS, CHOICES, DEFAULTS, INT_RANGES, KNOB_GROUPS, KNOB_TABLE
from chinese_poker.rules import KNOBS, Rules
from knob_draws import draw_knobs

RULES_MD = Path(__file__).resolve().parents[1] / "docs" / "RULES.md"
KINDS = {"flag", "enum", "bool", "int", "table"}


def test_every_rules_knob_is_a_row_in_table_order() -> None:
    assert tuple(knob.name for knob in KNOB_TABLE) == KNOBS
    assert _core.RulesSpec.KNOBS == KNOBS
    assert len(set(KNOBS)) == len(KNOBS)
    for knob in KNOB_TABLE:
        assert knob.kind in KINDS, knob.name
        assert knob.group in KNOB_GROUPS, knob.name
        assert knob.description, knob.name
        assert knob.section, knob.name
        assert knob.member, knob.name
        if knob.kind in ("flag", "enum"):
            assert len(knob.values) == (2 if knob.kind == "flag" else len(knob.values)) >= 2, knob.name
        if knob.kind == "int":
            assert knob.low is not None, knob.name
            assert knob.high is not None, knob.name
            assert knob.low <= knob.high, knob.name


def test_rules_literals_are_the_table_values() -> None:
    hints = typing.get_type_hints(Rules)
    for knob in KNOB_TABLE:
        if knob.kind in ("flag", "enum") or knob.name == "suit_order":
            assert typing.get_args(hints[knob.name]) == knob.values, knob.name
    assert set(CHOICES) == {knob.name for knob in KNOB_TABLE if knob.values}


def test_rules_defaults_are_the_table_defaults() -> None:
    rules = Rules()
    for knob in KNOB_TABLE:
        assert getattr(rules, knob.name) == DEFAULTS[knob.name], knob.name
        # The stored default is what Rules makes of it.
        assert getattr(Rules(**{knob.name: knob.default}), knob.name) == knob.default, knob.name
    assert Rules() == Rules.preset("pagat")


@pytest.mark.parametrize("knob", [knob for knob in KNOB_TABLE if knob.kind == "int"], ids=lambda k: k.name)
def test_rules_accepts_exactly_the_table_range(knob: typing.Any) -> None:
    assert INT_RANGES[knob.name] == (knob.low, knob.high)
    # jokers needs no other knob; every int knob takes its ends and refuses one past each.
    assert getattr(Rules(**{knob.name: knob.low}), knob.name) == knob.low
    assert getattr(Rules(**{knob.name: knob.high}), knob.name) == knob.high
    for bad in (knob.low - 1, knob.high + 1):
        with pytest.raises(ValueError, match=f"rules knob '{knob.name}'"):
            Rules(**{knob.name: bad})


def test_flags_and_bools_are_the_table_kinds() -> None:
    assert {knob.name for knob in KNOB_TABLE if knob.kind == "bool"} == set(BOOL_KNOBS)
    hints = typing.get_type_hints(Rules)
    for name in BOOL_KNOBS:
        assert hints[name] is bool, name
    for knob in KNOB_TABLE:
        if knob.kind == "int":
            assert hints[knob.name] is int, knob.name


def test_help_of_rules_describes_every_knob() -> None:
    doc = " ".join((Rules.__doc__ or "").split())
    for knob in KNOB_TABLE:
        assert f"``{knob.name}``: {' '.join(knob.description.split())}" in doc, knob.name
        assert f"RULES.md {knob.section}." in doc, knob.name


def _rules_md_knob_rows() -> dict[str, tuple[str, str, str]]:
    text = RULES_MD.read_text(encoding="utf-8")
    table = text[text.index("### Every knob") : text.index("### The presets")]
    rows: dict[str, tuple[str, str, str]] = {}
    for line in table.splitlines():
        found = re.match(r"\| `(\w+)` \| (.*?) \| (.*?) \| (.*?) \|$", line)
        if found:
            rows[found[1]] = (found[2], found[3], found[4])
    return rows


def test_the_rules_reference_lists_every_knob_as_the_table_does() -> None:
    rows = _rules_md_knob_rows()
    assert tuple(rows) == KNOBS, "docs/RULES.md's table of every knob lists the knobs in the table's order"
    for knob in KNOB_TABLE:
        sections, values, default = rows[knob.name]
        assert knob.section in re.findall(r"\[([\d.]+)\]", sections), knob.name
        if knob.kind in ("flag", "enum"):
            assert tuple(re.findall(r'`"(\w+)"`', values)) == knob.values, knob.name
            assert default == f'`"{knob.default}"`', knob.name
        elif knob.kind == "bool":
            assert (values, default) == ("bool", str(knob.default).lower()), knob.name
        elif knob.kind == "int":
            numbers = [int(n) for n in re.findall(r"\d+", values)]
            assert (min(numbers), max(numbers)) == (knob.low, knob.high), knob.name
            assert default == str(knob.default), knob.name


def test_the_core_refuses_what_the_table_refuses() -> None:
    spec = _core.RulesSpec()
    for knob in KNOB_TABLE:
        if knob.kind == "int":
            assert knob.high is not None
            with pytest.raises(ValueError, match=knob.name):
                setattr(spec, knob.name, knob.high + 1)
        elif knob.kind in ("flag", "enum"):
            with pytest.raises(ValueError, match=knob.name):
                setattr(spec, knob.name, "no such value")
        elif knob.kind == "bool":
            with pytest.raises(ValueError, match=knob.name):
                setattr(spec, knob.name, 1)


def test_the_random_rule_sets_vary_every_knob() -> None:
    # The fuzz and the property tests draw their rule sets with draw_knobs: over a few hundred draws every
    # knob of the table takes several values, each enum-like knob every value, each int knob both ends.
    rng = np.random.default_rng(2026)
    seen: dict[str, set[str]] = {knob.name: set() for knob in KNOB_TABLE}
    for _ in range(600):
        knobs = draw_knobs(lambda options: options[int(rng.integers(len(options)))])
        assert set(knobs) == set(KNOBS)
        rules = Rules(**knobs)
        for knob in KNOB_TABLE:
            seen[knob.name].add(repr(getattr(rules, knob.name)))
    for knob in KNOB_TABLE:
        assert len(seen[knob.name]) >= 2, knob.name
        if knob.kind in ("flag", "enum"):
            assert {repr(value) for value in knob.values} <= seen[knob.name], knob.name
        if knob.kind == "int":
            assert {repr(knob.low), repr(knob.high)} <= seen[knob.name], knob.name
