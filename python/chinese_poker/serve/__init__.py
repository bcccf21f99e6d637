"""The HTTP JSON scoring service (``chinese-poker serve``; docs/SERVICE.md): the round format of
docs/JSON_FORMAT.md over HTTP, for game servers in any language, and a page to look at a round.

Importing this package needs nothing beyond chinese-poker itself; the web stack (Starlette on uvicorn) is
the optional extra ``serve`` (``pip install '.[serve]'`` from a checkout, ``pip install
'chinese-poker[serve]'`` once the package is published), imported only by ``create_app`` and ``run``,
which say how to install it when it is missing.

Modules, one job each: ``config`` (the limits), ``errors`` (the error type and body), ``bodies`` (reading
bodies and query parameters), ``dealt`` (a player's dealt cards), ``settling`` (rounds), ``hands`` (check
and arrange), ``info`` (version, rules, deal, health), ``openapi`` (the document, from the format's
schemas), ``app`` (the Starlette application), ``protocol`` (uvicorn's HTTP protocol with bounded reads
and JSON framing errors), ``server`` (running it under uvicorn), ``supervisor`` (keeping ``--workers``
processes running).
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any

from chinese_poker._extras import install_hint
from chinese_poker.serve.config import Limits

if TYPE_CHECKING:  # pragma: no cover
    from starlette.applications import Starlette

__all__ = ["EXTRA_MODULES", "Limits", "MissingExtraError", "create_app", "require_extra", "run"]

#: The modules of the ``serve`` extra.
EXTRA_MODULES = ("starlette", "uvicorn")


class MissingExtraError(ImportError):
    """The ``serve`` extra is not installed; the message says how to install it."""


def require_extra() -> None:
    """Raise ``MissingExtraError`` unless the modules of the ``serve`` extra can be imported."""
    missing = [name for name in EXTRA_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        verb = "is" if len(missing) == 1 else "are"
        raise MissingExtraError(
            f"the scoring service needs {' and '.join(missing)}, which {verb} not installed; install the "
            f"serve extra with: {install_hint('serve')}"
        )


def create_app(limits: Limits | None = None) -> Starlette:
    """The service's ASGI application (see ``chinese_poker.serve.app.create_app``)."""
    require_extra()
    from chinese_poker.serve.app import create_app as create  # noqa: PLC0415 - needs the extra

    return create(limits)


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    workers: int = 1,
    limits: Limits | None = None,
    **uvicorn: Any,
) -> None:
    """Serve on ``host:port`` with ``workers`` processes until stopped (``chinese_poker.serve.server``)."""
    require_extra()
    from chinese_poker.serve.server import serve  # noqa: PLC0415 - needs the extra

    serve(host, port, workers=workers, limits=limits or Limits(), **uvicorn)


def __dir__() -> list[str]:
    return list(__all__)
