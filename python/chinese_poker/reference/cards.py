"""Pure-Python reference: card text and card codes, written from RULES.md section 1 alone.

A card code is ``4 * rank + suit``: rank 0 = deuce .. 12 = ace, suit 0..3 = clubs, diamonds, hearts, spades
(RULES.md 1); the jokers are ``X1`` = 52 and ``X2`` = 53 (RULES.md 1.2).

Card text, as the library reads it: cards separated by white space (the no-break and the ideographic
spaces too), commas or semicolons, or written one after another without a separator (``"AsKd10h"``);
ranks ``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``, ``A`` and suits ``c d h s`` in any case, or the
suit symbols ``♣ ♦ ♥ ♠`` (and their white forms ``♧ ♢ ♡ ♤``); ``X1`` and ``X2`` in any case, and ``🃏``,
which is the first joker the text does not write out as ``X1`` or ``X2`` (RULES.md 1.2). A sequence of
cards may also be any iterable of such strings (one card each) and of ints 0..53.

This module only turns text into codes; ``evaluate.card_codes`` checks the codes against the pack
(range, jokers, copies). It shares nothing with the core's parser, so that the two can be compared.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable

__all__ = ["RANKS", "SUITS", "CardsInput", "format_card", "parse_card", "parse_cards"]

#: Rank letters from the deuce (rank 0) to the ace (rank 12).
RANKS = "23456789TJQKA"
#: Suit letters by suit number: clubs, diamonds, hearts, spades.
SUITS = "cdhs"
#: The suit symbols, black and white forms, and the suit each stands for.
SUIT_SYMBOLS = {"♣": 0, "♧": 0, "♦": 1, "♢": 1, "♥": 2, "♡": 2, "♠": 3, "♤": 3}
#: The joker glyph (U+1F0CF), read as the first joker the text does not name.
ANY_JOKER = "\U0001f0cf"
#: The characters that separate cards in a text.
SEPARATORS = frozenset(" \t\n\r\v\f,;\u00a0\u3000")
#: The white space a single card's text may carry around it (ASCII only).
ASCII_SPACE = " \t\n\r\v\f"

CardsInput = str | Iterable[str | int]


def _card_at(text: str, pos: int) -> tuple[int, int] | None:
    """The card that starts at ``text[pos]`` and the number of characters it takes, or None.

    The code is -1 for ``ANY_JOKER``: ``parse_cards`` then picks the joker it stands for."""
    two = text[pos : pos + 2]
    if two in ("X1", "x1", "X2", "x2"):
        return (52 if two[1] == "1" else 53), 2
    if text[pos] == ANY_JOKER:
        return -1, 1
    if two == "10":
        rank, length = 8, 2
    elif text[pos].upper() in RANKS and text[pos].isascii():
        rank, length = RANKS.index(text[pos].upper()), 1
    else:
        return None
    if pos + length >= len(text):
        return None
    suit_char = text[pos + length]
    if suit_char.isascii() and suit_char.lower() in SUITS:
        suit = SUITS.index(suit_char.lower())
    elif suit_char in SUIT_SYMBOLS:
        suit = SUIT_SYMBOLS[suit_char]
    else:
        return None
    return 4 * rank + suit, length + 1


def _chunks(text: str) -> list[str]:
    """The parts of ``text`` between separators, empty parts left out."""
    chunks: list[str] = []
    current = ""
    for char in text:
        if char in SEPARATORS:
            if current:
                chunks.append(current)
            current = ""
        else:
            current += char
    if current:
        chunks.append(current)
    return chunks


def _read_chunk(chunk: str) -> tuple[list[int], str]:
    """The cards written one after another at the start of ``chunk``, and the unread rest ("" when all)."""
    cards: list[int] = []
    pos = 0
    while pos < len(chunk):
        found = _card_at(chunk, pos)
        if found is None:
            return cards, chunk[pos:]
        code, length = found
        cards.append(code)
        pos += length
    return cards, ""


def parse_card(token: str | int) -> int:
    """Card code (0..53) of one card: a string that is exactly one card (white space around it allowed),
    or an int 0..53. ``🃏`` alone is ``X1``. Raises ValueError for anything else, TypeError for a type
    that is no card."""
    return _one_card(token, "", 54)


def _one_card(item: object, at: str, codes: int) -> int:
    """One card from a string or an int below ``codes``; ``at`` ends every error message."""
    if isinstance(item, str):
        text = item.strip(ASCII_SPACE)
        found = _card_at(text, 0) if text else None
        if found is None or found[1] != len(text):
            raise ValueError(f"unknown card {item!r}{at}")
        return 52 if found[0] == -1 else found[0]
    if isinstance(item, bool):
        raise TypeError(f"a card is a string such as 'As' or 'X1' or an int 0..53, got bool{at}")
    try:
        code = operator.index(item)  # type: ignore[arg-type]
    except TypeError:
        name = type(item).__name__
        raise TypeError(f"a card is a string such as 'As' or 'X1' or an int 0..53, got {name}{at}") from None
    if not 0 <= code < codes:
        raise ValueError(f"card code {code} is not in 0..{codes - 1}{at}")
    return code


def parse_cards(cards: CardsInput, jokers: int = 2) -> tuple[int, ...]:
    """Card codes of a card text or of an iterable of cards, in order; no check of repeats.

    ``jokers``: how many jokers the pack holds; an int code must be below ``52 + jokers`` (a joker
    written as text is always read, and refused later by ``evaluate.card_codes`` when the pack lacks it).
    Raises ValueError naming the first token that is no card and its position."""
    if isinstance(cards, str):
        codes: list[int] = []
        for chunk in _chunks(cards):
            read, rest = _read_chunk(chunk)
            codes.extend(read)
            if rest:
                raise ValueError(f"unknown card {rest!r} at position {len(codes)} in {cards!r}")
        named = {code for code in codes if code >= 52}
        for place, code in enumerate(codes):
            if code == -1:
                joker = 52 if 52 not in named else 53
                named.add(joker)
                codes[place] = joker
        return tuple(codes)
    if isinstance(cards, (bytes, bytearray)) or not isinstance(cards, Iterable):
        raise TypeError(f"cards must be a string or an iterable of cards, got {type(cards).__name__}")
    return tuple(
        _one_card(item, f" at position {position}", 52 + jokers) for position, item in enumerate(cards)
    )


def format_card(card: int) -> str:
    """Canonical text of a card code 0..53: ``51 -> "As"``, ``52 -> "X1"``."""
    if card >= 52:
        return f"X{card - 51}"
    return RANKS[card // 4] + SUITS[card % 4]


def __dir__() -> list[str]:
    return list(__all__)
