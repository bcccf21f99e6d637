"""chinese_poker.evaluate / evaluate_batch: exhaustive counts, an independent vectorised re-derivation of
every strength, RULES.md orderings, describe/category, error handling and thread safety."""

from __future__ import annotations

import concurrent.futures

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import HandCategory, category, describe, evaluate, evaluate_batch, tiebreak_vector
from chinese_poker.evaluation import pack_strengths
from hypothesis import given, settings
from strategies import pack_rows

WHEELS = ("low", "second")
#: Each rank's word in describe's texts.
RANK_WORDS = {
    2: "deuce", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten",
    11: "jack", 12: "queen", 13: "king", 14: "ace",
}  # fmt: skip

# Hands and distinct strengths per category (index = HandCategory value) over all C(52, 5) hands.
FIVE_CARD_COUNTS = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
FIVE_CARD_CLASSES = [1_277, 2_860, 858, 858, 10, 1_277, 156, 156, 10]
THREE_CARD_COUNTS = [18_304, 3_744, 0, 52, 0, 0, 0, 0, 0]
THREE_CARD_CLASSES = [286, 156, 0, 13, 0, 0, 0, 0, 0]


def strengths_by_numpy(hands: np.ndarray, wheel: str) -> np.ndarray:
    """Strengths of RULES.md section 8, computed independently of the package with numpy."""
    out = np.empty(len(hands), dtype=np.int64)
    width = hands.shape[1]
    for start in range(0, len(hands), 400_000):
        cards = hands[start : start + 400_000].astype(np.int64)
        ranks = cards // 4 + 2
        suits = cards % 4
        counts = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
        # Cards ordered by (group size, rank), descending: the tie-break order of every category.
        ordered = -np.sort(-(counts * 16 + ranks), axis=1) % 16
        top = counts.max(axis=1)
        distinct = (1.0 / counts).sum(axis=1).round().astype(np.int64)
        cat = np.zeros(len(cards), dtype=np.int64)
        cat[top == 2] = 1
        cat[(top == 2) & (distinct == width - 2)] = 2
        cat[top == 3] = 3
        if width == 5:
            cat[(top == 3) & (distinct == 2)] = 6
            cat[top == 4] = 7
            flush = (suits == suits[:, :1]).all(axis=1)
            wheel_hand = (ordered == [14, 5, 4, 3, 2]).all(axis=1)
            straight = (distinct == 5) & ((ordered[:, 0] - ordered[:, 4] == 4) | wheel_hand)
            cat[flush] = 5
            cat[straight] = 4
            cat[straight & flush] = 8
            if wheel == "low":
                ordered[wheel_hand] = [5, 4, 3, 2, 1]
        # Positions in `ordered` where each tie-break value starts, per category (-1: padding zero).
        starts = np.array(
            [
                [0, 1, 2, 3, 4],
                [0, 2, 3, 4, -1],
                [0, 2, 4, -1, -1],
                [0, 3, 4, -1, -1],
                [0, 1, 2, 3, 4],
                [0, 1, 2, 3, 4],
                [0, 3, -1, -1, -1],
                [0, 4, -1, -1, -1],
                [0, 1, 2, 3, 4],
            ]
        )
        if width == 3:
            starts = np.array(
                [[0, 1, 2, -1, -1], [0, 2, -1, -1, -1], [-1] * 5, [0, -1, -1, -1, -1]] + [[-1] * 5] * 5
            )
        picks = starts[cat]
        values = np.where(picks >= 0, np.take_along_axis(ordered, np.maximum(picks, 0), axis=1), 0)
        packed = cat << 20
        for k, shift in enumerate((16, 12, 8, 4, 0)):
            packed |= values[:, k] << shift
        out[start : start + len(cards)] = packed
    return out


@pytest.fixture(scope="module")
def five_strengths(five_card_hands: np.ndarray) -> dict[str, np.ndarray]:
    return {wheel: evaluate_batch(five_card_hands, wheel) for wheel in WHEELS}


# --- exhaustive five-card -------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("wheel", WHEELS)
def test_all_five_card_hands_classes_and_categories(five_strengths: dict, wheel: str) -> None:
    strengths = five_strengths[wheel]
    assert strengths.dtype == np.int32
    assert strengths.shape == (2_598_960,)
    distinct = np.unique(strengths)
    assert len(distinct) == 7_462
    assert np.bincount(strengths >> 20, minlength=9).tolist() == FIVE_CARD_COUNTS
    assert np.bincount(distinct >> 20, minlength=9).tolist() == FIVE_CARD_CLASSES


@pytest.mark.slow
@pytest.mark.parametrize("wheel", WHEELS)
def test_all_five_card_hands_match_independent_numpy_encoding(
    five_card_hands: np.ndarray, five_strengths: dict, wheel: str
) -> None:
    expected = strengths_by_numpy(five_card_hands, wheel)
    mismatch = np.flatnonzero(five_strengths[wheel] != expected)
    assert mismatch.size == 0, [
        (cp.format_cards(five_card_hands[i]), int(five_strengths[wheel][i]), int(expected[i]))
        for i in mismatch[:5]
    ]


@pytest.mark.slow
def test_wheel_rules_differ_exactly_on_wheels(five_card_hands: np.ndarray, five_strengths: dict) -> None:
    low, second = five_strengths["low"], five_strengths["second"]
    differ = np.flatnonzero(low != second)
    ranks = np.sort(five_card_hands[differ] // 4, axis=1)
    assert len(differ) == 4**5  # every A-2-3-4-5, 4 of them straight flushes
    assert (ranks == [0, 1, 2, 3, 12]).all()
    # Straight (4) and straight flush (8), tie-break 5-4-3-2-1 under "low", 14-5-4-3-2 under "second".
    assert set(np.unique(low[differ]).tolist()) == {0x4_54321, 0x8_54321}
    assert set(np.unique(second[differ]).tolist()) == {0x4_E5432, 0x8_E5432}
    for cat in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        tops_low = [tiebreak_vector(int(s))[0] for s in np.unique(low[low >> 20 == cat])]
        tops_second = [tiebreak_vector(int(s))[0] for s in np.unique(second[second >> 20 == cat])]
        # Ascending strength: the wheel is the lowest under "low", second highest under "second".
        assert tops_low == [5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
        assert tops_second == [6, 7, 8, 9, 10, 11, 12, 13, 14, 14]
        assert tiebreak_vector(int(np.unique(second[second >> 20 == cat])[-2])) == (14, 5, 4, 3, 2)


# --- exhaustive three-card ------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("wheel", WHEELS)
def test_all_three_card_hands(three_card_hands: np.ndarray, five_strengths: dict, wheel: str) -> None:
    strengths = evaluate_batch(three_card_hands, wheel)
    assert strengths.dtype == np.int32
    assert strengths.shape == (22_100,)
    distinct = np.unique(strengths)
    assert len(distinct) == 455
    assert np.bincount(strengths >> 20, minlength=9).tolist() == THREE_CARD_COUNTS
    assert np.bincount(distinct >> 20, minlength=9).tolist() == THREE_CARD_CLASSES
    np.testing.assert_array_equal(strengths, strengths_by_numpy(three_card_hands, wheel))
    # A front never equals a five-card hand (RULES.md 2.5), so both share one scale without ties.
    assert np.intersect1d(distinct, np.unique(five_strengths[wheel])).size == 0


def test_three_card_straights_and_flushes_do_not_count() -> None:
    assert category(evaluate("Qh Kh Ah")) == HandCategory.HIGH_CARD
    assert evaluate("Qh Kh Ah") == evaluate("Qc Kd As") == 0x0_EDC00
    assert evaluate("2s 3s 4s") == 0x0_43200


# --- single calls equal the batch -----------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("wheel", WHEELS)
def test_single_evaluate_equals_batch(
    five_card_hands: np.ndarray, three_card_hands: np.ndarray, five_strengths: dict, wheel: str
) -> None:
    rng = np.random.default_rng(20240601)
    rows = rng.choice(len(five_card_hands), size=30_000, replace=False)
    # Include every wheel and straight flush, where the two wheel rules differ.
    special = np.flatnonzero(
        (five_strengths[wheel] >> 20 == 8) | (five_strengths["low"] != five_strengths["second"])
    )
    rows = np.concatenate([rows, special])
    hands = five_card_hands[rows]
    singles = [evaluate(hand, wheel) for hand in hands.tolist()]
    np.testing.assert_array_equal(singles, five_strengths[wheel][rows])
    singles3 = [evaluate(tuple(hand), wheel=wheel) for hand in three_card_hands.tolist()]
    np.testing.assert_array_equal(singles3, evaluate_batch(three_card_hands, wheel))
    # Other input forms go through parse_cards and give the same values.
    for hand, expected in zip(hands[:300], five_strengths[wheel][rows[:300]]):
        assert evaluate(hand, wheel) == expected  # numpy uint8 row
        assert evaluate(cp.format_cards(hand), wheel=wheel) == expected  # one string
        assert evaluate(cp.format_cards(hand).split()[::-1], wheel) == expected  # strings, reordered
        assert evaluate(cards=[int(c) for c in hand], wheel=wheel) == expected


def test_default_wheel_is_low() -> None:
    wheel = "As 2d 3c 4h 5s"
    assert evaluate(wheel) == evaluate(wheel, "low") == 0x4_54321
    assert evaluate(wheel, "second") == 0x4_E5432
    hands = np.array([cp.parse_cards(wheel)], dtype=np.uint8)
    assert evaluate_batch(hands).tolist() == [evaluate(wheel)]
    assert evaluate_batch(hands, wheel="second").tolist() == [evaluate(wheel, "second")]


# --- RULES.md orderings and RULES.md encoding ------------------------------------------------------


def test_settlement_encoding_examples() -> None:
    # In hex a strength reads as the category digit, then up to five tie-break ranks
    # (2..9, then T=A, J=B, Q=C, K=D, A=E).
    assert evaluate("Ks Kh Kd 8s 8h") == 0x6_D8000
    assert evaluate("Qs Qh 7s") == 0x1_C7000
    assert evaluate("As Ks Qs Js Ts") == 0x8_EDCBA
    assert evaluate("7c 7d 7h 7s 2c") == 0x7_72000
    assert evaluate("Kh Kd 9c 9s 2h") == 0x2_D9200
    assert evaluate("2c 2d 2h") == 0x3_20000
    assert evaluate("7c 5d 4h 3s 2c") == 0x0_75432
    assert evaluate("9h Ah Jh 3h 2h") == 0x5_EB932


@pytest.mark.parametrize(
    ("wheel", "ascending"),
    [
        ("low", ["As 2d 3c 4h 5s", "2s 3d 4c 5h 6s"]),
        ("second", ["Kh Qd Jc Ts 9h", "As 2d 3c 4h 5s", "Ah Kd Qc Js Th"]),
        ("low", ["Kh Kd 5c 4s 2h", "Kc Ks Ah 3d 2c"]),
        ("low", ["Ks Kd 9h 9c 2s", "Kh Kc 9s 9d 3h"]),
        ("second", ["Kh Kd 5c 4s 2h", "Kc Ks Ah 3d 2c"]),
        ("second", ["Ks Kd 9h 9c 2s", "Kh Kc 9s 9d 3h"]),
        ("low", ["Ah 2h 3h 4h 5h", "2s 3s 4s 5s 6s", "9c Tc Jc Qc Kc", "Ad Kd Qd Jd Td"]),
        ("second", ["9c Tc Jc Qc Kc", "Ah 2h 3h 4h 5h", "Ad Kd Qd Jd Td"]),
        ("low", ["Ah Kd Qc Js 9h", "2c 2d 3h 4s 5c", "Ac Ad Kh Qs Jc", "2c 2d 3h 3s 4c", "2c 2d 2h 3s 4c"]),
        ("low", ["Kc Kd Kh As Ac", "Ac Ad Ah 2s 2c", "2c 2d 2h 2s 3c", "Ac Ad Ah As 2c", "Ac Ad Ah As Kc"]),
        ("low", ["As Kd Qh Jc 9s", "Ah 2d 3c 4s 5h", "9h Ah Jh 3h 2h", "2d 3d 2h 3h 2c"]),
    ],
)
def test_rules_orderings(wheel: str, ascending: list[str]) -> None:
    strengths = [evaluate(hand, wheel) for hand in ascending]
    assert strengths == sorted(strengths)
    assert len(set(strengths)) == len(strengths)


def test_suits_never_break_ties() -> None:
    assert evaluate("Ah Kd Qc Js 9h") == evaluate("As Kc Qd Jh 9c")
    assert evaluate("Ah 2d 3c 4s 5h", "second") == evaluate("Ac 2s 3d 4h 5c", "second")
    assert evaluate("Qs Qh 7s") == evaluate("Qd Qc 7h")


@pytest.mark.parametrize(
    ("front", "middle", "legal"),
    [
        ("Qs Qh 7s", "Qd Qc 6h 5d 4c", False),  # 7 > 6
        ("Qs Qh 7s", "Qd Qc 9h 8d 2c", True),
        ("Qs Qh 7s", "Qd Qc 7h 5d 3c", True),  # the middle wins the tie
        ("As Kh Qd", "Ac Kd Qh 3s 2c", True),
        ("As Kh Qd", "Ac Kd Jh 3s 2c", False),
        ("7s 7h 7d", "5s 5h 5d Ks 2h", False),
        ("2s 2h 2d", "As Ah Kd Ks Qh", False),  # front trips v middle two pair
        ("6s 6h 6d", "4s 4h 4d 9s 9h", True),  # a full house
        ("Ks Kh 2d", "Ac Ad 3h 3s 4c", True),
        ("Ac Kc Qc", "Ah Kd Qs Jh 9c", True),  # no three-card flush or straight
    ],
)
@pytest.mark.parametrize("wheel", WHEELS)
def test_foul_worked_cases(front: str, middle: str, legal: bool, wheel: str) -> None:
    front_strength, middle_strength = evaluate(front, wheel), evaluate(middle, wheel)
    assert front_strength != middle_strength
    assert (front_strength < middle_strength) is legal


# --- category, describe, tiebreak_vector ----------------------------------------------------------------


def test_hand_category_values() -> None:
    assert [(c.name, int(c)) for c in HandCategory] == [
        ("HIGH_CARD", 0),
        ("ONE_PAIR", 1),
        ("TWO_PAIR", 2),
        ("THREE_OF_A_KIND", 3),
        ("STRAIGHT", 4),
        ("FLUSH", 5),
        ("FULL_HOUSE", 6),
        ("FOUR_OF_A_KIND", 7),
        ("STRAIGHT_FLUSH", 8),
        ("FIVE_OF_A_KIND", 9),
    ]
    assert HandCategory.FLUSH > HandCategory.STRAIGHT
    assert cp.HandCategory is HandCategory


@pytest.mark.parametrize(
    ("cards", "wheel", "cat", "text"),
    [
        ("Ks Kh Kd 8s 8h", "low", HandCategory.FULL_HOUSE, "Full house, kings over eights"),
        ("Qs Qh Ad", "low", HandCategory.ONE_PAIR, "Pair of queens, ace kicker"),
        ("As Ks Qs Js Ts", "low", HandCategory.STRAIGHT_FLUSH, "Royal flush"),
        ("As Ks Qs Js Ts", "second", HandCategory.STRAIGHT_FLUSH, "Royal flush"),
        ("9d Ks Qs Js Ts", "low", HandCategory.STRAIGHT, "Straight, king high"),
        ("9s Ks Qs Js Ts", "low", HandCategory.STRAIGHT_FLUSH, "Straight flush, king high"),
        ("As 2d 3c 4h 5s", "low", HandCategory.STRAIGHT, "Straight, five high (wheel)"),
        ("As 2d 3c 4h 5s", "second", HandCategory.STRAIGHT, "Straight, five high (wheel)"),
        ("Ah 2h 3h 4h 5h", "low", HandCategory.STRAIGHT_FLUSH, "Straight flush, five high (wheel)"),
        ("Ah 2h 3h 4h 5h", "second", HandCategory.STRAIGHT_FLUSH, "Straight flush, five high (wheel)"),
        ("7c 7d 7h 7s 2c", "low", HandCategory.FOUR_OF_A_KIND, "Four of a kind, sevens, deuce kicker"),
        ("7h 8h 2h Kh 4h", "low", HandCategory.FLUSH, "Flush, king-eight-seven-four-deuce"),
        ("6c 6d 6h Ks 2c", "low", HandCategory.THREE_OF_A_KIND, "Three of a kind, sixes, king-deuce kickers"),
        ("7h 7d 7c", "low", HandCategory.THREE_OF_A_KIND, "Three of a kind, sevens"),
        ("Kh Kd 9c 9s 2h", "low", HandCategory.TWO_PAIR, "Two pair, kings and nines, deuce kicker"),
        ("Ah Ks Qc Jd 9s", "low", HandCategory.HIGH_CARD, "Ace high, king-queen-jack-nine"),
        ("Th 5c 3s", "low", HandCategory.HIGH_CARD, "Ten high, five-three"),
    ],
)
def test_describe_and_category(cards: str, wheel: str, cat: HandCategory, text: str) -> None:
    strength = evaluate(cards, wheel)
    assert category(strength) is cat
    assert describe(strength) == text


def test_tiebreak_vector() -> None:
    assert tiebreak_vector(evaluate("Ks Kh Kd 8s 8h")) == (13, 8)
    assert tiebreak_vector(evaluate("Qs Qh 7s")) == (12, 7)
    assert tiebreak_vector(evaluate("Qs Qh 7s 9d 2c")) == (12, 9, 7, 2)
    assert tiebreak_vector(evaluate("As 2d 3c 4h 5s")) == (5, 4, 3, 2, 1)
    assert tiebreak_vector(evaluate("As 2d 3c 4h 5s", "second")) == (14, 5, 4, 3, 2)


@pytest.mark.parametrize("bad", [0, -1, 9 << 20, 1 << 40])
def test_category_rejects_non_strengths(bad: int) -> None:
    with pytest.raises(ValueError, match=str(bad)):
        category(bad)
    with pytest.raises(ValueError, match=str(bad)):
        describe(bad)


@pytest.mark.parametrize("bad", [True, 1.5, "1048576", None])
def test_category_rejects_non_ints(bad: object) -> None:
    with pytest.raises(TypeError, match=type(bad).__name__):
        category(bad)
    with pytest.raises(TypeError):
        describe(bad)


@settings(max_examples=200)
@given(drawn=pack_rows())
def test_every_row_of_a_pack_has_a_category_vector_and_text(drawn: tuple[list[int], str, int]) -> None:
    """Rows drawn on purpose from packs with added suits and jokers (flushes holding a pair or three of a
    kind, fives of a kind, jokers): each strength is one of the pack's and is known to category,
    tiebreak_vector and describe, the vector rebuilding it."""
    row, extra_suits, jokers = drawn
    for wheel in WHEELS:
        strength = evaluate(row, wheel, extra_suits=extra_suits, jokers=jokers)
        assert strength in pack_strengths(len(row), wheel, extra_suits=extra_suits, jokers=jokers)
        cat = category(strength)
        vector = tiebreak_vector(strength)
        rebuilt = int(cat) << 20
        for shift, rank in zip((16, 12, 8, 4, 0), vector):
            rebuilt |= rank << shift
        assert rebuilt == strength
        text = describe(strength)
        if cat == HandCategory.FLUSH:
            assert text == "Flush, " + "-".join(RANK_WORDS[v] for v in vector)
        elif cat == HandCategory.FIVE_OF_A_KIND:
            assert text.startswith("Five of a kind, ")


def test_describe_accepts_batch_results() -> None:
    strengths = evaluate_batch(np.array([cp.parse_cards("Ks Kh Kd 8s 8h")], dtype=np.uint8))
    assert describe(strengths[0]) == "Full house, kings over eights"
    assert category(strengths[0]) is HandCategory.FULL_HOUSE
    assert tiebreak_vector(strengths[0]) == (13, 8)


# --- evaluate errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "pattern"),
    [
        ([0, 1, 2, 3], "3 or 5 cards, got 4"),
        ("As Ks Qs Js", "3 or 5 cards, got 4"),
        ([0, 1, 2, 3, 4, 5], "3 or 5 cards, got 6"),
        ([], "3 or 5 cards, got 0"),
        (list(range(13)), "3 or 5 cards, got 13"),
        ([0, 1, 2, 0, 7], r"2c.*twice"),
        ((9, 8, 9), r"4d.*twice"),
        ("As Kd As", r"As.*twice"),
        (np.array([0, 1, 2, 0, 7]), r"2c.*twice"),
        ([0, 1, 2, 3, 52], r"index 4.*52|52.*index 4"),
        ([-1, 1, 2], r"index 0.*-1|-1.*index 0"),
        ([2**70, 1, 2], str(2**70)),
        ("As Kd Xx", r"'Xx'.*position 2"),
        (["As", "Kd", 60], r"60.*position 2"),
    ],
)
def test_evaluate_value_errors(cards: object, pattern: str) -> None:
    with pytest.raises(ValueError, match=pattern):
        evaluate(cards)


@pytest.mark.parametrize("wheel", ["high", "LOW", "", None, 1])
def test_evaluate_bad_wheel(wheel: object) -> None:
    with pytest.raises(ValueError, match=r"wheel must be 'low' or 'second'"):
        evaluate([0, 1, 2, 3, 4], wheel)
    with pytest.raises(ValueError, match=r"wheel must be 'low' or 'second'"):
        evaluate([0, 1, 2], wheel=wheel)


@pytest.mark.parametrize(
    ("call", "pattern"),
    [
        (lambda: evaluate(None), "NoneType"),
        (lambda: evaluate(5), "int"),
        (lambda: evaluate([0, 1, 2.0]), r"float.*position 2"),
        (lambda: evaluate([True, 1, 2]), r"bool.*position 0"),
        (lambda: evaluate([0, 1, None, 3, 4]), r"NoneType.*position 2"),
        (evaluate, "cards"),
        (lambda: evaluate([0, 1, 2], "low", 3), "at most 2"),
        (lambda: evaluate([0, 1, 2], whee="low"), "whee"),
        (lambda: evaluate([0, 1, 2], cards=[0, 1, 2]), "cards"),
    ],
)
def test_evaluate_type_errors(call: object, pattern: str) -> None:
    with pytest.raises(TypeError, match=pattern):
        call()


# --- evaluate_batch errors -------------------------------------------------------------------------------


def small_batch() -> np.ndarray:
    return np.array([[0, 1, 2, 3, 4], [51, 50, 49, 48, 47], [10, 20, 30, 40, 50]], dtype=np.uint8)


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint16, np.float64, np.float32, bool])
def test_batch_wrong_dtype(dtype: type) -> None:
    with pytest.raises(TypeError, match="uint8"):
        evaluate_batch(small_batch().astype(dtype))


def test_batch_not_an_array() -> None:
    with pytest.raises(TypeError, match="list"):
        evaluate_batch(small_batch().tolist())
    with pytest.raises(TypeError, match="numpy array"):
        evaluate_batch(np.uint8(4))


@pytest.mark.parametrize(
    "cards",
    [
        small_batch()[:, :4].copy(),
        np.zeros((3, 13), dtype=np.uint8),
        np.zeros((3, 0), dtype=np.uint8),
        small_batch().reshape(-1),
        small_batch().reshape(1, 3, 5),
    ],
)
def test_batch_wrong_shape(cards: np.ndarray) -> None:
    with pytest.raises(ValueError, match=r"dimensions|cards per row"):
        evaluate_batch(cards)


@pytest.mark.parametrize(
    "make",
    [
        lambda a: a[:, ::-1],
        np.asfortranarray,
        lambda a: np.concatenate([a, a])[::2],
        lambda a: np.ascontiguousarray(np.concatenate([a, a], axis=1))[:, :5],
    ],
)
def test_batch_non_contiguous(make: object) -> None:
    cards = make(small_batch())
    assert not cards.flags.c_contiguous
    with pytest.raises(ValueError, match="C-contiguous"):
        evaluate_batch(cards)
    # The copy the message suggests works.
    assert evaluate_batch(np.ascontiguousarray(cards)).shape == (len(cards),)


@pytest.mark.parametrize(
    ("row", "index", "value", "pattern"),
    [
        (1, 2, 52, r"row 1\b.*52"),
        (2, 4, 255, r"row 2\b.*255"),
        (0, 0, 200, r"row 0\b.*200"),
        (2, 3, 10, r"row 2\b.*twice"),  # 10 is already the row's first card
        (1, 4, 51, r"row 1\b.*As.*twice"),
    ],
)
@pytest.mark.parametrize("wheel", WHEELS)
def test_batch_bad_codes_name_the_row(row: int, index: int, value: int, pattern: str, wheel: str) -> None:
    cards = small_batch()
    cards[row, index] = value
    with pytest.raises(ValueError, match=pattern):
        evaluate_batch(cards, wheel)


def test_batch_bad_row_deep_in_large_array() -> None:
    cards = np.tile(np.array([3, 17, 22, 40, 51], dtype=np.uint8), (100_000, 1))
    cards[98_765, 1] = cards[98_765, 4]
    with pytest.raises(ValueError, match=r"row 98765\b.*twice"):
        evaluate_batch(cards)


def test_batch_bad_wheel() -> None:
    with pytest.raises(ValueError, match="wheel must be 'low' or 'second'"):
        evaluate_batch(small_batch(), "high")
    with pytest.raises(TypeError, match="wheel"):
        evaluate_batch(small_batch(), wheel=None)


@pytest.mark.parametrize("width", [3, 5])
def test_batch_empty(width: int) -> None:
    out = evaluate_batch(np.zeros((0, width), dtype=np.uint8))
    assert out.dtype == np.int32
    assert out.shape == (0,)


def test_batch_read_only_input_and_fresh_output() -> None:
    cards = small_batch()
    cards.setflags(write=False)
    first = evaluate_batch(cards)
    second = evaluate_batch(cards)
    assert first.tolist() == [evaluate(row) for row in small_batch().tolist()]
    first[:] = 0
    assert second.tolist() == [evaluate(row) for row in small_batch().tolist()]


# --- thread safety ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_batch_from_four_threads(five_card_hands: np.ndarray, five_strengths: dict) -> None:
    jobs = [WHEELS[k % 2] for k in range(12)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda wheel: (wheel, evaluate_batch(five_card_hands, wheel)), jobs))
    assert len(results) == 12
    for wheel, strengths in results:
        np.testing.assert_array_equal(strengths, five_strengths[wheel])
