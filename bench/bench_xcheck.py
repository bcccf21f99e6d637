"""How long ``chinese-poker xcheck --fit`` takes against a fast and a slow engine, and whether the rules it
fits are right.

Each engine is ``bench/xcheck_engine.py``: the library under a rule set the tool is not told (a preset
with knobs changed), answering at most RATE rounds a second. The fast engine answers 10,000 rounds a
second and gets the default budget; the slow one answers 150 a second (a JavaScript engine with an
exhaustive natural search is about that fast) and is given ``--budget``. For every run the table shows the
wall-clock seconds of the whole command (the engine's start included), the rounds sent, the seconds as a
fraction of the target (under 2 minutes for the fast engine, under 10 for the slow one), whether the fitted
rules give the engine's nets on fresh rounds (zero disagreements: 2,000 random rounds, the targeted rounds
of another seed and 100 rounds of each ``--probe`` kind), and whether the slow run fitted the same rules
as the fast one (the same nets on those rounds). The last rule set needs ``--probe all`` to be seen.
Run from the repository root:

    PYTHONPATH=$PWD/python python bench/bench_xcheck.py [--slow-budget 1500] [--only NAME]
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from chinese_poker.rules import Rules
from chinese_poker.xcheck.cases import random_rounds, targeted_rounds
from chinese_poker.xcheck.oracle import Pool
from chinese_poker.xcheck.probes import PROBES, probe_rounds

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "bench" / "xcheck_engine.py"
FAST, SLOW = 10_000.0, 150.0
TARGET = {FAST: 120.0, SLOW: 600.0}
TRUTHS = {
    "pagat wheel=second scoop_bonus=3 overall_unit=1": Rules.preset("pagat").replace(
        wheel="second", scoop_bonus=3, overall_unit=1
    ),
    "shisanzhang-hk suit_tiebreak=highest_card suit_order=shcd": Rules.preset("shisanzhang-hk").replace(
        suit_tiebreak="highest_card", suit_order="shcd"
    ),
    "capsa-susun scoop_multiplier=3 middle_vs_back=strict": Rules.preset("capsa-susun").replace(
        scoop_multiplier=3, middle_vs_back="strict"
    ),
    "pagat surrender_units=2 jokers=2 (--probe all)": Rules.preset("pagat").replace(
        surrender_units=2, jokers=2
    ),
}


def run_fit(truth: Rules, rate: float, budget: int | None, probe: str) -> tuple[float, dict[str, object]]:
    """The seconds of one ``xcheck --fit`` run (with ``--probe probe`` when given) against the engine
    playing ``truth`` at ``rate``, and its report."""
    engine = shlex.join([sys.executable, str(ENGINE), json.dumps(truth.to_dict()), str(rate)])
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        command = [sys.executable, "-m", "chinese_poker", "xcheck", "--fit", "--engine", engine]
        command += ["--json", str(report), "--progress", "never", "--quiet"]
        if budget is not None:
            command += ["--budget", str(budget)]
        if probe:
            command += ["--probe", probe]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - started
        if done.returncode == 2:
            raise SystemExit(f"xcheck failed: {done.stderr.strip()}")
        return seconds, json.loads(report.read_text(encoding="utf-8"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slow-budget", type=int, default=1500, help="--budget of the slow runs")
    parser.add_argument("--only", choices=sorted(TRUTHS), help="one rule set only")
    args = parser.parse_args()
    fresh = Pool(targeted_rounds(99) + list(random_rounds(99, 2000)) + probe_rounds(99, PROBES, count=100))
    header = (
        f"{'engine rules (not told to the tool)':<58} {'rounds/s':>8} {'budget':>7} {'seconds':>8} "
        f"{'sent':>6} {'of target':>9} {'fresh diffs':>11} {'same as fast':>12}"
    )
    print(header)
    print("-" * len(header))
    for name, truth in TRUTHS.items():
        if args.only and name != args.only:
            continue
        truth_nets = fresh.nets(truth)
        fast_nets = None
        probe = "all" if "--probe all" in name else ""
        for rate, budget in ((FAST, None), (SLOW, args.slow_budget)):
            seconds, report = run_fit(truth, rate, budget, probe)
            fitted = Rules.from_toml(str(report["rules_file"]))
            nets = fresh.nets(fitted)
            diffs = sum(a != b for a, b in zip(nets, truth_nets))
            same = "-" if fast_nets is None else ("yes" if nets == fast_nets else "no")
            fast_nets = fast_nets or nets
            shown = "3000" if budget is None else str(budget)
            print(
                f"{name:<58} {rate:>8,.0f} {shown:>7} {seconds:>8.1f} {report['rounds_sent']:>6} "
                f"{seconds / TARGET[rate]:>9.3f} {diffs:>11} {same:>12}",
                flush=True,
            )
    targets = ", ".join(f"{TARGET[rate]:.0f} s at {rate:,.0f} rounds/s" for rate in (FAST, SLOW))
    print(f"\ntargets: {targets}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
