"""Arranging: quality of the "expected" strategy against "strongest", and speed.

    python bench/bench_arrange.py [--deals N] [--threads T] [--latency-hands H] [--batch-hands B] [--seed S]

Quality: N random 4-player deals; seat 0 arranges by "expected", seats 1-3 by "strongest"; each deal is
settled under the preset and seat 0's net units recorded. Printed: the mean units per deal and its 95%
confidence interval (mean +- 1.96 standard errors), for pagat and wikipedia-1-6. The arranging runs on T
threads (arrange_batch releases the GIL); the settling is exact.

Speed (one core): the median and 90th percentile of one ``arrange`` call from Python, over H hands, and
hands per second of ``arrange_batch`` on one thread, over B hands, for both strategies.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import chinese_poker as cp
import numpy as np
from chinese_poker.arrange import arrange_batch
from common import random_deals


def arrange_threads(hands: np.ndarray, rules: cp.Rules, strategy: str, threads: int) -> np.ndarray:
    parts = np.array_split(hands, threads * 8)
    with ThreadPoolExecutor(threads) as pool:
        return np.concatenate(
            list(pool.map(lambda part: arrange_batch(np.ascontiguousarray(part), rules, strategy), parts))
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--latency-hands", type=int, default=1_000)
    parser.add_argument("--batch-hands", type=int, default=4_000)
    parser.add_argument("--seed", type=int, default=20240601)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    print(
        f"Quality: {args.deals:,} random 4-player deals; seat 0 'expected' v three 'strongest' "
        f"(arranged on {args.threads} threads); Python {platform.python_version()}, {platform.machine()}"
    )
    print(f"{'rules':<16}{'mean units/deal':>17}{'95% CI':>22}{'seat 0 wins deals':>20}{'seconds':>9}")
    print("-" * 84)
    deals = random_deals(args.deals, 4, rng)
    others = None
    for preset in ("pagat", "wikipedia-1-6"):
        started = time.perf_counter()
        rules = cp.Rules.preset(preset)
        if others is None:  # both presets use the same wheel and middle rule: "strongest" agrees
            others = arrange_threads(deals[:, 1:].reshape(-1, 13), rules, "strongest", args.threads)
        seat0 = arrange_threads(np.ascontiguousarray(deals[:, 0]), rules, "expected", args.threads)
        table = np.ascontiguousarray(np.concatenate([seat0[:, None], others.reshape(-1, 3, 13)], axis=1))
        net = cp.settle_batch(table, rules)[:, 0].astype(np.float64)
        mean = net.mean()
        half = 1.96 * net.std(ddof=1) / np.sqrt(len(net))
        interval = f"[{mean - half:+.4f}, {mean + half:+.4f}]"
        print(
            f"{preset:<16}{mean:>+17.4f}{interval:>22}{(net > 0).mean():>19.1%}"
            f"{time.perf_counter() - started:>9.1f}"
        )

    print()
    print(
        f"Speed, one core: arrange() over {args.latency_hands:,} hands; arrange_batch over "
        f"{args.batch_hands:,} hands"
    )
    print(f"{'strategy':<12}{'arrange median ms':>19}{'p90 ms':>9}{'arrange_batch hands/s':>24}")
    print("-" * 64)
    hands = deals[: max(args.latency_hands, args.batch_hands)].reshape(-1, 13)
    rules = cp.Rules.preset("pagat")
    for strategy in ("expected", "strongest"):
        cp.arrange(hands[0], rules, strategy)  # warm the model cache
        times = []
        for hand in hands[: args.latency_hands]:
            start = time.perf_counter()
            cp.arrange(hand, rules, strategy)
            times.append(time.perf_counter() - start)
        batch = np.ascontiguousarray(hands[: args.batch_hands])
        start = time.perf_counter()
        arrange_batch(batch, rules, strategy)
        rate = len(batch) / (time.perf_counter() - start)
        p90 = statistics.quantiles(times, n=10)[-1]
        print(f"{strategy:<12}{statistics.median(times) * 1e3:>19.3f}{p90 * 1e3:>9.3f}{rate:>24,.0f}")


if __name__ == "__main__":
    main()
