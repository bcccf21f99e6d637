"""Pure-Python reference: the fantasyland setting by brute force over every 13-card setting (RULES.md 4.3).

Every front, middle and back of distinct cards of the hand is tried: each legal one (RULES.md 9) is worth
its royalty total, plus ``stay_value`` when the board keeps the player in fantasyland (RULES.md 4.2: trips
in front, a full house or better in the middle, four of a kind or better in the back; nobody stays under
``fantasyland="off"``). The best is the greatest value, then the strongest back, middle, front. Slow on
purpose (about a million settings for 14 cards): the compiled solver is checked against it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from chinese_poker.reference.evaluate import SUBSTITUTED, category_name, evaluate, knob, substitute
from chinese_poker.reference.settle import _royalty_of_row, _royalty_table

#: What the brute force returns: (value, (back, middle, front) strengths, (front, middle, back) cards as
#: held, (front, middle, back) royalties, stays).
Best = tuple[float, tuple[int, int, int], tuple[tuple[int, ...], ...], tuple[int, int, int], bool]


def _row_facts(
    cards: tuple[int, ...], row: str, rules: Mapping[str, Any], table: Mapping[str, Any]
) -> tuple[int, int]:
    """(strength, royalty) of a row of cards as held: a joker stands for its row's best card."""
    wheel = knob(rules, "wheel")
    laid = substitute(list(cards), rules) if any(c >= 52 for c in cards) else cards
    strength = evaluate(list(laid), wheel, SUBSTITUTED)
    return strength, _royalty_of_row(row, laid, strength, table)


def best_setting(cards: Sequence[int], rules: Mapping[str, Any], stay_value: float) -> Best:
    """The best setting of 14 to 17 card codes under resolved ``rules`` (module docstring)."""
    table = knob(rules, "royalties")
    if isinstance(table, str):
        table = _royalty_table(table)
    on = knob(rules, "fantasyland") != "off"
    strict = knob(rules, "middle_vs_back") == "strict"
    positions = range(len(cards))
    five = {
        combo: _row_facts(tuple(cards[p] for p in combo), "back", rules, table)
        + _row_facts(tuple(cards[p] for p in combo), "middle", rules, table)[1:]
        for combo in combinations(positions, 5)
    }
    three = {
        combo: _row_facts(tuple(cards[p] for p in combo), "front", rules, table)
        for combo in combinations(positions, 3)
    }
    best: Best | None = None
    for back, (b_strength, b_royalty, _) in five.items():
        rest = [p for p in positions if p not in back]
        for middle in combinations(rest, 5):
            m_strength, _, m_royalty = five[middle]
            if m_strength > b_strength or (strict and m_strength == b_strength):
                continue
            left = [p for p in rest if p not in middle]
            for front in combinations(left, 3):
                f_strength, f_royalty = three[front]
                if f_strength > m_strength:
                    continue
                stays = on and (
                    category_name(f_strength) == "three_of_a_kind"
                    or category_name(m_strength) in _FULL_HOUSE_OR_BETTER
                    or category_name(b_strength) in _QUADS_OR_BETTER
                )
                value = float(f_royalty + m_royalty + b_royalty) + (stay_value if stays else 0.0)
                key = (value, (b_strength, m_strength, f_strength))
                if best is None or key > (best[0], best[1]):
                    rows = tuple(tuple(cards[p] for p in row) for row in (front, middle, back))
                    best = (value, key[1], rows, (f_royalty, m_royalty, b_royalty), stays)
    assert best is not None  # a sorted board is always legal
    return best


_FULL_HOUSE_OR_BETTER = ("full_house", "four_of_a_kind", "straight_flush", "five_of_a_kind")
_QUADS_OR_BETTER = ("four_of_a_kind", "straight_flush", "five_of_a_kind")


def __dir__() -> list[str]:
    return ["best_setting"]
