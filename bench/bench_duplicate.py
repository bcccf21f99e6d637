"""Duplicate matches: the shipped "expected" strategy against a frozen baseline of it.

    python bench/bench_duplicate.py [--deals N] [--seed S] [--threads T] [--presets P,P,...]
                                    [--baseline FILE] [--new FILE]

The baseline is the "expected" strategy as it was before the field tables were made per rule set: one
pagat field for every rule set, kept in bench/data/field_rows_baseline.npz. Each match is 4 players, 1
playing the new "expected" against 3 playing the baseline, under one preset; every deal is played once per
seat rotation (chinese_poker.simulate with rotate=True), so each of the 4 hands of a deal is played once by
the new strategy and three times by the baseline: the luck of the cards cancels.

Printed per preset: the new player's mean net units per hand (against its 3 opponents together) and its
95% interval (1.96 standard errors of the per-deal sums over the rotations), the same per opponent, and
the share of hands it wins. A margin whose interval excludes zero says the new strategy is better (or
worse) under that scoring. ``--new FILE`` plays tables from FILE (a ``{preset}`` in the name is replaced)
instead of the shipped ones, to measure a candidate; ``--baseline FILE`` (likewise) plays another
baseline.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import chinese_poker as cp
from chinese_poker.simulate import Strategy
from common import load_arrays

HERE = Path(__file__).resolve().parent
BASELINE = HERE / "data" / "field_rows_baseline.npz"
PRESETS = ("pagat", "wikipedia-2-4", "wikipedia-1-6", "shisanzhang-hk")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--baseline", default=str(BASELINE), help="its tables file ({preset}: the preset)")
    parser.add_argument("--new", default=None, help="tables file for the new player ({preset}: the preset)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()

    print(
        f"Duplicate matches, 1 new 'expected' v. 3 baseline 'expected', seats rotated: {args.deals:,} deals "
        f"x 4 rotations per preset, seed {args.seed}; chinese_poker {cp.__version__}, "
        f"{platform.machine()}, threads {args.threads}"
    )
    header = (
        f"{'preset':<16} {'units/hand':>10}  {'95% interval':<20} {'per opponent':>12}  {'won':>5}  {'s':>5}"
    )
    print(header)
    print("-" * len(header))
    figures = []
    for preset in args.presets.split(","):
        rules = cp.Rules.preset(preset)
        tables = load_arrays(str(args.baseline).format(preset=preset))
        baseline = Strategy("expected", field=tables, label="baseline")
        if args.new:
            new = Strategy("expected", field=load_arrays(args.new.format(preset=preset)), label="new")
        else:
            new = Strategy("expected", label="new")
        started = time.perf_counter()
        result = cp.simulate(
            rules,
            [new, baseline, baseline, baseline],
            deals=args.deals,
            seed=args.seed,
            threads=args.threads,
            rotate=True,
        )
        seconds = time.perf_counter() - started
        seat = result.seats[0]
        low, high = seat.ci95
        print(
            f"{preset:<16} {seat.mean_units:>+10.4f}  [{low:+.4f}, {high:+.4f}]   "
            f"{seat.mean_units / 3:>+12.4f}  {seat.won_share:>5.3f}  {seconds:>5.0f}",
            flush=True,
        )
        figures.append(
            {
                "preset": preset,
                "mean": seat.mean_units,
                "ci95": [low, high],
                "won": seat.won_share,
                "deals": args.deals,
                "seed": args.seed,
            }
        )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
