"""Thread scaling of the batch calls: rows per second of evaluate_batch, settle_batch and arrange_batch at
threads=1 and threads=N (default 2), and the ratio.

    python bench/bench_threads.py [--threads N] [--rows R] [--rounds R] [--hands H] [--repeat K] [--seed S]

Random deals (52 shuffled cards, 13 per player, front 3, middle 5, back 5). Each timing is the best of K
calls; the one-thread and N-thread calls alternate, so that load from other processes affects both alike,
and the median ratio of each such pair is printed beside the ratio of the bests.
The load average before and after, and the cores the N-thread calls actually had (process CPU time over
wall time), are printed: on a busy machine the ratio says little.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable

import numpy as np
from chinese_poker import Rules, arrange_batch, evaluate_batch, settle_batch
from common import random_deals


def best_pair(run: Callable[[int], object], threads: int, repeat: int) -> tuple[float, float, float, float]:
    """Best wall time of `run(1)` and of `run(threads)` over `repeat` alternating calls, the median over the
    calls of the ratio of each `run(1)` to the `run(threads)` right after it (the two share whatever speed
    the machine had that second, so the ratio of a pair is steadier than the ratio of two bests taken
    minutes apart), and the cores the fastest `run(threads)` had: its process CPU time over its wall time
    (near `threads` on an idle machine, less when other processes take the cores)."""
    one = many = float("inf")
    cores = 0.0
    ratios: list[float] = []
    run(threads)  # warm up: tables, the expected model, thread start-up paths
    for _ in range(repeat):
        start = time.perf_counter()
        run(1)
        single = time.perf_counter() - start
        one = min(one, single)
        start, cpu = time.perf_counter(), time.process_time()
        run(threads)
        wall = time.perf_counter() - start
        ratios.append(single / wall)
        if wall < many:
            many, cores = wall, (time.process_time() - cpu) / wall
    return one, many, statistics.median(ratios), cores


def load() -> str:
    return "/".join(f"{v:.2f}" for v in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rows", type=int, default=10_000_000, help="five-card rows for evaluate_batch")
    parser.add_argument("--rounds", type=int, default=1_000_000, help="4-player rounds for settle_batch")
    parser.add_argument("--hands", type=int, default=20_000, help="hands for arrange_batch")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20240601)
    args = parser.parse_args()
    n = args.threads
    rng = np.random.default_rng(args.seed)
    rounds = random_deals(args.rounds, 4, rng)
    rows = np.ascontiguousarray(random_deals(args.rows // 10 + 1, 4, rng).reshape(-1, 52)[:, :50])
    rows = np.ascontiguousarray(rows.reshape(-1, 5)[: args.rows])
    hands = np.ascontiguousarray(rounds[: args.hands, 0])
    bonus = Rules.preset("pagat-bonus")
    app = Rules.preset("shisanshui-app")
    stakes = np.full((4, 4), 2, dtype=np.int64)
    surrender = np.zeros((len(rounds), 4), dtype=bool)

    cases: list[tuple[str, int, Callable[[int], object]]] = [
        ("evaluate_batch, 5-card rows", len(rows), lambda t: evaluate_batch(rows, threads=t)),
        ("settle_batch, pagat-bonus", len(rounds), lambda t: settle_batch(rounds, bonus, threads=t)),
        ("settle_batch, shisanshui-app", len(rounds), lambda t: settle_batch(rounds, app, threads=t)),
        (
            "settle_batch, shisanshui-app, stakes+surrender+detail",
            len(rounds),
            lambda t: settle_batch(rounds, app, stakes=stakes, surrender=surrender, detail=True, threads=t),
        ),
        ("arrange_batch, strongest", len(hands), lambda t: arrange_batch(hands, app, "strongest", threads=t)),
        ("arrange_batch, expected", len(hands), lambda t: arrange_batch(hands, app, "expected", threads=t)),
    ]
    before = load()
    print(
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores; best of "
        f"{args.repeat}; load average (1/5/15 min) before: {before}"
    )
    header = f"{'call':<56}{'rows':>11}{'rows/s, 1 thread':>19}{f'rows/s, {n} threads':>20}{'ratio':>8}"
    print(f"{header}{'pairs':>8}{'cores had':>11}")
    print("-" * 133)
    for label, count, run in cases:
        one, many, paired, cores = best_pair(run, n, args.repeat)
        rates = f"{count / one:>19,.0f}{count / many:>20,.0f}{one / many:>7.2f}x{paired:>7.2f}x"
        print(f"{label:<56}{count:>11,}{rates}{cores:>11.2f}")
    print(
        f"ratio: of the best times; pairs: median of the {args.repeat} ratios of a 1-thread call to the "
        f"{n}-thread call right after it"
    )
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
