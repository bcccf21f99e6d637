"""The oracle: what the library answers a list of rounds under candidate rules, fast (``settle_batch``),
and the knobs' candidate values the fit searches.

``Pool`` holds rounds as numpy arrays by player count; ``Pool.nets(rules)`` is every round's net under
``rules`` (``None`` for a round the rules refuse, such as a declaration of a natural they do not list),
cached per rules. ``search_space()`` lists, for every knob of the knob table that the tool's rounds can
show, the values a fit tries: every value of an enum or flag, small counts and every value a preset
uses, and the presets' royalty tables, natural lists and row bases.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from chinese_poker.knobs import KNOB_TABLE
from chinese_poker.presets import PRESET_NAMES
from chinese_poker.rules import Rules
from chinese_poker.settle import settle_batch
from chinese_poker.xcheck.cases import XRound

__all__ = ["UNSEARCHED", "Net", "Pool", "rules_key", "search_space"]

#: A round's nets, or ``None`` when refused.
Net = tuple[int, ...] | None

#: Knobs the fit leaves at the base preset's value: the tool's rounds never use what they decide
#: (stakes, a banker, surrender, fantasyland, the horse card, added suits, jokers, the table's Chi A).
UNSEARCHED = frozenset({
    "surrender_units", "false_declaration_units", "fantasyland", "horse_card", "horse_multiplier",
    "extra_suits", "jokers", "ace_basis",
})  # fmt: skip

_SMALL_INTS = (0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 20)


def rules_key(rules: Rules) -> str:
    """A hashable text of ``rules`` (their canonical JSON)."""
    return rules.to_json(indent=None)


class Pool:
    """Rounds and the library's answers to them under any rules."""

    def __init__(self, rounds: Sequence[XRound] = ()) -> None:
        self.rounds: list[XRound] = []
        self._groups: dict[tuple[int, bool], tuple[list[int], np.ndarray, np.ndarray]] = {}
        self._cache: dict[str, list[Net]] = {}
        self.extend(rounds)

    def extend(self, rounds: Sequence[XRound]) -> None:
        self.rounds.extend(rounds)
        self._groups = {}
        self._cache = {}
        by_players: dict[tuple[int, bool], list[int]] = {}
        for index, rnd in enumerate(self.rounds):
            by_players.setdefault((rnd.players, any(rnd.declared)), []).append(index)
        for key, indices in by_players.items():
            players = key[0]
            cards = np.array([self.rounds[i].hands for i in indices], dtype=np.uint8).reshape(-1, players, 13)
            declared = np.array([self.rounds[i].declared for i in indices], dtype=bool).reshape(-1, players)
            self._groups[key] = (indices, np.ascontiguousarray(cards), np.ascontiguousarray(declared))

    def __len__(self) -> int:
        return len(self.rounds)

    def nets(self, rules: Rules) -> list[Net]:
        """Every round's net under ``rules``, in order (``None`` where the rules refuse the round)."""
        key = rules_key(rules)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        out: list[Net] = [None] * len(self.rounds)
        for (_, declaring), (indices, cards, declared) in self._groups.items():
            if declaring and not rules.naturals and rules.false_declaration_units == 0:
                continue  # every declaration is refused: rules without naturals
            self._settle(indices, cards, declared, rules, out)
        if len(self._cache) > 4096:
            self._cache.clear()
        self._cache[key] = out
        return out

    def _settle(
        self, indices: list[int], cards: np.ndarray, declared: np.ndarray, rules: Rules, out: list[Net]
    ) -> None:
        """Settle a group into ``out``; a refused batch is halved until the refused rounds are found."""
        try:
            nets = settle_batch(cards, rules, declared=declared)
        except ValueError:
            if len(indices) == 1:
                return
            half = len(indices) // 2
            self._settle(indices[:half], cards[:half], declared[:half], rules, out)
            self._settle(indices[half:], cards[half:], declared[half:], rules, out)
            return
        for index, row in zip(indices, nets.tolist()):
            out[index] = tuple(row)


def settle_one(cards: np.ndarray, declared: np.ndarray, rules: Rules) -> Net:
    """One round's net (``cards`` (1, P, 13)), ``None`` when ``rules`` refuse it."""
    try:
        return tuple(
            settle_batch(np.ascontiguousarray(cards), rules, declared=np.ascontiguousarray(declared))[
                0
            ].tolist()
        )
    except ValueError:
        return None


def _preset_values(name: str) -> list[Any]:
    values: list[Any] = []
    for preset in PRESET_NAMES:
        value = getattr(Rules.preset(preset), name)
        if value not in values:
            values.append(value)
    return values


@lru_cache(maxsize=1)
def search_space() -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """``(knob, candidate values)`` for every knob the fit searches, in the knob table's order."""
    space: list[tuple[str, tuple[Any, ...]]] = []
    for knob in KNOB_TABLE:
        if knob.name in UNSEARCHED:
            continue
        candidates: list[Any] = []
        if knob.kind in ("enum", "flag") or knob.name == "suit_order":
            candidates = list(knob.values)
        elif knob.kind == "bool":
            candidates = [False, True]
        elif knob.kind == "int":
            low, high = int(knob.low or 0), int(knob.high or 0)
            candidates = [v for v in _SMALL_INTS if low <= v <= high]
        for value in _preset_values(knob.name):
            if value not in candidates:
                candidates.append(value)
        if knob.name == "royalties":
            candidates = ["pagat", "eastern", (), *candidates]
        if knob.name == "naturals":
            candidates = [(), *candidates]
        unique: list[Any] = []
        for value in candidates:
            if value not in unique:
                unique.append(value)
        space.append((knob.name, tuple(unique)))
    return tuple(space)


def __dir__() -> list[str]:
    return list(__all__)
