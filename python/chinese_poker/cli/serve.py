"""``chinese-poker serve``: run the HTTP JSON scoring service (the optional extra
``pip install '.[serve]'`` from a checkout, ``pip install 'chinese-poker[serve]'`` once the package is
published; docs/SERVICE.md)."""

from __future__ import annotations

import argparse
from typing import Any

from chinese_poker._extras import install_hint
from chinese_poker.cli.common import CliError

__all__ = ["add_parser", "run"]

_MAX_PORT = 65535


def add_parser(commands: Any) -> None:
    """Add the ``serve`` command to the subparsers ``commands``."""
    serve = commands.add_parser(
        "serve",
        help="run the HTTP JSON scoring service (needs the serve extra)",
        description="Serve the round format over HTTP: /v1/settle, /v1/settle/batch, /v1/settle/packed, "
        "/v1/check, /v1/arrange, /v1/suggest, /v1/ofc/advise, /v1/ofc/fantasyland, /v1/verify, /v1/deal, "
        "/v1/rules, /v1/rules/NAME, /v1/version, "
        "/v1/health, /v1/openapi.json, and a page at /. Listens on the loopback interface unless --host says "
        "otherwise. "
        "Errors are JSON bodies; a query parameter an endpoint does not take is a 422. With --workers N a "
        "worker that dies is started again (with growing delays if it dies while starting; the command "
        "gives up, exit code 2, only when every worker keeps failing to start). Every read is bounded by "
        f"--read-timeout. Needs the serve extra: {install_hint('serve')}.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes sharing the port (default 1); one that dies is started again",
    )
    serve.add_argument(
        "--max-body-bytes", type=int, default=16 * 1024 * 1024, help="largest request body (default 16 MiB)"
    )
    serve.add_argument(
        "--max-rounds", type=int, default=100_000, help="most rounds in one batch request (default 100000)"
    )
    serve.add_argument(
        "--max-players", type=int, default=6, help="most players in one round, 2 to 6 (default 6)"
    )
    serve.add_argument(
        "--read-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="the seconds a request's line and headers, and then its body, may take to arrive; later the "
        "request is answered 408 and the connection closed (default 30)",
    )
    serve.add_argument(
        "--batch-threads",
        type=int,
        default=1,
        metavar="N",
        help="threads one /v1/settle/batch request is settled and written on (0: every core; default 1); "
        "the answer is the same for every N",
    )
    serve.add_argument(
        "--log-level",
        choices=("critical", "error", "warning", "info", "debug"),
        default="info",
        help="uvicorn's log level",
    )
    serve.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Check the options and the extra, then serve until stopped."""
    # Imported here: the other commands never load the service's modules.
    from chinese_poker.serve import Limits, MissingExtraError  # noqa: PLC0415
    from chinese_poker.serve import run as serve  # noqa: PLC0415

    if not 0 <= args.port <= _MAX_PORT:
        raise CliError(f"--port must be 0..{_MAX_PORT}, got {args.port}")
    if args.workers < 1:
        raise CliError(f"--workers must be 1 or more, got {args.workers}")
    try:
        limits = Limits(
            max_body_bytes=args.max_body_bytes,
            max_rounds=args.max_rounds,
            max_players=args.max_players,
            read_timeout=args.read_timeout,
            batch_threads=args.batch_threads,
        )
    except ValueError as error:
        raise CliError(f"bad limit: {error}") from None
    try:
        serve(args.host, args.port, workers=args.workers, limits=limits, log_level=args.log_level)
    except MissingExtraError as error:
        raise CliError(str(error)) from None
    except OSError as error:  # --workers > 1: this process binds the socket (a port in use, a bad address)
        raise CliError(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}") from None
    except RuntimeError as error:  # a worker process that could not start
        raise CliError(str(error)) from None
    return 0


def __dir__() -> list[str]:
    return list(__all__)
