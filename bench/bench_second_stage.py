"""What the second stage of the "expected" strategy gains: the model's best few settings re-scored against
the stored sample of the field's own settings, the best of them played instead of the model's first.

    python bench/bench_second_stage.py [--rules R] [--deals N] [--seed S] [--top K] [--threads T]
                                       [--sample FILE]
    python bench/bench_second_stage.py --speed [--hands H]

Measured as a paired difference on the same deals: every seat is arranged by the expected-units model
alone (the rules' field tables, no second stage); for each seat whose setting the second stage changes,
the deal is settled again with that seat's second-stage setting swapped in, and the change in that seat's
units (against the same three opponents, who play the model's settings) is recorded. Printed: how many
hands changed, the mean change per hand with its 95% interval (mean +- 1.96 standard errors), and both
arrangers' speed (hands per second on one thread) side by side, as a ratio. The stage is measured whether
or not the rules' shipped strategy uses it (``arrange.uses_second_stage``; the line says which).
``--sample FILE`` scores against the sample in FILE (as scripts/make_field_sample.py writes it; a
``{preset}`` in the name is replaced) instead of the shipped one, to measure a candidate.

``--speed``: for every preset, the shipped "expected" (the second stage where the rules use it) beside
the model alone, on the same H random hands, one thread, each timed twice in turn (the better kept):
``arrange()``'s median per call (the shipped strategy, 500 hands) and ``arrange_batch``'s hands per second.
"""

from __future__ import annotations

import argparse
import statistics
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
    uses_second_stage,
)
from chinese_poker.presets import PRESET_NAMES
from common import load_arrays, random_deals


def speed_table(hand_count: int, seed: int) -> None:
    """Per preset: arrange() median and arrange_batch hands/s, shipped strategy beside the model alone."""
    hands = random_deals(hand_count // 4 + 1, 4, np.random.default_rng(seed)).reshape(-1, 13)[:hand_count]
    print(f"Speed, one thread, {hand_count:,} random hands per preset (best of two runs each)")
    header = f"{'preset':<24}{'stage':>6}{'arrange() ms':>14}{'hands/s':>10}{'(alone)':>9}{'ratio':>7}"
    print(header)
    print("-" * len(header))
    for preset in PRESET_NAMES:
        rules = cp.Rules.preset(preset)
        alone = build_expected_model(field_tables(field_preset(rules)), rules)
        rates = {"shipped": 0.0, "alone": 0.0}
        for _ in range(2):
            for name, model in (("shipped", None), ("alone", alone)):
                start = time.perf_counter()
                arrange_batch(hands, rules, model=model)
                rates[name] = max(rates[name], len(hands) / (time.perf_counter() - start))
        calls = []
        for hand in hands[:500]:
            start = time.perf_counter()
            cp.arrange(hand, rules)
            calls.append(time.perf_counter() - start)
        print(
            f"{preset:<24}{'on' if uses_second_stage(rules) else 'off':>6}"
            f"{1e3 * statistics.median(calls):>14.3f}"
            f"{rates['shipped']:>10,.0f}{rates['alone']:>9,.0f}{rates['shipped'] / rates['alone']:>7.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rules", default="wikipedia-2-4")
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--top", type=int, default=SECOND_STAGE_TOP)
    parser.add_argument("--seed", type=int, default=123)
    parser.add_argument("--threads", type=int, default=2, help="threads for the match (speed: one thread)")
    parser.add_argument("--sample", default=None, help="a sample file to measure ({preset}: the preset)")
    parser.add_argument("--speed", action="store_true", help="print the speed table of every preset instead")
    parser.add_argument("--hands", type=int, default=3_000, help="hands per preset for --speed")
    args = parser.parse_args()
    if args.speed:
        speed_table(args.hands, args.seed)
        return
    rules = cp.Rules.preset(args.rules)
    preset = field_preset(rules)
    model_only = build_expected_model(field_tables(preset), rules)
    sample = load_arrays(args.sample.format(preset=preset)) if args.sample else field_sample(preset)
    staged = build_expected_model(field_tables(preset), rules, sample=sample, top=args.top)
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
        f"sample {staged.sample_size:,}; shipped: stage {'on' if uses_second_stage(rules) else 'off'}"
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
