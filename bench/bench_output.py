"""Rounds a second through the JSON Lines paths users meet: ``score`` (full output, JSON Lines and a JSON
list), ``score --output net`` and ``vectors``, this tree beside a previous state of the package in the same
run.

The round file mixes tables of 2, 3 and 4 players under five presets, each round naming its own rules
(``"rules": "pagat"`` ...), with the per-round inputs ``vectors`` gives real tables now and then (stakes,
banker and bets, surrender, false declarations): the rounds of ``chinese-poker vectors`` with ``expected``
and ``tags`` removed, the presets taken in turn. It is written once to ``--file`` (default a file in the
temporary directory, reused when it is there) by the generator of the package on the path (run it from
the repository root with ``PYTHONPATH=$PWD/python``).

Each figure is the least CPU time (user + system) of ``--repeat`` runs of a child process on one core
(``taskset`` when present), the two trees taken in turn, so the ratio column compares like with like even on
a loaded machine. Both trees' modules are compiled first (``compileall``), as an installed package's are.
The output goes to a file, as a batch job's does (``--pipe``: through a pipe the benchmark reads, where
the kernel's copying and the switches between writer and reader add tens of milliseconds a command, and
vary from run to run by as much).
"rounds/s" is the whole command, start-up included; "after start-up" counts the rounds beyond the first
over the time beyond the same command on a file of one round (``vectors --count 1``): what every further
round costs, the rate a long file or a running service sees. The previous state is a ``python/`` directory
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
import compileall
import os
import platform
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


def run_child(tree: Path, command: list[str], pipe: bool) -> tuple[float, bytes]:
    """The CPU seconds of ``python -m chinese_poker COMMAND`` with ``tree`` first on the path, and its
    standard output (written to a temporary file, or with ``pipe`` read from a pipe)."""
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    env = dict(os.environ, PYTHONPATH=str(tree))
    argv = [*pin, sys.executable, "-m", "chinese_poker", *command]
    with tempfile.TemporaryFile() as output:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        if pipe:
            done = subprocess.run(argv, env=env, capture_output=True, check=False)
        else:
            done = subprocess.run(argv, env=env, stdout=output, stderr=subprocess.PIPE, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        output.seek(0)
        written = done.stdout if pipe else output.read()
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} under {tree} failed: {done.stderr.decode()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, written


def least_cpu(trees: list[Path], command: list[str], repeat: int, pipe: bool) -> list[tuple[float, bytes]]:
    """For each tree, the least CPU seconds of ``repeat`` runs of ``command`` (the trees in turn) and the
    output of its first run."""
    best: list[tuple[float, bytes]] = []
    for round_number in range(repeat):
        for k, tree in enumerate(trees):
            cpu, out = run_child(tree, command, pipe)
            if round_number == 0:
                best.append((cpu, out))
            elif cpu < best[k][0]:
                best[k] = (cpu, best[k][1])
    return best


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=20_000, help="rounds in the mixed file (default 20000)")
    parser.add_argument("--vectors", type=int, default=2_000, help="vectors --count (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--file", type=Path, help="the mixed round file (written when missing)")
    parser.add_argument("--previous", type=Path, help="python/ directory of the previous state, built")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each command and tree (default 3)")
    parser.add_argument("--pipe", action="store_true", help="read each output through a pipe, not a file")
    args = parser.parse_args()
    path = args.file or Path(tempfile.gettempdir()) / f"cp_bench_mixed_{args.rounds}_{args.seed}.jsonl"
    if not path.exists():
        write_mixed_file(path, args.rounds, args.seed)
    one = path.with_name(path.stem + "_first.jsonl")
    with path.open("rb") as stream:
        one.write_bytes(stream.readline())
    trees = [THIS_TREE] + ([args.previous.resolve()] if args.previous else [])
    for tree in trees:
        compileall.compile_dir(tree, quiet=1)
    score = ["--progress", "never"]
    cases = [
        ("score (full)", ["score", "FILE", "--format", "jsonl", *score], args.rounds),
        ("score --format json", ["score", "FILE", "--format", "json", *score], args.rounds),
        (
            "score --output net",
            ["score", "FILE", "--format", "jsonl", "--output", "net", *score],
            args.rounds,
        ),
        (
            f"vectors --count {args.vectors}",
            ["vectors", "--count", "COUNT", "--no-edge-cases", "--progress", "never"],
            args.vectors,
        ),
    ]
    load = os.getloadavg()[0]
    print(f"{args.rounds} mixed rounds ({', '.join(PRESETS)}; 2-4 players), {path}")
    where = "through a pipe" if args.pipe else "to a file"
    print(f"least CPU time of {args.repeat} runs of one process on one core, output {where}; load average")
    print(f"{load:.1f} on", end=" ")
    print(f"{os.cpu_count()} cores; {platform.machine()}, Python {platform.python_version()}\n")
    head = f"{'command':<24}{'rounds/s':>11}{'after start-up':>16}"
    if args.previous:
        head = (
            f"{'':<24}{'this':>27}{'previous':>29}\n"
            + head
            + (f"{'rounds/s':>11}{'after start-up':>16}{'ratio':>9}{'after':>9}{'same bytes':>12}")
        )
    print(head)
    for title, command, count in cases:
        whole = [arg.replace("FILE", str(path)).replace("COUNT", str(count)) for arg in command]
        first = [arg.replace("FILE", str(one)).replace("COUNT", "1") for arg in command]
        results = least_cpu(trees, whole, args.repeat, args.pipe)
        starts = least_cpu(trees, first, args.repeat, args.pipe)
        rates = [count / cpu for cpu, _ in results]
        beyond = [
            (count - 1) / max(cpu - start[0], 1e-9) for (cpu, _), start in zip(results, starts, strict=True)
        ]
        line = f"{title:<24}{rates[0]:>11,.0f}{beyond[0]:>16,.0f}"
        if args.previous:
            same = _VERSION_FIELD.sub(b"", results[0][1]) == _VERSION_FIELD.sub(b"", results[1][1])
            line += f"{rates[1]:>11,.0f}{beyond[1]:>16,.0f}"
            line += f"{rates[0] / rates[1]:>8.2f}x{beyond[0] / beyond[1]:>8.2f}x"
            line += f"{'yes' if same else 'NO':>12}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
