"""The net-only settlement kernel beside the general path, in the same build: 4-player rounds per second of
``settle_batch`` (the kernel), of ``settle_batch`` with a shared all-ones ``stakes`` matrix (the same net
units, settled round by round by the general path) and of ``settle_batch(detail=True)`` (the general path
with every per-pair column), on the same random deals, one thread; each the least processor time of R
tries, the three taken in turn.

    python bench/bench_net_kernel.py [--rounds N] [--repeat R] [--seed S]

The rule sets cover the kernel's three instantiations: lean rules whose pairs add to the nets at once
(pagat, wikipedia-2-4), lean rules with a home run, ace part or pair cap (shisanshui-app, maubinh,
pagat with ace_units and pair_cap), and the row-by-row pair of the other rules (royalty_condition
"always", overall_basis "total"). The ratio columns are the kernel's speed over the general path's: run
this script on two builds one right after the other to see whether a change to the settlement code kept
the kernel's lead.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable
from functools import partial

import numpy as np
from chinese_poker.rules import Rules
from chinese_poker.settle import settle_batch
from common import random_deals


def cpu_seconds(run: Callable[[], object]) -> float:
    """The processor time of one call of `run`: on a machine shared with other work, wall time counts the
    waits too, processor time only this process's own work (the calls here run on the calling thread)."""
    start = time.process_time()
    run()
    return time.process_time() - start


def rule_sets() -> list[tuple[str, Rules]]:
    """The rule sets timed, each with its label."""
    return [
        ("pagat (lean, plain units)", Rules.preset("pagat")),
        ("wikipedia-2-4 (lean, plain units)", Rules.preset("wikipedia-2-4")),
        ("shisanshui-app (lean, home run)", Rules.preset("shisanshui-app")),
        ("maubinh (lean, home run, table ace part)", Rules.preset("maubinh")),
        (
            "pagat, ace_units 1, pair_cap 6 (lean, pair ace part)",
            Rules.preset("pagat").replace(ace_units=1, pair_cap=6),
        ),
        (
            "pagat-bonus, always, total (row by row)",
            Rules.preset("pagat-bonus").replace(
                royalty_condition="always", overall_basis="total", overall_unit=1
            ),
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=20240601)
    args = parser.parse_args()

    rounds = random_deals(args.rounds, 4, np.random.default_rng(args.seed))
    ones = np.ones((4, 4), dtype=np.int64)
    machine = platform.processor() or platform.machine()
    print(
        f"{len(rounds)} random 4-player rounds, least processor time of {args.repeat}, one thread ({machine})"
    )
    header = (
        f"{'rules':52} {'kernel r/s':>12} {'general r/s':>12} {'detail r/s':>12} {'k/gen':>6} {'k/det':>6}"
    )
    print(header)
    print("-" * len(header))
    for label, rules in rule_sets():
        calls = (
            partial(settle_batch, rounds, rules),
            partial(settle_batch, rounds, rules, stakes=ones),
            partial(settle_batch, rounds, rules, detail=True),
        )
        # The three paths in turn, `repeat` times, each its best: a burst of other work on the machine then
        # slows one try of every path rather than every try of one.
        best = [float("inf")] * len(calls)
        for _ in range(args.repeat):
            for k, call in enumerate(calls):
                best[k] = min(best[k], cpu_seconds(call))
        kernel, general, detail = (len(rounds) / seconds for seconds in best)
        print(
            f"{label:52} {kernel:12,.0f} {general:12,.0f} {detail:12,.0f} "
            f"{kernel / general:6.2f} {kernel / detail:6.2f}"
        )


if __name__ == "__main__":
    main()
