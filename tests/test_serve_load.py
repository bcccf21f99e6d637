"""Load against a real ``chinese-poker serve`` (uvicorn) on 127.0.0.1 at a free port, bounded in count and
time: concurrent clients sending single-round settles, then batches; zero errors and every answer counted
(no timing is asserted). And a long batch does not stall the event loop: health answers meanwhile."""

from __future__ import annotations

import http.client
import json
import random
import threading
from collections import Counter
from typing import Any

from chinese_poker.dealing import deal_hands
from conftest import LiveServer

CLIENTS = 8
REQUESTS_PER_CLIENT = 40
TIMEOUT = 30.0  # seconds per request: the bound on the whole test's time


def _rounds(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` random 4-player rounds, each hand as dealt (front 3, middle 5, back 5: mostly fouls)."""
    rng = random.Random(seed)
    rounds = []
    for k in range(count):
        hands = deal_hands(rng, 4)
        rounds.append({"id": k, "players": [{"cards": list(cards)} for cards in hands]})
    return rounds


def _post(connection: http.client.HTTPConnection, path: str, body: bytes) -> tuple[int, bytes]:
    connection.request("POST", path, body=body, headers={"Content-Type": "application/json"})
    answer = connection.getresponse()
    return answer.status, answer.read()


def test_concurrent_single_round_settles_and_batches(live_server: LiveServer) -> None:
    bodies = [json.dumps(item).encode() for item in _rounds(50, 1)]
    statuses: Counter[int] = Counter()
    nets_ok = Counter[bool]()
    lock = threading.Lock()

    def client(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=TIMEOUT)
        try:
            for k in range(REQUESTS_PER_CLIENT):
                status, body = _post(connection, "/v1/settle", bodies[(index + k) % len(bodies)])
                zero_sum = status == 200 and sum(json.loads(body)["net"]) == 0
                with lock:
                    statuses[status] += 1
                    nets_ok[zero_sum] += 1
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(k,)) for k in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=TIMEOUT * REQUESTS_PER_CLIENT)
    assert not any(thread.is_alive() for thread in threads)
    assert statuses == Counter({200: CLIENTS * REQUESTS_PER_CLIENT})
    assert nets_ok == Counter({True: CLIENTS * REQUESTS_PER_CLIENT})

    batch = "".join(json.dumps(item) + "\n" for item in _rounds(1000, 2)).encode()
    connection = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=TIMEOUT * 4)
    try:
        for _ in range(2):
            status, body = _post(connection, "/v1/settle/batch", batch)
            assert status == 200
            lines = body.decode("utf-8").splitlines()
            assert len(lines) == 1000
            assert [json.loads(line)["id"] for line in lines] == list(range(1000))
    finally:
        connection.close()
    assert "unexpected error" not in live_server.errors()  # no request reached the 500 safety net


def test_health_answers_while_a_long_batch_runs(live_server: LiveServer) -> None:
    # The explanations are written in Python, about half a millisecond a round: the batch takes the server a
    # second or more, the body's transfer a few milliseconds, and health answers in about a millisecond.
    # Polling starts once the whole body is sent and counts the answers that come before the batch's answer
    # does: a batch settled on the event loop itself lets through only the one already in flight, and those
    # of the few milliseconds its answer takes to reach the client.
    rounds = 3000
    batch = "".join(json.dumps(item) + "\n" for item in _rounds(rounds, 3)).encode()
    sent = threading.Event()
    answered = threading.Event()
    outcome: dict[str, Any] = {}

    def long_batch() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=TIMEOUT * 10)
        try:
            connection.request(
                "POST",
                "/v1/settle/batch?explain=true",
                body=batch,
                headers={"Content-Type": "application/json"},
            )
            sent.set()
            answer = connection.getresponse()
            answered.set()
            outcome["status"] = answer.status
            outcome["lines"] = answer.read().count(b"\n")
        finally:
            connection.close()
            sent.set()
            answered.set()

    worker = threading.Thread(target=long_batch)
    worker.start()
    health = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=TIMEOUT)
    answered_during = 0
    try:
        assert sent.wait(TIMEOUT)
        while not answered.is_set() and answered_during < 20:
            health.request("GET", "/v1/health")
            answer = health.getresponse()
            assert answer.status == 200
            assert json.loads(answer.read()) == {"status": "ok"}
            if not answered.is_set():
                answered_during += 1
    finally:
        health.close()
    worker.join(timeout=TIMEOUT * 10)
    assert outcome == {"status": 200, "lines": rounds}
    assert answered_during >= 10
