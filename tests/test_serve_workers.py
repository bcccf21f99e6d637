"""``chinese-poker serve --workers N``: the socket this process binds for its workers (connections accepted
on it get ``TCP_NODELAY``, so a small answer is not held back for the client's delayed ACK), the worker
processes answering on one port, a clean stop, and a port already taken refused with exit code 2."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

from chinese_poker.serve.server import listening_socket
from conftest import LiveServer

ROUND = {
    "players": [
        {
            "front": ["2c", "3d", "4h"],
            "middle": ["5s", "6c", "7d", "8h", "Ts"],
            "back": ["Jc", "Qd", "Kh", "As", "9c"],
        },
        {
            "front": ["2d", "3h", "5c"],
            "middle": ["6d", "7h", "8s", "9d", "Jh"],
            "back": ["Qs", "Kc", "Ad", "Ah", "Ac"],
        },
    ]
}


def test_the_workers_socket_gives_accepted_connections_tcp_nodelay() -> None:
    async def accept_one() -> int:
        sock = listening_socket("127.0.0.1", 0)
        assert sock.proto == socket.IPPROTO_TCP
        port = sock.getsockname()[1]
        accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                connection = transport.get_extra_info("socket")
                accepted.set_result(connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        server = await asyncio.get_running_loop().create_server(Probe, sock=sock)
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            nodelay = await asyncio.wait_for(accepted, 30)
            writer.close()
        finally:
            server.close()
            await server.wait_closed()
        return nodelay

    assert asyncio.run(accept_one()) != 0


def _worker_processes(parent: int) -> list[int]:
    """The pids of ``parent``'s children that are multiprocessing's spawned workers (not its resource
    tracker), read from /proc."""
    workers = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
            command = (status.parent / "cmdline").read_bytes()
        except OSError:  # the process ended while being read
            continue
        if fields.get("PPid", "").strip() == str(parent) and b"spawn_main" in command:
            workers.append(int(status.parent.name))
    return workers


def test_two_workers_answer_on_one_port_and_stop_cleanly() -> None:
    server = LiveServer("--workers", "2")
    try:
        assert len(_worker_processes(server.process.pid)) == 2
        for _ in range(20):  # the kernel hands connections to either worker; every one answers the same
            request = urllib.request.Request(
                server.url + "/v1/settle",
                data=json.dumps(ROUND).encode(),
                headers={"Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request, timeout=30) as answer:
                assert answer.status == 200
                assert json.loads(answer.read())["net"] == [-3, 3]
    finally:
        server.process.terminate()
        assert server.process.wait(timeout=60) == 0
        server.stop()


def test_a_port_in_use_is_refused_with_exit_code_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "chinese_poker", "serve", "--port", str(port), "--workers", "2"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr
