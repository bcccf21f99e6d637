"""Worker processes forked from the supervisor (``serve.forking``): each death reported with the worker's own
exit code or signal, however soon it comes; a signal sent by pid only to a worker not yet reaped; and a
worker that stops itself with SIGTERM when its supervisor dies, however it dies."""

from __future__ import annotations

import os
import select
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from chinese_poker.serve.forking import ParentWatch, WorkerProcess, fork_worker

BOUND = 60.0  # seconds any wait below may take at most


def _state(pid: int) -> str:
    """The process's state letter from /proc (``Z``: exited, not reaped), or "" when it is gone."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return ""
    return text.split("\nState:\t", 1)[1][:1]


def _wait_until(condition: Callable[[], bool], bound: float = BOUND) -> bool:
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def _exit_with(code: int) -> None:
    raise SystemExit(code)


def _fail() -> None:
    raise ValueError("the application could not be built")


def _sleep() -> None:
    time.sleep(BOUND)


@pytest.fixture
def watch() -> Iterator[ParentWatch]:
    made = ParentWatch()
    yield made
    made.close()


def test_a_worker_that_dies_at_once_is_reported_with_its_own_exit_code(watch: ParentWatch) -> None:
    """The worker exits before this process looks at it again (it is a zombie by then): its code is the
    one it exited with, not a failure to start it."""
    worker = fork_worker(lambda: _exit_with(3), watch)
    assert _wait_until(lambda: _state(worker.pid) == "Z")
    assert worker.exitcode is None
    # Its other thread (the supervisor's watch) may take a moment more to end: until then it cannot be
    # reaped, so the join, not one look.
    worker.join(BOUND)
    assert worker.exitcode == 3
    assert not worker.is_alive()
    assert _state(worker.pid) == ""  # reaped


@pytest.mark.parametrize(("target", "exitcode"), [(lambda: None, 0), (lambda: _exit_with(7), 7), (_fail, 1)])
def test_a_worker_exits_with_what_its_target_did(
    watch: ParentWatch, target: Callable[[], object], exitcode: int, capfd: pytest.CaptureFixture[str]
) -> None:
    worker = fork_worker(target, watch)
    worker.join(BOUND)
    assert worker.exitcode == exitcode
    errors = capfd.readouterr().err
    assert ("ValueError: the application could not be built" in errors) == (exitcode == 1)


def test_a_killed_worker_reports_the_signal_and_is_signalled_by_pid_only_until_reaped(
    watch: ParentWatch,
) -> None:
    worker = fork_worker(_sleep, watch)
    assert worker.is_alive()
    worker.join(0.05)  # a bounded join returns while the worker runs
    assert worker.is_alive()
    worker.kill()
    worker.join(BOUND)
    assert worker.exitcode == -signal.SIGKILL
    sent: list[tuple[int, int]] = []
    real_kill = os.kill
    try:
        os.kill = lambda pid, signum: sent.append((pid, signum))  # type: ignore[assignment]
        worker.terminate()
        worker.kill()
    finally:
        os.kill = real_kill
    assert sent == []  # its pid may belong to another process by now
    assert worker.exitcode == -signal.SIGKILL


def test_join_without_a_timeout_waits_for_the_worker(watch: ParentWatch) -> None:
    worker = fork_worker(lambda: (time.sleep(0.2), _exit_with(5)), watch)
    worker.join()
    assert worker.exitcode == 5


def test_a_worker_stops_itself_with_sigterm_when_its_supervisor_dies() -> None:
    """A stand-in supervisor (a child of this test) forks a worker, which says on a pipe when it is ready
    and when it gets SIGTERM; the supervisor is then killed with SIGKILL: the worker gets SIGTERM, and
    exits."""
    pid_read, pid_write = os.pipe()
    term_read, term_write = os.pipe()

    def worker_target() -> None:
        def on_term(_signum: int, _frame: object) -> None:
            os.write(term_write, b"T")
            os._exit(0)

        signal.signal(signal.SIGTERM, on_term)
        os.write(term_write, b"R")
        time.sleep(BOUND)

    supervisor = os.fork()
    if supervisor == 0:  # pragma: no cover - the stand-in supervisor
        try:
            worker = fork_worker(worker_target, ParentWatch())
            os.write(pid_write, str(worker.pid).encode())
            time.sleep(BOUND)
        finally:
            os._exit(1)
    os.close(pid_write)
    os.close(term_write)
    try:
        ready, _, _ = select.select([pid_read], [], [], BOUND)
        assert ready
        worker_pid = int(os.read(pid_read, 32))
        assert _state(worker_pid) not in ("", "Z")
        ready, _, _ = select.select([term_read], [], [], BOUND)
        assert ready
        assert os.read(term_read, 1) == b"R"
        os.kill(supervisor, signal.SIGKILL)
        ready, _, _ = select.select([term_read], [], [], BOUND)
        assert ready
        assert os.read(term_read, 1) == b"T"
        assert _wait_until(lambda: _state(worker_pid) in ("", "Z"))
    finally:
        os.waitpid(supervisor, 0)
        os.close(pid_read)
        os.close(term_read)


def test_a_worker_reaped_elsewhere_counts_as_dead_with_code_255(watch: ParentWatch) -> None:
    worker = fork_worker(lambda: _exit_with(0), watch)
    os.waitpid(worker.pid, 0)  # its status is taken before the worker's handle sees it
    assert not WorkerProcess(worker.pid).is_alive()
    assert not worker.is_alive()
    assert worker.exitcode == 255
