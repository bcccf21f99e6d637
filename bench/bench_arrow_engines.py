"""A Parquet dataset of rounds settled by one process, by pyspark local[2] (``mapInArrow``) and by Dask on a
LocalCluster of 2 worker processes (``map_partitions``), in the same run: rows per second, each engine's
ratio to one process, and the totals, which must be identical.

Run from the repository root: python bench/bench_arrow_engines.py [--rounds N] [--files K] [--data DIR]

The dataset (K Parquet files, made once and kept in DIR, default a folder under the system's temporary
directory) holds random deals, every 10th a 3-player round and every 5th under pagat-bonus (the rest
pagat), so every batch is grouped by rules and player count. Every engine settles every round through
``settle_arrow`` and hands back per-batch sums only (rounds, each seat's units, the sum of |units|), so the
comparison is the reading and settling, not the collection of 10,000,000 rows. The clock starts after the
Spark session and the Dask cluster are up; Spark's Arrow batches are 100,000 rows.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from chinese_poker.arrow import CARDS_TYPE, conform_rounds, settle_arrow
from common import random_deals

SUMS = ["rounds", "seat_0", "seat_1", "seat_2", "seat_3", "absolute"]


def make_dataset(folder: Path, rounds: int, files: int) -> None:
    """``files`` Parquet files of ``rounds`` rounds in all (ids 0.., random deals, mixed tables)."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(2027)
    per_file = -(-rounds // files)
    for k, start in enumerate(range(0, rounds, per_file)):
        count = min(per_file, rounds - start)
        ids = np.arange(start, start + count, dtype=np.int64)
        players = np.where(ids % 10 == 9, 3, 4)
        deals = random_deals(count, 4, rng)
        keep = np.arange(4)[None, :] < players[:, None]  # a 3-player round leaves the 4th hand out
        seats = pa.FixedSizeListArray.from_arrays(pa.array(deals[keep].reshape(-1)), 13)
        offsets = pa.array(np.concatenate(([0], np.cumsum(players))).astype(np.int32))
        rules = pa.DictionaryArray.from_arrays(
            pa.array((ids % 5 == 4).astype(np.int32)), pa.array(["pagat", "pagat-bonus"])
        )
        cards = pa.ListArray.from_arrays(offsets, seats).cast(CARDS_TYPE)
        table = pa.table({"id": ids, "rules": rules, "cards": cards})
        pq.write_table(table, folder / f"part-{k:03d}.parquet", row_group_size=100_000)
    (folder / "_complete").write_text(f"{rounds} {files}\n")


def batch_sums(batch: pa.RecordBatch | pa.Table) -> np.ndarray:
    """[rounds, each seat's units (seats 0..3), the sum of |units|] of one batch, settled."""
    net = settle_arrow(conform_rounds(batch)).column("net")
    if isinstance(net, pa.ChunkedArray):
        net = pa.concat_arrays(net.chunks)
    values = net.flatten().to_numpy()
    offsets = net.offsets.to_numpy().astype(np.int64)
    seat = np.arange(len(values)) - np.repeat(offsets[:-1] - offsets[0], np.diff(offsets))
    totals = np.zeros(len(SUMS), dtype=np.int64)
    totals[0] = len(net)
    for s in range(4):
        totals[1 + s] = int(values[seat == s].sum())
    totals[5] = int(np.abs(values).sum())
    return totals


def one_process(folder: Path) -> np.ndarray:
    totals = np.zeros(len(SUMS), dtype=np.int64)
    for path in sorted(folder.glob("*.parquet")):
        for batch in pq.ParquetFile(path).iter_batches(batch_size=100_000):
            totals += batch_sums(batch)
    return totals


def settle_spark_batches(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    for batch in batches:
        totals = batch_sums(batch)
        yield pa.RecordBatch.from_arrays([pa.array([int(v)]) for v in totals], names=SUMS)


def spark(folder: Path) -> tuple[float, np.ndarray]:
    # The engines are imported only when run: either may be absent where only the other is measured.
    from pyspark.sql import SparkSession  # noqa: PLC0415

    session = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "100000")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    try:
        schema = ", ".join(f"{name} long" for name in SUMS)
        start = time.perf_counter()
        frame = session.read.parquet(str(folder)).mapInArrow(settle_spark_batches, schema)
        rows = frame.groupBy().sum(*SUMS).collect()[0]
        seconds = time.perf_counter() - start
        return seconds, np.array([int(v) for v in rows], dtype=np.int64)
    finally:
        session.stop()


def dask_partition(frame: object) -> object:
    import pandas as pd  # noqa: PLC0415

    rounds = pa.Table.from_pandas(frame, preserve_index=False)
    return pd.DataFrame([batch_sums(rounds)], columns=SUMS)


def dask(folder: Path) -> tuple[float, np.ndarray]:
    import dask as dask_module  # noqa: PLC0415
    import dask.dataframe as dd  # noqa: PLC0415
    import distributed  # noqa: PLC0415
    import pandas as pd  # noqa: PLC0415

    # The workers' statistical profiler walks every thread's stack under the GIL every 10 ms (SCALING.md).
    with (
        dask_module.config.set({"distributed.worker.profile.enabled": False}),
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address="127.0.0.1:0"
        ) as cluster,
        distributed.Client(cluster),
    ):
        meta = pd.DataFrame({name: pd.Series([], dtype=np.int64) for name in SUMS})
        start = time.perf_counter()
        frame = dd.read_parquet(str(folder), dtype_backend="pyarrow").map_partitions(
            dask_partition, meta=meta
        )
        sums = frame.compute().sum(axis=0).to_numpy().astype(np.int64)
        return time.perf_counter() - start, sums


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000_000)
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--data", type=Path, default=None, help="where the dataset is made (and kept)")
    parser.add_argument("--engines", default="spark,dask", help="comma-separated: spark, dask")
    args = parser.parse_args()
    folder = args.data or Path(tempfile.gettempdir()) / f"cp-rounds-{args.rounds}-{args.files}"
    if not (folder / "_complete").exists():
        started = time.perf_counter()
        make_dataset(folder, args.rounds, args.files)
        print(f"# made {folder} in {time.perf_counter() - started:.0f} s")
    size = sum(p.stat().st_size for p in folder.glob("*.parquet"))
    print(f"# {args.rounds:,} rounds in {args.files} Parquet files ({size / 1e6:,.0f} MB), 4 and 3 players,")
    print("# pagat and pagat-bonus, random deals; 2 cores for every engine")
    print(f"# {platform.python_implementation()} {platform.python_version()}, load {os.getloadavg()[0]:.1f}")
    start = time.perf_counter()
    reference = one_process(folder)
    rows = [("one process (pyarrow)", time.perf_counter() - start, reference)]
    engines = {
        "spark": ("Spark local[2], mapInArrow", spark),
        "dask": ("Dask, 2 workers, map_partitions", dask),
    }
    for name in args.engines.split(","):
        label, run = engines[name]
        seconds, totals = run(folder)
        rows.append((label, seconds, totals))
    base = rows[0][1]
    print(f"{'engine':<34} {'seconds':>8} {'rows/s':>11} {'x one process':>14}  totals equal")
    for label, seconds, totals in rows:
        same = "yes" if np.array_equal(totals, reference) else f"NO {totals.tolist()}"
        print(f"{label:<34} {seconds:>8.1f} {args.rounds / seconds:>11,.0f} {base / seconds:>14.2f}  {same}")
    print("# totals: " + ", ".join(f"{n} {int(v):,}" for n, v in zip(SUMS, reference)))
    print(f"# finished {time.strftime('%Y-%m-%d %H:%M:%S')}")
    if any(not np.array_equal(totals, reference) for _, _, totals in rows):
        raise SystemExit("an engine's totals differ from one process's")


if __name__ == "__main__":
    main()
