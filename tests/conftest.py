"""Shared fixtures: every five-card and three-card hand as uint8 card-code arrays, and Hypothesis profiles."""

from __future__ import annotations

import itertools
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from math import comb
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

N_FIVE = comb(52, 5)  # 2,598,960
N_THREE = comb(52, 3)  # 22,100

# "ci" (chosen when the CI environment variable is set): reproducible runs, no flaky deadlines.
settings.register_profile(
    "ci", derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def all_hands(size: int) -> np.ndarray:
    """Every ``size``-card hand, in lexicographic order, as a C-contiguous (N, size) uint8 array."""
    count = comb(52, size)
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), size)),
        dtype=np.uint8,
        count=size * count,
    )
    return flat.reshape(count, size)


@pytest.fixture(scope="session")
def five_card_hands() -> np.ndarray:
    hands = all_hands(5)
    hands.setflags(write=False)
    return hands


@pytest.fixture(scope="session")
def three_card_hands() -> np.ndarray:
    hands = all_hands(3)
    hands.setflags(write=False)
    return hands


# ----- a real server for the service's tests (tests/test_serve_*.py) -------------------------------------


class LiveServer:
    """A ``chinese-poker serve`` process on 127.0.0.1 at a free port, started for the tests."""

    def __init__(self, *extra: str) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "chinese_poker", "serve", "--port", str(self.port)]
        # stderr to a file, not a pipe: a pipe nobody reads could fill and stall the server.
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 - closed by stop()
        self.process = subprocess.Popen(
            [*command, "--log-level", "warning", *extra], stdout=subprocess.DEVNULL, stderr=self._log
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.url + "/v1/health", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                log = self.errors()
                self.stop()
                raise RuntimeError(f"the server did not start: {log}")
            time.sleep(0.1)

    def errors(self) -> str:
        """What the server has written on stderr."""
        self._log.seek(0)
        return self._log.read().decode("utf-8", "replace")

    def stop(self) -> None:
        """Stop the process this test started (by its own handle), waiting for it."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=20)
        self._log.close()


def _children(parent: int) -> list[tuple[int, bytes]]:
    """The pids and command lines of ``parent``'s running child processes, read from /proc (not those
    that have exited and wait to be reaped)."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
            command = (status.parent / "cmdline").read_bytes()
        except OSError:  # the process ended while being read
            continue
        if f"\nPPid:\t{parent}\n" in text and "\nState:\tZ" not in text:
            found.append((int(status.parent.name), command))
    return found


def worker_pids(parent: int) -> list[int]:
    """The worker processes of the ``chinese-poker serve --workers N`` process ``parent``: its children
    (forked from it) that have not exited."""
    return [pid for pid, _ in _children(parent)]


@pytest.fixture(scope="module")
def live_server() -> Iterator[LiveServer]:
    """A ``chinese-poker serve`` on 127.0.0.1 at a free port, for the module's tests."""
    server = LiveServer()
    yield server
    server.stop()
