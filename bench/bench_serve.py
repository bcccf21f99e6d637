"""Benchmark of the HTTP service (chinese-poker serve) on 127.0.0.1: N concurrent clients sending
single-round settles (requests/s, p50 and p99 latency), then JSON Lines batches of 10,000 rounds per request
(the full output, and the net output of ``?output=net``, the core's fast path) and packed batches of 10,000
rounds per request (rounds/s). Prints a table. Every request body is built before the clients start.

Run from the repository root with the serve extra installed: python bench/bench_serve.py [--workers 2]
The server is started by this script at a free port and stopped at the end. The clients are one asyncio
process (keep-alive connections, a minimal HTTP/1.1 client, so that the client costs little beside the
server on the same machine).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass

import numpy as np
from chinese_poker import arrange
from chinese_poker.dealing import deal_hands

NDJSON = "application/x-ndjson"
BYTES = "application/octet-stream"


@dataclass
class Run:
    """What one load gave: request count, errors, wall seconds and per-request latencies (seconds)."""

    requests: int
    errors: int
    seconds: float
    latencies: list[float]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(port: int, workers: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "chinese_poker", "serve", "--port", str(port), "--workers", str(workers)]
    process = subprocess.Popen([*command, "--log-level", "warning"])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/health", timeout=2):
                return process
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit("the server did not start")


def request_bytes(path: str, body: bytes, media: str) -> bytes:
    """A whole POST request, head and body, built once before the clients start."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: {media}\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def post(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
) -> tuple[int, bytes]:
    writer.write(request)
    await writer.drain()
    status_line = await reader.readline()
    length = 0
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return int(status_line.split()[1]), await reader.readexactly(length)


async def load(
    port: int, path: str, bodies: list[bytes], clients: int, requests: int, *, media: str = "application/json"
) -> Run:
    latencies: list[float] = []
    errors = 0
    counter = iter(range(requests))
    built = [request_bytes(path, body, media) for body in bodies]

    async def client(index: int) -> None:
        nonlocal errors
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            for k in counter:
                start = time.perf_counter()
                status, _ = await post(reader, writer, built[(k + index) % len(built)])
                latencies.append(time.perf_counter() - start)
                errors += status != 200
        finally:
            writer.close()

    start = time.perf_counter()
    await asyncio.gather(*(client(k) for k in range(clients)))
    return Run(requests, errors, time.perf_counter() - start, latencies)


def arranged_rounds(count: int, seed: int) -> list[dict[str, object]]:
    """Realistic rounds: four hands dealt and each arranged (legal settings), as a game server sends."""
    rng = random.Random(seed)
    rounds = []
    for k in range(count):
        players = []
        for cards in deal_hands(rng, 4):
            hand = arrange(cards, strategy="strongest").hand
            players.append(
                {
                    "front": list(hand.front or ()),
                    "middle": list(hand.middle or ()),
                    "back": list(hand.back or ()),
                }
            )
        rounds.append({"id": k, "players": players})
    return rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=1, help="server worker processes (default 1)")
    parser.add_argument("--clients", type=int, default=32, help="concurrent connections (default 32)")
    parser.add_argument("--requests", type=int, default=5000, help="single-round requests (default 5000)")
    parser.add_argument("--batches", type=int, default=3, help="batch requests of 10,000 rounds (default 3)")
    args = parser.parse_args()

    distinct = arranged_rounds(200, 1)
    singles = [json.dumps(item).encode() for item in distinct]
    batch_rounds = [distinct[k % len(distinct)] | {"id": k} for k in range(10_000)]
    batch = "".join(json.dumps(item) + "\n" for item in batch_rounds).encode()
    packed = np.concatenate(
        [
            np.array(
                [[p["front"] + p["middle"] + p["back"] for p in r["players"]] for r in distinct],
                dtype=np.uint8,
            )
        ]
        * 50
    ).tobytes()

    port = free_port()
    server = start_server(port, args.workers)
    try:
        asyncio.run(load(port, "/v1/settle", singles, args.clients, 200))  # warm-up
        single = asyncio.run(load(port, "/v1/settle", singles, args.clients, args.requests))
        lines = asyncio.run(load(port, "/v1/settle/batch", [batch], 1, args.batches, media=NDJSON))
        lines2 = asyncio.run(load(port, "/v1/settle/batch", [batch], 2, args.batches * 2, media=NDJSON))
        net_path = "/v1/settle/batch?output=net"
        asyncio.run(load(port, net_path, [batch], 2, 4, media=NDJSON))  # warm-up
        net_one = asyncio.run(load(port, net_path, [batch], 1, args.batches * 10, media=NDJSON))
        net_two = asyncio.run(load(port, net_path, [batch], 2, args.batches * 20, media=NDJSON))
        # Four clients keep a request waiting at each of two workers while the other is being sent.
        net_four = asyncio.run(load(port, net_path, [batch], 4, args.batches * 40, media=NDJSON))
        packed_one = asyncio.run(
            load(
                port,
                "/v1/settle/packed?players=4",
                [packed],
                1,
                args.batches * 10,
                media=BYTES,
            )
        )
        packed_two = asyncio.run(
            load(
                port,
                "/v1/settle/packed?players=4",
                [packed],
                2,
                args.batches * 20,
                media=BYTES,
            )
        )
    finally:
        server.terminate()
        server.wait(timeout=30)

    latencies = np.array(single.latencies) * 1000
    print(f"chinese-poker serve, {args.workers} worker(s), clients in one asyncio process, 127.0.0.1")
    columns = f"{'requests':>9} {'errors':>7} {'req/s':>9} {'rounds/s':>11} {'p50 ms':>8} {'p99 ms':>8}"
    print(f"{'load':<58} {columns}")
    print("-" * 116)
    p50, p99 = np.percentile(latencies, [50, 99])
    name = f"/v1/settle, 1 round, {args.clients} clients"
    rate = single.requests / single.seconds
    counts = f"{single.requests:>9,} {single.errors:>7} {rate:>9,.0f} {rate:>11,.0f}"
    print(f"{name:<58} {counts} {p50:>8.2f} {p99:>8.2f}")
    for label, run in [
        ("/v1/settle/batch, 10,000 rounds (JSON Lines), 1 client", lines),
        ("/v1/settle/batch, 10,000 rounds (JSON Lines), 2 clients", lines2),
        ("/v1/settle/batch?output=net, 10,000 rounds, 1 client", net_one),
        ("/v1/settle/batch?output=net, 10,000 rounds, 2 clients", net_two),
        ("/v1/settle/batch?output=net, 10,000 rounds, 4 clients", net_four),
        ("/v1/settle/packed, 10,000 rounds (bytes), 1 client", packed_one),
        ("/v1/settle/packed, 10,000 rounds (bytes), 2 clients", packed_two),
    ]:
        if not run.latencies:  # --batches 0: single-round load only
            continue
        lat = np.array(run.latencies) * 1000
        b50, b99 = np.percentile(lat, [50, 99])
        rate = run.requests / run.seconds
        counts = f"{run.requests:>9,} {run.errors:>7} {rate:>9,.1f} {rate * 10_000:>11,.0f}"
        print(f"{label:<58} {counts} {b50:>8.1f} {b99:>8.1f}")


if __name__ == "__main__":
    main()
