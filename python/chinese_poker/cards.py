"""Card codes and card text.

A card is an integer 0..51: ``4 * rank + suit``, rank 0 = deuce .. 12 = ace, suit 0..3 = clubs, diamonds,
hearts, spades (the ids phevaluator uses, so arrays can be exchanged with it).
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable
from typing import Union

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52

_SUIT_OF_SYMBOL = {"♣": 0, "♦": 1, "♥": 2, "♠": 3, "♧": 0, "♢": 1, "♡": 2, "♤": 3}
_CARD_AT = re.compile(r"(10|[2-9tjqka])([cdhs♣♦♥♠♧♢♡♤])", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,;]+")

CardLike = Union[str, int]
CardsLike = Union[str, Iterable[CardLike]]


def _card_from_match(match: re.Match[str]) -> int:
    rank_text, suit_text = match.group(1).upper(), match.group(2)
    rank = 8 if rank_text == "10" else RANKS.index(rank_text)
    suit = _SUIT_OF_SYMBOL.get(suit_text)
    if suit is None:
        suit = SUITS.index(suit_text.lower())
    return 4 * rank + suit


def parse_card(token: CardLike) -> int:
    """Card code of one card: a string such as ``"As"``, ``"10h"``, ``"td"``, ``"K♠"``, or an int 0..51."""
    if isinstance(token, str):
        match = _CARD_AT.fullmatch(token.strip())
        if match is None:
            raise ValueError(f"unknown card {token!r}")
        return _card_from_match(match)
    if isinstance(token, numbers.Integral) and not isinstance(token, bool):
        code = int(token)
        if not 0 <= code < DECK_SIZE:
            raise ValueError(f"card code {code} is not in 0..51")
        return code
    raise TypeError(f"a card is a string such as 'As' or an int 0..51, got {type(token).__name__}")


def _tokens_of_text(text: str) -> list[int]:
    cards: list[int] = []
    for chunk in _SEPARATORS.split(text.strip()):
        pos = 0
        while pos < len(chunk):
            match = _CARD_AT.match(chunk, pos)
            if match is None:
                bad = chunk[pos:]
                raise ValueError(f"unknown card {bad!r} at position {len(cards)} in {text!r}")
            cards.append(_card_from_match(match))
            pos = match.end()
    return cards


def parse_cards(cards: CardsLike) -> tuple[int, ...]:
    """Card codes of several cards, in the order given.

    Accepts one string (``"As Kd 10h 9c"``, ``"AsKd10h"``, commas, any case, ``T`` or ``10``, the suit
    symbols ♣♦♥♠) or any iterable of card strings or ints 0..51 (numpy arrays included). Raises ValueError
    naming the offending token and its position for unknown cards, out-of-range codes and repeated cards.
    """
    if isinstance(cards, str):
        codes = _tokens_of_text(cards)
    else:
        try:
            items = list(cards)
        except TypeError:
            raise TypeError(
                f"cards must be a string or an iterable of cards, got {type(cards).__name__}"
            ) from None
        codes = []
        for position, item in enumerate(items):
            try:
                codes.append(parse_card(item))
            except (ValueError, TypeError) as error:
                raise type(error)(f"{error} at position {position}") from None
    first_seen: dict[int, int] = {}
    for position, code in enumerate(codes):
        if code in first_seen:
            raise ValueError(
                f"card {format_card(code)} appears twice (positions {first_seen[code]} and {position})"
            )
        first_seen[code] = position
    return tuple(codes)


def format_card(card: int) -> str:
    """Canonical text of one card code, e.g. ``51 -> "As"``."""
    code = parse_card(card)
    return RANKS[code // 4] + SUITS[code % 4]


def format_cards(cards: CardsLike) -> str:
    """Canonical text of several cards, e.g. ``"As Kd Th"``."""
    return " ".join(format_card(code) for code in parse_cards(cards))
