"""The advice's speed of two builds side by side (docs/OFC.md): the same positions of bench_ofc.py timed in
alternating child processes, one per build, so both meet the same load.

    python bench/bench_ofc_ab.py PREVIOUS_PYTHONPATH [--rounds R] [--repeat N]

``PREVIOUS_PYTHONPATH`` holds the previous build's ``chinese_poker`` (its package and ``_core``); this
build is the one on ``sys.path``. Each round runs one child per build, each child the best of ``--repeat``
calls per case, by CPU time; the table gives every round's figure and the ratio of the means (this build
over the previous one).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: (label, seed, street, players, samples): positions of bench_ofc.py's ``_street``.
CASES = [
    ("first five, 2 players", 0, 0, 2, 10_000),
    ("first five, 2 players", 1, 0, 2, 10_000),
    ("first five, 3 players", 0, 0, 3, 10_000),
    ("last street, 2 players", 0, 4, 2, 10),
    ("last street, 2 players", 1, 4, 2, 10),
]
CHILD = """
import json, sys, time
sys.path.insert(0, {here!r})
from bench_ofc import _street
from chinese_poker.ofc import advise
cases = {cases!r}
games = [_street(seed, street, players) for _, seed, street, players, _ in cases]
advise(games[0], samples=100, player=0)
best = [float("inf")] * len(games)
for _ in range({repeat}):
    for k, (game, case) in enumerate(zip(games, cases)):
        start = time.process_time()
        advise(game, samples=case[4], player=0)
        best[k] = min(best[k], time.process_time() - start)
print(json.dumps([b * 1000 for b in best]))
"""


def _run(pythonpath: str, repeat: int) -> list[float]:
    env = dict(os.environ, PYTHONPATH=pythonpath)
    code = CHILD.format(here=str(HERE), cases=CASES, repeat=repeat)
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    return [float(x) for x in json.loads(out.stdout)]


def main() -> None:
    """Times both builds and prints the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("previous", help="PYTHONPATH of the previous build")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    current = os.pathsep.join(p for p in sys.path if p and (Path(p) / "chinese_poker").is_dir())
    previous: list[list[float]] = []
    this: list[list[float]] = []
    for _ in range(args.rounds):
        previous.append(_run(args.previous, args.repeat))
        this.append(_run(current, args.repeat))
    print(f"# {os.uname().machine}, load {os.getloadavg()[0]:.2f}, CPU ms, best of {args.repeat} per round")
    print(f"{'case':>24} {'seed':>4} {'previous':>18} {'this':>18} {'ratio':>6}")
    for k, (label, seed, *_rest) in enumerate(CASES):
        old = [r[k] for r in previous]
        new = [r[k] for r in this]
        ratio = (sum(new) / len(new)) / (sum(old) / len(old))
        print(
            f"{label:>24} {seed:>4} {' '.join(f'{v:8.1f}' for v in old):>18} "
            f"{' '.join(f'{v:8.1f}' for v in new):>18} {ratio:6.2f}"
        )


if __name__ == "__main__":
    main()
