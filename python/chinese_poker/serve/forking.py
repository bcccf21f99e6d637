"""Worker processes forked straight from the supervising process, which has imported the application once:
a worker started again after one died answers within a fraction of a second, and every worker is this
process's own child.

Being its child is what makes the supervisor's reports true and its stop complete:

- a worker's exit status comes from ``waitpid``, so a worker that dies at once is reported with the code
  or signal it died of (nothing is written to a worker after it is forked, so no broken pipe can stand in
  for its death);
- a worker's pid cannot be reused while it is unreaped, so a signal sent by pid before ``waitpid`` has
  seen it exit reaches that worker and no other process;
- there is no third process between the supervisor and its workers whose death would leave them running
  unseen; and each worker watches a pipe whose write end only the supervisor holds: when the supervisor
  dies, however it dies (SIGKILL included), the pipe reads end-of-file and the worker stops itself with
  SIGTERM (finishing its requests in flight), so no worker is left serving the port alone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import NoReturn

__all__ = ["ParentWatch", "WorkerProcess", "fork_worker"]

#: How often ``WorkerProcess.join`` with a timeout looks at the worker, in seconds.
_JOIN_POLL = 0.01


class ParentWatch:
    """A pipe made in the supervisor: its workers read it, and only the supervisor keeps its write end
    open (each worker closes its copy on starting), so the read sees end-of-file once the supervisor has
    died."""

    def __init__(self) -> None:
        self._read, self._write = os.pipe()

    def watch_from_worker(self) -> None:
        """In a worker just forked: close the write end and stop this process with SIGTERM when the
        supervisor is gone (a daemon thread waits on the pipe)."""
        os.close(self._write)
        threading.Thread(target=self._wait_for_end, name="supervisor-watch", daemon=True).start()

    def _wait_for_end(self) -> None:
        with contextlib.suppress(OSError):
            while os.read(self._read, 1):  # nothing is ever written: only end-of-file ends the wait
                pass
        os.kill(os.getpid(), signal.SIGTERM)

    def close(self) -> None:
        """Close both ends (in the supervisor, once no worker is left)."""
        for fd in (self._read, self._write):
            with contextlib.suppress(OSError):
                os.close(fd)


class WorkerProcess:
    """One worker, a child of this process, known by its pid; ``exitcode`` is None while it runs, then
    its exit code, or minus the signal that killed it (as ``multiprocessing`` reports)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.exitcode: int | None = None

    def is_alive(self) -> bool:
        """Whether the worker still runs; reaps it (and records its exit code) once it has exited."""
        if self.exitcode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped by someone else: its status is lost
                self.exitcode = 255
                return False
            if pid == self.pid:
                self.exitcode = os.waitstatus_to_exitcode(status)
        return self.exitcode is None

    def join(self, timeout: float | None = None) -> None:
        """Wait until the worker has exited, or ``timeout`` seconds have passed."""
        if timeout is None:
            while self.is_alive():
                with contextlib.suppress(ChildProcessError):
                    _pid, status = os.waitpid(self.pid, 0)
                    self.exitcode = os.waitstatus_to_exitcode(status)
            return
        deadline = time.monotonic() + timeout
        while self.is_alive() and time.monotonic() < deadline:
            time.sleep(_JOIN_POLL)

    def terminate(self) -> None:
        """SIGTERM to the worker, if it has not been reaped (its pid is still its own)."""
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL to the worker, if it has not been reaped."""
        self._signal(signal.SIGKILL)

    def _signal(self, signum: int) -> None:
        if self.is_alive():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signum)


def fork_worker(target: Callable[[], object], watch: ParentWatch) -> WorkerProcess:
    """Fork a worker that runs ``target`` and exits: with code 0 when it returns, the code of a
    ``SystemExit``, or 1 after printing any other exception. An ``OSError`` when no process can be made."""
    for stream in (sys.stdout, sys.stderr):  # what is buffered is written once, by this process
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the worker's side (coverage is not measured in the worker)
        _run_worker(target, watch)
    return WorkerProcess(pid)


def _run_worker(target: Callable[[], object], watch: ParentWatch) -> NoReturn:  # pragma: no cover
    code = 1
    try:
        # The supervisor's handlers only note that it should stop: a worker's own stop is uvicorn's.
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, signal.SIG_DFL)
        watch.watch_from_worker()
        target()
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:  # the worker says what stopped it, then exits
        with contextlib.suppress(OSError, ValueError):
            traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError, AttributeError):
                stream.flush()
        os._exit(code)


def __dir__() -> list[str]:
    return list(__all__)
