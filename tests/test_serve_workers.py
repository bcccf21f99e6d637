"""``chinese-poker serve --workers N``: the socket this process binds for its workers (connections accepted
on it get ``TCP_NODELAY``, so a small answer is not held back for the client's delayed ACK), the worker
processes answering on one port, a clean stop, and a port already taken refused with exit code 2."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from chinese_poker.serve.server import listening_socket
from chinese_poker.serve.supervisor import GIVE_UP_AFTER, supervise
from conftest import LiveServer, worker_pids

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
    return worker_pids(parent)


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


def _wait_for_workers(
    parent: int, count: int, *, other_than: set[int] | None = None, bound: float = 60
) -> set[int]:
    """The pids of ``count`` workers of ``parent`` none of which is in ``other_than``, polled for at most
    ``bound`` seconds (empty if they never appear)."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        pids = set(_worker_processes(parent)) - (other_than or set())
        if len(pids) >= count:
            return pids
        time.sleep(0.02)
    return set()


def _health(url: str, bound: float) -> bool:
    """Whether ``/v1/health`` answers ok within ``bound`` seconds of polling."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/v1/health", timeout=5) as answer:
                if answer.status == 200 and json.loads(answer.read()) == {"status": "ok"}:
                    return True
        except OSError:
            time.sleep(0.05)
    return False


def test_a_worker_killed_while_starting_is_started_again_and_the_port_keeps_answering() -> None:
    """A replacement worker killed within its first seconds (as the OOM killer may) is started again
    after a short delay, and said so on stderr: the command keeps running and the port keeps answering."""
    server = LiveServer("--workers", "2")
    try:
        first = _wait_for_workers(server.process.pid, 2)
        assert len(first) == 2
        victim = min(first)
        os.kill(victim, signal.SIGKILL)
        for _ in range(3):  # each replacement killed as soon as it appears: a death while starting
            replacement = _wait_for_workers(server.process.pid, 1, other_than=first | {victim})
            assert replacement, server.errors()
            victim = replacement.pop()
            os.kill(victim, signal.SIGKILL)
            first |= {victim}
        assert _health(server.url, 60), server.errors()
        assert server.process.poll() is None, server.errors()
        assert _wait_for_workers(server.process.pid, 1, other_than=first)  # the fourth replacement
        assert len(_wait_for_workers(server.process.pid, 2)) == 2
        log = server.errors()
        assert "was killed by SIGKILL" in log
        assert "while starting (3 in a row); starting it again in 0.4 s" in log
        assert "Traceback" not in log
    finally:
        server.stop()


#: A sitecustomize module: every process forked once the service's limits are in the environment (a worker)
#: exits at once with ``code``, while the process that forked it pauses ``pause`` seconds first, so that
#: each worker has died before its supervisor looks at it again.
_EXIT_ON_FORK = """\
import os
import time


def _exit_if_worker() -> None:
    if os.environ.get("CHINESE_POKER_SERVE_LIMITS"):
        os._exit({code})


def _pause_if_supervisor() -> None:
    if os.environ.get("CHINESE_POKER_SERVE_LIMITS"):
        time.sleep({pause})


os.register_at_fork(after_in_child=_exit_if_worker, after_in_parent=_pause_if_supervisor)
"""


def test_the_command_gives_up_when_every_worker_keeps_failing_to_start(tmp_path: Path) -> None:
    """Workers that all die at once on starting (here, with ``_EXIT_ON_FORK``, with code 3 before their
    supervisor looks at them again) are retried with growing delays; after GIVE_UP_AFTER failures of each
    the command exits with code 2 and says why, each failure reported with the worker's own exit code,
    never as a start that failed."""
    (tmp_path / "sitecustomize.py").write_text(_EXIT_ON_FORK.format(code=3, pause=0.2))
    environ = dict(os.environ)
    environ["PYTHONPATH"] = os.pathsep.join([str(tmp_path), environ.get("PYTHONPATH", "")])
    environ.pop("CHINESE_POKER_SERVE_LIMITS", None)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = subprocess.run(
        [sys.executable, "-m", "chinese_poker", "serve", "--port", str(port), "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=environ,
    )
    assert result.returncode == 2, result.stderr
    assert f"every worker process failed to start {GIVE_UP_AFTER} times in a row" in result.stderr
    assert "worker 1 exited with code 3; worker 2 exited with code 3" in result.stderr
    assert result.stderr.count("exited with code 3 after") == 2 * GIVE_UP_AFTER
    assert "could not be started" not in result.stderr
    assert "Traceback" not in result.stderr


class _Exited:
    """A stand-in for a worker process that has already exited with ``exitcode``."""

    pid = 4242

    def __init__(self, exitcode: int) -> None:
        self.exitcode = exitcode

    def is_alive(self) -> bool:
        return False

    def join(self, _timeout: float | None = None) -> None:
        return None


def test_the_supervisor_backs_off_and_gives_up_when_no_worker_can_start(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Workers that die at once, and a start that fails outright (no process could be made): each is
    tried again after 0.1, 0.2, 0.4, 0.8 s, and the supervisor gives up after the fifth failure of each."""
    starts: list[float] = []

    def start() -> Any:
        starts.append(time.monotonic())
        if len(starts) % 2:
            return _Exited(-signal.SIGKILL)
        raise OSError(11, "Resource temporarily unavailable")

    with pytest.raises(RuntimeError, match=f"every worker process failed to start {GIVE_UP_AFTER} times"):
        supervise(start, 2, grace=1.0)
    log = capsys.readouterr().err
    assert len(starts) == 2 * GIVE_UP_AFTER
    lines = log.splitlines()
    assert len(lines) == 2 * GIVE_UP_AFTER
    died = [line for line in lines if "(pid 4242) was killed by SIGKILL after " in line]
    refused = [line for line in lines if "could not be started ([Errno 11] Resource temporarily" in line]
    assert len(died) + len(refused) == len(lines)
    assert died
    assert refused
    for failures in range(1, GIVE_UP_AFTER + 1):  # each worker waited 0.1, 0.2, 0.4, 0.8, 1.6 s
        delay = f"{0.1 * 2 ** (failures - 1):.1f} s"
        assert sum(line.endswith(f"again in {delay}") for line in lines) == 2
    assert all("while starting (" in line for line in died)


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has exited (reaped, or a zombie waiting for whoever adopted it)."""
    try:
        return "\nState:\tZ" in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True


def _refused(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            return False
    except OSError:
        return True


def test_workers_stop_when_the_command_is_killed_and_leave_the_port_closed() -> None:
    """The command killed with SIGKILL (it cannot stop its workers): each worker sees it gone and stops
    itself with SIGTERM, so none is left serving the port alone."""
    server = LiveServer("--workers", "2")
    try:
        workers = _wait_for_workers(server.process.pid, 2)
        assert len(workers) == 2
        assert _health(server.url, 60)
        server.process.kill()
        assert server.process.wait(timeout=60) == -signal.SIGKILL
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (
            all(_gone(pid) for pid in workers) and _refused(server.port)
        ):
            time.sleep(0.05)
        assert all(_gone(pid) for pid in workers), "a worker outlived the command"
        assert _refused(server.port)
    finally:
        server.stop()
