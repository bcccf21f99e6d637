"""The advisor against the greedy baseline in duplicate matches (docs/OFC.md): 2 players, Pineapple,
progressive fantasyland (the ``ofc`` preset with ``ofc_variant="pineapple"``, ``fantasyland="progressive"``).

    python bench/bench_ofc_strength.py run --first-deal 0 --deals 2000 --out strength-a.jsonl
    python bench/bench_ofc_strength.py table strength-a.jsonl [strength-b.jsonl ...]

``run`` plays the deals in chunks of ``--chunk`` and appends each chunk's per-deal duplicate scores to
``--out`` (JSON Lines), so runs on several cores, or stopped early, combine; ``table`` prints the advisor's
mean units per hand over every deal recorded, with its 95 % interval, and each policy's foul rate.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import time
from pathlib import Path

from chinese_poker.ofc.play import play
from chinese_poker.rules import Rules

RULES = Rules.preset("ofc").replace(ofc_variant="pineapple", fantasyland="progressive")


def run(args: argparse.Namespace) -> None:
    """Play the deals chunk by chunk, appending each chunk's scores."""
    for start in range(args.first_deal, args.first_deal + args.deals, args.chunk):
        count = min(args.chunk, args.first_deal + args.deals - start)
        began = time.perf_counter()
        match = play(RULES, ["advisor", "greedy"], count, args.seed, first_deal=start, samples=args.samples)
        advisor, baseline = match.results
        line = {
            "first_deal": start,
            "deals": count,
            "samples": args.samples,
            "seed": args.seed,
            "seconds": time.perf_counter() - began,
            "advisor": list(advisor.scores),
            "advisor_fouls": advisor.fouls,
            "greedy_fouls": baseline.fouls,
        }
        with Path(args.out).open("a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")


def table(args: argparse.Namespace) -> None:
    """Print the combined result of the recorded chunks."""
    scores: list[float] = []
    fouls = {"advisor": 0.0, "greedy": 0.0}
    seconds = 0.0
    seen: set[int] = set()
    samples = set()
    for path in args.files:
        with Path(path).open(encoding="utf-8") as handle:
            for raw in handle:
                line = json.loads(raw)
                if line["first_deal"] in seen:
                    raise SystemExit(f"{path}: deal {line['first_deal']} recorded twice")
                seen.add(line["first_deal"])
                scores += line["advisor"]
                for name in fouls:
                    fouls[name] += line[f"{name}_fouls"] * line["deals"]
                seconds += line["seconds"]
                samples.add(line["samples"])
    n = len(scores)
    mean = sum(scores) / n
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1))
    half = 1.959963984540054 * sd / math.sqrt(n)
    machine = platform.processor() or platform.machine()
    print(f"# {machine}, load {os.getloadavg()[0]:.2f}, samples {sorted(samples)}")
    heads = ("deals", "hands", "advisor units/hand", "95% interval", "fouls adv", "fouls greedy", "s/deal")
    print(" ".join(f"{h:>{w}}" for h, w in zip(heads, (6, 6, 19, 18, 9, 12, 7))))
    print(
        f"{n:>6} {2 * n:>6} {mean:>19.3f} {f'[{mean - half:.3f}, {mean + half:.3f}]':>18} "
        f"{fouls['advisor'] / n:>9.3f} {fouls['greedy'] / n:>12.3f} {seconds / n:>7.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    runner = commands.add_parser("run")
    runner.add_argument("--first-deal", type=int, default=0)
    runner.add_argument("--deals", type=int, default=200)
    runner.add_argument("--chunk", type=int, default=25)
    runner.add_argument("--samples", type=int, default=1000)
    runner.add_argument("--seed", type=int, default=2026)
    runner.add_argument("--out", required=True)
    runner.set_defaults(handler=run)
    tabler = commands.add_parser("table")
    tabler.add_argument("files", nargs="+")
    tabler.set_defaults(handler=table)
    args = parser.parse_args()
    args.handler(args)


if __name__ == "__main__":
    main()
