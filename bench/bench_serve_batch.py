"""Rounds a second of the service's ``/v1/settle/batch`` on batches of 10,000 mixed rounds (2 to 4 players,
five presets named per round, with the per-round inputs real tables send now and then: the round file of
``bench_output.py``), with the full output and with ``?output=net``, this tree beside a previous state of the
package in the same run.

    python bench/bench_serve_batch.py [--previous DIR] [--requests N] [--repeat R]

For each tree a server (``chinese-poker serve``, one worker, 127.0.0.1) is started with that tree first on the
path; after one request to warm it up, N requests are sent one after the other, and the figure is rounds per
CPU second of the server's processes (user + system, read from /proc), which a shared machine's other work
does not inflate the way it does wall time; the wall-clock rate is shown too. ``--repeat`` runs each tree's
server that many times, in turn, and keeps each one's best. Both servers' answers are compared (the
engine's version field left out). ``--previous DIR``: a ``python/`` directory holding a built package (see
bench_output.py for how to make one).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from bench_output import PRESETS, write_mixed_file

ROOT = Path(__file__).resolve().parent.parent
THIS_TREE = ROOT / "python"
_VERSION_FIELD = re.compile(rb'"engine":\{"name":"chinese-poker","version":"[^"]*"\}')
_TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` and of its children (living and waited for)."""
    total = 0.0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(child) for child in children.read_text().split()]
    for each in pids:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(fields[k]) for k in (11, 12, 13, 14)) / _TICKS  # utime stime cutime cstime
    return total


def post(port: int, path: str, body: bytes) -> bytes:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=body, headers={"Content-Type": "application/x-ndjson"}
    )
    with urllib.request.urlopen(request, timeout=600) as answer:
        data: bytes = answer.read()
        return data


def serve_once(tree: Path, body: bytes, path: str, requests: int) -> tuple[float, float, bytes]:
    """(CPU seconds, wall seconds, last answer) of ``requests`` posts of ``body`` to a fresh server."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, "-m", "chinese_poker", "serve", "--port", str(port), "--workers", "1"]
    server = subprocess.Popen([*command, "--log-level", "warning"], env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/health", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit(f"the server of {tree} did not start") from None
                time.sleep(0.2)
        answer = post(port, path, body)  # warm-up
        before, started = cpu_seconds(server.pid), time.perf_counter()
        for _ in range(requests):
            answer = post(port, path, body)
        return cpu_seconds(server.pid) - before, time.perf_counter() - started, answer
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--previous", type=Path, help="python/ directory of the previous state, built")
    parser.add_argument("--requests", type=int, default=3, help="timed requests a server (default 3)")
    parser.add_argument("--repeat", type=int, default=2, help="servers started a tree (default 2)")
    args = parser.parse_args()
    path = Path(tempfile.gettempdir()) / "cp_bench_serve_mixed_10000.jsonl"
    if not path.exists():
        write_mixed_file(path, 10_000, 2)
    body = path.read_bytes()
    trees = [THIS_TREE] + ([args.previous.resolve()] if args.previous else [])
    print(f"/v1/settle/batch: 10,000 mixed rounds a request ({', '.join(PRESETS)}; 2-4 players),")
    print(f"{args.requests} requests a server, the best of {args.repeat} servers; one worker; load average")
    machine = f"{platform.machine()}, Python {platform.python_version()}"
    print(f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {machine}\n")
    head = f"{'output':<8}{'rounds/CPU s':>14}{'rounds/s':>11}"
    if args.previous:
        head += f"{'previous CPU':>14}{'previous/s':>12}{'ratio':>8}{'same bytes':>12}"
    print(head)
    for output, query in (("full", ""), ("net", "?output=net")):
        best: list[tuple[float, float, bytes] | None] = [None] * len(trees)
        for _ in range(args.repeat):
            for k, tree in enumerate(trees):
                run = serve_once(tree, body, "/v1/settle/batch" + query, args.requests)
                kept = best[k]
                if kept is None or run[0] < kept[0]:
                    best[k] = run
        runs = [run for run in best if run is not None]
        rounds = 10_000 * args.requests
        cpu = [rounds / max(run[0], 1e-9) for run in runs]
        wall = [rounds / run[1] for run in runs]
        line = f"{output:<8}{cpu[0]:>14,.0f}{wall[0]:>11,.0f}"
        if args.previous:
            same = _VERSION_FIELD.sub(b"", runs[0][2]) == _VERSION_FIELD.sub(b"", runs[1][2])
            line += f"{cpu[1]:>14,.0f}{wall[1]:>12,.0f}{cpu[0] / cpu[1]:>7.2f}x{'yes' if same else 'NO':>12}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
