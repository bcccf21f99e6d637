"""Hostile arguments and hostile input: every failure is one clear error, never garbage or a traceback."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import HandCategory, category, describe, evaluate, evaluate_batch, tiebreak_vector
from chinese_poker.evaluation import _all_strengths

RANKS = "23456789TJQKA"
SUITS = "cdhs"

# --- strengths: only values some hand has ---------------------------------------------------------------


def test_strength_set_has_the_known_counts() -> None:
    strengths = _all_strengths()
    # 7462 five-card classes, the wheel once more under its second encoding (straight and straight
    # flush), and 286 + 156 + 13 three-card classes.
    assert len(strengths) == 7462 + 2 + 286 + 156 + 13
    by_category = {cat: sum(1 for s in strengths if category(s) is cat) for cat in HandCategory}
    assert by_category[HandCategory.HIGH_CARD] == 1277 + 286
    assert by_category[HandCategory.ONE_PAIR] == 2860 + 156
    assert by_category[HandCategory.STRAIGHT] == by_category[HandCategory.STRAIGHT_FLUSH] == 11
    assert by_category[HandCategory.FULL_HOUSE] == by_category[HandCategory.FOUR_OF_A_KIND] == 156


def test_every_evaluated_hand_is_in_the_strength_set() -> None:
    deck = [r + s for r in RANKS for s in SUITS]
    strengths = _all_strengths()
    for combo in itertools.combinations(deck[::3], 3):
        assert evaluate(combo) in strengths
    rng = np.random.default_rng(7)
    hands = np.array([rng.choice(52, 5, replace=False) for _ in range(20_000)], dtype=np.uint8)
    for wheel in ("low", "second"):
        assert set(evaluate_batch(hands, wheel).tolist()) <= strengths
    assert evaluate("As 2d 3c 4h 5s", "second") in strengths
    assert evaluate("As 2s 3s 4s 5s") in strengths


@pytest.mark.parametrize(
    "bad",
    [
        0x34,  # category 0 with the vector (0, 0, 0, 3, 4)
        1,
        (1 << 20) | 0x55000,  # a pair whose kicker is the pair's rank
        (4 << 20) | 0x98765 + 1,  # a "straight" that is not a run
        (6 << 20) | 0xDD000,  # kings full of kings
        (0 << 20) | 0xEDCBA,  # high card A-K-Q-J-T: a straight, never a high card
        (8 << 20) | 0x54320,  # a four-card straight flush
        (2 << 20) | 0xEF000 | 0x300,  # a rank 15
        (3 << 20) | 0x10000,  # trips of rank 1
    ],
)
def test_non_strengths_are_refused(bad: int) -> None:
    for function in (category, tiebreak_vector, describe):
        with pytest.raises(ValueError, match=f"{bad} is not the strength"):
            function(bad)
        with pytest.raises(ValueError, match=f"{bad} is not the strength"):
            function(np.int32(bad))


def test_wheel_is_a_strength_under_both_encodings() -> None:
    for wheel in ("low", "second"):
        for cards in ("As 2d 3c 4h 5s", "As 2s 3s 4s 5s"):
            strength = evaluate(cards, wheel)
            assert describe(strength).endswith("five high (wheel)")
            assert category(strength) in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH)


# --- surrender flags are booleans ------------------------------------------------------------------------

_HANDS = ["2c 3d 4h | 6s 7s 8d 9c Jh | Qs Ks Ad 5c 5d", "Tc Th Ts | 2s 3s 4s 5s 9s | 6c 6d 6h 8c 8h"]


@pytest.mark.parametrize("flags", [["False", "True"], "01", [float("nan"), True], [1, 0], [None, None], True])
def test_surrender_flags_must_be_bools(flags: Any) -> None:
    with pytest.raises(TypeError, match="surrender"):
        cp.settle(_HANDS, {"surrender_units": 2}, surrender=flags)


def test_surrender_accepts_numpy_bools() -> None:
    result = cp.settle(_HANDS, {"surrender_units": 2}, surrender=np.array([True, False]))
    plain = cp.settle(_HANDS, {"surrender_units": 2}, surrender=[True, False])
    assert result.net == plain.net
    assert result.net[0] < 0


# --- public entry points name themselves ------------------------------------------------------------------

_U8 = np.zeros((1, 13), dtype=np.uint8)


_CASES: list[tuple[str, Callable[..., Any], tuple[Any, ...]]] = [
    ("evaluate", evaluate, (None,)),
    ("evaluate", evaluate, (1.5,)),
    ("evaluate_batch", evaluate_batch, ("As Ks Qs Js Ts",)),
    ("evaluate_batch", evaluate_batch, (None,)),
    ("evaluate_batch", evaluate_batch, (np.zeros((2, 5)),)),
    ("evaluate_batch", evaluate_batch, ([[0, 1, 2, 3, 4]],)),
    ("evaluate_batch", evaluate_batch, (np.zeros((2, 5), dtype=np.uint8), None)),
    ("settle_batch", cp.settle_batch, ("x",)),
    ("settle_batch", cp.settle_batch, (None,)),
    ("settle_batch", cp.settle_batch, (np.zeros((1, 2, 13)),)),
    ("settle_batch", cp.settle_batch, ([[list(range(13)), list(range(13, 26))]],)),
    ("settle_batch", cp.settle_batch, (np.zeros((1, 2, 13), dtype=np.uint8), 5)),
    ("settle", cp.settle, (None,)),
    ("settle", cp.settle, (1.5,)),
    ("settle", cp.settle, ([None, None],)),
    ("settle", cp.settle, ([1.5, 2.5],)),
    ("settle", cp.settle, (_HANDS, 5)),
    ("settle", cp.settle, (_HANDS, None, "xx")),
    ("settle", cp.settle, (_HANDS, None, None, None, 7)),
    ("settle", cp.settle, (_HANDS, None, None, None, "ab")),
    ("parse_cards", cp.parse_cards, (None,)),
    ("parse_cards", cp.parse_cards, (1.5,)),
    ("parse_cards", cp.parse_cards, ([1.5],)),
    ("parse_card", cp.parse_card, (None,)),
    ("format_card", cp.format_card, (None,)),
    ("format_cards", cp.format_cards, (None,)),
]


@pytest.mark.parametrize(("name", "function", "args"), _CASES)
def test_type_errors_name_the_public_function(name: str, function: Callable[..., Any], args: Any) -> None:
    with pytest.raises(TypeError) as caught:
        function(*args)
    message = str(caught.value)
    assert message.startswith(f"{name}: ")
    assert "_core" not in message
    assert "incompatible function arguments" not in message
