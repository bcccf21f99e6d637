"""The service under faults, against real ``chinese-poker serve`` processes on 127.0.0.1 at free ports:
workers killed again and again under load, slow and partial requests, many idle connections, SIGTERM in
the middle of a batch, and a log (stderr) on a full disk. Every test is bounded: each request loop in count
and time, each read by a timeout, each wait for the server by a deadline; no timing is asserted (the
recovery times are printed, for ``pytest -s``)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from conftest import worker_pids

E2_PLAYERS = [
    {"name": "North", "front": "Ts Th Qs", "middle": "6s 5s 4s 3s 2h", "back": "Ks Kh Kd 3h 3d"},
    {"name": "East", "front": "Ac Kc 7s", "middle": "Td Tc 9s 8s 6c", "back": "Jh Jd Jc 7h 7d"},
    {"name": "South", "front": "Qd Qc 2c", "middle": "8h 7c 6d 5c 4c", "back": "9h 9d 9c 8d 8c"},
    {"name": "West", "front": "Qh Js 6h", "middle": "5h 5d 4h 4d 3c", "back": "As Ah Ad 2s 2d"},
]
E2_NET = [3, -5, 3, -1]  # RULES.md's E2 under pagat
E2_BODY = json.dumps({"id": "e2", "players": E2_PLAYERS}).encode()
#: What a client may see when the worker holding its connection is killed: the request failed, visibly.
CONNECTION_ERRORS = (
    ConnectionError,
    http.client.RemoteDisconnected,
    http.client.IncompleteRead,
    TimeoutError,
)
REQUEST_TIMEOUT = 30.0


class Server:
    """One ``chinese-poker serve`` process on 127.0.0.1 at a free port, its stderr to ``log`` (a temporary
    file by default); started and waited for in ``__init__`` (at most 60 s), stopped by ``stop``."""

    def __init__(self, *options: str, log: IO[bytes] | None = None) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self._own_log = log is None
        self.log = log if log is not None else tempfile.TemporaryFile()  # noqa: SIM115 - closed by stop()
        command = [sys.executable, "-m", "chinese_poker", "serve", "--port", str(self.port), *options]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=self.log)
        if not self.wait_healthy(60):
            self.stop()
            raise RuntimeError(f"the server did not start: {self.errors()}")

    def health(self) -> bool:
        """Whether ``/v1/health`` answers ok now, on a new connection."""
        try:
            status, body = request(self.port, "GET", "/v1/health", timeout=5)
        except (OSError, *CONNECTION_ERRORS):
            return False
        return status == 200 and json.loads(body) == {"status": "ok"}

    def wait_healthy(self, bound: float) -> bool:
        deadline = time.monotonic() + bound
        while time.monotonic() < deadline and self.process.poll() is None:
            if self.health():
                return True
            time.sleep(0.02)
        return False

    def workers(self) -> list[int]:
        """The pids of the command's worker processes."""
        return worker_pids(self.process.pid)

    def errors(self) -> str:
        if not self._own_log:
            return "(stderr is not kept)"
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")

    def stop(self) -> int | None:
        """SIGTERM, then SIGKILL after 40 s; the exit code."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=20)
        if self._own_log:
            self.log.close()
        return self.process.returncode


@contextlib.contextmanager
def serving(*options: str, log: IO[bytes] | None = None) -> Iterator[Server]:
    server = Server(*options, log=log)
    try:
        yield server
    finally:
        server.stop()


def request(
    port: int, method: str, path: str, body: bytes | None = None, *, timeout: float = REQUEST_TIMEOUT
) -> tuple[int, bytes]:
    """One request on a new connection: the status and the body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def settled_right(status: int, body: bytes) -> bool:
    return status == 200 and json.loads(body)["net"] == E2_NET


# ----- workers killed under load ---------------------------------------------------------------------------


@pytest.mark.slow
def test_workers_killed_again_and_again_under_load() -> None:
    """Two workers, four clients settling E2 on new connections, and a worker killed (SIGKILL) every 0.4 s,
    eight times, once both at once: every request is answered right or fails with a connection error (none
    answered wrongly), the command keeps running, and health answers again after the last kill."""
    outcomes: Counter[str] = Counter()
    wrong: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()
    with serving("--workers", "2", "--log-level", "warning") as server:

        def client() -> None:
            deadline = time.monotonic() + 60
            for _ in range(2000):
                if stop.is_set() or time.monotonic() > deadline:
                    return
                try:
                    status, body = request(server.port, "POST", "/v1/settle", E2_BODY)
                except (OSError, *CONNECTION_ERRORS):
                    outcome = "connection error"
                else:
                    outcome = "right" if settled_right(status, body) else "wrong"
                    if outcome == "wrong":
                        with lock:
                            wrong.append(f"{status} {body[:200]!r}")
                with lock:
                    outcomes[outcome] += 1

        clients = [threading.Thread(target=client) for _ in range(4)]
        for thread in clients:
            thread.start()
        rng = random.Random(24)
        killed: set[int] = set()
        try:
            for kill in range(8):
                time.sleep(0.4)
                # A worker to kill: a replacement may still be waiting out its backoff (bounded wait).
                deadline = time.monotonic() + 30
                while not (pids := server.workers()) and time.monotonic() < deadline:
                    time.sleep(0.02)
                victims = pids if kill == 4 else rng.sample(pids, min(1, len(pids)))
                for pid in victims:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                        killed.add(pid)  # a pid killed twice (before it was reaped) dies once
            last_kill = time.monotonic()
            back = server.wait_healthy(30)
            recovery = time.monotonic() - last_kill
            time.sleep(0.5)  # a little load after the faults too
        finally:
            stop.set()
            for thread in clients:
                thread.join(90)
        print(
            f"\nkilled {len(killed)} workers; outcomes {dict(outcomes)}; "
            f"health back {recovery:.2f} s after the last kill"
        )
        assert back, server.errors()
        assert len(killed) >= 8
        assert wrong == []
        assert outcomes["right"] > 0
        assert server.process.poll() is None, server.errors()
        log = server.errors()
        assert log.count("was killed by SIGKILL") == len(killed)
        assert "Traceback" not in log
        assert server.stop() == 0


# ----- slow and partial requests, idle connections ----------------------------------------------------------


def _slow_client(port: int, head: bytes, pieces: list[bytes], pause: float, bound: float) -> bytes:
    """Send ``head``, then each piece ``pause`` seconds apart (stopping once the server has answered or
    closed), and read what comes back until the connection closes, at most ``bound`` seconds."""
    with socket.create_connection(("127.0.0.1", port), timeout=bound) as conn:
        conn.sendall(head)
        for piece in pieces:
            time.sleep(pause)
            try:
                conn.sendall(piece)
            except OSError:  # the server answered and closed
                break
        received = b""
        deadline = time.monotonic() + bound
        with contextlib.suppress(OSError):
            while time.monotonic() < deadline:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                received += chunk
        return received


def _status_and_error(response: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = response.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)["error"]


def test_slow_and_partial_requests_are_answered_by_the_timeout_while_others_are_served() -> None:
    """With ``--read-timeout 1``: a body sent a byte every 0.3 s, a body cut short, and headers cut short
    are each answered 408 with the JSON error body, while one worker goes on settling other clients'
    rounds right."""
    body = E2_BODY
    head = b"POST /v1/settle HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n" % len(body)
    cases = {
        "trickled body": (head, [body[k : k + 1] for k in range(20)], 0.3),
        "body cut short": (head + body[:50], [], 0.0),
        "headers cut short": (b"POST /v1/settle HTTP/1.1\r\nHost: t\r\nContent-", [], 0.0),
    }
    answers: dict[str, bytes] = {}
    with serving("--read-timeout", "1", "--log-level", "warning") as server:
        slow = [
            threading.Thread(
                target=lambda name=name, case=case: answers.__setitem__(
                    name, _slow_client(server.port, *case, 15)
                )
            )
            for name, case in cases.items()
        ]
        for thread in slow:
            thread.start()
        served: Counter[bool] = Counter()
        deadline = time.monotonic() + 30
        for _ in range(200):  # the worker serves others meanwhile
            if not any(thread.is_alive() for thread in slow) or time.monotonic() > deadline:
                break
            served[settled_right(*request(server.port, "POST", "/v1/settle", E2_BODY))] += 1
        for thread in slow:
            thread.join(30)
        assert served[True] > 0
        assert served[False] == 0
        for name in cases:
            status, error = _status_and_error(answers[name])
            assert (status, error["code"]) == (408, "read_timeout"), name
        assert "(19 bytes" not in _status_and_error(answers["trickled body"])[1]["message"]
        assert _status_and_error(answers["body cut short"])[1]["message"] == (
            f"the body did not arrive within 1 s (50 bytes of the {len(body)} declared received)"
        )
        assert settled_right(*request(server.port, "POST", "/v1/settle", E2_BODY))
        assert server.process.poll() is None


def test_many_idle_connections_neither_stop_the_service_nor_stay_open() -> None:
    """300 connections that send nothing, and 100 that send half a request line: the service answers
    others meanwhile, and closes every one of them within the read timeout (the half requests with a 408)."""
    idle: list[socket.socket] = []
    with serving("--read-timeout", "2", "--log-level", "warning") as server:
        try:
            for k in range(400):
                conn = socket.create_connection(("127.0.0.1", server.port), timeout=20)
                if k >= 300:
                    conn.sendall(b"GET /v1/hea")
                idle.append(conn)
            for _ in range(20):
                assert settled_right(*request(server.port, "POST", "/v1/settle", E2_BODY))
            closed: Counter[str] = Counter()
            for conn in idle:  # each read bounded by the socket's 20 s timeout
                received = b""
                with contextlib.suppress(OSError):
                    while chunk := conn.recv(65536):
                        received += chunk
                closed["408" if received.startswith(b"HTTP/1.1 408") else repr(received[:20])] += 1
        finally:
            for conn in idle:
                conn.close()
        assert closed == Counter({"b''": 300, "408": 100})
        assert server.health()


# ----- SIGTERM during a batch -------------------------------------------------------------------------------


@pytest.mark.parametrize("workers", ["1", "2"])
def test_sigterm_during_a_batch_finishes_it_or_tells_the_client(workers: str) -> None:
    """A batch of 3,000 rounds in flight when the command gets SIGTERM: it is answered in full and right
    (uvicorn finishes the requests in flight), or the client sees a connection error; never a partial or
    wrong answer taken for a whole one. The command then exits: with code 0 (``--workers 2``: the
    supervisor), or, with one worker, by the SIGTERM itself, which uvicorn raises again once it has
    finished (process managers count both as a clean stop)."""
    rounds = 3000
    body = b"".join(json.dumps({"id": k, "players": E2_PLAYERS}).encode() + b"\n" for k in range(rounds))
    result: dict[str, Any] = {}
    with serving("--workers", workers, "--log-level", "warning") as server:

        def client() -> None:
            try:
                result["answer"] = request(server.port, "POST", "/v1/settle/batch", body, timeout=120)
            except (OSError, *CONNECTION_ERRORS) as error:
                result["error"] = error

        thread = threading.Thread(target=client)
        thread.start()
        time.sleep(0.5)  # the body is sent and being settled
        server.process.send_signal(signal.SIGTERM)
        thread.join(150)
        code = server.process.wait(timeout=60)
        assert code == (0 if workers == "2" else -signal.SIGTERM), server.errors()
        assert "Traceback" not in server.errors()
        if "answer" in result:
            status, text = result["answer"]
            lines = text.decode().splitlines()
            assert status == 200
            assert len(lines) == rounds
            assert all(json.loads(line)["net"] == E2_NET for line in lines)
            assert [json.loads(line)["id"] for line in lines] == list(range(rounds))
        else:
            assert isinstance(result["error"], (*CONNECTION_ERRORS, OSError))
        print(f"\n{workers} worker(s): {'answered in full' if 'answer' in result else result['error']!r}")


# ----- a full disk for the log ------------------------------------------------------------------------------


def _mount_small_tmpfs(where: Path) -> bool:
    """Whether a 64 KiB tmpfs could be mounted at ``where`` (only root may)."""
    try:
        mount = ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)]
        return subprocess.run(mount, capture_output=True, check=False, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):  # no mount command, or no answer from it
        return False


def _unmount(where: Path) -> None:
    """Unmount ``where``, waiting up to 10 s for the server's last processes (its fork server, its
    resource tracker) to close the log they inherited; then detached lazily, whatever still holds it."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if (
            subprocess.run(["umount", str(where)], capture_output=True, check=False, timeout=30).returncode
            == 0
        ):
            return
        time.sleep(0.1)
    subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False, timeout=30)


@pytest.fixture(params=["tmpfs", "/dev/full"])
def full_log(request: Any, tmp_path: Path) -> Iterator[tuple[str, IO[bytes]]]:
    """A log file on a full disk: on a 64 KiB tmpfs filled up (where this process may mount one: root;
    else /dev/full in its place), or /dev/full, where every write fails with ENOSPC too. Yields which, and
    the file open for appending."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = request.param == "tmpfs" and _mount_small_tmpfs(disk)
    try:
        if mounted:
            with contextlib.suppress(OSError), (disk / "filler").open("wb") as filler:
                for _ in range(1000):
                    filler.write(b"x" * 4096)
                    filler.flush()
            path = disk / "serve.log"
        else:
            path = Path("/dev/full")
        with path.open("ab", buffering=0) as log:
            with pytest.raises(OSError, match="No space left on device"):
                log.write(b"x" * 8192)
            yield ("a full tmpfs" if mounted else "/dev/full"), log
    finally:
        if mounted:
            _unmount(disk)


def test_a_full_disk_for_the_log_neither_stops_the_service_nor_its_supervisor(
    full_log: tuple[str, IO[bytes]],
) -> None:
    """The service logs to stderr; with stderr a file on a full disk and every request logged (``info``),
    the workers answer right, a killed worker is started again (its supervisor's line on stderr fails to
    be written), and SIGTERM stops the command cleanly."""
    where, log = full_log
    with serving("--workers", "2", "--log-level", "info", log=log) as server:
        for _ in range(20):
            assert settled_right(*request(server.port, "POST", "/v1/settle", E2_BODY))
        first = server.workers()
        os.kill(first[0], signal.SIGKILL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(set(server.workers()) - set(first)) < 1:
            time.sleep(0.05)
        assert set(server.workers()) - set(first)
        assert server.wait_healthy(60)
        for _ in range(20):
            assert settled_right(*request(server.port, "POST", "/v1/settle", E2_BODY))
        assert server.process.poll() is None
        print(f"\nthe log on {where}")
        assert server.stop() == 0
