"""Running the service under uvicorn: one process, or ``workers`` processes sharing the socket (each
builds its own application; the limits reach them through the environment, ``config.ENV_VAR``)."""

from __future__ import annotations

import os
from typing import Any

import uvicorn

from chinese_poker.serve.config import ENV_VAR, Limits

__all__ = ["APP_FACTORY", "serve"]

#: What uvicorn imports in each worker process.
APP_FACTORY = "chinese_poker.serve.app:create_app"


def serve(host: str, port: int, *, workers: int = 1, limits: Limits, **options: Any) -> None:
    """Serve until stopped (SIGINT or SIGTERM: uvicorn finishes the requests in flight, then exits)."""
    os.environ[ENV_VAR] = limits.to_env()
    options.setdefault("log_level", "info")
    uvicorn.run(
        APP_FACTORY,
        factory=True,
        host=host,
        port=port,
        workers=workers if workers > 1 else None,
        limit_concurrency=options.pop("limit_concurrency", None),
        **options,
    )


def __dir__() -> list[str]:
    return list(__all__)
