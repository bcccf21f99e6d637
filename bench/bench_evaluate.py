"""Five-card evaluation speed: chinese_poker against eval7, treys and phevaluator on the same hands.

    python bench/bench_evaluate.py [--hands N] [--repeat R] [--seed S]

Every evaluator gets the same N random five-card hands (fixed seed); each timing is the best of R runs of
the whole set, in one Python loop per run (batch: one call). evaluate_batch runs on one core.
"""

from __future__ import annotations

import argparse
import importlib
import platform
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chinese_poker as cp
import numpy as np
from common import best_time


def random_hands(count: int, seed: int) -> np.ndarray:
    """``count`` random five-card hands, cards in random order, as a C-contiguous (count, 5) uint8 array."""
    rng = np.random.default_rng(seed)
    hands = np.empty((count, 5), dtype=np.uint8)
    for start in range(0, count, 20_000):
        stop = min(count, start + 20_000)
        hands[start:stop] = rng.random((stop - start, 52)).argpartition(5, axis=1)[:, :5]
    return hands


def optional(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def cpu_model() -> str:
    try:
        with Path("/proc/cpuinfo").open(encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="number of hands (default 200000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per evaluator, best kept (default 3)")
    parser.add_argument("--seed", type=int, default=20_240_601, help="seed of the random hands")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.repeat < 1:
        parser.error("--hands and --repeat must be positive")

    hands = random_hands(args.hands, args.seed)
    as_lists = hands.tolist()
    reference = cp.evaluate_batch(hands)
    rows: list[tuple[str, str, float | None]] = []

    def add(name: str, call: str, run: Callable[[], object] | None) -> None:
        rows.append((name, call, None if run is None else best_time(run, args.repeat)))

    evaluate = cp.evaluate
    singles = [evaluate(hand) for hand in as_lists]
    if singles != reference.tolist():
        raise SystemExit("evaluate and evaluate_batch disagree")
    add("chinese_poker", "evaluate(list of 5 ints)", lambda: [evaluate(hand) for hand in as_lists])
    add("chinese_poker", "evaluate_batch(uint8 (N,5)), 1 core", lambda: cp.evaluate_batch(hands))

    eval7 = optional("eval7")
    if eval7 is None:
        add("eval7", "not installed", None)
    else:
        deck7 = [eval7.Card(cp.format_card(code)) for code in range(52)]
        hands7 = [[deck7[c] for c in hand] for hand in as_lists]
        evaluate7 = eval7.evaluate
        add("eval7", "evaluate(list of 5 Card)", lambda: [evaluate7(hand) for hand in hands7])

    treys = optional("treys")
    if treys is None:
        add("treys", "not installed", None)
    else:
        deck_t = [treys.Card.new(cp.format_card(code)) for code in range(52)]
        hands_t = [([deck_t[a], deck_t[b]], [deck_t[c], deck_t[d], deck_t[e]]) for a, b, c, d, e in as_lists]
        evaluate_t = treys.Evaluator().evaluate
        add(
            "treys",
            "Evaluator().evaluate(2 cards, board of 3)",
            lambda: [evaluate_t(h, b) for h, b in hands_t],
        )

    phevaluator = optional("phevaluator")
    if phevaluator is None:
        add("phevaluator", "not installed", None)
    else:
        evaluate_ph = phevaluator.evaluate_cards  # our card codes are its card ids
        add("phevaluator", "evaluate_cards(5 ints)", lambda: [evaluate_ph(*hand) for hand in as_lists])

    eval7_seconds = next((t for name, _, t in rows if name == "eval7"), None)
    print(
        f"{args.hands:,} random five-card hands (seed {args.seed}), best of {args.repeat}; "
        f"Python {platform.python_version()}, {cpu_model()}"
    )
    header = f"{'evaluator':<14} {'call':<42} {'hands/s':>13} {'ns/hand':>9} {'vs eval7':>9}"
    print(header)
    print("-" * len(header))
    for name, call, seconds in rows:
        if seconds is None:
            print(f"{name:<14} {call:<42} {'-':>13} {'-':>9} {'-':>9}")
            continue
        rate = args.hands / seconds
        ratio = f"{eval7_seconds / seconds:.2f}x" if eval7_seconds else "-"
        print(f"{name:<14} {call:<42} {rate:>13,.0f} {1e9 / rate:>9.1f} {ratio:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
