"""Against weak players: one "expected" seat against three "strongest" seats, three ways of valuing, paired.

    python bench/bench_weak_field.py --field FILE [--deals N] [--seed S] [--threads T] [--presets P,P,...]
                                     [--baseline FILE]

The shipped field tables (docs/ARRANGING.md) model a field of "expected" players, a strong one. Against
weak players, who set their strongest back, then middle, then front ("strongest"), other tables do better.
Every preset's match here is 4 players: seat 0 by one of

- ``shipped``: the shipped "expected" (its tables and, where the rules use it, the second stage);
- ``previous``: "expected" as the previous release shipped it, the single pagat table of
  bench/data/field_rows_baseline.npz for every rule set, the model alone (``Strategy(field=...)``);
- ``weak field``: ``Strategy("expected", field=FILE)``, tables of the rows "strongest" players set: made by
  ``python scripts/make_field_tables.py --preset PRESET --iterations 1 -o FILE`` (field 0 of that script
  is "strongest"; a ``{preset}`` in FILE is replaced);

and seats 1-3 by "strongest". Every deal (``deal_batch``, as ``chinese_poker.simulate`` deals them) is
played once per seat rotation, so each of its 4 hands is played once by seat 0; the three ways play the
same deals against the same settings, so their differences are paired per deal. Printed per preset: each
way's mean net units per hand (against its 3 opponents together) with its 95% interval, and each way's
difference from ``previous`` with the 95% interval of the per-deal differences (1.96 standard errors).
Under ``natural_declaration="must_declare"`` a hand holding a listed natural declares it, as in
``simulate``.
"""

from __future__ import annotations

import argparse
import math
import platform
import time
from pathlib import Path

import chinese_poker as cp
import chinese_poker._core as _core
import numpy as np
from chinese_poker.arrange import arrange_batch, build_expected_model
from chinese_poker.dealing import deal_batch
from common import load_arrays

HERE = Path(__file__).resolve().parent
BASELINE = HERE / "data" / "field_rows_baseline.npz"
PRESETS = ("pagat", "wikipedia-2-4", "wikipedia-1-6", "shisanzhang-hk")
PLAYERS = 4


def interval(samples: np.ndarray, scale: float) -> tuple[float, float, float]:
    """The mean of ``samples / scale`` and its 95% interval (1.96 standard errors)."""
    mean = float(samples.mean()) / scale
    half = 1.96 * float(samples.std(ddof=1)) / math.sqrt(len(samples)) / scale
    return mean, mean - half, mean + half


def seat0_units(
    rules: cp.Rules, seat0: np.ndarray, others: np.ndarray, declared: np.ndarray | None
) -> np.ndarray:
    """Seat 0's net units per deal, summed over the rotations: in rotation r seat 0 holds hand r, set by
    ``seat0``, and the other seats hands r+1.. (mod 4), set by ``others``."""
    deals = seat0.shape[0]
    rotations = np.arange(PLAYERS)
    hand_of = (rotations[:, None] + rotations[None, :]) % PLAYERS  # (rotation, seat)
    rounds = others[:, hand_of, :].copy()  # (deals, rotation, seat, 13)
    rounds[:, :, 0, :] = seat0[:, hand_of[:, 0], :]
    flat_declared = None
    if declared is not None:
        flat_declared = np.ascontiguousarray(declared[:, hand_of].reshape(deals * PLAYERS, PLAYERS))
    net = cp.settle_batch(
        np.ascontiguousarray(rounds.reshape(deals * PLAYERS, PLAYERS, 13)), rules, declared=flat_declared
    )
    return net[:, 0].reshape(deals, PLAYERS).sum(axis=1).astype(np.float64)


def arranged(
    hands: np.ndarray, rules: cp.Rules, strategy: str, model: _core.ExpectedModel | None, threads: int
) -> np.ndarray:
    """Every hand of the deals (deals * 4, 13) set by ``strategy``: settings shaped (deals, 4, 13)."""
    settings = arrange_batch(hands, rules, strategy, model=model, threads=threads)
    return settings.reshape(-1, PLAYERS, 13)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--field", required=True, help="tables of a 'strongest' field ({preset}: the preset)")
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2028)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--baseline", default=str(BASELINE), help="the previous release's tables file")
    args = parser.parse_args()

    print(
        f"One 'expected' seat v. three 'strongest', seats rotated: {args.deals:,} deals x {PLAYERS} "
        f"rotations per preset, seed {args.seed}; chinese_poker {cp.__version__}, {platform.machine()}, "
        f"threads {args.threads}"
    )
    header = (
        f"{'preset':<16} {'seat 0':<11} {'units/hand':>10}  {'95% interval':<20} "
        f"{'v. previous':>11}  {'95% interval':<20}"
    )
    print(header)
    print("-" * len(header))
    for preset in args.presets.split(","):
        started = time.perf_counter()
        rules = cp.Rules.preset(preset)
        dealt = deal_batch(args.seed, 0, args.deals, PLAYERS)
        hands = np.ascontiguousarray(dealt.reshape(-1, 13))
        declared = None
        if rules.natural_declaration == "must_declare" and rules.naturals:
            declared = np.array(
                [cp.detect_natural(hand, rules) is not None for hand in hands], dtype=bool
            ).reshape(args.deals, PLAYERS)
        models: dict[str, _core.ExpectedModel | None] = {
            "shipped": None,
            "previous": build_expected_model(load_arrays(args.baseline.format(preset=preset)), rules),
            "weak field": build_expected_model(load_arrays(args.field.format(preset=preset)), rules),
        }

        others = arranged(hands, rules, "strongest", None, args.threads)
        units = {
            name: seat0_units(
                rules, arranged(hands, rules, "expected", model, args.threads), others, declared
            )
            for name, model in models.items()
        }
        for name, samples in units.items():
            mean, low, high = interval(samples, PLAYERS)
            line = f"{preset:<16} {name:<11} {mean:>+10.4f}  [{low:+.4f}, {high:+.4f}]"
            if name != "previous":
                diff, dlow, dhigh = interval(samples - units["previous"], PLAYERS)
                line += f" {diff:>+12.4f}  [{dlow:+.4f}, {dhigh:+.4f}]"
            print(line, flush=True)
        print(f"{'':<16} ({time.perf_counter() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
