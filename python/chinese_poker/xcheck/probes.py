"""Rounds with what an engine may or may not read: the per-round inputs of docs/JSON_FORMAT.md 1 (stakes
matrices, surrenders, banker rounds with bets) and the jokers of RULES.md 1.2
(``chinese-poker xcheck --probe stakes,surrender,banker,jokers``).

They are sent only when asked for: an engine that plays none of them would disagree on every such round
without its rules differing. Each kind is ``count`` random rounds (those of ``random_rounds``, from their
own seed) with the input added: a symmetric stakes matrix of 0 to 4 per pair, one player surrendering
(two at four players, now and then), a banker at a random seat with every player's bet from 1 to 5. The
same seed gives the same rounds.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace

from chinese_poker.rules import Rules
from chinese_poker.xcheck.cases import XRound, random_rounds

__all__ = ["PROBES", "parse_probes", "probe_rounds"]

#: The per-round inputs ``--probe`` can send.
PROBES = ("stakes", "surrender", "banker", "jokers")


def parse_probes(text: str) -> frozenset[str]:
    """The probes a ``--probe`` value names (comma-separated; ``all`` for every one); ``ValueError``
    naming an unknown one."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if names == ["all"]:
        return frozenset(PROBES)
    unknown = [name for name in names if name not in PROBES]
    if unknown:
        raise ValueError(f"--probe: unknown input {unknown[0]!r} (choose from {', '.join(PROBES)}, or all)")
    return frozenset(names)


def _stakes(rng: random.Random, players: int) -> tuple[tuple[int, ...], ...]:
    matrix = [[1] * players for _ in range(players)]
    for a in range(players):
        for b in range(a + 1, players):
            matrix[a][b] = matrix[b][a] = rng.choice((0, 1, 2, 2, 3, 4))
    return tuple(tuple(row) for row in matrix)


def _with_input(rng: random.Random, rnd: XRound, kind: str) -> XRound:
    players = rnd.players
    if kind == "stakes":
        return replace(rnd, stakes=_stakes(rng, players))
    if kind == "surrender":
        count = 2 if players == 4 and rng.random() < 0.3 else 1
        seats = set(rng.sample(range(players), count))
        return replace(rnd, surrender=tuple(seat in seats for seat in range(players)))
    if kind == "banker":
        bets = tuple(rng.randint(1, 5) for _ in range(players))
        return replace(rnd, banker=rng.randrange(players), bets=bets)
    # Jokers: a card of one player's laid rows becomes X1 (code 52), now and then another one X2 (53).
    hands = [list(hand) for hand in rnd.hands]
    for joker in (52, 53) if rng.random() < 0.4 else (52,):
        hands[rng.randrange(players)][rng.randrange(13)] = joker
    return replace(rnd, hands=tuple(tuple(hand) for hand in hands))


def probe_rounds(
    seed: int, probes: Iterable[str], count: int = 24, rules: Rules | None = None
) -> list[XRound]:
    """``count`` rounds of each probe in ``probes`` (in ``PROBES`` order), from ``seed``."""
    wanted = [kind for kind in PROBES if kind in set(probes)]
    rng = random.Random(f"xcheck-probes-{seed}")
    base = list(random_rounds(seed + 104_729, count * len(wanted), rules))
    out: list[XRound] = []
    for number, rnd in enumerate(base):
        kind = wanted[number // count]
        out.append(_with_input(rng, rnd, kind).with_id(f"q{seed}-{number + 1}-{kind}"))
    return out


def __dir__() -> list[str]:
    return list(__all__)
