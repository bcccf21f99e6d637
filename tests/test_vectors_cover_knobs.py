"""Conformance vectors exercise every knob: the presets and two rule sets of this file together give every
knob a value other than its default (every value of each enum-like knob but the 24 suit orders, every
natural kind, rank-keyed royalties), and the vectors made under each of them verify against the engine
and agree with the pure-Python reference round by round. A knob added without a vector that uses it fails
here."""

from __future__ import annotations

from typing import Any

import pytest
from chinese_poker import Rules
from chinese_poker import reference as ref
from chinese_poker.formats.rounds import parse_round
from chinese_poker.formats.vectors import generate_vectors
from chinese_poker.formats.verify import compare_outputs
from chinese_poker.knobs import CHOICES, NATURAL_NAMES
from chinese_poker.presets import PRESET_NAMES
from chinese_poker.rules import KNOBS

# What the presets leave at their defaults, set here (each set must be a valid table of rules).
CUSTOM_RULES: dict[str, dict[str, Any]] = {
    "custom-naturals-and-suits": {
        "preset": "shisanzhang-hk",
        "suit_tiebreak": "by_card",
        "suit_order": "scdh",
        "middle_vs_back": "strict",
        "overall_unit": 1,
        "overall_basis": "total",
        "royalty_cancel": True,
        "foul_policy": "as_laid",
        "natural_tiebreak": "top_pair_only",
        "natural_vs_natural": "by_units",
        "natural_units_mode": "as_home_run",
        "home_run_bonus": 2,
        "row_base": [1, 2, 3],
        "ace_units": 1,
        "surrender_units": 2,
        "false_declaration_units": 3,
        "three_flushes_distinct_suits": True,
        "three_straights_wheel": False,
        "three_straights_front_qka": False,
        "quads_as_trips": False,
        "horse_card": "Kd",
        "horse_multiplier": 3,
        "naturals": [
            ["one_red", 2],
            ["one_black", 2],
            ["five_consecutive_pairs", 3],
            ["two_trips_three_pairs", 4],
            ["twelve_royals_ten", 5],
            ["six_pairs", 3],
            ["three_flushes", 3],
            ["three_straights", 3],
            ["four_trips", 6],
            ["three_straight_flushes", 8],
            ["dragon", 13],
        ],
    },
    "custom-open-and-pushes": {
        "preset": "pagat-bonus",
        "natural_declaration": "auto",
        "natural_tiebreak": "none",
        "natural_vs_natural": "push",
        "home_run_counts_naturals": True,
        "foul_counts_for_home_run": True,
        "royalty_mode": "add",
        "royalty_condition": "always",
        "fantasyland": "progressive",
        "ofc_variant": "pineapple",
        "foul_pays_royalties": False,
        "royalties_in_multiplier": True,
        "scoop_multiplier": 2,
        "home_run_multiplier": 3,
        "home_run_min_opponents": 2,
    },
}

RULE_SETS: dict[str, Rules] = {name: Rules.preset(name) for name in PRESET_NAMES} | {
    name: Rules.from_dict(table) for name, table in CUSTOM_RULES.items()
}


def test_every_knob_and_value_is_exercised() -> None:
    default = Rules()
    missing = []
    for knob in KNOBS:
        values = {getattr(rules, knob) for rules in RULE_SETS.values()}
        if knob in CHOICES and len(CHOICES[knob]) <= 6:
            missing += [f"{knob}={v}" for v in CHOICES[knob] if v not in values]
        elif values == {getattr(default, knob)}:
            missing.append(knob)
    kinds = {name for rules in RULE_SETS.values() for name, _ in rules.naturals}
    missing += [f"natural {kind}" for kind in NATURAL_NAMES if kind not in kinds]
    keys = {key for rules in RULE_SETS.values() for row in rules.royalty_table.values() for key in row}
    missing += [key for key in ("royal_flush", "wheel_straight_flush") if key not in keys]
    if not any("@" in key for key in keys):
        missing.append("a rank-keyed royalty")
    assert missing == []


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_vectors_verify_and_agree_with_the_reference(name: str) -> None:
    rules = RULE_SETS[name]
    vectors = list(generate_vectors(rules, 60, seed=9))
    tags = {tag for vector in vectors for tag in vector.get("tags", [])}
    if rules.ace_basis != "table":
        assert "banker" in tags
    assert (
        compare_outputs([v["expected"] for v in vectors], [v["expected"] for v in vectors], strict=True) == []
    )
    for vector in vectors:
        # An edge case may name rules of its own (the RULES.md examples): the round's rules, as its output.
        rnd = parse_round({k: v for k, v in vector.items() if k != "expected"})
        # A declared hand holding both jokers: the reference tries all 52 x 52 substitutions, each with its
        # search over the splits for the three-straights kinds, about a minute a hand; such hands are
        # compared with the reference by the property tests of test_settle.py (without those kinds).
        if any(h.is_declared and sum(c >= 52 for c in h.cards) == 2 for h in rnd.hands):
            continue
        players = [
            {"declared": list(h.cards)}
            if h.is_declared
            else {"front": list(h.front), "middle": list(h.middle), "back": list(h.back)}
            for h in rnd.hands
        ]
        theirs = ref.settle(
            players, rnd.rules.resolved(),
            stakes=None if rnd.stakes is None else [list(row) for row in rnd.stakes],
            surrender=None if rnd.surrender is None else list(rnd.surrender),
            banker=rnd.banker, bets=None if rnd.bets is None else list(rnd.bets),
            fantasyland=None if rnd.fantasyland is None else list(rnd.fantasyland),
        )  # fmt: skip
        assert theirs["net"] == vector["expected"]["net"], vector["id"]
        for pair, expected in zip(vector["expected"]["pairs"], theirs["pairs"]):
            assert pair["units"] == expected["units"], vector["id"]
