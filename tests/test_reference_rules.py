"""Tests of the pure-Python reference (chinese_poker.reference) against RULES.md and docs/RULES.md.

Every worked example of RULES.md section 7, the foul cases of 2.5, the scoring-system table of section 3,
each natural kind, and every settlement knob, with the values the spec gives.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from chinese_poker.cards import parse_cards
from chinese_poker.reference import (
    NATURAL_KINDS,
    PRESETS,
    compare_rows,
    detect_natural,
    evaluate,
    is_foul,
    natural_key,
    pareto_front,
    resolve_rules,
    royalties,
    settle,
)


def setting(front: str, middle: str, back: str) -> dict[str, list[int]]:
    return {
        "front": list(parse_cards(front)),
        "middle": list(parse_cards(middle)),
        "back": list(parse_cards(back)),
    }


def declared(cards: str) -> dict[str, list[int]]:
    return {"declared": list(parse_cards(cards))}


def pair_of(result: dict, i: int, j: int) -> dict:
    (found,) = [pair for pair in result["pairs"] if (pair["i"], pair["j"]) == (i, j)]
    return found


def check_zero_sum(result: dict) -> None:
    assert sum(result["net"]) == 0


# --------------------------------------------------------------------------------------------------------
# Evaluation (RULES.md 2, RULES.md 8)


def test_encoding_examples_of_settlement_md():
    # In hex a strength reads as the category digit, then up to five tie-break ranks
    # (2..9, then T=A, J=B, Q=C, K=D, A=E).
    assert evaluate("Ks Kh Kd 8s 8h") == 0x6_D8000
    assert evaluate("Qs Qh 7s") == 0x1_C7000
    assert evaluate(list(parse_cards("Qs Qh 7s"))) == evaluate("Qs Qh 7s")


def test_encoding_of_each_category():
    assert evaluate("Ah Kd Qc Js Th") == 0x4_EDCBA
    assert evaluate("As 2d 3c 4h 5s") == 0x4_54321
    assert evaluate("As 2d 3c 4h 5s", wheel="second") == 0x4_E5432
    assert evaluate("As 2s 3s 4s 5s") == 0x8_54321
    assert evaluate("9c 9d 9h 9s 2c") == 0x7_92000
    assert evaluate("Ac Jc 8c 4c 2c") == 0x5_EB842
    assert evaluate("7c 7d 7h Ks 2c") == 0x3_7D200
    assert evaluate("7c 7d 2h 2s Ac") == 0x2_72E00
    assert evaluate("7c 7d 2h 3s Ac") == 0x1_7E320
    assert evaluate("7c 8d 2h 3s Ac") == 0x0_E8732
    assert evaluate("7c 7d 7h") == 0x3_70000
    assert evaluate("Ac 2c 3c") == 0x0_E3200  # no 3-card straight or flush
    assert evaluate("Kc Ad 2h 3s 4c") >> 20 == 0  # K-A-2-3-4 is not a straight


def test_e5_orderings():
    assert evaluate("As 2d 3c 4h 5s") < evaluate("2s 3d 4c 5h 6s")
    second = [evaluate(row, wheel="second") for row in ("Kh Qd Jc Ts 9h", "As 2d 3c 4h 5s", "Ah Kd Qc Js Th")]
    assert second[0] < second[1] < second[2]
    assert evaluate("As 2s 3s 4s 5s", "second") > evaluate("9s Ts Js Qs Ks", "second")
    assert evaluate("As 2s 3s 4s 5s", "second") < evaluate("Th Jh Qh Kh Ah", "second")
    assert evaluate("Kh Kd 5c 4s 2h") < evaluate("Kc Ks Ah 3d 2c")
    assert evaluate("Ks Kd 9h 9c 2s") < evaluate("Kh Kc 9s 9d 3h")


def test_7462_classes_of_five_cards():
    # Over rank multisets: distinct ranks may be suited (flush) or not; others cannot be suited.
    strengths = set()
    suits_plain = [0, 1, 0, 0, 0]
    for ranks in combinations(range(13), 5):
        suited = [4 * rank for rank in ranks]
        plain = [4 * rank + suit for rank, suit in zip(ranks, suits_plain)]
        strengths.add(evaluate(suited))
        strengths.add(evaluate(plain))
    for counts in _rank_multisets_with_repeats():
        cards = []
        for rank, count in counts:
            cards.extend(4 * rank + suit for suit in range(count))
        strengths.add(evaluate(cards))
    assert len(strengths) == 7462


def _rank_multisets_with_repeats():
    for pattern in ([4, 1], [3, 2], [3, 1, 1], [2, 2, 1], [2, 1, 1, 1]):
        for ranks in _distinct_ordered(len(pattern)):
            # groups of equal size are unordered: keep them in increasing rank order
            ok = all(
                not (pattern[k] == pattern[k + 1] and ranks[k] > ranks[k + 1])
                for k in range(len(pattern) - 1)
            )
            if ok:
                yield list(zip(ranks, pattern))


def _distinct_ordered(length):
    def extend(prefix):
        if len(prefix) == length:
            yield prefix
            return
        for rank in range(13):
            if rank not in prefix:
                yield from extend([*prefix, rank])

    yield from extend([])


@pytest.mark.slow
def test_three_card_classes_and_one_scale():
    fronts = {evaluate(list(cards)) for cards in combinations(range(52), 3)}
    assert len(fronts) == 13 + 13 * 12 + 286  # trips, pairs with kicker, high cards
    # A front is below every five-card row starting with the same values.
    assert evaluate("Qs Qh 7s") < evaluate("Qc Qd 7c 3d 2h")
    assert evaluate("Ac Kc Qc") < evaluate("Ad Kd Qd 3h 2h")
    assert evaluate("7c 7d 7h") < evaluate("7s 7d 7h 3d 2h")
    assert evaluate("Qs Qh 7s") > evaluate("Qc Qd 6d 5d 4d")
    assert evaluate("7c 7d 7h") > evaluate("Ac Ad Kh Ks Qs")  # front trips over middle two pair


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([0, 1, 2, 3], "3 or 5 cards, got 4"),
        ([0, 1, 2, 3, 4, 5], "3 or 5 cards, got 6"),
        ([0, 0, 1], r"card 2c appears twice \(positions 0 and 1\)"),
        ([0, 1, 52], "card code 52 is not in 0..51 at position 2"),
        ([-1, 1, 2], "card code -1 is not in 0..51 at position 0"),
        ("As Ks", "3 or 5 cards, got 2"),
        ("As As Kd", "card As appears twice"),
        ("As Kd Xx", "unknown card 'Xx' at position 2"),
    ],
)
def test_evaluate_rejects_bad_input(cards, message):
    with pytest.raises(ValueError, match=message):
        evaluate(cards)


def test_evaluate_rejects_bad_wheel():
    with pytest.raises(ValueError, match="wheel must be one of"):
        evaluate("As 2d 3c 4h 5s", wheel="high")


# --------------------------------------------------------------------------------------------------------
# Row comparison and the suit tie-break (RULES.md 2.4, RULES.md 12)


def test_compare_rows_by_strength():
    rules = resolve_rules("pagat")
    assert compare_rows("Ah Kd 5c", "Qs Qd 2c", rules) == -1
    assert compare_rows("Qs Qd 2c", "Ah Kd 5c", rules) == 1
    assert compare_rows("Ah Kd 5c", "As Kc 5d", rules) == 0
    wheel_low = resolve_rules("pagat")
    wheel_second = resolve_rules("pagat", wheel="second")
    assert compare_rows("As 2d 3c 4h 5s", "9s Td Jc Qh Kd", wheel_low) == -1
    assert compare_rows("As 2d 3c 4h 5s", "9s Td Jc Qh Kd", wheel_second) == 1


def test_suit_tiebreak_highest_card():
    shdc = resolve_rules("pagat", suit_tiebreak="highest_card", suit_order="shdc")
    shcd = resolve_rules("pagat", suit_tiebreak="highest_card", suit_order="shcd")
    assert compare_rows("Ah Kd 5c", "As Kc 5d", shdc) == -1  # As > Ah
    assert compare_rows("Ad 9c 5c", "Ac 9d 5d", shdc) == 1  # d > c
    assert compare_rows("Ad 9c 5c", "Ac 9d 5d", shcd) == -1  # c > d
    # the pair comes first: Ks beats Kh even though the other row's kickers have higher suits
    assert compare_rows("Kh Kd 5s 4s 2s", "Ks Kc 5d 4h 2c", shdc) == -1
    # in a wheel the 5 is the top card: 5s > 5h decides, not the aces
    assert compare_rows("Ah 2d 3c 4h 5s", "As 2s 3d 4c 5h", shdc) == 1
    assert compare_rows("Ah 2d 3c 4h 5s", "As 2s 3d 4c 5h", resolve_rules("pagat")) == 0
    # two pair: the higher pair's best suit first (Ks), before the lower pair's (9s)
    assert compare_rows("Kc Kd 9h 9s 3h", "Kh Ks 9c 9d 3d", shdc) == -1
    # full house: the trips come first
    assert compare_rows("9c 9d 9s 4c 4d", "9h 9d 9c 4h 4s", shdc) == 1


# --------------------------------------------------------------------------------------------------------
# Fouls (RULES.md 2.5, RULES.md 9)

FOUL_CASES = [
    ("Qc Qd 7c", "Qh Qs 6d 5d 4d", "2s 3s 4s 5s 6s", True),
    ("Qc Qd 7c", "Qh Qs 9d 8d 2d", "2s 3s 4s 5s 6s", False),
    ("Qc Qd 7c", "Qh Qs 7d 5d 3d", "2s 3s 4s 5s 6s", False),
    ("Ac Kc Qc", "Ad Kd Qd 3h 2h", "2s 3s 4s 5s 6s", False),
    ("Ac Kc Qc", "Ad Kd Jd 3h 2h", "2s 3s 4s 5s 6s", True),
    ("7c 7d 7h", "5c 5d 5h Kc 2c", "8s 9s Ts Js Qs", True),
    ("7c 7d 7h", "Kc Kd 2c 2d 3h", "8s 9s Ts Js Qs", True),
    ("6c 6d 6h", "4c 4d 4h 9c 9d", "8s 9s Ts Js Qs", False),
]


@pytest.mark.parametrize(("front", "middle", "back", "foul"), FOUL_CASES)
def test_foul_worked_cases(front, middle, back, foul):
    assert is_foul(front, middle, back, resolve_rules("pagat")) is foul


def test_middle_above_back_is_foul():
    assert is_foul("2c 3d 5h", "Ac Ad Kh Ks 2d", "Qc Qd 8h 7s 3c", resolve_rules("pagat")) is True


def test_middle_vs_back_strict_and_suits_never_matter():
    front, middle, back = "2c 3d 5h", "Ad Kh 9s 7c 3h", "Ac Kd 9h 7s 3c"
    assert is_foul(front, middle, back, resolve_rules("pagat")) is False
    assert is_foul(front, middle, back, resolve_rules("pagat", middle_vs_back="strict")) is True
    suited = resolve_rules("pagat", suit_tiebreak="highest_card")
    assert compare_rows(middle, back, suited) == 1  # Ad > Ac: the middle wins on suits ...
    assert is_foul(front, middle, back, suited) is False  # ... but suits never matter to the foul check
    strict_suited = resolve_rules(suited, middle_vs_back="strict")
    assert is_foul(front, back, middle, strict_suited) is True  # nor to the strict check


def test_is_foul_rejects_wrong_row_sizes():
    with pytest.raises(ValueError, match="expected 3 cards, got 5"):
        is_foul("Ad Kh 9s 7c 3h", "Ac Kd 9h 7s 3c", "2c 3d 5h", resolve_rules("pagat"))


# --------------------------------------------------------------------------------------------------------
# Royalties (RULES.md 4, RULES.md 9)


def test_royalty_lookup():
    pagat = resolve_rules("pagat-bonus")
    eastern = resolve_rules("shisanzhang-hk")
    assert royalties("2c 2d 2h", "3s 4s 5s 6s 7s", "8h 9h Th Jh Qh", pagat) == (3, 5, 5)
    assert royalties("2c 2d 2h", "3s 4s 5s 6s 7s", "8h 9h Th Jh Qh", eastern) == (3, 10, 5)
    assert royalties("6s 6h 6d", "4s 4h 4d 9s 9h", "Ks Kh Kd 8s 8h", pagat) == (3, 2, 0)
    assert royalties("Qs Qh 7s", "Js Jh Jd 2s 2h", "Ac 5s 5h 5d 5c", eastern) == (0, 2, 4)
    assert royalties("Qs Qh 7s", "Js Jh Jd 2s 2h", "Ac 5s 5h 5d 5c", resolve_rules("pagat")) == (0, 0, 0)
    royal = resolve_rules("pagat", royalties={"back": {"straight_flush": 5, "royal_flush": 50}})
    assert royalties("2c 3d 5h", "6c 6d 8h 9s Jc", "Th Jh Qh Kh Ah", royal) == (0, 0, 50)
    assert royalties("2c 3d 5h", "6c 6d 8h 9s Jc", "9h Th Jh Qh Kh", royal) == (0, 0, 5)
    second = resolve_rules(royal, wheel="second")
    assert royalties("2c 3d 6h", "7c 7d 8h 9s Jc", "Ah 2h 3h 4h 5h", second) == (0, 0, 5)  # never royal
    fallback = resolve_rules("pagat", royalties={"back": {"straight_flush": 5}})
    assert royalties("2c 3d 5h", "6c 6d 8h 9s Jc", "Th Jh Qh Kh Ah", fallback) == (0, 0, 5)


# --------------------------------------------------------------------------------------------------------
# E1 (RULES.md 7)

E1_A = setting("6s 6h 6d", "4s 4h 4d 9s 9h", "Ks Kh Kd 8s 8h")
E1_B = setting("Qs Qh 7s", "Js Jh Jd 2s 2h", "Ac 5s 5h 5d 5c")


@pytest.mark.parametrize(
    ("preset", "net_a"),
    [
        ("pagat-bonus", -3),
        ("pagat", -1),
        ("wikipedia-2-4", -2),
        ("wikipedia-1-6", -1),
        ("shisanzhang-hk", -3),
    ],
)
def test_e1(preset, net_a):
    result = settle([E1_A, E1_B], resolve_rules(preset))
    assert result["net"] == [net_a, -net_a]
    pair = result["pairs"][0]
    assert pair["rows"] == [1, -1, -1]
    assert pair["decided_by"] == "rows"


def test_e1_breakdown_pagat_bonus():
    pair = settle([E1_A, E1_B], resolve_rules("pagat-bonus"))["pairs"][0]
    assert pair["royalties"] == [[3, 2, 0], [0, 2, 4]]
    assert pair["row_units"] == -1
    assert pair["royalty_units"] == -2  # +3 -2 -4 = -3 in all
    assert pair["subtotal"] == -3
    assert pair["units"] == -3
    assert set(pair) == {
        "i", "j", "decided_by", "rows", "foul", "natural", "royalties", "surrendered", "natural_units",
        "surrender_units", "row_units", "royalty_units", "overall_units", "scoop", "scoop_bonus_units",
        "multiplier", "subtotal", "stake", "home_run", "units",
        "false_declaration_units", "ace_units", "capped", "home_run_bonus_units", "home_run_capped", "horse",
        "bet",
    }  # fmt: skip


def test_e1_a_holds_three_flushes_when_declared_or_auto():
    # A's 13 cards are five spades, five hearts and three diamonds.
    cards = "6s 6h 6d 4s 4h 4d 9s 9h Ks Kh Kd 8s 8h"
    assert detect_natural(cards, resolve_rules("pagat-bonus")) == "three_flushes"
    # must_declare: not declared, so it does not count (E1 above); declared, it collects 3.
    result = settle([declared(cards), E1_B], resolve_rules("pagat-bonus"))
    assert result["net"] == [3, -3]
    assert result["pairs"][0]["decided_by"] == "natural"
    assert result["pairs"][0]["rows"] is None
    # auto (shisanshui-app): counted without declaring.
    result = settle([E1_A, E1_B], resolve_rules("shisanshui-app"))
    assert result["net"] == [3, -3]
    assert result["pairs"][0]["natural"] == ["three_flushes", None]
    assert result["pairs"][0]["rows"] == [1, -1, -1]


# --------------------------------------------------------------------------------------------------------
# E2 (RULES.md 7)

E2 = [
    setting("Ts Th Qs", "6s 5s 4s 3s 2h", "Ks Kh Kd 3h 3d"),  # North
    setting("Ac Kc 7s", "Td Tc 9s 8s 6c", "Jh Jd Jc 7h 7d"),  # East
    setting("Qd Qc 2c", "8h 7c 6d 5c 4c", "9h 9d 9c 8d 8c"),  # South
    setting("Qh Js 6h", "5h 5d 4h 4d 3c", "As Ah Ad 2s 2d"),  # West
]
N, E, S, W = range(4)
E2_ROWS = {
    (N, E): [1, 1, 1],
    (N, S): [-1, -1, 1],
    (N, W): [1, 1, -1],
    (E, S): [-1, -1, 1],
    (E, W): [1, -1, -1],
    (S, W): [1, 1, -1],
}


@pytest.mark.parametrize(
    ("preset", "totals"),
    [
        ("pagat", [3, -5, 3, -1]),
        ("pagat-bonus", [3, -5, 3, -1]),
        ("wikipedia-2-4", [4, -8, 6, -2]),
        ("wikipedia-1-6", [6, -8, 3, -1]),
        ("shisanzhang-hk", [6, -8, 3, -1]),
    ],
)
def test_e2(preset, totals):
    result = settle(E2, resolve_rules(preset))
    assert result["net"] == totals
    for (i, j), rows in E2_ROWS.items():
        pair = pair_of(result, i, j)
        assert pair["rows"] == rows
        assert pair["foul"] == [False, False]
    assert [(pair["i"], pair["j"]) for pair in result["pairs"]] == list(E2_ROWS)
    assert result["home_run"] == [False] * 4


def test_e2_north_shoots_east_under_hk():
    pair = pair_of(settle(E2, resolve_rules("shisanzhang-hk")), N, E)
    assert (pair["scoop"], pair["multiplier"], pair["units"]) == (1, 2, 6)


def test_e2_east_jacks_in_front_would_foul():
    # East's cards with the jacks in front: no legal middle and back among the other ten cards.
    east = parse_cards("Ac Kc 7s Td Tc 9s 8s 6c Jh Jd Jc 7h 7d")
    front = parse_cards("Jh Jd Jc")
    rest = [card for card in east if card not in front]
    rules = resolve_rules("pagat")
    assert all(
        is_foul(front, middle, [card for card in rest if card not in middle], rules)
        for middle in combinations(rest, 5)
    )


# --------------------------------------------------------------------------------------------------------
# E3 and the scoring-system table (RULES.md 3 and 7)

# Player Y is fixed; player X's rows are chosen to win (+1), tie (0) or lose (-1) each of Y's rows.
Y_HAND = setting("Kd 8c 4s", "6c 6d Ac Qd 2c", "Jc Jd 9c 9d 3d")
X_FRONT = {1: "Kh Ts 4h", 0: "Kh 8d 4h", -1: "Kh 7s 4h"}
X_MIDDLE = {1: "7c 7d Ah Qh 2d", 0: "6h 6s As Qs 2h", -1: "5h 5s As Qs 2h"}
X_BACK = {1: "Jh Js 9h 9s 5c", 0: "Jh Js 9h 9s 3c", -1: "Jh Js 9h 9s 2s"}


def x_hand(front: int, middle: int, back: int) -> dict:
    return setting(X_FRONT[front], X_MIDDLE[middle], X_BACK[back])


def test_e3_amy_and_bob():
    amy = x_hand(1, -1, 1)  # Amy wins front and back
    bob = Y_HAND
    expected = {"wikipedia-2-4": -2, "wikipedia-1-6": -1, "pagat": -1}
    for preset, bob_net in expected.items():
        result = settle([amy, bob], resolve_rules(preset))
        assert result["pairs"][0]["rows"] == [1, -1, 1]
        assert result["net"][1] == bob_net, preset


SCORING_TABLE = [
    # rows of X, pagat, 2-4, 1-6, shooting x2
    ((1, 1, 1), 3, 4, 6, 6),
    ((1, -1, 1), 1, 2, 1, 1),
    ((1, 0, 1), 2, 3, 2, 2),
    ((0, 1, 0), 1, 1, 1, 1),
    ((1, -1, 0), 0, 0, 0, 0),
]


@pytest.mark.parametrize(("rows", "pagat", "two_four", "one_six", "shooting"), SCORING_TABLE)
def test_scoring_system_table(rows, pagat, two_four, one_six, shooting):
    players = [x_hand(*rows), Y_HAND]
    systems = {
        "pagat": (resolve_rules("pagat"), pagat),
        "2-4": (resolve_rules("wikipedia-2-4"), two_four),
        "1-6": (resolve_rules("wikipedia-1-6"), one_six),
        "shooting": (resolve_rules("pagat", scoop_multiplier=2), shooting),
    }
    for name, (rules, units) in systems.items():
        result = settle(players, rules)
        assert result["pairs"][0]["rows"] == list(rows), name
        assert result["net"] == [units, -units], name
        # and from the other side
        swapped = settle(players[::-1], rules)
        assert swapped["net"] == [-units, units], name


def test_one_win_two_ties_under_total_basis():
    rules = resolve_rules("wikipedia-2-4", overall_basis="total")
    assert settle([x_hand(0, 1, 0), Y_HAND], rules)["net"] == [2, -2]


# --------------------------------------------------------------------------------------------------------
# E4 (RULES.md 7)

E4_RULES = resolve_rules(
    "pagat",
    scoop_multiplier=2,
    royalties_in_multiplier=True,
    foul_policy="as_scooped",
    royalties={"middle": {"full_house": 2}, "back": {"four_of_a_kind": 8}},
    suit_tiebreak="highest_card",
    suit_order="shcd",
)
E4 = [
    setting("Kc Ts 2c", "9h 8d 7h 6d 5d", "Qd Js Tc 9d 8c"),
    setting("Qh Qc 9c", "8s 8h 3s 3d 5s", "Jh Jc 2h 2d 4c"),
    setting("Jd Kh Ks", "6c 9s Td Th Qs", "2s 3c 4d 5c 6s"),
    setting("Kd 6h 5h", "7s 7d 7c 4s 4h", "As Ah Ad Ac 3h"),
]


def test_e4():
    result = settle(E4, E4_RULES)
    assert result["net"] == [-2, -4, -34, 40]
    n_w = pair_of(result, 0, 3)
    assert n_w["units"] == -9
    assert (n_w["row_units"], n_w["royalty_units"]) == (-1, -8)
    w_s = pair_of(result, 2, 3)
    assert w_s["units"] == -22  # W v S = 2 x (1 + 2 + 8), S is i
    assert w_s["decided_by"] == "foul"
    assert w_s["foul"] == [True, False]
    assert (w_s["row_units"], w_s["royalty_units"], w_s["scoop"], w_s["multiplier"]) == (-3, -8, -1, 2)
    assert [p["foul"] for p in result["pairs"]] == [[False, False], [False, True], [False, False],
                                                    [False, True], [False, False], [True, False]]  # fmt: skip
    check_zero_sum(result)


# --------------------------------------------------------------------------------------------------------
# E6 (RULES.md 7): royalties, shooting and the home run

E6_STRONG = setting("2c 2d 2h", "3s 4s 5s 6s 7s", "8h 9h Th Jh Qh")
E6_WEAK = setting("Ac Kd Qc", "Ad Ah Kc Kh 3c", "As Ks Qs Js 9s")


def test_e6_eastern_royalties_all_rows_won():
    rules = resolve_rules("pagat", royalties="eastern")
    result = settle([E6_STRONG, E6_WEAK], rules)
    assert result["net"] == [18, -18]
    assert result["pairs"][0]["royalties"] == [[3, 10, 5], [0, 0, 0]]
    assert settle([E6_STRONG, E6_WEAK], resolve_rules("pagat-bonus"))["net"] == [13, -13]


E6_TABLE = [
    setting("As Ad Kc", "9c Tc Jd Qh Kh", "2s 5s 7s 9s Js"),
    setting("Ac Qd 3c", "2c 2d 4c 4d 6c", "8c 8d 8h 3d 5d"),
    setting("Kd Qs 3h", "6d 6h 7c 7d 2h", "Td Th Ts 4h 5h"),
    setting("Qc 4s 3s", "Jc Jh 9h Ah Ks", "5c 6s 7h 8s 9d"),
]


def test_e6_home_run():
    result = settle(E6_TABLE, resolve_rules("shisanzhang-hk"))
    assert result["home_run"] == [True, False, False, False]
    for j in (1, 2, 3):
        pair = pair_of(result, 0, j)
        assert (pair["subtotal"], pair["home_run"], pair["units"]) == (6, 2, 12)
        assert pair["royalties"][0] == [0, 0, 0]
    assert result["net"][0] == 36
    check_zero_sum(result)


def test_home_run_needs_enough_opponents_and_is_off_by_default():
    three = settle(E6_TABLE[:3], resolve_rules("shisanzhang-hk"))
    assert three["home_run"] == [False] * 3
    assert three["net"][0] == 12
    lowered = settle(E6_TABLE[:3], resolve_rules("shisanzhang-hk", home_run_min_opponents=2))
    assert lowered["home_run"] == [True, False, False]
    assert lowered["net"][0] == 24
    assert settle(E6_TABLE, resolve_rules("pagat", scoop_multiplier=2))["net"][0] == 18


# --------------------------------------------------------------------------------------------------------
# Naturals (RULES.md 5, RULES.md 10)

NATURAL_EXAMPLES = {
    # kind: (a hand holding it, a near miss)
    "six_pairs": ("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d Ah", "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 8d Ah"),
    "three_straights": ("2c 3d 4h 3c 4d 5h 6s 7c 8d 9h Ts Jc Qd", "2c 3d 4h 3c 4d 5h 6s 7c 8d 9h Ts Jc Kd"),
    "three_flushes": ("2c 5c 9c 2d 7d 8d Jd Kd 5h 6h Th Qh Ah", "2c 5c 9s 2d 7d 8d Jd Kd 5h 6h Th Qh Ah"),
    "dragon": ("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac", "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kc"),
    "clean_dragon": ("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac", "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ad"),
    "five_pairs_and_trips": (
        "2c 2d 2h 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d",
        "2c 2d 2h 3c 3d 4c 4d 5c 5d 6c 6d 7c 8d",
    ),
    "four_trips": ("2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 5h 6c", "2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 6h 6c"),
    "all_one_colour": ("2d 2h 3d 5h 6d 7h 8d 9h Td Jh Qd Kh Ad", "2d 2h 3d 5h 6d 7h 8d 9h Td Jh Qd Kh As"),
    "all_small": ("2c 2d 3c 3d 4c 4d 5c 5h 6c 6d 7c 7d 8c", "2c 2d 3c 3d 4c 4d 5c 5h 6c 6d 7c 7d 9c"),
    "all_big": ("8c 8d 9c 9d Tc Td Jc Jd Qc Qd Kc Kd Ac", "8c 8d 9c 9d Tc Td Jc Jd Qc Qd Kc Kd 7c"),
    "three_quads": ("2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c", "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 5s 5c"),
    "three_straight_flushes": (
        "2c 3c 4c 3d 4d 5d 6d 7d 8h 9h Th Jh Qh",
        "2c 3c 4c 3d 4d 5d 6d 7d 8h 9h Th Jh Qs",
    ),
    "twelve_royals": ("Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks Ac", "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks Tc"),
    "five_consecutive_pairs": (
        "3c 3d 4h 4s 5c 5d 6h 6s 7c 7d 9h Js Ac",
        "3c 3d 4h 4s 5c 5d 6h 6s 8c 8d 9h Js Ac",
    ),
    "two_trips_three_pairs": (
        "2c 2d 2h 5c 5d 5h 7h 7s 9c 9d Jh Js Ac",
        "2c 2d 2h 5c 5d 5h 7h 7s 9c 9d Jh Qs Ac",
    ),
    "one_red": ("2c 3c 4c 5c 6c 7s 8s 9s Ts Js Qs Ks Ah", "2c 3c 4c 5c 6c 7s 8s 9s Ts Js Qs Kd Ah"),
    "one_black": ("2h 3h 4h 5h 6h 7d 8d 9d Td Jd Qd Kd As", "2h 3h 4h 5h 6h 7d 8d 9d Td Jd Qd Kc As"),
    "twelve_royals_ten": ("Tc Td Th Jc Jd Jh Qc Qd Qh Kc Kd Kh 2s", "Tc Td Th Jc Jd Jh Qc Qd Qh Kc Kd 3h 2s"),
    "twelve_royals_and_one": (
        "Jc Jd Qc Qd Qh Kc Kd Kh Ks Ac Ad Ah 2c",
        "Jc Tc Qc Qd Qh Kc Kd Kh Ks Ac Ad Ah 2c",
    ),
    # Only a pack with added suits holds these (the test gives it clubs and hearts)
    "six_of_a_kind": ("Ac Ac Ah Ah Ad As 2c 3d 4h 5s 6c 7d 8h", "Ac Ac Ah Ah Ad Ks 2c 3d 4h 5s 6c 7d 8h"),
    "two_fives_and_trips": (
        "Ac Ac Ah Ah Ad Kc Kc Kh Kh Ks 2c 2d 2h",
        "Ac Ac Ah Ah Ad Kc Kc Kh Kh Ks 2c 2d 3h",
    ),
}

# Two added suits give a rank six copies at most, so these are never held (jokers would make them).
NEVER_HELD = ("seven_of_a_kind", "eight_of_a_kind")


def test_every_kind_has_an_example():
    assert set(NATURAL_EXAMPLES) | set(NEVER_HELD) == set(NATURAL_KINDS)


@pytest.mark.parametrize("kind", NEVER_HELD)
def test_seven_and_eight_of_a_kind_need_more_copies(kind):
    rules = resolve_rules("pagat", naturals=[[kind, 1], ["six_of_a_kind", 1]], extra_suits="ch")
    assert detect_natural("Ac Ac Ah Ah Ad As 2c 3d 4h 5s 6c 7d 8h", rules) == "six_of_a_kind"


@pytest.mark.parametrize("kind", sorted(NATURAL_EXAMPLES))
def test_natural_detected_and_near_miss(kind):
    held, near_miss = NATURAL_EXAMPLES[kind]
    # Clubs and hearts added to the pack, for the kinds only such a pack holds (the others need no copy).
    rules = resolve_rules("pagat", naturals=[[kind, 1]], extra_suits="ch")
    assert detect_natural(held, rules) == kind
    assert detect_natural(near_miss, rules) is None


def test_natural_highest_listed_kind_wins():
    rules = resolve_rules("pagat-bonus")
    assert detect_natural(NATURAL_EXAMPLES["dragon"][0], rules) == "dragon"  # also three straights
    assert detect_natural(NATURAL_EXAMPLES["all_small"][0], resolve_rules("shisanzhang-hk")) == "all_small"
    assert detect_natural(NATURAL_EXAMPLES["all_small"][0], rules) == "six_pairs"
    assert detect_natural(NATURAL_EXAMPLES["clean_dragon"][0], rules) == "dragon"
    assert detect_natural(NATURAL_EXAMPLES["dragon"][0], resolve_rules("pagat")) is None


def test_six_pairs_knobs():
    quads = "2c 2d 2h 2s 3c 3d 4c 4d 5c 5d 6c 6d Ah"
    trips = "2c 2d 2h 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d"
    rules = resolve_rules("pagat", naturals=[["six_pairs", 3]])
    assert detect_natural(quads, rules) == "six_pairs"
    assert detect_natural(trips, rules) == "six_pairs"
    assert detect_natural(quads, resolve_rules(rules, quads_as_two_pairs=False)) is None
    assert detect_natural(trips, resolve_rules(rules, trips_as_pair_plus_single=False)) is None
    assert natural_key("six_pairs", quads, rules) == (6, 5, 4, 3, 2, 2, 14)
    assert natural_key("six_pairs", trips, rules) == (7, 6, 5, 4, 3, 2, 2)


def test_five_pairs_and_trips_quads_knob():
    hand = "2c 2d 2h 3c 3d 3h 3s 5c 5d 6c 6d 7c 7d"
    rules = resolve_rules("pagat", naturals=[["five_pairs_and_trips", 3]])
    assert detect_natural(hand, rules) == "five_pairs_and_trips"
    assert detect_natural(hand, resolve_rules(rules, quads_as_two_pairs=False)) is None


def test_three_straights_front_ace_knobs():
    hand = "Qc Kd Ah 3c 4d 5h 6s 7c 6d 7h 8s 9c Td"  # the ace fits only in a Q-K-A front
    rules = resolve_rules("pagat", naturals=[["three_straights", 3]])
    assert detect_natural(hand, rules) == "three_straights"
    assert natural_key("three_straights", hand, rules)[2] == 14
    assert detect_natural(hand, resolve_rules(rules, three_straights_front_qka=False)) is None
    assert detect_natural(hand, resolve_rules(rules, three_straights_front_a23=False)) == "three_straights"
    low = "Ac 2d 3h 5c 6d 7h 8s 9c 9d Th Js Qc Kd"  # A-2-3 front
    assert natural_key("three_straights", low, rules) == (
        evaluate("9d Th Js Qc Kd"),
        evaluate("5c 6d 7h 8s 9c"),
        3,
    )
    assert detect_natural(low, resolve_rules(rules, three_straights_front_a23=False)) is None
    assert detect_natural(low, resolve_rules(rules, three_straights_front_qka=False)) == "three_straights"


def test_three_flushes_suits_may_repeat_and_key():
    hand = "2c 5c 9c 3c 7c 8c Jc Kc 5h 6h Th Qh Ah"
    rules = resolve_rules("pagat-bonus")
    assert detect_natural(hand, rules) == "three_flushes"
    key = natural_key("three_flushes", hand, rules)
    assert key[0] == evaluate("5h 6h Th Qh Ah")
    assert key[1] == evaluate("Kc Jc 9c 8c 7c")  # the best middle once the back is fixed
    assert key[2] == evaluate("5c 3c 2c")


def test_natural_key_rejects_a_kind_not_held():
    with pytest.raises(ValueError, match="the cards do not hold dragon"):
        natural_key("dragon", NATURAL_EXAMPLES["dragon"][1], resolve_rules("pagat-bonus"))


DRAGON_CD = "2c 3d 4c 5d 6c 7d 8c 9d Tc Jd Qc Kd Ac"
DRAGON_HS = "2h 3s 4h 5s 6h 7s 8h 9s Th Js Qh Ks Ah"
SIX_PAIRS_HIGH = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d Kc Kd 7h"
SIX_PAIRS_LOW = "2h 2s 3h 3s 4h 4s 5h 5s 6h 6s Qc Qd Ah"


def test_natural_v_natural_and_v_ordinary():
    rules = resolve_rules("pagat-bonus")
    ordinary = setting("7c 8d 9h", "Tc Td Jc Jd 2s", "Ac Ad As 4s 6s")
    players = [declared(DRAGON_HS), declared(SIX_PAIRS_HIGH), ordinary]
    result = settle(players, rules)
    dragon_v_pairs = pair_of(result, 0, 1)
    assert dragon_v_pairs["decided_by"] == "natural"
    assert dragon_v_pairs["natural"] == ["dragon", "six_pairs"]
    assert dragon_v_pairs["natural_units"] == 13
    assert dragon_v_pairs["units"] == 13
    assert dragon_v_pairs["rows"] is None
    assert pair_of(result, 0, 2)["units"] == 13
    assert pair_of(result, 1, 2)["units"] == 3
    assert pair_of(result, 1, 2)["royalties"] == [[0, 0, 0], [0, 0, 0]]
    assert result["net"] == [26, -10, -16]
    # the lower kind gets nothing, even when listed with more units
    heavy = resolve_rules("pagat", naturals=[["dragon", 1], ["six_pairs", 20]])
    assert settle([declared(DRAGON_HS), declared(SIX_PAIRS_HIGH)], heavy)["net"] == [-20, 20]


def test_same_kind_tiebreaks():
    rules = resolve_rules("pagat-bonus")
    assert settle([declared(DRAGON_CD), declared(DRAGON_HS)], rules)["net"] == [0, 0]
    assert settle([declared(SIX_PAIRS_LOW), declared(SIX_PAIRS_HIGH)], rules)["net"] == [-3, 3]
    # equal top pair: full compares the other pairs, top_pair_only ties
    same_top = "2h 2s 3h 3s 4h 4s 5h 5s 7c 7d Kh Ks 8h"
    assert settle([declared(SIX_PAIRS_HIGH), declared(same_top)], rules)["net"] == [-3, 3]
    top_only = resolve_rules("pagat-bonus", natural_tiebreak="top_pair_only")
    assert settle([declared(SIX_PAIRS_HIGH), declared(same_top)], top_only)["net"] == [0, 0]
    assert settle([declared(SIX_PAIRS_LOW), declared(SIX_PAIRS_HIGH)], top_only)["net"] == [-3, 3]
    # same pairs: the single decides under full
    single_8 = "2h 2s 3h 3s 4h 4s 5h 5s 6h 6s Kh Ks 8c"
    assert settle([declared(SIX_PAIRS_HIGH), declared(single_8)], rules)["net"] == [-3, 3]
    assert settle([declared(SIX_PAIRS_HIGH), declared(single_8)], top_only)["net"] == [0, 0]


def test_three_straights_and_three_flushes_tiebreaks():
    rules = resolve_rules("pagat-bonus")
    queen_back = "2c 3d 4h 3c 4d 5h 6s 7c 8d 9h Ts Jc Qd"
    king_back = "5c 6d 7h 2s 3s 4c 5d 6h 9c Td Jd Qc Kc"
    assert detect_natural(king_back, rules) == "three_straights"
    assert settle([declared(queen_back), declared(king_back)], rules)["net"] == [-3, 3]
    ace_flush = "2c 5c 9c 2d 7d 8d Jd Kd 5h 6h Th Qh Ah"
    king_flush = "3c 4c 6c 3d 4d 6d 9d Td 3s 7s 8s Js Ks"
    assert detect_natural(king_flush, rules) == "three_flushes"
    assert settle([declared(king_flush), declared(ace_flush)], rules)["net"] == [-3, 3]


def test_declaring_without_a_natural_is_an_error():
    with pytest.raises(ValueError, match="player 1"):
        settle([E1_B, declared("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kc")], resolve_rules("pagat-bonus"))
    with pytest.raises(ValueError, match="player 0"):
        settle([declared(DRAGON_CD), E1_B], resolve_rules("pagat"))


# --------------------------------------------------------------------------------------------------------
# Surrender and fouls (RULES.md 3, RULES.md 11)

FOUL_HAND = setting("Kh Kc 2d", "Qh Qc 3d 4d 5s", "Ah Ac 6d 7d 8s")  # K-K front over Q-Q middle
LEGAL_HAND = setting("9c 8c 3c", "Jd Jc 4c 5c 6c", "Td Tc Th 2s 3s")


def test_surrender():
    rules = resolve_rules("pagat", surrender_units=3)
    surrender_a = setting("2c 3h 5d", "Ad Kd 9h 7s 4s", "As Ks 9s 7c 4h")
    surrender_b = setting("Jh Ts Js", "Qd Qs 9d 7h 5h", "8d 8h 6h 6s 2h")
    players = [surrender_a, LEGAL_HAND, FOUL_HAND, surrender_b]
    assert not is_foul(surrender_b["front"], surrender_b["middle"], surrender_b["back"], rules)
    result = settle(players, rules, surrender=[True, False, False, True])
    assert pair_of(result, 0, 1)["decided_by"] == "surrender"
    assert pair_of(result, 0, 1)["surrender_units"] == -3
    assert pair_of(result, 0, 2)["units"] == 0  # against a foul player
    assert pair_of(result, 0, 3)["units"] == 0  # both surrendered
    assert pair_of(result, 0, 3)["surrendered"] == [True, True]
    assert pair_of(result, 1, 2)["decided_by"] == "foul"
    assert pair_of(result, 1, 2)["units"] == 3
    assert pair_of(result, 1, 3)["units"] == 3
    assert pair_of(result, 2, 3)["units"] == 0
    assert result["net"] == [-3, 9, -3, -3]
    assert pair_of(result, 0, 1)["rows"] is not None


def test_surrender_flag_needs_surrender_units():
    with pytest.raises(ValueError, match="player 1"):
        settle([E1_A, E1_B], resolve_rules("pagat"), surrender=[False, True])
    with pytest.raises(ValueError, match=r"one flag per player \(2\), got 1"):
        settle([E1_A, E1_B], resolve_rules("pagat", surrender_units=2), surrender=[False])


def test_both_fouled_pay_nothing():
    other_foul = setting("Jh Jd 2h", "Th Ts 3h 4s 5h", "9h 9s 6h 7s Kd")
    for preset in PRESETS:
        if PRESETS[preset].get("ace_basis") == "table" or PRESETS[preset].get("foul_vs_foul") == "as_laid":
            continue  # 4 players only; and two fouled hands compare rows as laid there
        result = settle([FOUL_HAND, other_foul], resolve_rules(preset))
        pair = result["pairs"][0]
        assert pair["decided_by"] == "foul"
        assert pair["foul"] == [True, True]
        assert result["net"] == [0, 0]
        assert pair["multiplier"] == 1
        assert pair["scoop"] == 0


@pytest.mark.parametrize(
    ("preset", "units", "scoop"),
    [("pagat", 3, 0), ("wikipedia-2-4", 4, 1), ("wikipedia-1-6", 6, 1), ("shisanzhang-hk", 6, 1)],
)
def test_foul_policy(preset, units, scoop):
    result = settle([LEGAL_HAND, FOUL_HAND], resolve_rules(preset))
    pair = result["pairs"][0]
    assert pair["decided_by"] == "foul"
    assert pair["row_units"] == 3
    assert pair["scoop"] == scoop
    assert result["net"] == [units, -units]


def test_foul_pays_royalties():
    legal = setting("2c 2s 2h", "3c 3s 3h Js Jd", "9s 9h 9c 9d 4h")  # trips 3, full house 2, quads 4
    rules = resolve_rules("pagat-bonus")
    assert royalties(legal["front"], legal["middle"], legal["back"], rules) == (3, 2, 4)
    result = settle([FOUL_HAND, legal], rules)
    assert result["net"] == [-9, 9]
    assert result["pairs"][0]["royalty_units"] == -6
    assert settle([FOUL_HAND, legal], resolve_rules(rules, foul_pays_royalties=False))["net"] == [-3, 3]
    # the foul player's royalties are never paid: a foul setting with trips in front
    foul_trips = setting("Ac Ad Ah", "Kc Kh Qs Js 8d", "Ts 9h 8h 7s 6s")
    assert is_foul(foul_trips["front"], foul_trips["middle"], foul_trips["back"], rules)
    assert settle([foul_trips, LEGAL_HAND], rules)["net"] == [-3, 3]
    always = resolve_rules(rules, royalty_condition="always")
    assert settle([foul_trips, LEGAL_HAND], always)["net"] == [-3, 3]


# --------------------------------------------------------------------------------------------------------
# Royalty modes (RULES.md 4, RULES.md 11.5), with E1 under the pagat table


@pytest.mark.parametrize(
    ("knobs", "net_a"),
    [
        ({}, -3),  # +3 -2 -4
        ({"royalty_mode": "add"}, -4),  # +4 -3 -5
        ({"royalty_condition": "always"}, -1),  # +3, 2-2, -4
        ({"royalty_condition": "always", "royalty_mode": "add"}, -2),  # 3+1, 0-1, -4-1
        ({"royalty_cancel": True}, -2),  # +3, plain -1, -4
        ({"royalty_cancel": True, "royalty_mode": "add"}, -2),  # +4, -1, -5
    ],
)
def test_royalty_knobs(knobs, net_a):
    rules = resolve_rules("pagat", royalties="pagat", **knobs)
    result = settle([E1_A, E1_B], rules)
    assert result["net"] == [net_a, -net_a]
    pair = result["pairs"][0]
    assert pair["row_units"] == -1
    assert pair["royalty_units"] == net_a + 1


def test_royalties_in_multiplier():
    rules = resolve_rules("pagat", royalties="eastern", scoop_multiplier=2)
    assert settle([E6_STRONG, E6_WEAK], rules)["net"] == [21, -21]  # 2 x 3 + 15
    with_royalties = resolve_rules(rules, royalties_in_multiplier=True)
    assert settle([E6_STRONG, E6_WEAK], with_royalties)["net"] == [36, -36]


def test_overall_basis_total():
    x = setting("Ah Kd 4c", "7c 7d 8h 9s 2d", "Th Td Tc 3s 4s")
    y = setting("Qd Jh 3c", "6c 6d Ac 9c 2c", "5c 5d 5h 5s Kc")  # back quads: royalty 4
    two_rows = resolve_rules("pagat", royalties="pagat", overall_unit=1)
    result = settle([x, y], two_rows)
    assert result["pairs"][0]["rows"] == [1, 1, -1]
    assert result["pairs"][0]["overall_units"] == 1
    assert result["net"] == [-1, 1]  # 1 + 1 - 4 + 1
    total = resolve_rules(two_rows, overall_basis="total")
    result = settle([x, y], total)
    assert result["pairs"][0]["overall_units"] == -1
    assert result["net"] == [-3, 3]  # 1 + 1 - 4 - 1


# --------------------------------------------------------------------------------------------------------
# Stakes, validation, zero-sum


def test_stakes():
    stakes = [[0, 2, 1, 1], [2, 0, 1, 1], [1, 1, 0, 3], [1, 1, 3, 0]]
    result = settle(E2, resolve_rules("pagat"), stakes=stakes)
    assert pair_of(result, N, E)["stake"] == 2
    assert pair_of(result, N, E)["units"] == 6
    assert pair_of(result, S, W)["units"] == 3
    assert result["net"] == [6, -8, 5, -3]


@pytest.mark.parametrize(
    ("stakes", "message"),
    [
        ([[1, 2], [1, 1]], "stakes must be symmetric"),
        ([[1, -1], [-1, 1]], "must be a non-negative int"),
        ([[1, 1, 1], [1, 1, 1], [1, 1, 1]], "stakes must be a 2 x 2 matrix"),
        ([[1, 1.5], [1.5, 1]], "must be a non-negative int"),
    ],
)
def test_bad_stakes(stakes, message):
    with pytest.raises(ValueError, match=message):
        settle([E1_A, E1_B], resolve_rules("pagat"), stakes=stakes)


def test_input_validation():
    rules = resolve_rules("pagat")
    with pytest.raises(ValueError, match="2 to 4 players with extra_suits '', got 1"):
        settle([E1_A], rules)
    with pytest.raises(ValueError, match="2 to 4 players with extra_suits '', got 5"):
        settle([E1_A, E1_B, E2[0], E2[1], E2[2]], rules)
    with pytest.raises(ValueError, match="player 1"):
        settle([E1_A, {"front": [1, 2, 3]}], rules)  # missing rows
    with pytest.raises(ValueError, match="player 1"):
        settle([E1_A, setting("Qs Qh 7s", "Js Jh Jd 2s 2h", "Ac 5s 5h 5d 6s 7c")], rules)
    with pytest.raises(ValueError, match="player 0 and player 1"):
        settle([E1_A, setting("Qs Qh 7s", "Js Jh Jd 2s 2h", "Ac 5s 5h 5d 6s")], rules)
    with pytest.raises(ValueError, match="player 1"):
        settle([E1_A, {"front": [0, 1, 2], "middle": [3, 4, 5, 6, 7], "back": [8, 9, 10, 11, 0]}], rules)


def test_resolve_rules():
    hk = resolve_rules("shisanzhang-hk")
    assert hk["royalties"]["middle"] == {"full_house": 2, "four_of_a_kind": 8, "straight_flush": 10}
    assert hk["naturals"][-1] == ["dragon", 13]
    app = resolve_rules("shisanshui-app")
    assert (app["wheel"], app["natural_declaration"], app["home_run_multiplier"]) == ("second", "auto", 2)
    assert resolve_rules("pagat", scoop_bonus=3)["scoop_bonus"] == 3
    assert resolve_rules("pusoy") == resolve_rules("pagat")
    assert resolve_rules("capsa-susun")["naturals"] == resolve_rules("pagat-bonus")["naturals"]
    assert resolve_rules({"preset": "wikipedia-1-6", "scoop_bonus": 2})["foul_policy"] == "as_scooped"
    assert resolve_rules({"naturals": [{"dragon": 13}]})["naturals"] == [["dragon", 13]]
    assert resolve_rules("pagat")["royalties"] == {"front": {}, "middle": {}, "back": {}}
    with pytest.raises(ValueError, match="unknown preset 'no-such-preset'"):
        resolve_rules("no-such-preset")
    with pytest.raises(ValueError, match="unknown rules knob 'no_such_knob'"):
        resolve_rules("pagat", no_such_knob=1)
    with pytest.raises(ValueError, match="wheel must be one of"):
        resolve_rules("pagat", wheel="high")
    with pytest.raises(ValueError, match="unknown natural kind 'no_such_kind'"):
        resolve_rules("pagat", naturals=[["no_such_kind", 1]])


def _random_table(rng: random.Random, count: int) -> list[dict]:
    deck = list(range(52))
    rng.shuffle(deck)
    players = []
    for seat in range(count):
        cards = deck[13 * seat : 13 * seat + 13]
        players.append({"front": cards[:3], "middle": cards[3:8], "back": cards[8:]})
    return players


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_zero_sum_and_antisymmetry_on_random_tables(preset):
    rng = random.Random(20240601)
    rules = resolve_rules(preset, surrender_units=2)
    most = 3 if rules["fantasyland"] != "off" else 4  # fantasyland rules take 3 players at most
    for _ in range(15):
        count = 4 if rules["ace_basis"] == "table" else rng.randint(2, most)  # table aces: 4 players
        players = _random_table(rng, count)
        flags = [rng.random() < 0.15 for _ in range(count)]
        result = settle(players, rules, surrender=flags)
        check_zero_sum(result)
        assert len(result["pairs"]) == count * (count - 1) // 2
        reversed_result = settle(players[::-1], rules, surrender=flags[::-1])
        assert reversed_result["net"] == result["net"][::-1]
    for name, hands in (("E2", E2), ("E4", E4), ("E6", E6_TABLE)):
        check_zero_sum(settle(hands[:most], rules))
        del name


def test_pareto_front_is_the_undominated_triples():
    # A worked example: (2, 2, 2) beats (1, 2, 2) and matches none other in all rows; (3, 0, 0) and
    # (0, 0, 3) are beaten by nobody.
    assert pareto_front([(1, 2, 2), (2, 2, 2), (3, 0, 0), (0, 0, 3), (0, 0, 2), (2, 2, 2)]) == {
        (2, 2, 2),
        (3, 0, 0),
        (0, 0, 3),
    }
    assert pareto_front([]) == set()
    # Small values, so that ties in one or two rows are common: the definition, checked pair by pair.
    rng = random.Random(11)
    for _ in range(300):
        triples = {tuple(rng.randrange(4) for _ in range(3)) for _ in range(rng.randrange(1, 30))}
        undominated = {
            t for t in triples if not any(o != t and all(o[k] >= t[k] for k in range(3)) for o in triples)
        }
        assert pareto_front(triples) == undominated
