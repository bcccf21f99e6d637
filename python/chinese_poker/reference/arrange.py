"""Pure-Python reference: every legal setting of 13 cards, by brute force over all 72,072 splits.

Each row's strength comes from the reference ``evaluate``; a split is legal when back >= middle >= front
(``middle_vs_back="strict"``: back > middle), as ``is_foul`` says. Nothing here is shared with the C++.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from chinese_poker.reference.cards import CardsInput
from chinese_poker.reference.evaluate import card_codes, evaluate, knob

__all__ = [
    "legal_settings",
    "pareto_front",
    "strongest",
]

Strengths = tuple[int, int, int]
Setting = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _legal(front: int, middle: int, back: int, rules: Mapping[str, Any]) -> bool:
    if knob(rules, "middle_vs_back") == "strict":
        return front < middle < back
    return front < middle <= back


def legal_settings(cards13: CardsInput, rules: Mapping[str, Any]) -> dict[Strengths, Setting]:
    """Every legal setting, one per distinct (front, middle, back) strength triple.

    Returns ``{(front, middle, back) strengths: (front cards, middle cards, back cards)}``; the setting kept
    for a triple is the first met in the order of ``itertools.combinations``.
    """
    cards = card_codes(cards13, counts=(13,))
    wheel = knob(rules, "wheel")
    # Each 5- and 3-card subset's strength, computed once: every split reuses them.
    five: dict[tuple[int, ...], int] = {subset: evaluate(subset, wheel) for subset in combinations(cards, 5)}
    three: dict[tuple[int, ...], int] = {subset: evaluate(subset, wheel) for subset in combinations(cards, 3)}
    found: dict[Strengths, Setting] = {}
    for back in combinations(cards, 5):
        rest = tuple(c for c in cards if c not in back)
        for middle in combinations(rest, 5):
            front = tuple(c for c in rest if c not in middle)
            key = (three[front], five[middle], five[back])
            if key not in found and _legal(*key, rules):
                found[key] = (front, middle, back)
    return found


def pareto_front(strengths: set[Strengths] | list[Strengths]) -> set[Strengths]:
    """The triples no other triple matches or beats in all three rows (equal triples count once)."""
    # A triple that beats or matches t in every row and differs from it is greater in the lexicographic
    # order, so it comes first in a descending sweep; and whatever dominates t is itself either kept or
    # dominated by a kept triple (dominance is transitive). Checking each triple against the kept ones
    # alone is therefore the definition, at a cost of len(triples) x len(front) instead of its square.
    kept: list[Strengths] = []
    for t in sorted(set(strengths), reverse=True):
        if not any(o[0] >= t[0] and o[1] >= t[1] and o[2] >= t[2] for o in kept):
            kept.append(t)
    return set(kept)


def strongest(cards13: CardsInput, rules: Mapping[str, Any]) -> Strengths:
    """The strengths of the legal setting with the strongest back, then middle, then front."""
    return max(legal_settings(cards13, rules), key=lambda t: (t[2], t[1], t[0]))


def __dir__() -> list[str]:
    return list(__all__)
