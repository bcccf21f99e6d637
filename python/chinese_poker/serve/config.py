"""The service's limits: how large a request body may be, how many rounds a batch may hold, how many
players a round, how long the client may take to send a request, and how many threads a batch is settled
on. One ``Limits`` value is given to
the application; ``--workers`` processes receive it through the environment (``to_env`` / ``from_env``),
since each worker builds its own application."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass

from chinese_poker.formats.rounds import MAX_PLAYERS

__all__ = ["ENV_VAR", "MAX_BATCH_THREADS", "MAX_READ_TIMEOUT", "Limits"]

#: The environment variable that carries the limits to worker processes.
ENV_VAR = "CHINESE_POKER_SERVE_LIMITS"
#: The longest ``read_timeout``, in seconds (an hour).
MAX_READ_TIMEOUT = 3600.0

_INT_LIMITS = ("max_body_bytes", "max_rounds", "max_players")
#: The most threads one batch may be settled on (the core's cap).
MAX_BATCH_THREADS = 256


@dataclass(frozen=True)
class Limits:
    """What one request may hold.

    ``max_body_bytes``: the largest request body (larger: 413); ``max_rounds``: the most rounds in one
    batch request (more: 413); ``max_players``: the most players in one round, 2 to 6 (more: 422; 5 and 6
    need rules with added suits); ``read_timeout``: the seconds a request's line and headers, and then its
    body, may take to arrive (later: 408, and the connection is closed); ``batch_threads``: the threads the
    core settles and writes one ``/v1/settle/batch`` request on (0: every core of the worker), the same bytes
    for any count.
    """

    max_body_bytes: int = 16 * 1024 * 1024
    max_rounds: int = 100_000
    max_players: int = MAX_PLAYERS
    read_timeout: float = 30.0
    batch_threads: int = 1

    def __post_init__(self) -> None:
        for name in _INT_LIMITS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if not 2 <= self.max_players <= MAX_PLAYERS:
            raise ValueError(f"max_players must be 2 to {MAX_PLAYERS}, got {self.max_players}")
        threads = self.batch_threads
        if isinstance(threads, bool) or not isinstance(threads, int) or not 0 <= threads <= MAX_BATCH_THREADS:
            raise ValueError(f"batch_threads must be 0 (every core) to {MAX_BATCH_THREADS}, got {threads!r}")
        timeout = self.read_timeout
        if (
            isinstance(timeout, bool)
            or not isinstance(timeout, (int, float))
            or not math.isfinite(timeout)
            or not 0 < timeout <= MAX_READ_TIMEOUT
        ):
            raise ValueError(
                f"read_timeout must be a number of seconds above 0, at most {MAX_READ_TIMEOUT:g}, "
                f"got {timeout!r}"
            )

    def to_dict(self) -> dict[str, float]:
        """The limits as a JSON-safe dict (``/v1/version`` shows them)."""
        return asdict(self)

    def to_env(self) -> str:
        """The limits as the text ``from_env`` reads back."""
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """The limits set in ``ENV_VAR`` (by ``chinese-poker serve`` for its workers), else the defaults."""
        text = (os.environ if environ is None else environ).get(ENV_VAR)
        if not text:
            return cls()
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"{ENV_VAR} must hold a JSON object, got {text!r}")
        keys = (*_INT_LIMITS, "read_timeout", "batch_threads")
        return cls(**{key: data[key] for key in keys if key in data})


def __dir__() -> list[str]:
    return list(__all__)
