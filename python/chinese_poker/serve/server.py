"""Running the service under uvicorn: one process, or ``workers`` processes sharing one listening socket
(each builds its own application; the limits reach them through the environment, ``config.ENV_VAR``).

With several workers the socket is bound here, not by uvicorn: uvicorn's own multi-process path binds it as
``socket.socket(family)``, whose protocol number is 0, and asyncio only sets ``TCP_NODELAY`` on connections
of a socket whose protocol is ``IPPROTO_TCP``. Without it every small response waited for the client's
delayed ACK (Nagle's algorithm): about 40 ms a request, with one client or many. The workers are forked
from this process, which has imported the application once (``serve.forking``), so that a worker started
again after one died answers at once.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import socket
from collections.abc import Callable
from typing import Any

import uvicorn

from chinese_poker.serve.config import ENV_VAR, Limits
from chinese_poker.serve.forking import ParentWatch, fork_worker
from chinese_poker.serve.protocol import bounded_protocol
from chinese_poker.serve.supervisor import Worker, supervise

__all__ = ["APP_FACTORY", "listening_socket", "serve"]

#: What uvicorn imports in each worker process.
APP_FACTORY = "chinese_poker.serve.app:create_app"

#: Seconds a worker gets to finish its requests in flight after SIGTERM before it is killed.
_STOP_GRACE = 30.0


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` and listening, made with protocol ``IPPROTO_TCP`` (so that
    asyncio sets ``TCP_NODELAY`` on every connection it accepts) and inheritable by worker processes."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
        sock.set_inheritable(True)
    except OSError:
        sock.close()
        raise
    return sock


def _config(host: str, port: int, options: dict[str, Any]) -> uvicorn.Config:
    """uvicorn's configuration in this process: the application's factory, and the HTTP protocol bounded
    by the limits' ``read_timeout`` (``serve.protocol``; the limits are read from the environment, where
    ``serve`` put them; an ``http`` option names the parser: ``auto``, ``httptools`` or ``h11``)."""
    return uvicorn.Config(
        APP_FACTORY,
        factory=True,
        host=host,
        port=port,
        http=bounded_protocol(Limits.from_env().read_timeout, options.pop("http", "auto")),
        limit_concurrency=options.pop("limit_concurrency", None),
        **options,
    )


def _run_worker(sock: socket.socket, host: str, port: int, options: dict[str, Any]) -> None:
    """One worker process: uvicorn serving the shared socket until SIGTERM or SIGINT (the limits come in
    the environment, set by ``serve`` before the process was started)."""
    uvicorn.Server(_config(host, port, dict(options))).run(sockets=[sock])


def serve(host: str, port: int, *, workers: int = 1, limits: Limits, **options: Any) -> None:
    """Serve until stopped (SIGINT or SIGTERM: uvicorn finishes the requests in flight, then exits).

    With ``workers > 1`` this process binds the socket and keeps that many worker processes on it
    (``serve.supervisor``: a worker that dies is started again; a ``RuntimeError`` only when every worker
    keeps failing to start); on SIGINT or SIGTERM it stops them all."""
    os.environ[ENV_VAR] = limits.to_env()
    options.setdefault("log_level", "info")
    if workers <= 1:
        uvicorn.Server(_config(host, port, options)).run()
        return
    sock = listening_socket(host, port)
    start: Callable[[], Worker]
    watch: ParentWatch | None = None
    if hasattr(os, "fork"):
        # The application is imported here, once: each worker forked from this process has it already and
        # answers within a fraction of a second of starting (a new interpreter would first spend a second
        # or two importing it).
        importlib.import_module(APP_FACTORY.split(":", maxsplit=1)[0])
        forked_from = watch = ParentWatch()

        def start() -> Worker:
            return fork_worker(lambda: _run_worker(sock, host, port, options), forked_from)

    else:  # pragma: no cover - no fork on this system (Windows): each worker is a new interpreter
        context: Any = multiprocessing.get_context("spawn")

        def start() -> Worker:
            process: multiprocessing.process.BaseProcess = context.Process(
                target=_run_worker, args=(sock, host, port, options), daemon=False
            )
            process.start()
            return process

    try:
        supervise(start, workers, grace=_STOP_GRACE)
    finally:
        sock.close()
        if watch is not None:
            watch.close()


def __dir__() -> list[str]:
    return list(__all__)
