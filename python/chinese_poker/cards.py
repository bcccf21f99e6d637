"""Card codes and card text.

A card is an integer 0..51: ``4 * rank + suit``, rank 0 = deuce .. 12 = ace, suit 0..3 = clubs, diamonds,
hearts, spades (the ids phevaluator uses, so arrays can be exchanged with it). The jokers of a pack with
jokers (the rules knob ``jokers``, RULES.md 1.2) are ``X1`` = 52 and ``X2`` = 53; ``🃏`` reads as the first
joker the text does not name. The parser is the core's (one parser for Python, ``evaluate`` and the
command line).
"""

from __future__ import annotations

from collections.abc import Iterable

import chinese_poker._core as _core

__all__ = [
    "DECK_SIZE",
    "JOKERS",
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
#: The jokers' texts, by code - 52.
JOKERS = ("X1", "X2")

CardLike = str | int
CardsLike = str | Iterable[CardLike]


def parse_card(token: CardLike) -> int:
    """Card code of one card: a string such as ``"As"``, ``"10h"``, ``"td"``, ``"K♠"``, a joker ``"X1"``,
    ``"X2"`` (52, 53), or an int 0..53."""
    try:
        return _core.parse_card(token)
    except TypeError as error:
        raise TypeError(f"parse_card: {error}") from None


def parse_cards(cards: CardsLike, extra_suits: str = "", jokers: int = 0) -> tuple[int, ...]:
    """Card codes of several cards, in the order given.

    Accepts one string (``"As Kd 10h 9c"``, ``"AsKd10h"``, commas, any case, ``T`` or ``10``, the suit
    symbols ♣♦♥♠) or any iterable of card strings or ints 0..51 (numpy arrays included). Raises ValueError
    naming the offending token and its position for unknown cards, out-of-range codes and repeated cards.
    ``extra_suits`` (the rules knob: suits added to the pack, e.g. ``"s"``): a card of those suits may
    appear twice, since the pack holds it twice. ``jokers`` (the rules knob, 0..2): how many of the
    jokers ``X1`` (52) and ``X2`` (53) the pack holds; another joker is a ValueError naming it.
    """
    try:
        return _core.parse_cards(cards, extra_suits, jokers)
    except TypeError as error:
        raise TypeError(f"parse_cards: {error}") from None


def format_card(card: CardLike) -> str:
    """Canonical text of one card code, e.g. ``51 -> "As"``, ``52 -> "X1"``."""
    try:
        code = _core.parse_card(card)
    except TypeError as error:
        raise TypeError(f"format_card: {error}") from None
    return _text(code)


def format_cards(cards: CardsLike, extra_suits: str = "") -> str:
    """Canonical text of several cards, e.g. ``"As Kd Th"``; the jokers are ``X1`` and ``X2``.

    A card may repeat as often as the pack holds it: twice for a card of a suit in ``extra_suits`` (the
    rules knob), else once; each joker once."""
    try:
        codes = _core.parse_cards(cards, extra_suits, len(JOKERS))
    except TypeError as error:
        raise TypeError(f"format_cards: {error}") from None
    return " ".join(_text(code) for code in codes)


#: The text of every card code 0..53 (the jokers last), as the core writes it: index it with a code that
#: is valid by construction (a ``Hand``'s cards) to need no per-card check.
CARD_TEXT: tuple[str, ...] = tuple(_core.format_card(code) for code in range(DECK_SIZE + len(JOKERS)))


def _text(code: int) -> str:
    """The text of a valid code 0..53."""
    return CARD_TEXT[code]


def __dir__() -> list[str]:
    return list(__all__)
