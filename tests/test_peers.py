"""The order of all 2,598,960 five-card hands against established evaluators (phevaluator, eval7, treys).

Card codes are phevaluator's card ids (4 * rank + suit, suits c d h s), so arrays pass to it unchanged.
The peers use the standard wheel, which is ``wheel="low"``; under ``"second"`` they differ exactly on the
A-2-3-4-5 hands.
"""

from __future__ import annotations

import numpy as np
import pytest
from chinese_poker import evaluate_batch, format_card

# The peers' time and Python loops; the core's order of every hand is checked in test_evaluate.py too.
pytestmark = [pytest.mark.slow, pytest.mark.python_bound]

CHUNK = 200_000


def assert_same_order(ours: np.ndarray, theirs: np.ndarray, higher_is_better: bool) -> None:
    """Our strength -> their value is a strictly monotone bijection over the hands given: the same
    equivalence classes in the same order."""
    assert ours.shape == theirs.shape
    assert theirs.min() >= 0
    assert theirs.max() < 2**32
    pairs = np.unique(ours.astype(np.int64) << 32 | theirs.astype(np.int64))
    ours_classes, their_classes = pairs >> 32, pairs & 0xFFFFFFFF
    # One (ours, theirs) pair per class on both sides: the partitions into ties coincide ...
    assert len(pairs) == len(np.unique(ours)) == len(np.unique(theirs))
    # ... and, sorted by our strength, their values move the same way.
    steps = np.diff(their_classes) if higher_is_better else -np.diff(their_classes)
    assert (np.diff(ours_classes) > 0).all()
    bad = np.flatnonzero(steps <= 0)
    assert bad.size == 0, [(int(ours_classes[i]), int(their_classes[i])) for i in bad[:5]]


@pytest.fixture(scope="module")
def low(five_card_hands: np.ndarray) -> np.ndarray:
    return evaluate_batch(five_card_hands, "low")


@pytest.fixture(scope="module")
def second(five_card_hands: np.ndarray) -> np.ndarray:
    return evaluate_batch(five_card_hands, "second")


@pytest.fixture(scope="module")
def wheels(five_card_hands: np.ndarray) -> np.ndarray:
    ranks = np.sort(five_card_hands // 4, axis=1)
    return (ranks == [0, 1, 2, 3, 12]).all(axis=1)


@pytest.fixture(scope="module")
def phevaluator_ranks(five_card_hands: np.ndarray) -> np.ndarray:
    phevaluator = pytest.importorskip(
        "phevaluator", reason="phevaluator is not installed (pip install phevaluator)"
    )
    out = np.empty(len(five_card_hands), dtype=np.int64)
    for start in range(0, len(five_card_hands), CHUNK):
        chunk = five_card_hands[start : start + CHUNK]
        # Our card codes are phevaluator's ids: pass them unchanged.
        out[start : start + len(chunk)] = np.fromiter(
            map(phevaluator.evaluate_cards, *chunk.T.tolist()), dtype=np.int64, count=len(chunk)
        )
    return out


def test_phevaluator_order_of_all_five_card_hands(low: np.ndarray, phevaluator_ranks: np.ndarray) -> None:
    assert len(phevaluator_ranks) == 2_598_960
    # phevaluator ranks the 7,462 classes 1 (royal flush) .. 7462 (7-5-4-3-2); lower is better.
    assert np.unique(phevaluator_ranks).tolist() == list(range(1, 7_463))
    assert_same_order(low, phevaluator_ranks, higher_is_better=False)


def test_phevaluator_and_the_second_wheel_rule(
    second: np.ndarray, wheels: np.ndarray, phevaluator_ranks: np.ndarray
) -> None:
    assert wheels.sum() == 1_024
    # Apart from the wheels, "second" orders every hand as the standard rule does ...
    assert_same_order(second[~wheels], phevaluator_ranks[~wheels], higher_is_better=False)
    # ... and the wheels, standard lowest straight (flush), rank just below the ace-high one: in
    # phevaluator's ranks the straight flushes are 1 (royal) .. 10 (wheel), straights 1600 .. 1609.
    assert sorted(set(phevaluator_ranks[wheels].tolist())) == [10, 1_609]
    for wheel_rank in (10, 1_609):
        ace_high, king_high = wheel_rank - 9, wheel_rank - 8
        [wheel_strength] = np.unique(second[phevaluator_ranks == wheel_rank])
        [ace_strength] = np.unique(second[phevaluator_ranks == ace_high])
        [king_strength] = np.unique(second[phevaluator_ranks == king_high])
        assert king_strength < wheel_strength < ace_strength


def test_eval7_order_of_all_five_card_hands(five_card_hands: np.ndarray, low: np.ndarray) -> None:
    eval7 = pytest.importorskip("eval7", reason="eval7 is not installed (pip install eval7)")
    deck = [eval7.Card(format_card(code)) for code in range(52)]
    values = np.empty(len(five_card_hands), dtype=np.int64)
    for start in range(0, len(five_card_hands), CHUNK):
        chunk = five_card_hands[start : start + CHUNK]
        values[start : start + len(chunk)] = np.fromiter(
            (eval7.evaluate([deck[c] for c in hand]) for hand in chunk.tolist()),
            dtype=np.int64,
            count=len(chunk),
        )
    assert len(np.unique(values)) == 7_462
    assert_same_order(low, values, higher_is_better=True)


def test_treys_order_on_every_class_and_a_sample(five_card_hands: np.ndarray, low: np.ndarray) -> None:
    treys = pytest.importorskip("treys", reason="treys is not installed (pip install treys)")
    # treys is pure Python: one hand of each class plus 40,000 random hands.
    representatives = np.unique(low, return_index=True)[1]
    rng = np.random.default_rng(5)
    rows = np.union1d(representatives, rng.choice(len(five_card_hands), size=40_000, replace=False))
    evaluator = treys.Evaluator()
    deck = [treys.Card.new(format_card(code)) for code in range(52)]
    values = np.array(
        [
            evaluator.evaluate([deck[hand[0]], deck[hand[1]]], [deck[c] for c in hand[2:]])
            for hand in five_card_hands[rows].tolist()
        ],
        dtype=np.int64,
    )
    assert np.unique(values).tolist() == list(range(1, 7_463))
    assert_same_order(low[rows], values, higher_is_better=False)
