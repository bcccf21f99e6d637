"""Advice: the speed of ``suggest`` and ``evaluate_setting``, and how often the model's first suggestion is
also the best of the suggestions when they are measured by simulation.

    python bench/bench_advice.py [--hands H] [--samples N] [--threads T] [--measure M] [--seed S]

Speed: the median and 90th percentile of one ``suggest(k=3)`` call (and of ``arrange`` on the same hands,
for comparison) over H random hands; the wall time of one ``evaluate_setting(samples=N)`` for each field
and 1 and T threads (the figures are the same for any thread count; only the time differs).

Model check: for M random hands, ``evaluate_setting`` of the second suggestion with ``compare_to_best``
(N deals against the ``expected`` field): the share of hands where the paired difference's 95% interval
is above zero (the model's second choice measurably better than its first), and the mean regret.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import chinese_poker as cp
import numpy as np
from chinese_poker.dealing import deal_batch


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--samples", type=int, default=10_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--measure", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rules = cp.Rules.preset("pagat")
    hands = deal_batch(args.seed, 0, args.hands, players=1)[:, 0]
    cp.suggest(hands[0], rules)  # builds the model once
    suggest_times, arrange_times = [], []
    for hand in hands:
        start = time.perf_counter()
        cp.suggest(hand, rules, k=3)
        suggest_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        cp.arrange(hand, rules)
        arrange_times.append(time.perf_counter() - start)
    print(f"Python {platform.python_version()}, {platform.machine()}; pagat; {args.hands} random hands")
    for name, times in (("suggest(k=3)", suggest_times), ("arrange", arrange_times)):
        print(
            f"  {name:<13} median {statistics.median(times) * 1e3:6.2f} ms, "
            f"90th percentile {np.percentile(times, 90) * 1e3:6.2f} ms"
        )
    setting = cp.arrange(hands[0], rules).hand
    for field in ("expected", "strongest"):
        for threads in sorted({1, args.threads}):
            start = time.perf_counter()
            value = cp.evaluate_setting(
                setting, rules, field=field, samples=args.samples, seed=1, threads=threads
            )
            elapsed = time.perf_counter() - start
            low, high = value.interval
            print(
                f"  evaluate_setting(samples={args.samples:,}, field={field!r}, threads={threads}): "
                f"{elapsed:6.2f} s; {value.expected_units:+.3f} ({low:+.3f} to {high:+.3f})"
            )
    better, regrets = 0, []
    measured = 0
    for hand in hands[: args.measure]:
        found = cp.suggest(hand, rules, k=2)
        if len(found) < 2:
            continue
        value = cp.evaluate_setting(
            found[1].hand, rules, samples=args.samples, seed=7, compare_to_best=True, threads=args.threads
        )
        assert value.best is not None
        measured += 1
        better += value.best.difference_interval[0] > 0
        regrets.append(value.best.regret)
    if measured:
        print(
            f"Model check, {measured} hands, {args.samples:,} deals each: the second suggestion measurably "
            f"better than the first in {better}; mean regret of the second {statistics.mean(regrets):+.3f}"
        )


if __name__ == "__main__":
    main()
