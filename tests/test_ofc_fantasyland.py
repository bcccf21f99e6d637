"""The exact fantasyland solver (RULES.md 4.3) against brute force over every 13-card setting.

The brute force is the pure-Python reference (chinese_poker.reference.fantasyland): it tries every front,
middle and back of distinct cards of a 14-card hand. Hands of 15 to 17 cards are checked by the identity
"the best of K cards is the best over the K hands of K - 1 cards", down to 14 cards, which the brute force
checks; and a few worked examples fix values by hand.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from chinese_poker.cards import parse_cards
from chinese_poker.ofc import Setting, fantasyland, fantasyland_batch, stay_value_of
from chinese_poker.reference.fantasyland import best_setting
from chinese_poker.rules import Rules


def _rich_hand(rng: random.Random, count: int, jokers: int = 0) -> list[int]:
    """A hand drawn from few ranks, so trips, full houses and quads (the stay rule) are common."""
    ranks = rng.sample(range(13), 6)
    pool = [4 * r + s for r in ranks for s in range(4)] + [c for c in range(52) if c // 4 not in ranks][:8]
    hand = rng.sample(pool, count - jokers)
    return hand + [52 + k for k in range(jokers)]


def _codes(setting: Setting) -> tuple[tuple[int, ...], ...]:
    return tuple(parse_cards(row, jokers=2) for row in (setting.front, setting.middle, setting.back))


def _check_against_brute_force(cards: list[int], rules: Rules, stay_value: float) -> Setting:
    theirs = best_setting(cards, rules.resolved(), stay_value)
    ours = fantasyland(cards, rules, stay_value)
    assert ours.value == pytest.approx(theirs[0], abs=1e-9)
    assert (ours.strengths[2], ours.strengths[1], ours.strengths[0]) == theirs[1]
    assert ours.royalties == theirs[3]
    assert ours.stays == theirs[4]
    placed = sorted(c for row in _codes(ours) for c in row) + sorted(parse_cards(ours.discards, jokers=2))
    assert sorted(placed) == sorted(cards)
    return ours


@pytest.mark.parametrize("seed", range(3))
def test_random_hands_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    _check_against_brute_force(rng.sample(range(52), 14), Rules.preset("ofc"), 10.0)


@pytest.mark.parametrize(("seed", "stay_value"), [(10, 0.0), (11, 15.0), (12, 60.0)])
def test_rich_hands_match_brute_force(seed: int, stay_value: float) -> None:
    rng = random.Random(seed)
    _check_against_brute_force(_rich_hand(rng, 14), Rules.preset("ofc"), stay_value)


def test_joker_hand_matches_brute_force() -> None:
    rules = Rules.preset("ofc").replace(jokers=1)
    setting = _check_against_brute_force(_rich_hand(random.Random(20), 14, jokers=1), rules, 12.0)
    assert "X1" in setting.front + setting.middle + setting.back + setting.discards


def test_strict_middle_and_fantasyland_off_match_brute_force() -> None:
    rng = random.Random(30)
    rules = Rules.preset("ofc").replace(middle_vs_back="strict", fantasyland="off")
    setting = _check_against_brute_force(_rich_hand(rng, 14), rules, 25.0)
    assert not setting.stays


@pytest.mark.parametrize("count", [15, 16, 17])
def test_more_cards_is_the_best_over_one_card_less(count: int) -> None:
    rng = random.Random(count)
    rules = Rules.preset("ofc")
    for hand in (rng.sample(range(52), count), _rich_hand(rng, count)):
        best = fantasyland(hand, rules, 8.0)
        dropped = [fantasyland(hand[:k] + hand[k + 1 :], rules, 8.0) for k in range(count)]
        top = max(dropped, key=lambda s: (s.value, s.strengths[2], s.strengths[1], s.strengths[0]))
        assert (best.value, best.strengths) == (top.value, top.strengths)
        assert len(best.discards) == count - 13


def test_worked_example() -> None:
    # The best board: a straight flush back Qc-8c (15), a full house KKK-QQ middle (12), trips AAA in
    # front (22): 49 units of royalties, and the board stays in fantasyland (+10), discarding the 2d.
    cards = "As Ah Ad Kc Kd Kh Qs Qh 9c Tc Jc Qc 8c 2d"
    setting = fantasyland(cards, "ofc", 10.0)
    assert sorted(setting.front) == ["Ad", "Ah", "As"]
    assert setting.royalties == (22, 12, 15)
    assert setting.stays
    assert setting.value == 59.0
    assert setting.discards == ("2d",)


def test_batch_equals_single_for_any_thread_count() -> None:
    rng = random.Random(40)
    hands = np.array([rng.sample(range(52), 15) for _ in range(24)], dtype=np.uint8)
    one = fantasyland_batch(hands, "ofc", 5.0, threads=1)
    two = fantasyland_batch(hands, "ofc", 5.0, threads=2)
    for name in one:
        assert np.array_equal(one[name], two[name])
    for k in (0, 7, 23):
        single = fantasyland(hands[k].tolist(), "ofc", 5.0)
        assert single.royalties == tuple(one["royalties"][k])
        assert single.value == one["value"][k]
        assert single.strengths == tuple(one["strengths"][k])


def test_default_stay_value_is_the_mean_fantasyland_royalty() -> None:
    value = stay_value_of("ofc")
    assert value == pytest.approx(12.352, abs=1e-9)  # 12352 units of royalties over the 1000 hands
    assert stay_value_of(Rules.preset("ofc").replace(fantasyland="off")) == 0.0
    cards = "2c 3d 4h 5s 7c 8d 9h Ts Qc Kd Ah 2s 3s 6h"
    assert fantasyland(cards).value == fantasyland(cards, "ofc", value).value


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("As Kd Qh Jc Tc 9c 8c 7c 6c 5c 4c 3c 2c", "14 to 17 cards, got 13"),
        ("As Kd Qh Jc Tc 9c 8c 7c 6c 5c 4c 3c 2c 2d 2h 2s As", "As"),
        ("As Kd Qh Jc Tc 9c 8c 7c 6c 5c 4c 3c 2c X1", "X1"),
    ],
)
def test_bad_hands_are_value_errors(cards: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fantasyland(cards, "ofc")


def test_bad_stay_values_and_batches() -> None:
    cards = "2c 3d 4h 5s 7c 8d 9h Ts Qc Kd Ah 2s 3s 6h"
    with pytest.raises(ValueError, match="stay_value"):
        fantasyland(cards, "ofc", float("nan"))
    with pytest.raises(ValueError, match="stay_value"):
        fantasyland(cards, "ofc", -1.0)
    with pytest.raises(TypeError, match="stay_value"):
        fantasyland(cards, "ofc", "1")  # type: ignore[arg-type]
    bad = np.array([list(range(14)), [*range(13), 0]], dtype=np.uint8)
    with pytest.raises(ValueError, match="hand 1"):
        fantasyland_batch(bad, "ofc", 1.0)
    with pytest.raises(ValueError, match="hands"):
        fantasyland_batch(np.zeros((2, 13), dtype=np.uint8), "ofc", 1.0)


def test_general_evaluation_path_equals_the_fast_one() -> None:
    # An added suit sends every row through the general evaluator (repeats and jokers allowed); on cards
    # held once it must give exactly what the 52-card evaluator gives.
    rng = random.Random(50)
    hands = np.array([rng.sample(range(52), 15) for _ in range(12)], dtype=np.uint8)
    plain = fantasyland_batch(hands, "ofc", 6.0)
    general = fantasyland_batch(hands, Rules.preset("ofc").replace(extra_suits="s"), 6.0)
    for name in plain:
        assert np.array_equal(plain[name], general[name])


def test_batch_and_single_name_the_same_bad_card() -> None:
    rng = random.Random(51)
    hands = np.array([rng.sample(range(52), 14) for _ in range(4)], dtype=np.uint8)
    hands[2, 9] = hands[2, 3]
    with pytest.raises(ValueError, match="appears twice") as single:
        fantasyland(hands[2].tolist(), "ofc", 1.0)
    with pytest.raises(ValueError, match="hand 2, index 9") as batch:
        fantasyland_batch(hands, "ofc", 1.0)
    card = str(single.value).split("card ")[1].split()[0]
    assert "3 and 9" in str(single.value)
    assert f"card {card}" in str(batch.value)
