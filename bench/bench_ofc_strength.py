"""The advisor against the greedy baseline in duplicate matches (docs/OFC.md): 2 players, Pineapple,
progressive fantasyland (the ``ofc`` preset with ``ofc_variant="pineapple"``, ``fantasyland="progressive"``).

    python bench/bench_ofc_strength.py run --deals 10000 --dir bench/data/ofc_strength
    python bench/bench_ofc_strength.py table bench/data/ofc_strength/seed-2026-samples-1000

``run`` plays deals ``--first-deal`` .. ``--first-deal + --deals - 1`` in chunks of ``--chunk`` deals and
writes each finished chunk to its own small file, ``chunk-FIRST-LAST.jsonl`` (one JSON line: the chunk's
per-deal duplicate scores, foul counts and timings), under ``--dir``/``seed-SEED-samples-SAMPLES``. A chunk
already there is skipped, so a run stopped at any point continues where it stopped when started again
(each file is written whole, then renamed into place), and runs on several cores over different deals
share one directory. With ``--carry-fantasyland`` each chunk's deals are one session per rotation (a
board that earns fantasyland plays the next deal in fantasyland), in a directory of its own (``-carry``).
``table`` prints the advisor's mean units per hand over every deal recorded in the
files and directories given, with its 95 % interval, each policy's fantasyland value earned a hand
(``FL``: the value ``fantasyland_value`` of each fantasyland hand it earned and did not play, per hand)
and each policy's foul rate.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import time
from pathlib import Path
from typing import Any

from chinese_poker.ofc.play import play
from chinese_poker.rules import Rules

RULES = Rules.preset("ofc").replace(ofc_variant="pineapple", fantasyland="progressive")
_Z95 = 1.959963984540054


def chunk_name(first: int, count: int) -> str:
    """The file of the chunk of ``count`` deals from deal ``first``."""
    return f"chunk-{first:06d}-{first + count - 1:06d}.jsonl"


def run_dir(root: str | Path, seed: int, samples: int, carry: bool = False) -> Path:
    """Where the chunks of a run at ``seed`` and ``samples`` go (``carry``: with carried fantasyland)."""
    return Path(root) / f"seed-{seed}-samples-{samples}{'-carry' if carry else ''}"


def recorded(folder: Path) -> dict[int, int]:
    """First deal -> deal count of every chunk file in ``folder``."""
    out: dict[int, int] = {}
    for path in sorted(folder.glob("chunk-*.jsonl")):
        for line in read_lines(path):
            out[line["first_deal"]] = line["deals"]
    return out


def play_chunk(first: int, count: int, seed: int, samples: int, carry: bool = False) -> dict[str, Any]:
    """One chunk's record: per deal the advisor's duplicate units (settlement), and each policy's units
    with each fantasyland hand it earned (and did not play) at its value; each policy's fouled hands, the
    time taken and the load. ``carry``:
    the chunk's deals are one session per rotation, earned fantasyland hands played in the next deal."""
    began, cpu = time.perf_counter(), time.process_time()
    match = play(
        RULES, ["advisor", "greedy"], count, seed, first_deal=first, samples=samples, carry_fantasyland=carry
    )
    advisor, baseline = match.results
    hands = count * match.players
    return {
        "first_deal": first,
        "deals": count,
        "samples": samples,
        "seed": seed,
        "carry_fantasyland": carry,
        "advisor_fantasyland_hands": advisor.fantasyland_hands,
        "greedy_fantasyland_hands": baseline.fantasyland_hands,
        "advisor": list(advisor.scores),
        "advisor_fl": list(advisor.fl_scores),
        "greedy_fl": list(baseline.fl_scores),
        "advisor_fouls": round(advisor.fouls * hands),
        "greedy_fouls": round(baseline.fouls * hands),
        "seconds": round(time.perf_counter() - began, 2),
        "cpu_seconds": round(time.process_time() - cpu, 2),
        "load": round(os.getloadavg()[0], 2),
        "machine": platform.machine(),
    }


def run(args: argparse.Namespace) -> None:
    """Play every chunk of the deals not recorded yet, each written to its file when done."""
    folder = run_dir(args.dir, args.seed, args.samples, args.carry_fantasyland)
    folder.mkdir(parents=True, exist_ok=True)
    done = recorded(folder)
    covered = {d for first, count in done.items() for d in range(first, first + count)}
    end = args.first_deal + args.deals
    for start in range(args.first_deal, end, args.chunk):
        count = min(args.chunk, end - start)
        if done.get(start) == count:
            continue
        if covered & set(range(start, start + count)):
            raise SystemExit(
                f"{folder}: deals {start}..{start + count - 1} overlap a chunk recorded otherwise"
            )
        line = play_chunk(start, count, args.seed, args.samples, args.carry_fantasyland)
        path = folder / chunk_name(start, count)
        partial = path.with_suffix(".part")
        partial.write_text(json.dumps(line) + "\n", encoding="utf-8")
        partial.replace(path)
        print(f"{path.name}: {line['seconds']:.0f} s, {line['cpu_seconds']:.0f} CPU s", flush=True)


def backfill(args: argparse.Namespace) -> None:
    """Add ``greedy_fl`` to the chunks of ``--dir`` recorded without it (not carried): greedy places by
    its own board and cards alone, and a seat's cards do not depend on what anyone places, so greedy's
    boards in a match are those of greedy against itself on the same deals."""
    for path in sorted(Path(args.dir).rglob("chunk-*.jsonl")):
        (line,) = read_lines(path)
        if "greedy_fl" in line or line.get("carry_fantasyland", False):
            continue
        mirror = play(RULES, ["greedy", "greedy"], line["deals"], line["seed"], first_deal=line["first_deal"])
        earned = [f - u for f, u in zip(mirror.results[0].fl_scores, mirror.results[0].scores)]
        line["greedy_fl"] = [e - u for e, u in zip(earned, line["advisor"])]
        line["greedy_fl_by"] = "greedy against itself"
        partial = path.with_suffix(".part")
        partial.write_text(json.dumps(line) + "\n", encoding="utf-8")
        partial.replace(path)


def read_lines(path: Path) -> list[dict[str, Any]]:
    """The records of one chunk file (JSON Lines)."""
    with path.open(encoding="utf-8") as handle:
        return [json.loads(raw) for raw in handle if raw.strip()]


def _interval(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return mean, _Z95 * sd / math.sqrt(n)


def combine(paths: list[str]) -> dict[str, Any]:
    """Every deal recorded in ``paths`` (chunk files, or directories of them), combined; SystemExit if a
    deal is recorded twice or the chunks were played at different seeds."""
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        files += sorted(path.rglob("chunk-*.jsonl")) if path.is_dir() else [path]
    scores: list[float] = []
    # Per deal the fantasyland value each policy earned a hand: its units with it less its units.
    fl_value: dict[str, list[float]] = {"advisor": [], "greedy": []}
    fouls = {"advisor": 0, "greedy": 0}
    seconds = cpu = 0.0
    seen: set[int] = set()
    samples: set[int] = set()
    seeds: set[int] = set()
    carried: set[bool] = set()
    in_fl = {"advisor": 0, "greedy": 0}
    loads: list[float] = []
    for path in files:
        for line in read_lines(path):
            carried.add(line.get("carry_fantasyland", False))
            if len(carried) > 1:
                raise SystemExit("chunks with and without carried fantasyland: two different matches")
            deals = set(range(line["first_deal"], line["first_deal"] + line["deals"]))
            if deals & seen:
                raise SystemExit(f"{path}: deal {min(deals & seen)} recorded twice")
            seen |= deals
            scores += line["advisor"]
            own = {"advisor": line["advisor"], "greedy": [-u for u in line["advisor"]]}
            for name in fl_value:
                fl_value[name] += [f - u for f, u in zip(line.get(f"{name}_fl", []), own[name])]
            for name in fouls:
                fouls[name] += line[f"{name}_fouls"]
                in_fl[name] += line.get(f"{name}_fantasyland_hands", 0)
            seconds += line["seconds"]
            cpu += line.get("cpu_seconds", 0.0)
            samples.add(line["samples"])
            seeds.add(line["seed"])
            loads += [line["load"]] if "load" in line else []
    if not scores:
        raise SystemExit("no chunk recorded in " + " ".join(paths))
    if len(seeds) > 1:
        raise SystemExit(f"chunks of different seeds {sorted(seeds)}: their deal numbers name other deals")
    n = len(scores)
    mean, half = _interval(scores)
    # Every deal or none: a mean over some of the deals would be another set of deals' figure.
    fl = {k: sum(v) / n if len(v) == n else math.nan for k, v in fl_value.items()}
    return {
        "deals": n,
        "hands": 2 * n,
        "units": mean,
        "half": half,
        "fl_advisor": fl["advisor"],
        "fl_greedy": fl["greedy"],
        "advisor_fouls": fouls["advisor"] / (2 * n),
        "greedy_fouls": fouls["greedy"] / (2 * n),
        "seconds": seconds / n,
        "cpu": cpu / n,
        "samples": sorted(samples),
        "carry_fantasyland": carried == {True},
        "fantasyland_hands": (in_fl["advisor"], in_fl["greedy"]),
        "loads": (min(loads), max(loads)) if loads else None,
    }


def table(args: argparse.Namespace) -> None:
    """Print the combined result of the recorded chunks."""
    c = combine(args.files)
    loads = f"load {c['loads'][0]:.1f}-{c['loads'][1]:.1f}" if c["loads"] else "load not recorded"
    machine = platform.processor() or platform.machine()
    carry = ", fantasyland carried" if c["carry_fantasyland"] else ""
    print(f"# {machine}, {loads} while playing, samples {c['samples']}{carry}")
    heads = ("deals", "hands", "units/hand", "95% interval", "FL adv", "FL greedy", "fouls adv")
    heads += ("fouls greedy", "s/deal", "cpu s/deal")
    widths = (6, 6, 10, 16, 6, 9, 9, 12, 6, 10)
    print(" ".join(f"{h:>{w}}" for h, w in zip(heads, widths)))
    units = f"[{c['units'] - c['half']:.3f}, {c['units'] + c['half']:.3f}]"
    fl = [f"{c[k]:.3f}" if not math.isnan(c[k]) else "-" for k in ("fl_advisor", "fl_greedy")]
    print(
        f"{c['deals']:>6} {c['hands']:>6} {c['units']:>10.3f} {units:>16} {fl[0]:>6} {fl[1]:>9} "
        f"{c['advisor_fouls']:>9.3f} {c['greedy_fouls']:>12.3f} {c['seconds']:>6.2f} {c['cpu']:>10.2f}"
    )
    if c["carry_fantasyland"]:
        advisor, greedy = c["fantasyland_hands"]
        print(f"# hands played in fantasyland: advisor {advisor}, greedy {greedy}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    runner = commands.add_parser("run", help="play the chunks not recorded yet")
    runner.add_argument("--first-deal", type=int, default=0)
    runner.add_argument("--deals", type=int, default=10_000)
    runner.add_argument("--chunk", type=int, default=100)
    runner.add_argument("--samples", type=int, default=1000)
    runner.add_argument("--seed", type=int, default=2026)
    runner.add_argument("--dir", default="bench/data/ofc_strength", help="where the chunk files go")
    runner.add_argument(
        "--carry-fantasyland",
        action="store_true",
        help="each chunk one session per rotation: earned fantasyland hands played in the next deal",
    )
    runner.set_defaults(handler=run)
    filler = commands.add_parser("backfill", help="add greedy's fantasyland values to chunks without them")
    filler.add_argument("--dir", default="bench/data/ofc_strength")
    filler.set_defaults(handler=backfill)
    tabler = commands.add_parser("table", help="combine chunk files (or directories of them)")
    tabler.add_argument("files", nargs="+")
    tabler.set_defaults(handler=table)
    args = parser.parse_args(argv)
    args.handler(args)


if __name__ == "__main__":
    main()
