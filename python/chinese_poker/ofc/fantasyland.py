"""The exact fantasyland setting (docs/RULES.md 4.3): the best legal 13 of 14 to 17 cards.

``fantasyland(cards, rules)`` places 13 of a fantasyland hand's cards (front 3, middle 5, back 5) and
discards the rest, maximising the royalty total under the rules' tables plus ``stay_value`` when the board
keeps the player in fantasyland (the stay rule of RULES.md 4.2: trips in front, a full house or better in
the middle, four of a kind or better in the back). Ties go to the stronger back, then middle, then front.
The search runs in the compiled core, exact, pruned by upper bounds, with the GIL released.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

import chinese_poker._core as _core
from chinese_poker.cards import CardsLike, format_card, parse_cards
from chinese_poker.hand import rules_or_default
from chinese_poker.rules import Rules, core_spec

__all__ = [
    "STAY_SAMPLE_HANDS",
    "Setting",
    "fantasyland",
    "fantasyland_batch",
    "stay_value_of",
]

RulesLike = Rules | str | Mapping[str, Any]

#: How many 14-card hands the default stay value is the mean over (a fixed deal, so the value is fixed).
STAY_SAMPLE_HANDS = 1000
#: The deal of those hands: the counter-based dealer (docs/FAIR.md) under this key, nonces 0, 1, ...
_STAY_SAMPLE_KEY = b"chinese-poker/ofc/fantasyland-stay-value"
_STAY_SAMPLE_PREFIX = b"chinese-poker/deal/v1\x01\x03ofc"
_ROWS = ("front", "middle", "back")


@dataclass(frozen=True)
class Setting:
    """A fantasyland hand's setting.

    ``front``, ``middle``, ``back``: the rows' card texts (a joker as ``X1``/``X2``); ``discards``: the
    cards not placed; ``strengths``: the rows' strengths (a joker's row: its best substitution);
    ``royalties``: the rows' royalty units; ``stays``: the board keeps its player in fantasyland (only
    under fantasyland rules); ``value``: the royalty total plus the stay value when ``stays``.
    """

    front: tuple[str, ...]
    middle: tuple[str, ...]
    back: tuple[str, ...]
    discards: tuple[str, ...]
    strengths: tuple[int, int, int]
    royalties: tuple[int, int, int]
    stays: bool
    value: float

    @property
    def royalty(self) -> int:
        """The royalty total of the three rows."""
        return sum(self.royalties)

    def to_dict(self) -> dict[str, Any]:
        """The setting as plain JSON-able data."""
        return {
            "front": list(self.front),
            "middle": list(self.middle),
            "back": list(self.back),
            "discards": list(self.discards),
            "strengths": list(self.strengths),
            "royalties": dict(zip(_ROWS, self.royalties)),
            "stays": self.stays,
            "value": self.value,
        }


def _rules(rules: RulesLike | None) -> Rules:
    # Open-face play defaults to the ofc preset; anything else is read as everywhere else.
    return Rules.preset("ofc") if rules is None else rules_or_default(rules)


def _texts(codes: bytes) -> tuple[str, ...]:
    return tuple(format_card(c) for c in codes)


def _setting(found: tuple[Any, ...]) -> Setting:
    rows, discards, strengths, royalties, stays, value = found
    return Setting(
        front=_texts(rows[:3]),
        middle=_texts(rows[3:8]),
        back=_texts(rows[8:]),
        discards=_texts(discards),
        strengths=tuple(int(s) for s in strengths),  # type: ignore[arg-type]
        royalties=tuple(int(r) for r in royalties),  # type: ignore[arg-type]
        stays=bool(stays),
        value=float(value),
    )


def _stay_value(stay_value: object, rules: Rules) -> float:
    if stay_value is None:
        return stay_value_of(rules)
    if isinstance(stay_value, bool) or not isinstance(stay_value, (int, float)):
        raise TypeError(f"stay_value must be a number or None, got {type(stay_value).__name__}")
    value = float(stay_value)
    if not 0.0 <= value <= 1e6:  # NaN fails too
        raise ValueError(f"stay_value must be a finite number in 0..1e6, got {stay_value!r}")
    return value


def fantasyland(cards: CardsLike, rules: RulesLike | None = None, stay_value: float | None = None) -> Setting:
    """The exact best setting of a fantasyland hand of 14 to 17 cards (module docstring).

    ``rules``: ``Rules``, a preset name or a rules mapping (default the ``ofc`` preset); the pack's
    jokers (knob ``jokers``) and added suits may be among the cards. ``stay_value``: what staying in
    fantasyland is worth in units (default ``stay_value_of(rules)``: the mean royalty total of a 14-card
    fantasyland hand under the rules; 0 under ``fantasyland="off"``, where nobody stays).

    Raises ValueError naming the card for a bad or repeated card, and for a count other than 14 to 17.
    """
    chosen = _rules(rules)
    codes = parse_cards(cards, chosen.extra_suits, chosen.jokers)
    if not 14 <= len(codes) <= 17:
        raise ValueError(f"fantasyland: a fantasyland hand holds 14 to 17 cards, got {len(codes)}")
    value = _stay_value(stay_value, chosen)
    return _setting(_core.fantasyland_solve(bytes(codes), core_spec(chosen), value))


def fantasyland_batch(
    hands: npt.ArrayLike, rules: RulesLike | None = None, stay_value: float | None = None, threads: int = 1
) -> dict[str, npt.NDArray[Any]]:
    """``fantasyland`` for N hands of K cards each ((N, K) card codes, K 14..17), in the core with the GIL
    released, spread over ``threads`` threads (0: every core; the results never depend on it).

    Returns arrays: ``rows`` (N, 13) uint8 (front 3, middle 5, back 5), ``discards`` (N, K - 13) uint8,
    ``strengths`` (N, 3) int32, ``royalties`` (N, 3) int64, ``stays`` (N,) bool, ``value`` (N,) float64.
    A bad card is a ValueError naming its hand and index.
    """
    chosen = _rules(rules)
    value = _stay_value(stay_value, chosen)
    array = hands if isinstance(hands, np.ndarray) else np.asarray(hands, dtype=np.uint8)
    rows, discards, strengths, royalties, stays, values = _core.fantasyland_batch(
        array, core_spec(chosen), value, threads
    )
    return {
        "rows": rows,
        "discards": discards,
        "strengths": strengths,
        "royalties": royalties,
        "stays": stays.astype(bool),
        "value": values,
    }


def stay_value_of(rules: RulesLike | None = None) -> float:
    """The default stay value under ``rules``: the mean royalty total of the exact setting (at stay value
    0) over ``STAY_SAMPLE_HANDS`` 14-card hands of the rules' pack, dealt by the counter-based dealer under
    a fixed key, so the value is a fixed number per rule set (about 12.35 units under ``ofc``). 0 under
    ``fantasyland="off"``. Computed once per rule set."""
    return _stay_value_cached(_rules(rules))


@lru_cache(maxsize=32)
def _stay_value_cached(rules: Rules) -> float:
    if rules.fantasyland == "off":
        return 0.0
    pack = bytes(range(52)) + bytes(c for c in range(52) if "cdhs"[c % 4] in rules.extra_suits)
    pack += bytes(52 + k for k in range(rules.jokers))
    nonces = np.arange(STAY_SAMPLE_HANDS, dtype=np.uint64)
    hands = _core.fair_deals(_STAY_SAMPLE_KEY, _STAY_SAMPLE_PREFIX, pack, 14, nonces)
    found = _core.fantasyland_batch(hands, core_spec(rules), 0.0, 0)
    return float(np.asarray(found[3]).sum(axis=1).mean())


def __dir__() -> list[str]:
    return sorted(__all__)
