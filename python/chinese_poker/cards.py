"""Card codes and card text.

A card is an integer 0..51: ``4 * rank + suit``, rank 0 = deuce .. 12 = ace, suit 0..3 = clubs, diamonds,
hearts, spades (the ids phevaluator uses, so arrays can be exchanged with it). The parser is the core's
(one parser for Python, ``evaluate`` and the command line).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Union

from chinese_poker import _core

__all__ = [
    "DECK_SIZE",
    "RANKS",
    "SUITS",
    "CardLike",
    "CardsLike",
    "format_card",
    "format_cards",
    "parse_card",
    "parse_cards",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52

CardLike = Union[str, int]
CardsLike = Union[str, Iterable[CardLike]]


def parse_card(token: CardLike) -> int:
    """Card code of one card: a string such as ``"As"``, ``"10h"``, ``"td"``, ``"K♠"``, or an int 0..51."""
    return _core.parse_card(token)


def parse_cards(cards: CardsLike) -> tuple[int, ...]:
    """Card codes of several cards, in the order given.

    Accepts one string (``"As Kd 10h 9c"``, ``"AsKd10h"``, commas, any case, ``T`` or ``10``, the suit
    symbols ♣♦♥♠) or any iterable of card strings or ints 0..51 (numpy arrays included). Raises ValueError
    naming the offending token and its position for unknown cards, out-of-range codes and repeated cards.
    """
    return _core.parse_cards(cards)


def format_card(card: CardLike) -> str:
    """Canonical text of one card code, e.g. ``51 -> "As"``."""
    code = parse_card(card)
    return RANKS[code // 4] + SUITS[code % 4]


def format_cards(cards: CardsLike) -> str:
    """Canonical text of several cards, e.g. ``"As Kd Th"``."""
    return " ".join(format_card(code) for code in parse_cards(cards))


def __dir__() -> list[str]:
    return list(__all__)
