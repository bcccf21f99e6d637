"""Placement advice for open-face play (docs/OFC.md): ``advise`` values every legal placement of a street.

The value of a placement to the seat is its expected units: the net settlement against every other
seat's board plus, when its board earns a fantasyland hand of k cards, that hand's value
(``fantasyland_value(rules, k)``). What is still to come is uniform over the cards the seat has not seen;
the seat's later streets and the other seats' cards still to place are played by the greedy baseline
(``greedy``). On the last street, when the placement fills the board, every deal the other seats can
still get is enumerated, so the value is exact; before it, ``samples`` deals are drawn from ``seed``, the
same deals for every placement (common random numbers), and each value has a 95 % interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

import chinese_poker._core as _core
from chinese_poker.cards import format_card
from chinese_poker.ofc.fantasyland import (
    _STAY_SAMPLE_KEY,
    _STAY_SAMPLE_PREFIX,
    STAY_SAMPLE_HANDS,
    fantasyland,
    stay_value_of,
)
from chinese_poker.ofc.state import ROWS, Action, GameState
from chinese_poker.rules import Rules, core_spec

__all__ = ["FANTASYLAND_POOL", "Option", "advise", "fantasyland_value", "greedy"]

#: The normal quantile of a two-sided 95 % interval.
_Z95 = 1.959963984540054
#: How many fantasyland hands an opponent whose fantasyland board is not set yet is valued over.
FANTASYLAND_POOL = 200
#: The deal of those hands: the counter-based dealer under this key and the advice's seed.
_POOL_KEY = b"chinese-poker/ofc/fantasyland-opponent/"


@dataclass(frozen=True)
class Option:
    """One legal placement and its value: ``expected`` units, the 95 % interval ``low``..``high`` (equal to
    ``expected`` when ``exact``), and the number of ``deals`` it is the mean over."""

    action: Action
    expected: float
    low: float
    high: float
    deals: int
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        """The option as plain JSON-able data."""
        return {
            "placements": [[format_card(c), ROWS[r]] for c, r in self.action.placements],
            "discards": [format_card(c) for c in self.action.discarded],
            "expected": self.expected,
            "interval": [self.low, self.high],
            "deals": self.deals,
            "exact": self.exact,
        }


def fantasyland_value(rules: Rules, cards: int) -> float:
    """What earning a fantasyland hand of ``cards`` (14 to 17) cards is worth under ``rules``: the mean
    value of the exact setting (royalties, plus the stay value when it stays) over ``STAY_SAMPLE_HANDS``
    hands of that many cards, dealt by the counter-based dealer under the fixed key of ``stay_value_of``.
    0 under ``fantasyland="off"``."""
    if isinstance(cards, bool) or not isinstance(cards, int) or not 14 <= cards <= 17:
        raise ValueError(f"a fantasyland hand holds 14 to 17 cards, got {cards!r}")
    return _fantasyland_values(rules)[cards]


@lru_cache(maxsize=32)
def _fantasyland_values(rules: Rules) -> tuple[float, ...]:
    values = [0.0] * 18
    if rules.fantasyland == "off":
        return tuple(values)
    stay = stay_value_of(rules)
    pack = bytes(range(52)) + bytes(c for c in range(52) if "cdhs"[c % 4] in rules.extra_suits)
    pack += bytes(52 + k for k in range(rules.jokers))
    nonces = np.arange(STAY_SAMPLE_HANDS, dtype=np.uint64)
    for count in range(14, 18):
        hands = _core.fair_deals(_STAY_SAMPLE_KEY, _STAY_SAMPLE_PREFIX, pack, count, nonces)
        values[count] = float(np.asarray(_core.fantasyland_batch(hands, core_spec(rules), stay, 0)[5]).mean())
    return tuple(values)


def _streets(state: GameState) -> list[int]:
    """(this street's deal to a seat yet to act, cards it places, each later street's deal, placed)."""
    later = [1, 1] if state.rules.ofc_variant == "classic" else [3, 2]
    return ([5, 5] if state.street == 0 else list(later)) + later


def _seat_to_advise(state: GameState, player: int | None) -> int:
    if player is None:
        waiting = [p for p in range(state.players) if state.to_place[p]]
        if not waiting:
            raise ValueError("no seat has cards to place: the hand is over")
        return waiting[0]
    state._seat(player)
    if not state.to_place[player]:
        raise ValueError(f"player {player} has no cards to place on street {state.street}")
    return player


def _check_rules(state: GameState, rules: Rules | str | None) -> None:
    if rules is None:
        return
    chosen = Rules.preset(rules) if isinstance(rules, str) else rules
    if not isinstance(chosen, Rules):
        raise TypeError(f"rules must be Rules, a preset name or None, got {type(rules).__name__}")
    if chosen != state.rules:
        raise ValueError("rules: differ from the rules the game state was dealt under")


def advise(
    state: GameState,
    rules: Rules | str | None = None,
    samples: int = 1000,
    seed: int = 0,
    player: int | None = None,
) -> list[Option]:
    """Every legal placement of seat ``player`` (default: the first seat with cards to place) with its
    expected units (module docstring), best first. ``rules``: the state's rules (given, they must be the
    same); ``samples``: deals drawn before the last street (1..10,000,000); ``seed``: 0..2**64-1, the
    draw's seed. A seat holding a fantasyland hand is set with ``fantasyland`` instead (ValueError). An
    opponent in fantasyland whose board is not set yet (its cards unseen) plays, on deal i, the exact
    setting of the (i mod ``FANTASYLAND_POOL``)-th of ``FANTASYLAND_POOL`` hands of its size dealt from the
    unseen cards (docs/OFC.md); on the last street every one of them is enumerated."""
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, got {type(state).__name__}")
    _check_rules(state, rules)
    for name, value, top in (("samples", samples, 10_000_000), ("seed", seed, 2**64 - 1)):
        low = 1 if name == "samples" else 0
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= top:
            raise ValueError(f"{name} must be an int in {low}..{top}, got {value!r}")
    seat = _seat_to_advise(state, player)
    actions = state.legal_actions(seat)
    boards = [[bytes(row) for row in board] for board in state.boards]
    unseen = bytes(state.unseen_by(seat))
    pooled = [
        p != seat and state.fantasyland_cards[p] > 0 and not any(state.boards[p])
        for p in range(state.players)
    ]
    pool_cards, pool_boards = _fantasyland_pool(state, pooled, unseen, seed) if any(pooled) else (b"", b"")
    means, sds, deals, exact = _core.ofc_advise(
        core_spec(state.rules),
        seat,
        boards,
        [k > 0 for k in state.fantasyland_cards],
        [not held for held in state.to_place],
        _streets(state),
        unseen,
        list(_fantasyland_values(state.rules)),
        [list(a.placements) for a in actions],
        samples,
        seed,
        pooled,
        pool_cards,
        pool_boards,
    )
    options = []
    for act, mean, sd, count in zip(actions, means.tolist(), sds.tolist(), deals.tolist()):
        half = 0.0 if exact else _Z95 * sd / math.sqrt(count)
        options.append(Option(act, mean, mean - half, mean + half, int(count), bool(exact)))
    options.sort(key=lambda o: -o.expected)
    return options


def _fantasyland_pool(state: GameState, pooled: list[bool], unseen: bytes, seed: int) -> tuple[bytes, bytes]:
    """``FANTASYLAND_POOL`` deals of the pooled seats' fantasyland hands from the unseen cards (the
    counter-based dealer under ``_POOL_KEY`` and ``seed``, nonces 0, 1, ...; the pooled seats' hands in
    seat order), each hand set by the exact solver at the default stay value: every entry's cards, and a
    13-card board per seat (zeros for seats not pooled)."""
    counts = [state.fantasyland_cards[p] if pooled[p] else 0 for p in range(state.players)]
    if sum(counts) > len(unseen):
        raise ValueError(f"fantasyland: {sum(counts)} cards to deal, {len(unseen)} unseen")
    nonces = np.arange(FANTASYLAND_POOL, dtype=np.uint64)
    key = _POOL_KEY + seed.to_bytes(8, "big")
    hands = _core.fair_deals(key, _STAY_SAMPLE_PREFIX, unseen, sum(counts), nonces)
    boards = np.zeros((FANTASYLAND_POOL, state.players, 13), dtype=np.uint8)
    stay = stay_value_of(state.rules)
    start = 0
    for p, count in enumerate(counts):
        if count:
            part = np.ascontiguousarray(hands[:, start : start + count])
            boards[:, p, :] = _core.fantasyland_batch(part, core_spec(state.rules), stay, 0)[0]
            start += count
    return np.ascontiguousarray(hands).tobytes(), boards.tobytes()


def greedy(state: GameState, player: int) -> Action:
    """The greedy baseline's action for seat ``player`` (docs/OFC.md): the placement (and discard) of the
    greatest greedy score of the board it leaves, the first in the order ``legal_actions`` lists them
    on a tie; a fantasyland hand is set by ``fantasyland``."""
    state._seat(player)
    held = state.to_place[player]
    if not held:
        raise ValueError(f"player {player} has no cards to place on street {state.street}")
    if state.fantasyland_cards[player]:
        best = fantasyland(held, state.rules)
        return _setting_action(held, best.front, best.middle, best.back)
    keep = 2 if len(held) == 3 else len(held)
    board = [bytes(row) for row in state.boards[player]]
    moves, thrown = _core.ofc_greedy(
        core_spec(state.rules), board, bytes(held), keep, list(_fantasyland_values(state.rules))
    )
    return Action(tuple(sorted(moves)), tuple(thrown))


def _setting_action(
    held: tuple[int, ...], front: tuple[str, ...], middle: tuple[str, ...], back: tuple[str, ...]
) -> Action:
    left = list(held)
    moves = []
    for row, texts in enumerate((front, middle, back)):
        for text in texts:
            code = next(c for c in left if format_card(c) == text)
            left.remove(code)
            moves.append((code, row))
    return Action(tuple(sorted(moves)), tuple(left))


def __dir__() -> list[str]:
    return sorted(__all__)
