"""Driving an engine behind an HTTP endpoint: each batch of rounds is one ``POST`` of a JSON Lines body,
answered by one answer line per round (the protocol of ``chinese_poker.xcheck.engine``, over HTTP).

``HttpEngine(url)`` sends ``Content-Type: application/x-ndjson`` bodies with the standard library's
``urllib``. Every failure raises ``EngineError`` naming the round: a refused connection or an unknown
host, a request that takes longer than ``timeout`` seconds per round sent (each read waits at most
``timeout`` seconds), a status other than 200, a line that is not an answer, a response that ends before
every round is answered. One status is read as an answer: a 422 whose JSON body names a round of the
request (``{"error": {"round": K, "message": ...}}``, K 0-based, as this project's service answers a
batch it refuses at one round) is that round refused (an ``error`` answer, as an engine on stdin
answers it), and the other rounds are sent again without it.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from typing import Any

from chinese_poker.xcheck.engine import Answer, EngineError, Pending

__all__ = ["HttpEngine"]

_READ = 1 << 16


class HttpEngine:
    """An engine behind an HTTP endpoint taking JSON Lines; ``ask`` posts one request per batch."""

    def __init__(self, url: str, *, timeout: float = 10.0) -> None:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise EngineError(f"the engine URL must be http:// or https:// with a host, got {url!r}")
        self.url = url
        self.timeout = timeout
        self.rounds_sent = 0
        self.stderr = ""  # an endpoint has no stderr: the report keeps the field empty

    def ask(self, rounds: Sequence[Mapping[str, Any]]) -> list[Answer]:
        """The answers to ``rounds`` (JSON round objects with distinct ``id`` and ``players``), in the
        order of ``rounds``."""
        if not rounds:
            return []
        pending = Pending(rounds)
        for line in self._post(rounds, pending):
            pending.take(line, "endpoint")
        if pending.waiting:
            raise EngineError(
                f"round {pending.first}: no answer: the endpoint's response ended after "
                f"{len(rounds) - len(pending.waiting)} of {len(rounds)} answers"
            )
        self.rounds_sent += len(rounds)
        return pending.answers()

    def _post(self, rounds: Sequence[Mapping[str, Any]], pending: Pending) -> list[bytes]:
        """The answer lines of one request holding ``rounds``; a 422 naming one of them settles it as
        refused in ``pending`` and posts the rest again."""
        while True:
            first = str(rounds[0]["id"])
            body = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in rounds).encode()
            request = urllib.request.Request(
                self.url, data=body, method="POST", headers={"Content-Type": "application/x-ndjson"}
            )
            deadline = time.monotonic() + self.timeout * max(1, len(rounds))
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return self._read(response, deadline, first, len(rounds)).splitlines()
            except urllib.error.HTTPError as error:
                text = _body_text(error)
                refused = _refused_round(error.code, text, len(rounds))
                if refused is None:
                    raise EngineError(
                        f"round {first}: the endpoint answered HTTP {error.code} {error.reason}: {text[:200]}"
                    ) from None
                index, message = refused
                pending.settle(str(rounds[index]["id"]), {"error": message})
                rounds = [r for n, r in enumerate(rounds) if n != index]
                if not rounds:
                    return []
            except TimeoutError:
                raise EngineError(
                    f"round {first}: no answer within {self.timeout:g} s from {self.url}"
                ) from None
            except urllib.error.URLError as error:
                reason = error.reason
                if isinstance(reason, TimeoutError):
                    raise EngineError(
                        f"round {first}: no answer within {self.timeout:g} s from {self.url}"
                    ) from None
                raise EngineError(f"round {first}: cannot reach {self.url}: {reason}") from None
            except (ConnectionError, OSError) as error:
                raise EngineError(f"round {first}: the connection to {self.url} failed: {error}") from None

    def _read(self, response: Any, deadline: float, first: str, count: int) -> bytes:
        chunks: list[bytes] = []
        while True:
            if time.monotonic() > deadline:
                raise EngineError(
                    f"round {first}: the endpoint took more than {self.timeout:g} s per round "
                    f"to answer {count} rounds"
                )
            chunk = response.read1(_READ) if hasattr(response, "read1") else response.read(_READ)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)

    def close(self) -> None:
        """Nothing to close: every request has its own connection."""

    def __enter__(self) -> HttpEngine:  # noqa: PYI034 - the class is not meant to be subclassed
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _body_text(error: urllib.error.HTTPError) -> str:
    try:
        return error.read().decode("utf-8", "replace").strip()
    except OSError:
        return ""


def _refused_round(status: int, text: str, count: int) -> tuple[int, str] | None:
    """The 0-based round and message of a 422 body that refuses one round of ``count``, else None."""
    if status != 422:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return None
    error = data.get("error") if isinstance(data, dict) else None
    if not isinstance(error, dict):
        return None
    index = error.get("round")
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < count:
        return None
    return index, str(error.get("message", "refused"))[:500]


def __dir__() -> list[str]:
    return list(__all__)
