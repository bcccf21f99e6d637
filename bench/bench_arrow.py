"""settle_arrow beside settle_batch on the same rounds in the same run: the Arrow path's cost over the
kernel (the target: at least 0.8x settle_batch's rate on 1,000,000 rounds).

Run from the repository root: python bench/bench_arrow.py [--rounds N] [--repeat K] [--parquet]

Rows:
- settle_batch: the kernel on a (R, 4, 13) numpy array (random deals, many of them fouled: every round is
  settled through the same checks either way);
- settle_arrow, one shape: the same rounds as a record batch (zero-copy views into the kernel);
- settle_arrow, mixed: the same rounds with every 10th a 3-player round, so the batch is
  grouped, gathered and written back in input order by one C++ pass over the Arrow buffers);
- settle_arrow, mixed with inputs: the mixed batch with a banker and bets column (every 4th round a
  banker round), beside settle_batch given the same inputs (so the kernel's general path on both sides)
  and beside the numpy grouping that settled such batches before (one settle_batch call a group);
- with --parquet, also the Parquet file read and settled (the read's cost included);
- with --batch-rows, the mixed batch settled in slices of so many rows, one settle_arrow call each (what
  an engine does with its batches): the fixed cost of a call against its rows.

The rows take turns: each of the --repeat passes times every row once, in order, and each row keeps its
best pass, so a change in the machine's load between rows shifts them alike. "seconds" and "x wall" are
the best wall time; "cpu s" and "x cpu" the best process CPU time of the same row (every row runs on one
thread, so on a shared machine, where the wall time also counts waiting for a core, the CPU time is the
steadier measure of the work).
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
from chinese_poker import Rules, settle_batch
from chinese_poker.arrow import read_parquet, settle_arrow, write_parquet
from chinese_poker.arrow._settle import _settle_one
from common import random_deals


def _batch(rounds: np.ndarray, players: np.ndarray) -> pa.RecordBatch:
    """A record batch of rounds laid seat after seat (``rounds`` (S, 13) seats, ``players`` per round)."""
    offsets = np.concatenate(([0], np.cumsum(players))).astype(np.int32)
    seats = pa.FixedSizeListArray.from_arrays(pa.array(rounds.reshape(-1)), 13)
    return pa.RecordBatch.from_arrays([pa.ListArray.from_arrays(pa.array(offsets), seats)], names=["cards"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--parquet", action="store_true", help="also read and settle a Parquet file")
    parser.add_argument(
        "--batch-rows",
        default="",
        help="also settle the mixed batch in slices of these many rows, e.g. 1000,10000,100000 (an engine's"
        " batch size: Spark's spark.sql.execution.arrow.maxRecordsPerBatch)",
    )
    args = parser.parse_args()
    rng = np.random.default_rng(27)
    rounds = random_deals(args.rounds, 4, rng)
    print(f"# {args.rounds:,} rounds of 4 players, pagat, 1 thread, best of {args.repeat}")
    print(f"# {platform.python_implementation()} {platform.python_version()}, load {os.getloadavg()[0]:.1f}")

    one_shape = _batch(rounds.reshape(-1, 13), np.full(args.rounds, 4))
    expected = settle_batch(rounds, "pagat")
    got = settle_arrow(one_shape, "pagat").column("net").flatten().to_numpy()
    assert np.array_equal(got, expected.reshape(-1)), "settle_arrow disagrees with settle_batch"

    players = np.where(np.arange(args.rounds) % 10 == 9, 3, 4)
    # The first 3 seats of every 10th round: a 3-player round (the 4th player's cards left out).
    seats = np.repeat(np.arange(args.rounds) * 4, players) + _seat_in_round(players)
    mixed = _batch(rounds.reshape(-1, 13)[seats], players)

    banker = np.where(np.arange(args.rounds) % 4 == 0, np.arange(args.rounds) % 3, -1).astype(np.int64)
    bets = np.random.default_rng(5).integers(1, 4, (args.rounds, 4)).astype(np.int64)
    with_inputs = _with_inputs(mixed, players, banker, bets)
    pagat = Rules.preset("pagat")
    four = players == 4
    nets = settle_arrow(with_inputs, "pagat").column("net").to_numpy(zero_copy_only=False)
    expected = settle_batch(rounds[four], "pagat", banker=banker[four], bets=bets[four])
    assert np.array_equal(np.stack(nets[four]), expected), "settle_arrow disagrees on inputs"
    runs: list[tuple[str, Callable[[], object]]] = [
        ("settle_batch (numpy)", lambda: settle_batch(rounds, "pagat")),
        ("settle_arrow, one shape", lambda: settle_arrow(one_shape, "pagat")),
        ("settle_arrow, mixed 4 and 3", lambda: settle_arrow(mixed, "pagat")),
        ("settle_batch, banker + bets", lambda: settle_batch(rounds, "pagat", banker=banker, bets=bets)),
        ("settle_arrow, mixed + inputs", lambda: settle_arrow(with_inputs, "pagat")),
        # The way such a batch went before: grouped in numpy, one settle_batch call a group.
        ("  the same, numpy grouping", lambda: _settle_one(with_inputs, pagat, False, 1, 0, gather="numpy")),
    ]
    for size in [int(text) for text in args.batch_rows.split(",") if text]:
        slices = [mixed.slice(start, size) for start in range(0, args.rounds, size)]
        runs.append((f"mixed in batches of {size:,}", lambda parts=slices: [settle_arrow(p) for p in parts]))
    folder = tempfile.TemporaryDirectory()
    if args.parquet:
        path = Path(folder.name) / "rounds.parquet"
        write_parquet(one_shape, path)
        runs.append(("read_parquet + settle_arrow", lambda: settle_arrow(read_parquet(path), "pagat")))
    wall = {label: float("inf") for label, _ in runs}
    cpu = dict(wall)
    for _ in range(args.repeat):
        for label, run in runs:
            start, start_cpu = time.perf_counter(), time.process_time()
            run()
            wall[label] = min(wall[label], time.perf_counter() - start)
            cpu[label] = min(cpu[label], time.process_time() - start_cpu)
    folder.cleanup()
    print(f"{'path':<30} {'seconds':>9} {'cpu s':>7} {'rounds/s':>12} {'x wall':>7} {'x cpu':>6}")
    for label, seconds in wall.items():
        # The rows with inputs against settle_batch given the same inputs, the others against the plain call.
        inputs = "inputs" in label or "banker" in label or "numpy grouping" in label
        base = "settle_batch, banker + bets" if inputs else runs[0][0]
        print(
            f"{label:<30} {seconds:>9.3f} {cpu[label]:>7.3f} {args.rounds / seconds:>12,.0f}"
            f" {wall[base] / seconds:>7.2f} {cpu[base] / cpu[label]:>6.2f}"
        )
    print(f"# load {os.getloadavg()[0]:.1f} at the end")
    print(f"# finished {time.strftime('%Y-%m-%d %H:%M:%S')}")


def _with_inputs(
    batch: pa.RecordBatch, players: np.ndarray, banker: np.ndarray, bets: np.ndarray
) -> pa.RecordBatch:
    """``batch`` with a banker column (null: no banker) and a bets column (each round's first seats)."""
    offsets = np.concatenate(([0], np.cumsum(players))).astype(np.int32)
    seat_bets = bets.reshape(-1)[np.repeat(np.arange(len(players)) * 4, players) + _seat_in_round(players)]
    columns = {
        "banker": pa.array(banker, pa.int64(), mask=banker < 0),
        "bets": pa.ListArray.from_arrays(pa.array(offsets), pa.array(seat_bets)),
    }
    return batch.append_column("banker", columns["banker"]).append_column("bets", columns["bets"])


def _seat_in_round(players: np.ndarray) -> np.ndarray:
    """0, 1, .., p - 1 for each round's seats."""
    starts = np.repeat(np.cumsum(players) - players, players)
    return np.arange(int(players.sum())) - starts


if __name__ == "__main__":
    main()
