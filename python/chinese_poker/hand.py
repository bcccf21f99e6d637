"""A player's hand: a setting of 13 cards into front (3), middle (5) and back (5), or a declared natural."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import chinese_poker._core as _core
from chinese_poker.cards import DECK_SIZE, JOKERS, CardsLike, format_card, parse_cards
from chinese_poker.rules import Rules, core_spec

if TYPE_CHECKING:
    import numpy as np

#: What every entry point accepts as rules: ``Rules``, a preset name, or a rules document (mapping).
RulesLike = Rules | str | Mapping[str, Any]

__all__ = [
    "ROW_NAMES",
    "ROW_SIZES",
    "Hand",
    "RulesLike",
    "detect_natural",
    "held_naturals",
    "rules_or_default",
]

ROW_NAMES = ("front", "middle", "back")
ROW_SIZES = (3, 5, 5)


def rules_or_default(rules: RulesLike | None) -> Rules:
    """``rules`` as ``Rules``: ``None`` is the default (``pagat``), a string names a preset, a mapping is a
    rules document (``Rules.from_dict``)."""
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.preset(rules)
    if isinstance(rules, Mapping):
        return Rules.from_dict(rules)
    raise TypeError(
        f"rules must be a chinese_poker.Rules, a preset name or a mapping, got {type(rules).__name__}"
    )


#: The core's foul_reasons bits and their names, in the order HandFacts lists them.
_FOUL_REASONS: tuple[tuple[int, str], ...] = _core.FOUL_REASONS


@dataclass(frozen=True)
class HandFacts:
    """What the rules make of one hand: ``foul`` and why (``foul_reasons``: ``"front_beats_middle"``,
    ``"middle_beats_back"``, ``"middle_equals_back"`` under strict ``middle_vs_back``), the listed
    ``natural`` it counts (by name, or ``None``), the front, middle and back ``strengths`` (``None`` for a
    declared natural) and the rows' ``royalties``."""

    foul: bool
    foul_reasons: tuple[str, ...]
    natural: str | None
    strengths: tuple[int, int, int] | None
    royalties: tuple[int, int, int]


class Hand:
    """One player's 13 cards: a setting (``Hand(front, middle, back)``) or a declared natural.

    Each row may be a string (``"As Kd Qh"``), a sequence of card strings or codes, or a numpy array.
    ``front``, ``middle`` and ``back`` are tuples of card codes (``None`` for a declared natural);
    ``cards`` is all 13 codes, front then middle then back, each row in the order given.

    Two hands are equal (and hash alike) when they hold the same cards in the same rows: the order inside a
    row does not matter, nor the order of a declared natural's 13 cards.
    """

    __slots__ = ("_cards", "_declared")

    def __init__(
        self,
        front: CardsLike,
        middle: CardsLike,
        back: CardsLike,
        *,
        extra_suits: str = "",
        jokers: int = 0,
    ) -> None:
        """``extra_suits``: the suits added to the pack (the rules knob), whose cards may be held twice;
        ``jokers``: the pack's jokers (the rules knob), ``X1`` and ``X2``. A ``🃏`` in a row's text is the
        first joker the hand's rows do not write out (RULES.md 1.2)."""
        rows = []
        texts = _resolve_joker_symbols((front, middle, back))
        for name, size, given in zip(ROW_NAMES, ROW_SIZES, texts):
            try:
                # Stripped, so that a message quotes the row as written, not its padding.
                codes = parse_cards(given.strip() if isinstance(given, str) else given, extra_suits, 2)
            except (ValueError, TypeError) as error:
                raise type(error)(f"{name}: {error}") from None
            if len(codes) != size:
                raise ValueError(f"the {name} takes {size} cards, got {len(codes)}")
            rows.append(codes)
        self._cards: tuple[int, ...] = _distinct(rows[0] + rows[1] + rows[2], extra_suits, jokers)
        self._declared = False

    @classmethod
    def declared(cls, cards13: CardsLike, *, extra_suits: str = "", jokers: int = 0) -> Hand:
        """The hand of a player who declares a natural: 13 cards, no setting, never foul-checked."""
        codes = parse_cards(cards13, extra_suits, jokers)
        if len(codes) != 13:
            raise ValueError(f"a declared natural takes 13 cards, got {len(codes)}")
        hand = cls.__new__(cls)
        hand._cards = codes
        hand._declared = True
        return hand

    @classmethod
    def parse(cls, text: str, *, extra_suits: str = "", jokers: int = 0) -> Hand:
        """A setting from text: ``"front / middle / back"`` (``|`` also separates rows), as ``str(hand)``
        writes it, or 13 cards in order (front 3, middle 5, back 5); ``"declared ..."`` (what ``str`` gives
        for a declared natural) is ``Hand.declared`` of the 13 cards."""
        if not isinstance(text, str):
            raise TypeError(f"Hand.parse takes a string, got {type(text).__name__}")
        stripped = text.strip()
        if stripped.lower().startswith("declared "):
            return cls.declared(stripped[len("declared ") :], extra_suits=extra_suits, jokers=jokers)
        parts = stripped.replace("|", "/").split("/")
        if len(parts) == 3:
            return cls(*(part.strip() for part in parts), extra_suits=extra_suits, jokers=jokers)
        if len(parts) != 1:
            raise ValueError(f"give the rows as 'front / middle / back' (3 parts), got {len(parts)} parts")
        return cls.from_cards(stripped, extra_suits=extra_suits, jokers=jokers)

    @classmethod
    def from_cards(cls, cards13: CardsLike, *, extra_suits: str = "", jokers: int = 0) -> Hand:
        """A setting from 13 cards in order: front 3, then middle 5, then back 5."""
        codes = parse_cards(cards13, extra_suits, jokers)
        if len(codes) != 13:
            raise ValueError(f"a hand takes 13 cards (front 3, middle 5, back 5), got {len(codes)}")
        return cls(codes[:3], codes[3:8], codes[8:], extra_suits=extra_suits, jokers=jokers)

    @property
    def cards(self) -> tuple[int, ...]:
        """All 13 card codes (a setting: front, middle, back in that order)."""
        return self._cards

    @property
    def is_declared(self) -> bool:
        """Whether this is a declared natural (13 cards, no setting)."""
        return self._declared

    @property
    def front(self) -> tuple[int, ...] | None:
        """The front's 3 card codes (``None`` for a declared natural)."""
        return None if self._declared else self._cards[:3]

    @property
    def middle(self) -> tuple[int, ...] | None:
        """The middle's 5 card codes (``None`` for a declared natural)."""
        return None if self._declared else self._cards[3:8]

    @property
    def back(self) -> tuple[int, ...] | None:
        """The back's 5 card codes (``None`` for a declared natural)."""
        return None if self._declared else self._cards[8:]

    def codes(self) -> np.ndarray:
        """The 13 card codes as a uint8 array of shape (13,)."""
        import numpy as np  # noqa: PLC0415 - numpy only when arrays are asked for: the command line needs none

        return np.asarray(self._cards, dtype=np.uint8)

    def facts(self, rules: RulesLike | None = None) -> HandFacts:
        """Foul (and why), natural, row strengths and royalties of this hand under ``rules`` (default
        ``pagat``), as the core computes them."""
        facts = _core.player_facts(bytes(self._cards), self._declared, core_spec(rules_or_default(rules)))
        bits = facts.foul_reasons
        return HandFacts(
            foul=facts.foul,
            foul_reasons=tuple(reason for bit, reason in _FOUL_REASONS if bits & bit),
            natural=None if facts.natural is None else facts.natural.name,
            strengths=facts.strengths if facts.has_setting else None,
            royalties=facts.royalties,
        )

    def is_foul(self, rules: RulesLike | None = None) -> bool:
        """Whether the setting breaks back >= middle >= front (RULES.md 2.5); never for a declared natural."""
        return self.facts(rules).foul

    def __str__(self) -> str:
        def text(codes: Sequence[int]) -> str:
            return " ".join(format_card(c) for c in codes)

        if self._declared:
            return f"declared {text(self._cards)}"
        return f"{text(self._cards[:3])} / {text(self._cards[3:8])} / {text(self._cards[8:])}"

    def __repr__(self) -> str:
        if self._declared:
            return f"Hand.declared({' '.join(format_card(c) for c in self._cards)!r})"
        rows = [" ".join(format_card(c) for c in row) for row in (self.front, self.middle, self.back) if row]
        return f"Hand({rows[0]!r}, {rows[1]!r}, {rows[2]!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[bool, tuple[tuple[int, ...], ...]]:
        """What equality compares: declared or not, and each row's cards (all 13 when declared) sorted."""
        cards = self._cards
        if self._declared:
            return (True, (tuple(sorted(cards)),))
        return (False, (tuple(sorted(cards[:3])), tuple(sorted(cards[3:8])), tuple(sorted(cards[8:]))))


_JOKER_SYMBOL = "\N{PLAYING CARD BLACK JOKER}"


def _resolve_joker_symbols(rows: tuple[CardsLike, CardsLike, CardsLike]) -> tuple[CardsLike, ...]:
    """The rows with each ``🃏`` of their texts replaced, front to back, by the first joker (``X1``, then
    ``X2``) that no row writes out and no earlier ``🃏`` took (RULES.md 1.2)."""
    if not any(isinstance(row, str) and _JOKER_SYMBOL in row for row in rows):
        return rows
    named = {joker for joker in JOKERS for row in rows if isinstance(row, str) and joker in row.upper()}
    free = [joker for joker in JOKERS if joker not in named]
    resolved: list[CardsLike] = []
    for row in rows:
        text = row
        if isinstance(text, str):
            while _JOKER_SYMBOL in text:
                text = text.replace(_JOKER_SYMBOL, f" {free.pop(0) if free else JOKERS[-1]} ", 1)
        resolved.append(text)
    return tuple(resolved)


@lru_cache(maxsize=64)
def _card_copies(extra_suits: str, jokers: int) -> tuple[int, ...]:
    """How many copies of each card code 0..53 the pack of ``extra_suits`` and ``jokers`` holds (the
    core's count: 0 for a joker it does not hold)."""
    return _core.card_copies(extra_suits, jokers)


def _distinct(codes: tuple[int, ...], extra_suits: str = "", jokers: int = 0) -> tuple[int, ...]:
    """``codes``, checked that no card appears more often than the pack holds it: once, or twice for a card
    of a suit in ``extra_suits``, and that each joker is one of the pack's ``jokers``."""
    # Every card once and no joker beyond the pack's: valid for any pack (the common case, at C speed).
    if len(set(codes)) == len(codes) and max(codes, default=0) < DECK_SIZE + jokers:
        return codes
    seen: dict[int, list[int]] = {}
    rows = [ROW_NAMES[0]] * 3 + [ROW_NAMES[1]] * 5 + [ROW_NAMES[2]] * 5
    pack = _card_copies(extra_suits, jokers)
    for position, code in enumerate(codes):
        if pack[code] == 0:
            raise ValueError(
                f"{rows[position]}: card {format_card(code)} (code {code}) is a joker the pack does not hold "
                f"(rules knob 'jokers' is {jokers})"
            )
        where = seen.setdefault(code, [])
        copies = pack[code]
        if len(where) >= copies:
            if copies == 1:
                first, second = rows[where[0]], rows[position]
                raise ValueError(f"card {format_card(code)} appears twice (in the {first} and the {second})")
            held = ", ".join(f"the {rows[k]}" for k in where)
            raise ValueError(
                f"card {format_card(code)} appears three times but the pack holds it twice "
                f"(in {held} and the {rows[position]})"
            )
        where.append(position)
    return codes


def detect_natural(cards13: CardsLike, rules: RulesLike | None = None) -> str | None:
    """The best natural (13-card special hand) the cards hold among those ``rules`` list, or ``None``.

    Considers every kind the rules list, whatever ``natural_declaration`` says; three straights and three
    flushes are found by a search over the splits.
    """
    resolved = rules_or_default(rules)
    kind = _core.detect_natural(
        _natural_codes(cards13, resolved.extra_suits, resolved.jokers), core_spec(resolved)
    )
    return None if kind is None else kind.name


def held_naturals(cards13: CardsLike, rules: RulesLike | None = None) -> tuple[str, ...]:
    """Every natural kind the 13 cards hold under the knobs of ``rules`` (how quads, trips and a front
    straight with an ace count), whether or not the rules list it; in the order of ``NATURAL_NAMES``."""
    resolved = rules_or_default(rules)
    held = _core.held_naturals(
        _natural_codes(cards13, resolved.extra_suits, resolved.jokers), core_spec(resolved)
    )
    return tuple(kind.name for kind in held)


def _natural_codes(cards13: CardsLike, extra_suits: str = "", jokers: int = 0) -> bytes:
    """The 13 card codes a natural is looked for in, as the core takes them (a card of a suit in
    ``extra_suits``, the rules' added suits, may appear twice; the rules' jokers may be held)."""
    codes = parse_cards(cards13, extra_suits, jokers)
    if len(codes) != 13:
        raise ValueError(f"a natural takes 13 cards, got {len(codes)}")
    return bytes(codes)


def __dir__() -> list[str]:
    return list(__all__)
