"""Arranging 13 cards into a legal setting (front 3, middle 5, back 5)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from chinese_poker import _core
from chinese_poker.cards import CardsLike, parse_cards
from chinese_poker.hand import Hand, _rules_or_default, rules_spec
from chinese_poker.rules import Rules

__all__ = ["STRATEGIES", "Arrangement", "arrange", "arrangements"]

#: The arrangement strategies ``arrange`` knows.
STRATEGIES = ("strongest",)


@dataclass(frozen=True)
class Arrangement:
    """A chosen setting: ``hand`` (a legal ``Hand``), ``strengths`` of its front, middle and back, and the
    ``strategy`` that chose it."""

    hand: Hand
    strengths: tuple[int, int, int]
    strategy: str


def _thirteen(cards13: CardsLike) -> np.ndarray:
    codes = parse_cards(cards13)
    if len(codes) != 13:
        raise ValueError(f"arranging takes 13 cards, got {len(codes)}")
    return np.asarray(codes, dtype=np.uint8)


def arrangements(
    cards13: CardsLike, rules: Rules | None = None, *, drop_dominated: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Every legal setting of 13 cards under ``rules``, those with identical row strengths collapsed to one.

    Returns ``(settings, strengths)``: a ``(K, 13)`` uint8 array (front 3, middle 5, back 5 card codes) and a
    ``(K, 3)`` int32 array of the rows' strengths, strongest back first. With ``drop_dominated``, a setting
    that another legal one matches or beats in all three rows is left out (the Pareto front remains).
    """
    spec = rules_spec(_rules_or_default(rules))
    return _core.legal_arrangements(_thirteen(cards13), spec, True, drop_dominated)


def arrange(cards13: CardsLike, rules: Rules | None = None, strategy: str = "strongest") -> Arrangement:
    """Choose a legal setting for 13 cards.

    ``strategy="strongest"``: the strongest back, then the strongest middle, then the strongest front.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(map(repr, STRATEGIES))}, got {strategy!r}")
    rules = _rules_or_default(rules)
    setting = _core.strongest_arrangement(_thirteen(cards13), rules_spec(rules))
    hand = Hand.from_cards(setting)
    strengths = tuple(int(s) for s in hand.facts(rules)["strengths"])
    return Arrangement(hand=hand, strengths=(strengths[0], strengths[1], strengths[2]), strategy=strategy)
