"""settle_arrow beside settle_batch on the same rounds in the same run: the Arrow path's cost over the
kernel (the target: at least 0.8x settle_batch's rate on 1,000,000 rounds).

Run from the repository root: python bench/bench_arrow.py [--rounds N] [--repeat K] [--parquet]

Rows:
- settle_batch: the kernel on a (R, 4, 13) numpy array (random deals, many of them fouled: every round is
  settled through the same checks either way);
- settle_arrow, one shape: the same rounds as a record batch (zero-copy views into the kernel);
- settle_arrow, mixed: the same rounds with every 10th a 3-player round, so the batch is
  grouped, gathered and written back in input order by one C++ pass over the Arrow buffers);
- with --parquet, also the Parquet file read and settled (the read's cost included).
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
from chinese_poker import settle_batch
from chinese_poker.arrow import read_parquet, settle_arrow, write_parquet
from common import best_time, random_deals


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

    kernel = best_time(lambda: settle_batch(rounds, "pagat"), args.repeat)
    rows = [("settle_batch (numpy)", kernel)]
    rows.append(("settle_arrow, one shape", best_time(lambda: settle_arrow(one_shape, "pagat"), args.repeat)))
    rows.append(("settle_arrow, mixed 4 and 3", best_time(lambda: settle_arrow(mixed, "pagat"), args.repeat)))
    if args.parquet:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "rounds.parquet"
            write_parquet(one_shape, path)

            def from_file() -> None:
                settle_arrow(read_parquet(path), "pagat")

            rows.append(("read_parquet + settle_arrow", best_time(from_file, args.repeat)))
    print(f"{'path':<30} {'seconds':>9} {'rounds/s':>12} {'x settle_batch':>15}")
    for label, seconds in rows:
        print(f"{label:<30} {seconds:>9.3f} {args.rounds / seconds:>12,.0f} {kernel / seconds:>15.2f}")
    print(f"# finished {time.strftime('%Y-%m-%d %H:%M:%S')}")


def _seat_in_round(players: np.ndarray) -> np.ndarray:
    """0, 1, .., p - 1 for each round's seats."""
    starts = np.repeat(np.cumsum(players) - players, players)
    return np.arange(int(players.sum())) - starts


if __name__ == "__main__":
    main()
