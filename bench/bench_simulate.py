"""Simulation throughput: the same deals played in one process, on two threads, and on a two-worker
dask.distributed LocalCluster (127.0.0.1), as deals per second and as ratios to one process.

    python bench/bench_simulate.py [--deals N] [--chunk C] [--strategy S] [--rules R] [--seed K]

Work per deal: deal 52 cards to 4 players, arrange the 4 hands by the strategy (C++, the GIL released),
settle the round (C++, one call per round). Every layout must give identical totals; the script checks it.
Needs the dask extra for the cluster line (pip install 'chinese-poker[dask]').
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import chinese_poker as cp


def timed(run):
    start = time.perf_counter()
    result = run()
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--chunk", type=int, default=500)
    parser.add_argument("--strategy", default="strongest", choices=("strongest", "expected"))
    parser.add_argument("--rules", default="pagat-bonus")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seats = [args.strategy] * 4

    def run(**kwargs):
        return cp.simulate(args.rules, seats, deals=args.deals, seed=args.seed, chunk=args.chunk, **kwargs)

    rows = []
    single, base = timed(lambda: run(threads=1))
    rows.append(("one process, 1 thread", base, single))
    two, seconds = timed(lambda: run(threads=2))
    rows.append(("one process, 2 threads", seconds, two))
    try:
        import distributed  # noqa: PLC0415
        from chinese_poker import dask as cpd  # noqa: PLC0415
    except ImportError:
        distributed = None
    if distributed is not None:
        import dask  # noqa: PLC0415

        # The workers' statistical profiler wakes every 10 ms to walk every thread's stack under the GIL:
        # for chunks that are seconds of C++ it only takes cycles from them. No dashboard either.
        with (
            dask.config.set({"distributed.worker.profile.enabled": False}),
            distributed.LocalCluster(
                n_workers=2,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
            ) as cluster,
            distributed.Client(cluster) as client,
        ):
            client.submit(sum, [1]).result()  # workers up before the clock starts
            cluster_result, seconds = timed(
                lambda: cpd.simulate(args.rules, seats, deals=args.deals, seed=args.seed, client=client,
                                     chunk=args.chunk)
            )  # fmt: skip
            rows.append(("LocalCluster, 2 worker processes", seconds, cluster_result))
    for _, _, result in rows:
        assert result.totals == single.totals, "a layout gave different totals"

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
          f"python {platform.python_version()}; chinese-poker {cp.__version__}")  # fmt: skip
    print(
        f"{args.deals} deals of 4 players, rules {args.rules}, strategy {args.strategy}, chunk {args.chunk}"
    )
    print(f"{'layout':34} {'seconds':>8} {'deals/s':>9} {'vs one process':>15}")
    for name, seconds, _ in rows:
        print(f"{name:34} {seconds:8.2f} {args.deals / seconds:9.0f} {base / seconds:14.2f}x")
    print("every layout gave identical totals")


if __name__ == "__main__":
    main()
