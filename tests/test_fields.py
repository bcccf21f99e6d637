"""The field tables per rule set: which table each rule set gets (its own preset's, else the nearest by
the documented distance), what the shipped tables record, and pickling the expected-units model."""

from __future__ import annotations

import hashlib
import json
import pickle
from pathlib import Path

import numpy as np
import pytest
from chinese_poker import Rules, _core, arrange
from chinese_poker.arrange import (
    FIELD_PRESETS,
    _expected_model,
    arrange_batch,
    build_expected_model,
    field_distance,
    field_preset,
    field_tables,
)
from chinese_poker.rules import core_spec


@pytest.mark.parametrize("preset", FIELD_PRESETS)
def test_a_preset_with_tables_gets_its_own(preset: str) -> None:
    assert field_preset(Rules.preset(preset)) == preset
    assert field_preset(preset) == preset
    assert field_distance(Rules.preset(preset), preset) == 0


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("wikipedia-1-6", "pagat", 3.0),  # the scoop bonus
        ("wikipedia-2-4", "pagat", 1.0),  # the overall unit
        ("wikipedia-2-4", "wikipedia-1-6", 4.0),
        # Doubled scoop (3 units more), doubled home run (1), eastern royalties 3+2+8+10+4+5 = 32 (/8 = 4).
        ("shisanzhang-hk", "pagat", 8.0),
        ("shisanzhang-hk", "wikipedia-1-6", 11.0),
    ],
)
def test_distances_between_presets(a: str, b: str, distance: float) -> None:
    assert field_distance(Rules.preset(a), b) == distance
    assert field_distance(Rules.preset(b), a) == distance


@pytest.mark.parametrize(
    ("rules", "preset", "distances"),
    [
        # A scoop bonus of 2: one from 1-6's 3, two from pagat's 0.
        (Rules(scoop_bonus=2), "wikipedia-1-6", (2.0, 3.0, 1.0, 10.0)),
        # Only knobs that do not change a setting's score differ: distance 0 to the preset.
        (
            Rules.preset("wikipedia-2-4").replace(foul_policy="lose_all_rows"),
            "wikipedia-2-4",
            (1.0, 0, 4.0, 9.0),
        ),
        (Rules.preset("shisanzhang-hk").replace(naturals=()), "shisanzhang-hk", (8.0, 9.0, 11.0, 0)),
        # "total" overall basis is valued as 2-4's "two rows".
        (Rules(overall_unit=1, overall_basis="total"), "wikipedia-2-4", (1.0, 0, 4.0, 9.0)),
        # pagat's royalties (23 units) with a doubled scoop: 9 royalty units from eastern's table (/8) and the
        # home run multiplier from shisanzhang-hk; the royalties and the doubled scoop (3) from pagat.
        (
            Rules(royalties="pagat", scoop_multiplier=2),
            "shisanzhang-hk",
            (3 + 23 / 8, 1 + 3 + 23 / 8, 3 + 3 + 23 / 8, 1 + 9 / 8),
        ),
        # A tie (eastern royalties alone: 4 from pagat, 3 + 1 from shisanzhang-hk) goes to the first listed.
        (Rules(royalties="eastern"), "pagat", (4.0, 5.0, 7.0, 4.0)),
    ],
)
def test_custom_rules_get_the_nearest_preset(rules: Rules, preset: str, distances: tuple[float, ...]) -> None:
    assert rules not in [Rules.preset(name) for name in FIELD_PRESETS]
    assert tuple(field_distance(rules, name) for name in FIELD_PRESETS) == pytest.approx(distances)
    assert field_preset(rules) == preset


def test_the_model_of_custom_rules_uses_the_nearest_table() -> None:
    rules = Rules(scoop_bonus=2)
    chosen = _expected_model(rules)
    nearest = build_expected_model(field_tables("wikipedia-1-6"), rules)
    other = build_expected_model(field_tables("pagat"), rules)
    strengths = _core.legal_arrangements(bytes(range(0, 52, 4)), core_spec(rules), True, False)[1]
    values = [
        [_core.expected_units([int(x) for x in s], m) for s in strengths] for m in (chosen, nearest, other)
    ]
    assert values[0] == values[1]
    assert values[0] != values[2]


@pytest.mark.parametrize("preset", FIELD_PRESETS)
def test_shipped_tables_record_how_they_were_made(preset: str) -> None:
    tables = field_tables(preset)
    meta = tables["meta"]
    assert meta["preset"] == preset
    # The rules as written when the tables were made: a knob added since (jokers) reads as its default.
    assert Rules.from_dict(meta["rules"]) == Rules.preset(preset)
    # Stage 1: ten iterations of fictitious play, 100,000 hands per field, seed 13.
    first = meta["resumed_from"]
    assert first["preset"] == preset
    assert (first["seed"], first["hands_per_field"], first["iterations"]) == (13, 100_000, 10)
    assert first["fields_averaged"] == 10
    assert len(first["history"]) == 10
    assert first.get("resumed_from") is None  # a fresh start (the key came with --resume)
    # Stage 2: one field more (100,000 hands, seed 14) by model 10, weighted as the ten before it.
    assert (meta["seed"], meta["hands_per_field"], meta["iterations"]) == (14, 100_000, 2)
    assert meta["new_field_weight"] == 10
    assert meta["fields_averaged"] == 20
    assert [record["weights"] for record in meta["history"]] == [[10.0], [10.0, 10.0]]
    for row, classes in (("front", 455), ("middle", 7462), ("back", 7462)):
        assert tables[f"{row}_strengths"].shape == (classes,)
        assert tables[f"{row}_prob"].sum() == pytest.approx(1.0)
        # Half the average of ten fields of 100,000 hands, half one such field: every probability is
        # a multiple of 1 / 2,000,000.
        counts = tables[f"{row}_prob"] * 2_000_000
        assert np.abs(counts - np.round(counts)).max() < 1e-6


def test_tables_differ_by_rule_set() -> None:
    backs = [field_tables(preset)["back_prob"] for preset in FIELD_PRESETS]
    for i in range(len(backs)):
        for j in range(i + 1, len(backs)):
            assert not np.array_equal(backs[i], backs[j])


def test_unknown_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="no field tables for 'maubinh'"):
        field_tables("maubinh")


@pytest.mark.parametrize("preset", FIELD_PRESETS)
@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_the_model_pickles(preset: str, protocol: int) -> None:
    rules = Rules.preset(preset)
    model = _expected_model(rules)
    loaded = pickle.loads(pickle.dumps(model, protocol))
    assert loaded.wheel == model.wheel
    rng = np.random.default_rng(len(preset))
    hands = np.argsort(rng.random((60, 52)), axis=1)[:, :13].astype(np.uint8)
    assert np.array_equal(arrange_batch(hands, rules, model=loaded), arrange_batch(hands, rules, model=model))
    assert np.array_equal(arrange_batch(hands, rules, model=loaded), arrange_batch(hands, rules))
    cards = hands[0].tobytes()
    spec = core_spec(rules)
    per_opponent = _core.arrange_hand(cards, spec, loaded, True).expected_units
    assert per_opponent * 3 == pytest.approx(arrange(hands[0], rules).expected_units, abs=1e-12)


def test_a_bad_model_state_is_refused() -> None:
    state = _expected_model(Rules.preset("wikipedia-2-4")).__getstate__()
    wheel, rows, *terms = state
    with pytest.raises(ValueError, match="unknown wheel"):
        _core.ExpectedModel.__new__(_core.ExpectedModel).__setstate__((7, rows, *terms))
    short = list(rows)
    short[1] = (rows[1][0], rows[1][1][:-1], *rows[1][2:])
    with pytest.raises(ValueError, match="middle"):
        _core.ExpectedModel.__new__(_core.ExpectedModel).__setstate__((wheel, short, *terms))
    *pair_terms, sample, top = terms
    uneven = (sample[0], sample[1][:-1], sample[2])
    with pytest.raises(ValueError, match="sample: the rows differ in length"):
        _core.ExpectedModel.__new__(_core.ExpectedModel).__setstate__((wheel, rows, *pair_terms, uneven, top))
    beyond = (sample[0], [7462] * len(sample[1]), sample[2])
    with pytest.raises(ValueError, match="sample: a class index is out of range"):
        _core.ExpectedModel.__new__(_core.ExpectedModel).__setstate__((wheel, rows, *pair_terms, beyond, top))
    with pytest.raises(ValueError, match="top: not 0 to 8"):
        _core.ExpectedModel.__new__(_core.ExpectedModel).__setstate__((wheel, rows, *pair_terms, sample, 9))
    with pytest.raises(ValueError, match="not an 8-tuple"):
        _core.ExpectedModel.__new__(_core.ExpectedModel).__setstate__((wheel, rows))


def test_the_frozen_baseline_is_the_earlier_single_pagat_table() -> None:
    # bench/bench_duplicate.py plays against it: it must never change (sha-256 of the file as shipped
    # before the tables were made per rule set).
    path = Path(__file__).resolve().parent.parent / "bench" / "data" / "field_rows_baseline.npz"
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert digest == "d9fc85b1eee920e9086e8f809c3b0745f598dbc1a03a6799655a649bf2af53e5"
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        baseline = {key: data[key] for key in data.files if key != "meta"}
    assert meta["hands_per_field"] == 200_000
    assert meta["chosen_iteration"] == 6
    assert not np.array_equal(baseline["back_prob"], field_tables("pagat")["back_prob"])
