"""Duplicate open-face matches between policies (docs/OFC.md): ``play(rules, policies, deals, seed)``.

Deal ``d`` is the hand ``new_game(rules, players, seed, nonce=first_deal + d)``; it is played once per
rotation of the seats (policy ``(k + r) % players`` in seat ``k`` for rotation ``r``), so every policy
plays every seat's cards of every deal: the luck of the cards cancels. Seats act in seat order on each
street; a finished hand settles under the rules. Each hand starts outside fantasyland, and a fantasyland
hand a board earns counts, in ``with_fantasyland``, at its value ``fantasyland_value(rules, cards)``;
unless ``carry_fantasyland``: then each rotation plays the deals in order as one session, a board that
earns fantasyland plays the next deal in fantasyland (the cards the rules give, set once every other
board is full; it stays while it re-qualifies), and only the last deal's earned hand is valued so.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from chinese_poker.ofc.advise import _fantasyland_values, advise, greedy
from chinese_poker.ofc.state import Action, GameState, new_game
from chinese_poker.rules import Rules
from chinese_poker.settle import settle

__all__ = ["MatchResult", "PolicyResult", "advisor", "play"]

#: A policy: the action of seat ``player`` in ``state``.
Policy = Callable[[GameState, int], Action]

_Z95 = 1.959963984540054


def advisor(samples: int = 1000, seed: int = 0) -> Policy:
    """The advice as a policy: the best option of ``advise`` (``samples`` deals, a seed drawn from
    ``seed``, the hand's nonce, the street and the seat, so a match is reproducible); a fantasyland hand
    set as ``greedy`` sets it (the exact solver)."""

    def choose(state: GameState, player: int) -> Action:
        if state.fantasyland_cards[player]:
            return greedy(state, player)
        draw = (seed * 1_000_003 + state.nonce * 101 + state.street * 7 + player) % 2**64
        return advise(state, samples=samples, seed=draw, player=player)[0].action

    return choose


@dataclass(frozen=True)
class PolicyResult:
    """One policy's result over the deals: ``units`` per hand (its mean over a deal's rotations, then over
    the deals) with the 95 % interval ``low``..``high`` across deals; ``with_fantasyland``, the same counting
    each fantasyland hand earned and not played at its value, with ``fl_low``..``fl_high``; ``fouls``, the
    share of its hands fouled; ``scores``, its per-deal units (settlement only), for combining runs;
    ``fantasyland_hands``, the hands it played in fantasyland (only with ``carry_fantasyland``);
    ``fl_scores``, its per-deal units as ``with_fantasyland`` counts them."""

    name: str
    units: float
    low: float
    high: float
    with_fantasyland: float
    fl_low: float
    fl_high: float
    fouls: float
    scores: tuple[float, ...]
    fantasyland_hands: int = 0
    fl_scores: tuple[float, ...] = ()


@dataclass(frozen=True)
class MatchResult:
    """A duplicate match: ``results`` per policy, over ``deals`` deals of ``players`` seats."""

    results: tuple[PolicyResult, ...]
    deals: int
    players: int


def _interval(values: Sequence[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = _Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def _policy(item: str | Policy, samples: int, seed: int) -> tuple[str, Policy]:
    if item == "advisor":
        return "advisor", advisor(samples, seed)
    if item == "greedy":
        return "greedy", greedy
    if isinstance(item, str) or not callable(item):
        raise ValueError(f"policies: {item!r} is not 'advisor', 'greedy' or a callable")
    return getattr(item, "__name__", "policy"), item


def _play_hand(game: GameState, seat_policies: Sequence[Policy]) -> GameState:
    """Plays a hand to the end: the seats not in fantasyland street by street in seat order, then each
    fantasyland hand, set once every other board is full."""
    while not game.over:
        waiting = [s for s in range(game.players) if game.to_place[s] and not game.fantasyland_cards[s]]
        for seat in waiting or [s for s in range(game.players) if game.to_place[s]]:
            game = game.apply(seat, seat_policies[seat](game, seat))
    return game


def play(
    rules: Rules | str,
    policies: Sequence[str | Policy],
    deals: int = 100,
    seed: int = 0,
    *,
    first_deal: int = 0,
    samples: int = 1000,
    carry_fantasyland: bool = False,
) -> MatchResult:
    """A duplicate match (module docstring) of ``deals`` deals between ``policies`` (2 or 3: ``"advisor"``
    (``advisor(samples, seed)``), ``"greedy"``, or callables ``(state, player) -> Action``), one per seat.
    ``carry_fantasyland``: a board that earns fantasyland plays the next deal of its rotation in
    fantasyland, dealt the cards the rules give (and stays while it re-qualifies by the stay rule)."""
    chosen = Rules.preset(rules) if isinstance(rules, str) else rules
    if not isinstance(chosen, Rules):
        raise TypeError(f"rules must be Rules or a preset name, got {type(rules).__name__}")
    players = len(policies)
    if players not in (2, 3):
        raise ValueError(f"policies: an open-face match has 2 or 3 players, got {players}")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be a positive int, got {deals!r}")
    if not isinstance(carry_fantasyland, bool):
        raise TypeError(f"carry_fantasyland must be a bool, got {type(carry_fantasyland).__name__}")
    named = [_policy(p, samples, seed) for p in policies]
    fl = _fantasyland_values(chosen)
    scores = [[0.0] * deals for _ in range(players)]
    with_fl = [[0.0] * deals for _ in range(players)]
    fouls = [0] * players
    in_fl = [0] * players
    for rotation in range(players):
        seat_policy = [(k + rotation) % players for k in range(players)]
        counts = [0] * players
        for at in range(deals):
            game = new_game(chosen, players, seed, nonce=first_deal + at, fantasyland_cards=counts)
            game = _play_hand(game, [named[seat_policy[seat]][1] for seat in range(players)])
            result = settle(list(game.boards), chosen, fantasyland=[k > 0 for k in counts])
            for seat, player in enumerate(result.players):
                index = seat_policy[seat]
                earned = player.fantasyland_cards
                # Carried, an earned hand is played next deal; only the last deal's is valued instead.
                valued = earned and (not carry_fantasyland or at == deals - 1)
                scores[index][at] += result.net[seat] / players
                with_fl[index][at] += (result.net[seat] + (fl[earned] if valued else 0.0)) / players
                fouls[index] += int(player.foul)
                in_fl[index] += int(counts[seat] > 0)
            if carry_fantasyland:
                counts = [player.fantasyland_cards for player in result.players]
    results = []
    for index, (name, _) in enumerate(named):
        mean, low, high = _interval(scores[index])
        fl_mean, fl_low, fl_high = _interval(with_fl[index])
        share = fouls[index] / (deals * players)
        results.append(
            PolicyResult(
                name,
                mean,
                low,
                high,
                fl_mean,
                fl_low,
                fl_high,
                share,
                tuple(scores[index]),
                in_fl[index],
                tuple(with_fl[index]),
            )
        )
    return MatchResult(tuple(results), deals, players)


def __dir__() -> list[str]:
    return sorted(__all__)
