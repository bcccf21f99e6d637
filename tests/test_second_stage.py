"""The second stage of the "expected" strategy: the model's best few distinct settings re-scored against the
stored field sample, checked against a plain re-implementation of docs/ARRANGING.md's description (every
legal setting listed and valued in Python, the sample scored with numpy integers), and the shipped
samples' provenance."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from chinese_poker import Rules, _core, arrange, arrangements
from chinese_poker.advice import distinct_key, suggest
from chinese_poker.arrange import (
    FIELD_PRESETS,
    SECOND_STAGE_TOP,
    _expected_model,
    arrange_batch,
    build_expected_model,
    field_preset,
    field_sample,
    field_tables,
    uses_second_stage,
)
from chinese_poker.rules import core_spec
from hypothesis import given, settings
from hypothesis import strategies as st

MARGIN = 0.2  # docs/ARRANGING.md: settings further below the model's best are not re-scored

hands13 = st.permutations(range(52)).map(lambda deck: tuple(deck[:13]))


def sample_totals(candidates: np.ndarray, sample: np.ndarray, rules: Rules) -> np.ndarray:
    """Total units of each candidate ((K, 3) row strengths) over every sampled setting ((M, 3)), as whole
    numbers, for rules without royalties: rows won and lost, the overall unit on two rows, the scoop bonus
    and what a scoop multiplier adds; equal rows push."""
    won = (candidates[:, None, :] > sample[None, :, :]).sum(axis=2)
    lost = (candidates[:, None, :] < sample[None, :, :]).sum(axis=2)
    scoop_units = rules.scoop_bonus + (rules.scoop_multiplier - 1) * (
        3 + rules.overall_unit + rules.scoop_bonus
    )
    per_opponent = (
        won
        - lost
        + rules.overall_unit * ((won >= 2).astype(np.int64) - (lost >= 2))
        + scoop_units * ((won == 3).astype(np.int64) - (lost == 3))
    )
    totals: np.ndarray = per_opponent.sum(axis=1)
    return totals


def second_stage_choice(cards: tuple[int, ...], rules: Rules) -> tuple[int, int, int]:
    """The row strengths "expected" plays, found the long way."""
    preset = field_preset(rules)
    model = build_expected_model(field_tables(preset), rules)  # the model alone
    _, strengths = arrangements(cards, rules, with_strengths=True)
    values = np.array([_core.expected_units([int(x) for x in s], model) for s in strengths])
    # Best first: the model's value, then the stronger back, middle, front.
    order = np.lexsort((-strengths[:, 0], -strengths[:, 1], -strengths[:, 2], -values))
    together = rules.overall_unit != 0 or rules.scoop_bonus != 0 or rules.scoop_multiplier != 1
    assert uses_second_stage(rules) == together
    if not together:  # rows scored alone: the model's best
        return (int(strengths[order[0], 0]), int(strengths[order[0], 1]), int(strengths[order[0], 2]))
    keys = distinct_key(strengths[order])
    _, first_of_key = np.unique(keys, return_index=True)
    few = [int(order[p]) for p in np.sort(first_of_key)[:SECOND_STAGE_TOP]]
    best_value = values[few[0]]
    few = [i for i in few if values[i] >= best_value - MARGIN]
    kept: list[int] = []
    for i in few:
        if not any((strengths[j] >= strengths[i]).all() for j in kept):
            kept.append(i)
    sample = np.stack(
        [field_sample(preset)[f"{row}_strengths"] for row in ("front", "middle", "back")], axis=1
    )
    totals = sample_totals(strengths[kept].astype(np.int64), sample.astype(np.int64), rules)
    pick = kept[int(np.argmax(totals))]  # the first of the greatest
    if pick != few[0]:
        # The best by the model of the settings that match or beat the pick in every row.
        dominating = [i for i in range(len(strengths)) if (strengths[i] >= strengths[pick]).all()]
        pick = min(dominating, key=lambda i: list(order).index(i))
    return (int(strengths[pick, 0]), int(strengths[pick, 1]), int(strengths[pick, 2]))


# Rule sets without royalties under the "low" wheel (the sample is stored in that encoding), with their
# scoring knobs varied: each keeps its own preset's field.
plain_rules = st.builds(
    lambda preset, overall, bonus, multiplier: Rules.preset(preset).replace(
        overall_unit=overall, scoop_bonus=bonus, scoop_multiplier=multiplier
    ),
    st.sampled_from(["pagat", "wikipedia-2-4", "wikipedia-1-6"]),
    st.integers(0, 2),
    st.integers(0, 6),
    st.integers(1, 3),
)


@settings(max_examples=40, deadline=None)
@given(
    cards=hands13,
    rules=st.one_of(
        st.sampled_from(["pagat", "wikipedia-2-4", "wikipedia-1-6"]).map(Rules.preset), plain_rules
    ),
)
def test_the_second_stage_plays_what_its_description_says(cards, rules) -> None:
    chosen = arrange(cards, rules, "expected")
    assert chosen.strengths == second_stage_choice(cards, rules)
    batch = arrange_batch(np.array([cards], dtype=np.uint8), rules)
    assert sorted(batch[0].tolist()) == sorted(cards)


def test_the_second_stage_changes_some_choices_and_reports_the_models_value() -> None:
    rules = Rules.preset("wikipedia-2-4")
    rng = np.random.default_rng(5)
    hands = np.argsort(rng.random((400, 52)), axis=1)[:, :13].astype(np.uint8)
    model_alone = build_expected_model(field_tables("wikipedia-2-4"), rules)
    staged = _expected_model(rules)
    assert staged.top == SECOND_STAGE_TOP
    assert staged.sample_size == 20_000
    assert model_alone.top == 0
    first, first_ev = _core.arrange_batch(hands, core_spec(rules), model_alone, 1)
    second, second_ev = _core.arrange_batch(hands, core_spec(rules), staged, 2)
    changed = (first != second).any(axis=1)
    # About 8% of hands change (docs/ARRANGING.md); the value reported is the model's, never above its best
    # and within the margin of it.
    assert 10 <= changed.sum() <= 80
    assert np.array_equal(first_ev[~changed], second_ev[~changed])
    assert (second_ev[changed] < first_ev[changed]).all()
    assert (second_ev >= first_ev - MARGIN).all()
    for hand, ev in zip(second[changed][:10], second_ev[changed][:10], strict=True):
        value = _core.expected_units(list(arrange(hand, rules).strengths), model_alone)
        assert value == ev


def test_the_second_stage_gives_the_same_settings_for_any_thread_count_and_chunking() -> None:
    rules = Rules.preset("shisanzhang-hk")
    rng = np.random.default_rng(9)
    hands = np.argsort(rng.random((600, 52)), axis=1)[:, :13].astype(np.uint8)
    one = arrange_batch(hands, rules, threads=1)
    assert np.array_equal(arrange_batch(hands, rules, threads=2), one)
    assert np.array_equal(
        np.concatenate([arrange_batch(hands[:7], rules), arrange_batch(hands[7:], rules)]), one
    )
    reversed_cards = np.ascontiguousarray(hands[:, ::-1])
    assert np.array_equal(arrange_batch(reversed_cards, rules, threads=2), one)


def test_suggest_puts_the_played_setting_first() -> None:
    rules = Rules.preset("wikipedia-2-4")
    model_alone = build_expected_model(field_tables("wikipedia-2-4"), rules)
    rng = np.random.default_rng(6)
    hands = np.argsort(rng.random((300, 52)), axis=1)[:, :13].astype(np.uint8)
    first, _ = _core.arrange_batch(hands, core_spec(rules), model_alone, 1)
    moved = np.flatnonzero((first != arrange_batch(hands, rules)).any(axis=1))
    assert len(moved) > 0
    for index in moved[:5]:
        cards = hands[index].tolist()
        played = arrange(cards, rules)
        found = suggest(cards, rules, k=4)
        assert found[0].hand == played.hand
        assert found[0].expected_units == played.expected_units
        # The model's own best is among the others, with a greater value.
        model_best = _core.arrange_hand(bytes(cards), core_spec(rules), model_alone, True).strengths
        assert model_best in [s.strengths for s in found[1:]]


def test_rules_that_score_rows_alone_play_the_models_best() -> None:
    rules = Rules.preset("pagat")
    assert not uses_second_stage(rules)
    assert _expected_model(rules).top == 0
    assert _expected_model(rules.replace(scoop_bonus=1)).top == SECOND_STAGE_TOP
    assert _expected_model(Rules.preset("wikipedia-1-6")).sample_size == 20_000


def test_a_model_with_a_second_stage_pickles_with_it() -> None:
    rules = Rules.preset("shisanzhang-hk")
    model = _expected_model(rules)
    loaded = pickle.loads(pickle.dumps(model))
    assert loaded.top == model.top == SECOND_STAGE_TOP
    assert loaded.sample_size == model.sample_size
    rng = np.random.default_rng(8)
    hands = np.argsort(rng.random((200, 52)), axis=1)[:, :13].astype(np.uint8)
    assert np.array_equal(arrange_batch(hands, rules, model=loaded), arrange_batch(hands, rules))


@pytest.mark.parametrize("preset", FIELD_PRESETS)
def test_shipped_samples_record_how_they_were_made(preset: str) -> None:
    sample = field_sample(preset)
    meta = sample["meta"]
    assert meta["preset"] == preset
    assert meta["settings"] == 20_000
    assert meta["seed"] == 15
    rows = [sample[f"{row}_strengths"] for row in ("front", "middle", "back")]
    assert all(r.dtype == np.uint32 and r.shape == (20_000,) for r in rows)
    # Every sampled setting is legal (back >= middle >= front; strengths of one encoding), and played by the
    # model of the preset: the field's fronts are not its strongest possible rows.
    assert (rows[2] >= rows[1]).all()
    assert (rows[1] > rows[0]).all()


@pytest.mark.parametrize(
    ("sample", "top", "error", "message"),
    [
        (
            {"front_strengths": [1], "middle_strengths": [], "back_strengths": []},
            4,
            ValueError,
            "differ in length",
        ),
        (
            {"front_strengths": [5], "middle_strengths": [5], "back_strengths": [5]},
            4,
            ValueError,
            "not one of",
        ),
        (None, 9, ValueError, "top must be an integer in 2..8"),
        (None, 1, ValueError, "top must be an integer in 2..8"),
        (None, True, ValueError, "top must be an integer in 2..8"),
    ],
)
def test_a_bad_sample_is_refused(sample, top, error, message) -> None:
    rules = Rules.preset("pagat")
    with pytest.raises(error, match=message):
        build_expected_model(field_tables("pagat"), rules, sample=sample or field_sample("pagat"), top=top)
