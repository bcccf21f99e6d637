"""Keeping ``--workers N`` processes serving one listening socket: a worker that dies is started again, at
once when it had been serving, after a growing delay (at most ``MAX_BACKOFF``) when it died while starting,
so that a worker that cannot start does not spin; the command gives up only when every worker has failed
to start ``GIVE_UP_AFTER`` times in a row, and says why on stderr. The socket stays open the whole time,
so while a worker is being restarted the kernel keeps accepting connections into its backlog and the
other workers answer.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Protocol

__all__ = ["FIRST_BACKOFF", "GIVE_UP_AFTER", "MAX_BACKOFF", "MIN_WORKER_LIFE", "Worker", "supervise"]

#: A worker that dies sooner than this many seconds after starting has failed to start.
MIN_WORKER_LIFE = 5.0
#: Seconds before restarting a worker after its first failed start; doubled for each further one.
FIRST_BACKOFF = 0.1
#: The longest delay before a restart, in seconds.
MAX_BACKOFF = 5.0
#: The command gives up when every worker has failed to start this many times in a row.
GIVE_UP_AFTER = 5
#: How often the supervisor looks at its workers, in seconds.
_POLL = 0.05


class Worker(Protocol):
    """What the supervisor needs of a worker process (``forking.WorkerProcess``, or a ``multiprocessing``
    process): ``exitcode`` is None while it runs, else its exit code or minus the signal that killed it."""

    @property
    def pid(self) -> int | None: ...

    @property
    def exitcode(self) -> int | None: ...

    def is_alive(self) -> bool: ...

    def join(self, timeout: float | None = None) -> None: ...

    def terminate(self) -> None: ...

    def kill(self) -> None: ...


def say(message: str) -> None:
    """One line on stderr, prefixed with the command's name; a stderr that cannot be written (a full disk,
    a closed pipe) never stops the supervisor."""
    with contextlib.suppress(OSError, ValueError):
        print(f"chinese-poker serve: {message}", file=sys.stderr, flush=True)


def _backoff(failures: int) -> float:
    """The seconds to wait before starting a worker again after ``failures`` failed starts in a row."""
    return float(min(FIRST_BACKOFF * 2 ** (failures - 1), MAX_BACKOFF))


def _how(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"was killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"was killed by signal {-exitcode}"
    return f"exited with code {exitcode}"


@dataclass
class _Slot:
    """One worker's place: its current process, when that started, its failed starts in a row and when
    it may be started again."""

    number: int
    process: Worker | None = None
    started: float = 0.0
    failures: int = 0
    restart_at: float = 0.0
    last_exit: str = ""


def _stop_all(slots: list[_Slot], grace: float) -> None:
    """SIGTERM to every worker (each finishes its requests in flight), SIGKILL to any still running after
    ``grace`` seconds."""
    for slot in slots:
        if slot.process is not None and slot.process.is_alive():
            slot.process.terminate()
    deadline = time.monotonic() + grace
    for slot in slots:
        process = slot.process
        if process is None:
            continue
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            say(f"worker {slot.number} did not stop within {grace:g} s; killing it")
            process.kill()
            process.join()


def supervise(start: Callable[[], Worker], workers: int, *, grace: float) -> None:
    """Run ``workers`` processes made by ``start`` (each already started) until SIGINT or SIGTERM, then
    stop them (``grace`` seconds to finish their requests). A ``RuntimeError`` when every worker has failed
    to start ``GIVE_UP_AFTER`` times in a row (each such failure was reported on stderr)."""
    stopping = False

    def stop(_signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    slots = [_Slot(number) for number in range(1, workers + 1)]
    try:
        while not stopping:
            now = time.monotonic()
            for slot in slots:
                _tend(slot, start, now)
            if all(slot.failures >= GIVE_UP_AFTER for slot in slots):
                last = "; ".join(f"worker {slot.number} {slot.last_exit}" for slot in slots)
                raise RuntimeError(
                    f"every worker process failed to start {GIVE_UP_AFTER} times in a row ({last}); "
                    "see their log above"
                )
            time.sleep(_POLL)
    finally:
        _stop_all(slots, grace)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _tend(slot: _Slot, start: Callable[[], Worker], now: float) -> None:
    """Start the slot's worker when it is due, note a worker that has lived past its start, and handle a
    worker that has died: report it and schedule its restart."""
    process = slot.process
    if process is None:
        if now >= slot.restart_at:
            try:
                slot.process, slot.started = start(), now
            except OSError as error:  # no process could be made (out of memory, too many processes)
                slot.failures += 1
                delay = _backoff(slot.failures)
                slot.restart_at, slot.last_exit = now + delay, f"could not be started ({error})"
                say(f"worker {slot.number} {slot.last_exit}; trying again in {delay:.1f} s")
        return
    if process.is_alive():
        if slot.failures and now - slot.started >= MIN_WORKER_LIFE:
            slot.failures = 0  # it started: a later death is not a failed start
        return
    process.join()
    life = now - slot.started
    slot.last_exit = _how(process.exitcode)
    slot.process = None
    if life < MIN_WORKER_LIFE:
        slot.failures += 1
        delay = _backoff(slot.failures)
    else:
        slot.failures = 0
        delay = 0.0
    slot.restart_at = now + delay
    what = f"worker {slot.number} (pid {process.pid}) {slot.last_exit} after {life:.1f} s"
    if slot.failures:
        say(f"{what}, while starting ({slot.failures} in a row); starting it again in {delay:.1f} s")
    else:
        say(f"{what}; starting it again")


def __dir__() -> list[str]:
    return list(__all__)
