"""What the second stage of the "expected" strategy gains: the model's best few settings re-scored against
the stored sample of the field's own settings, the best of them played instead of the model's first.

    python bench/bench_second_stage.py [--rules R] [--deals N] [--seed S] [--top K] [--threads T]

Measured as a paired difference on the same deals: every seat is arranged by the expected-units model
alone (the rules' field tables, no second stage); for each seat whose setting the second stage changes,
the deal is settled again with that seat's second-stage setting swapped in, and the change in that seat's
units (against the same three opponents, who play the model's settings) is recorded. Printed: how many
hands changed, the mean change per hand with its 95% interval (mean +- 1.96 standard errors), and both
arrangers' speed (hands per second on one thread) side by side, as a ratio.
"""

from __future__ import annotations

import argparse
import time

import chinese_poker as cp
import numpy as np
from chinese_poker.arrange import (
    SECOND_STAGE_TOP,
    arrange_batch,
    build_expected_model,
    field_preset,
    field_sample,
    field_tables,
)
from common import random_deals


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rules", default="wikipedia-2-4")
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--top", type=int, default=SECOND_STAGE_TOP)
    parser.add_argument("--seed", type=int, default=123)
    parser.add_argument("--threads", type=int, default=2, help="threads for the match (speed: one thread)")
    args = parser.parse_args()
    rules = cp.Rules.preset(args.rules)
    preset = field_preset(rules)
    model_only = build_expected_model(field_tables(preset), rules)
    staged = build_expected_model(field_tables(preset), rules, sample=field_sample(preset), top=args.top)
    deals = random_deals(args.deals, 4, np.random.default_rng(args.seed))
    hands = deals.reshape(-1, 13)

    speed = {}
    for name, model in (("model alone", model_only), ("with second stage", staged)):
        probe = hands[:4000]
        start = time.perf_counter()
        arrange_batch(probe, rules, model=model)
        speed[name] = len(probe) / (time.perf_counter() - start)
    first = arrange_batch(hands, rules, model=model_only, threads=args.threads).reshape(deals.shape)
    second = arrange_batch(hands, rules, model=staged, threads=args.threads).reshape(deals.shape)

    change = np.zeros((args.deals, 4))
    for seat in range(4):
        moved = np.nonzero((first[:, seat] != second[:, seat]).any(axis=1))[0]
        if len(moved) == 0:
            continue
        before = np.ascontiguousarray(first[moved])
        after = before.copy()
        after[:, seat] = second[moved, seat]
        change[moved, seat] = cp.settle_batch(after, rules)[:, seat] - cp.settle_batch(before, rules)[:, seat]
    per_hand = change.reshape(-1)
    changed = int((first != second).any(axis=2).sum())
    half = 1.96 * per_hand.std(ddof=1) / np.sqrt(len(per_hand))
    mean = per_hand.mean()
    print(
        f"{args.rules} (field {preset}): {args.deals:,} deals ({len(per_hand):,} hands), top {args.top}, "
        f"sample {staged.sample_size:,}"
    )
    print(f"{'hands changed':<32}{changed:>10,} ({changed / len(per_hand):.1%})")
    print(
        f"{'units per hand, second stage':<32}{mean:>+10.4f} (95% {mean - half:+.4f} to {mean + half:+.4f})"
    )
    print(f"{'':<32}{'hands/s':>10}{'ratio':>8}")
    base = speed["model alone"]
    for name, value in speed.items():
        print(f"{name:<32}{value:>10,.0f}{value / base:>8.2f}")


if __name__ == "__main__":
    main()
