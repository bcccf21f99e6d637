"""HTTP framing under the service's bounded protocol (``serve.protocol``), with both of uvicorn's parsers:
a request the parser refuses is answered 400 with the JSON error body (not uvicorn's text/plain), and no
read waits for ever: a request line or headers, or a body cut short of its ``Content-Length``, that has not
arrived within ``read_timeout`` is answered 408 with the JSON error body and the connection is closed, while
the server goes on answering others. Servers on 127.0.0.1 only; each read here is bounded too."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from chinese_poker.formats.vectors import random_round
from chinese_poker.rules import Rules
from chinese_poker.serve import Limits, create_app
from chinese_poker.serve.protocol import bounded_protocol
from chinese_poker.serve.server import listening_socket
from conftest import LiveServer

TIMEOUT = 1.0
HEALTH = b"GET /v1/health HTTP/1.1\r\nHost: t\r\n\r\n"


class ThreadServer:
    """The service under uvicorn in a thread of this process, on 127.0.0.1, with the bounded protocol."""

    def __init__(self, parser: str) -> None:
        config = uvicorn.Config(
            create_app(Limits(read_timeout=TIMEOUT)),
            http=bounded_protocol(TIMEOUT, parser),
            log_level="critical",
            timeout_keep_alive=30,
        )
        self.sock = listening_socket("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self.server.started

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        self.sock.close()


@pytest.fixture(scope="module", params=["httptools", "h11"])
def server(request: Any) -> Iterator[ThreadServer]:
    running = ThreadServer(request.param)
    yield running
    running.stop()


def exchange(port: int, data: bytes, *, bound: float = 10.0) -> tuple[bytes, bool]:
    """Send ``data`` on a new connection and read until the server closes it (at most ``bound`` seconds):
    what came back, and whether the server closed the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=bound) as conn:
        conn.sendall(data)
        received = b""
        deadline = time.monotonic() + bound
        while time.monotonic() < deadline:
            try:
                chunk = conn.recv(65536)
            except TimeoutError:
                return received, False
            if not chunk:
                return received, True
            received += chunk
        return received, False


def parse(response: bytes) -> tuple[int, dict[str, str], Any]:
    """Status, headers (lower-cased names) and the JSON body of one HTTP/1.1 response."""
    head, _, body = response.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    headers = {name.lower(): value for name, value in headers.items()}
    assert int(headers["content-length"]) == len(body)
    return int(lines[0].split()[1]), headers, json.loads(body)


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GARBAGE\r\n\r\n",
        b"GET /v1/health HTTP/1.1\r\nHost: t\r\nBad Header\r\n\r\n",
        b"POST /v1/settle HTTP/1.1\r\nHost: t\r\nContent-Length: 12x\r\n\r\n{}",
        b"POST /v1/settle HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
        b"POST /v1/settle HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
    ],
)
def test_a_request_the_parser_refuses_gets_the_json_400(server: ThreadServer, request_bytes: bytes) -> None:
    received, closed = exchange(server.port, request_bytes)
    status, headers, body = parse(received)
    assert status == 400
    assert headers["content-type"] == "application/json"
    assert body["error"]["status"] == 400
    assert body["error"]["code"] == "bad_request"
    assert body["error"]["message"].startswith("malformed HTTP request")
    assert closed


def test_a_body_cut_short_is_answered_408_and_the_connection_closed(server: ThreadServer) -> None:
    """It used to hold the connection open for ever."""
    received, closed = exchange(
        server.port, b'POST /v1/settle HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n{"players"'
    )
    status, headers, body = parse(received)
    assert (status, headers["content-type"], headers["connection"]) == (408, "application/json", "close")
    assert body == {
        "error": {
            "status": 408,
            "code": "read_timeout",
            "message": "the body did not arrive within 1 s (10 bytes of the 100 declared received)",
        }
    }
    assert closed


def test_headers_cut_short_are_answered_408(server: ThreadServer) -> None:
    received, closed = exchange(server.port, b"POST /v1/settle HTTP/1.1\r\nHost: t\r\nContent-Le")
    status, _, body = parse(received)
    assert status == 408
    assert body["error"]["message"] == "the request line and headers did not arrive within 1 s"
    assert closed


def test_a_connection_that_sends_nothing_is_closed_without_an_answer(server: ThreadServer) -> None:
    assert exchange(server.port, b"") == (b"", True)


def test_a_good_request_on_the_same_server_still_answers(server: ThreadServer) -> None:
    """Keep-alive: a complete request is answered and the connection stays open for the next."""
    received, closed = exchange(server.port, HEALTH + HEALTH, bound=TIMEOUT / 2)
    assert received.count(b'{"status":"ok"}') == 2
    assert not closed


def test_the_read_timeout_option_reaches_the_workers() -> None:
    """``serve --read-timeout`` bounds the reads of every worker process, and ``/v1/version`` says it."""
    server = LiveServer("--workers", "2", "--read-timeout", "0.5")
    try:
        received, closed = exchange(
            server.port, b"POST /v1/settle HTTP/1.1\r\nHost: t\r\nContent-Length: 9\r\n\r\n{"
        )
        status, _, body = parse(received)
        assert status == 408
        assert "within 0.5 s (1 bytes of the 9 declared received)" in body["error"]["message"]
        assert closed
        version, _ = exchange(
            server.port, b"GET /v1/version HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
        )
        assert parse(version)[2]["limits"]["read_timeout"] == 0.5
    finally:
        server.stop()


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "3601"])
def test_a_bad_read_timeout_is_refused(value: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "chinese_poker", "serve", "--read-timeout", value],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "bad limit: read_timeout must be a number of seconds above 0, at most 3600" in result.stderr


def test_limits_carry_the_read_timeout_to_workers() -> None:
    limits = Limits(read_timeout=2.5)
    assert Limits.from_env({"CHINESE_POKER_SERVE_LIMITS": limits.to_env()}) == limits
    assert Limits().read_timeout == 30.0
    with pytest.raises(ValueError, match="read_timeout must be"):
        Limits(read_timeout=True)


def test_batch_threads_reach_the_workers_and_give_the_same_answer() -> None:
    """``serve --batch-threads 2`` settles a batch on two threads with the answer of one, and says so."""
    rng = random.Random(4)
    rounds = [random_round(rng, Rules.preset("pagat-bonus"), f"t{k}") for k in range(600)]
    body = "".join(json.dumps(data) + "\n" for data in rounds).encode()
    answers = []
    for threads in ("1", "2"):
        server = LiveServer("--batch-threads", threads)
        try:
            request = urllib.request.Request(f"http://127.0.0.1:{server.port}/v1/settle/batch", data=body)
            with urllib.request.urlopen(request, timeout=120) as answer:
                answers.append(answer.read())
            with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/v1/version", timeout=30) as answer:
                assert json.load(answer)["limits"]["batch_threads"] == int(threads)
        finally:
            server.stop()
    assert answers[0] == answers[1]
    assert answers[0].count(b"\n") == 600


@pytest.mark.parametrize("value", ["-1", "257"])
def test_a_bad_batch_threads_is_refused(value: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "chinese_poker", "serve", "--batch-threads", value],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "bad limit: batch_threads must be 0 (every core) to 256" in result.stderr
    assert (
        Limits.from_env({"CHINESE_POKER_SERVE_LIMITS": Limits(batch_threads=0).to_env()}).batch_threads == 0
    )
    with pytest.raises(ValueError, match="batch_threads must be"):
        Limits(batch_threads=True)
