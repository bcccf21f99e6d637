"""Rounds a second through the JSON Lines paths users meet: ``score`` (full output, JSON Lines and a JSON
list), ``score --output net`` and ``vectors``, this tree beside a previous state of the package in the same
run.

The round file mixes tables of 2, 3 and 4 players under five presets, each round naming its own rules
(``"rules": "pagat"`` ...), with the per-round inputs ``vectors`` gives real tables now and then (stakes,
banker and bets, surrender, false declarations): the rounds of ``chinese-poker vectors`` with ``expected``
and ``tags`` removed, the presets taken in turn. It is written once to ``--file`` (default a file in the
temporary directory, reused when it is there) by the generator of the package on the path (run it from
the repository root with ``PYTHONPATH=$PWD/python``).

Each figure is the CPU time (user + system) of a child process run on one core (``taskset`` when present),
start-up included, and every command of both trees is run on the same file in the same run, so the ratio
column compares like with like even on a loaded machine. The previous state is a ``python/`` directory
holding a built package, taken from a temporary git worktree:

    git worktree add /tmp/cp-previous HEAD~1      # or the commit / tag to compare against
    cmake -S /tmp/cp-previous -B /tmp/cp-previous/build/py -G Ninja -DCP_BUILD_PYTHON=ON \\
        -DCMAKE_BUILD_TYPE=Release -Dpybind11_DIR=$(python -m pybind11 --cmakedir)
    cmake --build /tmp/cp-previous/build/py -j2 && cp /tmp/cp-previous/build/py/_core*.so \\
        /tmp/cp-previous/python/chinese_poker/
    python bench/bench_output.py --previous /tmp/cp-previous/python
    git worktree remove /tmp/cp-previous

Without ``--previous`` only this tree is measured. Both outputs of every command are compared too (the
engine's version field left out): the "same bytes" column says whether they are equal.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from chinese_poker.cli.common import dumps
from chinese_poker.formats.vectors import random_round
from chinese_poker.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
THIS_TREE = ROOT / "python"
PRESETS = ("pagat", "pagat-bonus", "capsa-susun", "shisanshui-app", "pusoy")
_VERSION_FIELD = re.compile(rb'"engine":\{"name":"chinese-poker","version":"[^"]*"\}')


def write_mixed_file(path: Path, rounds: int, seed: int) -> None:
    """``rounds`` rounds of 2 to 4 players, the presets ``PRESETS`` in turn, each named by its round."""
    rng = random.Random(seed)
    rules = [Rules.preset(name) for name in PRESETS]
    width = len(str(rounds))
    with path.open("w", encoding="utf-8") as out:
        for k in range(rounds):
            data = random_round(rng, rules[k % len(rules)], f"r{k:0{width}d}")
            del data["tags"]
            data["rules"] = PRESETS[k % len(PRESETS)]
            out.write(dumps(data) + "\n")


def run_child(tree: Path, command: list[str]) -> tuple[float, bytes]:
    """The CPU seconds of ``python -m chinese_poker COMMAND`` with ``tree`` first on the path, and its
    standard output."""
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    env = dict(os.environ, PYTHONPATH=str(tree))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [*pin, sys.executable, "-m", "chinese_poker", *command], env=env, capture_output=True, check=False
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} under {tree} failed: {done.stderr.decode()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=20_000, help="rounds in the mixed file (default 20000)")
    parser.add_argument("--vectors", type=int, default=2_000, help="vectors --count (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--file", type=Path, help="the mixed round file (written when missing)")
    parser.add_argument("--previous", type=Path, help="python/ directory of the previous state, built")
    args = parser.parse_args()
    path = args.file or Path(tempfile.gettempdir()) / f"cp_bench_mixed_{args.rounds}_{args.seed}.jsonl"
    if not path.exists():
        write_mixed_file(path, args.rounds, args.seed)
    trees = [("this", THIS_TREE)] + ([("previous", args.previous.resolve())] if args.previous else [])
    cases = [
        ("score (full)", ["score", str(path), "--format", "jsonl", "--progress", "never"], args.rounds),
        ("score --format json", ["score", str(path), "--format", "json", "--progress", "never"], args.rounds),
        (
            "score --output net",
            ["score", str(path), "--format", "jsonl", "--output", "net", "--progress", "never"],
            args.rounds,
        ),
        (
            f"vectors --count {args.vectors}",
            ["vectors", "--count", str(args.vectors), "--no-edge-cases", "--progress", "never"],
            args.vectors,
        ),
    ]
    load = os.getloadavg()[0]
    print(f"{args.rounds} mixed rounds ({', '.join(PRESETS)}; 2-4 players), {path}")
    print(f"CPU time of one process on one core; load average {load:.1f} on {os.cpu_count()} cores\n")
    head = f"{'command':<24}{'this rounds/s':>15}"
    if args.previous:
        head += f"{'previous rounds/s':>19}{'ratio':>8}{'same bytes':>12}"
    print(head)
    for title, command, count in cases:
        results = [run_child(tree, command) for _, tree in trees]
        line = f"{title:<24}{count / results[0][0]:>15,.0f}"
        if args.previous:
            same = _VERSION_FIELD.sub(b"", results[0][1]) == _VERSION_FIELD.sub(b"", results[1][1])
            ratio = results[1][0] / results[0][0]
            line += f"{count / results[1][0]:>19,.0f}{ratio:>7.2f}x{'yes' if same else 'NO':>12}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
