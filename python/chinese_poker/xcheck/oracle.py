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
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from chinese_poker.knobs import KNOB_TABLE, NATURAL_NAMES
from chinese_poker.presets import PRESET_NAMES
from chinese_poker.rules import Rules
from chinese_poker.settle import settle_batch
from chinese_poker.xcheck.cases import XRound

__all__ = ["UNSEARCHED", "Facts", "Net", "Outcome", "Pool", "rules_key", "search_space", "settle_one"]

#: A round's nets, or ``None`` when refused.
Net = tuple[int, ...] | None


@dataclass(frozen=True)
class Facts:
    """What the library says of a round beyond its net, for comparing with an engine's richer answer:
    per player ``foul`` and ``natural`` (a name or ``None``), per pair settled ((0, 1), (0, 2), ...; a
    banker round's pairs with the banker) ``units`` and ``rows`` (``None`` where a side has no setting)."""

    net: tuple[int, ...]
    foul: tuple[bool, ...]
    natural: tuple[str | None, ...]
    units: tuple[int, ...]
    rows: tuple[tuple[int, ...] | None, ...]


#: A round's net or facts, or ``None`` when refused.
Outcome = tuple[int, ...] | Facts | None

#: Knobs the fit leaves at the base preset's value: the tool's rounds never use what they decide
#: (false declarations, fantasyland, the horse card, added suits, the table's Chi A).
UNSEARCHED = frozenset({
    "false_declaration_units", "fantasyland", "horse_card", "horse_multiplier",
    "extra_suits", "ace_basis",
})  # fmt: skip

_SMALL_INTS = (0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 20)


def rules_key(rules: Rules) -> str:
    """A hashable text of ``rules`` (their canonical JSON)."""
    return rules.to_json(indent=None)


class Pool:
    """Rounds and the library's answers to them under any rules."""

    def __init__(self, rounds: Sequence[XRound] = ()) -> None:
        self.rounds: list[XRound] = []
        self._groups: dict[_GroupKey, tuple[list[int], dict[str, np.ndarray]]] = {}
        self._cache: dict[str, list[Net]] = {}
        self._facts: dict[str, list[Facts | None]] = {}
        self.extend(rounds)

    def extend(self, rounds: Sequence[XRound]) -> None:
        self.rounds.extend(rounds)
        self._groups = {}
        self._cache = {}
        self._facts = {}
        by_kind: dict[_GroupKey, list[int]] = {}
        for index, rnd in enumerate(self.rounds):
            by_kind.setdefault((rnd.players, any(rnd.declared), *rnd.inputs, rnd.jokers), []).append(index)
        for key, indices in by_kind.items():
            self._groups[key] = (indices, _arrays([self.rounds[i] for i in indices], key))

    def __len__(self) -> int:
        return len(self.rounds)

    def nets(self, rules: Rules) -> list[Net]:
        """Every round's net under ``rules``, in order (``None`` where the rules refuse the round)."""
        key = rules_key(rules)
        cached = self._cache.get(key)
        if cached is None:
            if len(self._cache) > 4096:
                self._cache.clear()
            cached = self._cache[key] = self._fill(rules, detail=False)
        return cached

    def facts(self, rules: Rules) -> list[Facts | None]:
        """Every round's ``Facts`` under ``rules``, in order (``None`` where the rules refuse the round)."""
        key = rules_key(rules)
        cached = self._facts.get(key)
        if cached is None:
            if len(self._facts) > 1024:
                self._facts.clear()
            cached = self._facts[key] = self._fill(rules, detail=True)
        return cached

    def _fill(self, rules: Rules, *, detail: bool) -> list[Any]:
        out: list[Any] = [None] * len(self.rounds)
        for (_, declaring, _, surrendering, _, jokers), (indices, arrays) in self._groups.items():
            if declaring and not rules.naturals and rules.false_declaration_units == 0:
                continue  # every declaration is refused: rules without naturals
            if surrendering and rules.surrender_units == 0:
                continue  # every surrender is refused: rules without surrender
            if jokers > rules.jokers:
                continue  # a joker the pack does not hold is refused
            self._settle(indices, arrays, rules, out, detail=detail)
        return out

    def outcomes(self, rules: Rules, rich: bool) -> Sequence[Outcome]:
        """``facts`` when ``rich`` (the engine answers more than nets), else ``nets``."""
        return self.facts(rules) if rich else self.nets(rules)

    def _settle(
        self,
        indices: list[int],
        arrays: dict[str, np.ndarray],
        rules: Rules,
        out: list[Any],
        *,
        detail: bool = False,
    ) -> None:
        """Settle a group into ``out``; a refused batch is halved until the refused rounds are found."""
        try:
            nets = settle_batch(
                arrays["rounds"],
                rules,
                declared=arrays["declared"],
                stakes=arrays.get("stakes"),
                surrender=arrays.get("surrender"),
                banker=arrays.get("banker"),
                bets=arrays.get("bets"),
                detail=detail,  # type: ignore[call-overload]
            )
        except ValueError:
            if len(indices) == 1:
                return
            half = len(indices) // 2
            for part in (slice(0, half), slice(half, None)):
                sub = {k: v[part] for k, v in arrays.items()}
                self._settle(indices[part], sub, rules, out, detail=detail)
            return
        if not detail:
            for index, row in zip(indices, nets.tolist()):
                out[index] = tuple(row)
            return
        banker = arrays.get("banker")
        for n, index in enumerate(indices):
            played = [q for q, (i, j) in enumerate(nets.pairs) if banker is None or int(banker[n]) in (i, j)]
            out[index] = Facts(
                net=tuple(nets.net[n].tolist()),
                foul=tuple(bool(f) for f in nets.player_foul[n]),
                natural=tuple(NATURAL_NAMES[k] if k >= 0 else None for k in nets.player_natural[n].tolist()),
                units=tuple(int(nets.units[n, q]) for q in played),
                rows=tuple(
                    tuple(nets.rows[n, q].tolist()) if nets.rows_known[n, q] else None for q in played
                ),
            )


#: A group of rounds settled together: players, declaring, stakes, surrenders, a banker, jokers needed.
_GroupKey = tuple[int, bool, bool, bool, bool, int]


def _arrays(rounds: Sequence[XRound], key: _GroupKey) -> dict[str, np.ndarray]:
    """``settle_batch``'s arrays of rounds of one group: the cards, and the inputs the group has."""
    players, _, staked, surrendering, banked, _ = key
    arrays = {
        "rounds": np.array([r.hands for r in rounds], dtype=np.uint8).reshape(-1, players, 13),
        "declared": np.array([r.declared for r in rounds], dtype=bool).reshape(-1, players),
    }
    if staked:
        arrays["stakes"] = np.array([r.stakes for r in rounds], dtype=np.int64).reshape(-1, players, players)
    if surrendering:
        arrays["surrender"] = np.array([r.surrender for r in rounds], dtype=bool).reshape(-1, players)
    if banked:
        arrays["banker"] = np.array([r.banker for r in rounds], dtype=np.int64)
        arrays["bets"] = np.array([r.bets for r in rounds], dtype=np.int64).reshape(-1, players)
    return {name: np.ascontiguousarray(array) for name, array in arrays.items()}


def settle_one(rnd: XRound, rules: Rules) -> Net:
    """One round's net, ``None`` when ``rules`` refuse it."""
    return Pool([rnd]).nets(rules)[0]


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
