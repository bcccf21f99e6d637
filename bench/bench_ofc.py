"""Open-face speed on one core (docs/OFC.md): hands per second of ``chinese_poker.ofc.fantasyland_batch``
at 14, 15, 16 and 17 cards under the ``ofc`` preset, then the time of one ``chinese_poker.ofc.advise``
call (2 and 3 players, Pineapple, progressive fantasyland) on the first five cards (``--samples``
deals) and on the last street (exact), over ``--positions`` positions reached by the greedy baseline, and the
simulated completions a CPU second (one option played out on one deal) against the 6,500 simulations a
second the fastest public OFC advisor publishes. The last street is exact, not simulated: its rows give
no such rate (with 3 players each other seat's deals are valued by themselves, so the joint deals it
averages over are not played out one by one).

    python bench/bench_ofc.py [--hands N] [--repeat R] [--positions P] [--samples S]

Each rate is the best of R runs, by wall time and by the process's CPU time (which leaves out other
processes' turns on a shared machine). The table compares it with the targets (1,500 hands/s at 14 cards,
150 at 17) and with the published rates of a public Rust fantasyland solver (148.7, 31.4, 7.6 and 1.5
hands/s at 14 to 17 cards).
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np
from chinese_poker.ofc import GameState, advise, fantasyland_batch, greedy, new_game, stay_value_of
from chinese_poker.rules import Rules

PUBLISHED = {14: 148.7, 15: 31.4, 16: 7.6, 17: 1.5}
TARGET = {14: 1500.0, 17: 150.0}
#: advise targets, seconds per call: the first five cards (10,000 deals) and the last street (exact).
ADVISE_TARGET = {"first five": 1.0, "last street": 0.010}
#: Simulations a second the fastest public OFC advisor publishes.
PUBLIC_SIMULATIONS = 6500.0
PINEAPPLE = Rules.preset("ofc").replace(ofc_variant="pineapple", fantasyland="progressive")


def _street(seed: int, street: int, players: int = 2) -> GameState:
    """Seat 0 to act on ``street`` of a Pineapple hand, the greedy baseline placing before."""
    game = new_game(PINEAPPLE, players=players, seed=seed)
    while game.street < street:
        for seat in range(game.players):
            if game.to_place[seat]:
                game = game.apply(seat, greedy(game, seat))
    return game


#: (case, players, street) of the advise rows: seat 0 acts first on the first street, so every other
#: seat's whole hand is still to come; on the last street the others have placed theirs.
ADVISE_CASES = (
    ("first five", 2, 0),
    ("last street", 2, 4),
    ("first five", 3, 0),
    ("last street", 3, 4),
)


def advise_times(positions: int, samples: int) -> list[tuple[str, int, int, float, float, float, float]]:
    """(case, players, options, mean and worst wall seconds, mean CPU seconds, simulated completions per
    CPU second: one option played out on one deal) of one advise call per position."""
    advise(_street(0, 0), samples=10)  # the fantasyland values, computed once per rule set
    out = []
    for case, players, street in ADVISE_CASES:
        count = samples if street == 0 else 1
        walls, cpus, options, played = [], [], 0, 0
        for seed in range(positions):
            game = _street(seed, street, players)
            w0, c0 = time.perf_counter(), time.process_time()
            found = advise(game, samples=count, seed=seed, player=0)
            walls.append(time.perf_counter() - w0)
            cpus.append(time.process_time() - c0)
            options += len(found)
            played += sum(o.deals for o in found)
        cpu = sum(cpus) / positions
        wall = sum(walls) / positions
        out.append((case, players, options // positions, wall, max(walls), cpu, played / sum(cpus)))
    return out


def rates(hands: np.ndarray, stay: float, repeat: int) -> tuple[float, float]:
    """Best (wall, CPU) hands per second of solving `hands` on one thread."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        fantasyland_batch(hands, "ofc", stay, threads=1)
        wall = min(wall, time.perf_counter() - w0)
        cpu = min(cpu, time.process_time() - c0)
    return len(hands) / wall, len(hands) / max(cpu, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--samples", type=int, default=10_000)
    args = parser.parse_args()
    stay = stay_value_of("ofc")
    rng = np.random.default_rng(2024)
    machine = platform.processor() or platform.machine()
    print(f"# {machine}, load {os.getloadavg()[0]:.2f}, stay value {stay:.3f}")
    columns = ("cards", "hands", "wall/s", "cpu/s", "target", "x target", "x public")
    print(" ".join(f"{c:>{w}}" for c, w in zip(columns, (5, 6, 9, 9, 7, 9, 9))))
    for count in (14, 15, 16, 17):
        hands = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :count].astype(np.uint8)
        wall, cpu = rates(hands, stay, args.repeat)
        target = TARGET.get(count)
        versus = f"{cpu / target:9.2f}" if target else f"{'-':>9}"
        print(
            f"{count:5d} {args.hands:6d} {wall:9.1f} {cpu:9.1f} {target or '-':>7} {versus} "
            f"{cpu / PUBLISHED[count]:9.1f}"
        )
    print()
    print(f"# advise, {args.positions} positions, first five cards with {args.samples} deals")
    columns = (
        "case",
        "players",
        "options",
        "wall ms",
        "worst ms",
        "cpu ms",
        "target ms",
        "target/cpu",
        "sims/s",
        "x public",
    )
    print(" ".join(f"{c:>{w}}" for c, w in zip(columns, (11, 7, 7, 9, 9, 9, 9, 10, 10, 8))))
    for case, players, options, wall, worst, cpu, sims in advise_times(args.positions, args.samples):
        goal = ADVISE_TARGET[case]
        simulated = (
            f"{sims:10.0f} {sims / PUBLIC_SIMULATIONS:8.1f}"
            if case == "first five"
            else f"{'-':>10} {'-':>8}"
        )
        print(
            f"{case:>11} {players:7d} {options:7d} {wall * 1e3:9.1f} {worst * 1e3:9.1f} {cpu * 1e3:9.1f} "
            f"{goal * 1e3:9.0f} {goal / cpu:10.2f} {simulated}"
        )


if __name__ == "__main__":
    main()
