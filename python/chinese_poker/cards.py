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
    try:
        return _core.parse_card(token)
    except TypeError as error:
        raise TypeError(f"parse_card: {error}") from None


def parse_cards(cards: CardsLike, extra_suits: str = "") -> tuple[int, ...]:
    """Card codes of several cards, in the order given.

    Accepts one string (``"As Kd 10h 9c"``, ``"AsKd10h"``, commas, any case, ``T`` or ``10``, the suit
    symbols ♣♦♥♠) or any iterable of card strings or ints 0..51 (numpy arrays included). Raises ValueError
    naming the offending token and its position for unknown cards, out-of-range codes and repeated cards.
    ``extra_suits`` (the rules knob: suits added to the pack, e.g. ``"s"``): a card of those suits may
    appear twice, since the pack holds it twice.
    """
    try:
        return _core.parse_cards(cards, extra_suits)
    except TypeError as error:
        raise TypeError(f"parse_cards: {error}") from None


def format_card(card: CardLike) -> str:
    """Canonical text of one card code, e.g. ``51 -> "As"``."""
    try:
        code = _core.parse_card(card)
    except TypeError as error:
        raise TypeError(f"format_card: {error}") from None
    return RANKS[code // 4] + SUITS[code % 4]


def format_cards(cards: CardsLike) -> str:
    """Canonical text of several cards, e.g. ``"As Kd Th"``."""
    try:
        codes = _core.parse_cards(cards)
    except TypeError as error:
        raise TypeError(f"format_cards: {error}") from None
    return " ".join(RANKS[code // 4] + SUITS[code % 4] for code in codes)


def __dir__() -> list[str]:
    return list(__all__)
