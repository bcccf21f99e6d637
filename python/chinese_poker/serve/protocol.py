"""The HTTP connection under uvicorn, bounded in time and answering framing errors with the service's JSON
error body.

uvicorn's own protocols (httptools when installed, else h11) answer a request they cannot parse with a
text/plain 400, and bound no read: a connection that sends part of a request line or headers, or nothing
at all, is held open for ever. The protocol classes made here change only that:

- a request whose line and headers have not all arrived within ``read_timeout`` seconds of its first byte
  (or of the connection's start) is answered 408 with the JSON error body, and the connection closed; a
  connection that sent nothing in that time is closed without an answer (there is no request to answer);
- a request the parser refuses (a bad request line, header, ``Content-Length`` or chunk) is answered 400
  with the JSON error body instead of text, and the connection closed.

The body is bounded by the application (``serve.app``: 408 when it has not all arrived within
``read_timeout``), which can name how much of it came. Idle keep-alive connections between requests are
closed by uvicorn's own ``timeout_keep_alive``.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
from typing import Any

from chinese_poker.serve.errors import ApiError, error_body

__all__ = ["bounded_protocol", "error_response_bytes"]

_LOG = logging.getLogger("chinese_poker.serve")

_REASONS = {400: b"Bad Request", 408: b"Request Timeout"}


def error_response_bytes(error: ApiError, default_headers: list[tuple[bytes, bytes]]) -> bytes:
    """A whole HTTP/1.1 response carrying ``error``'s JSON body, closing the connection."""
    body = error_body(error)
    head = [b"HTTP/1.1 %d %s\r\n" % (error.status, _REASONS.get(error.status, b"Error"))]
    head.extend(name + b": " + value + b"\r\n" for name, value in default_headers)
    head.append(b"content-type: application/json\r\n")
    head.append(b"content-length: %d\r\n" % len(body))
    head.append(b"connection: close\r\n\r\n")
    return b"".join(head) + body


class _Bounded:
    """What is added to a uvicorn HTTP protocol class (the attributes named here are uvicorn's)."""

    read_timeout: float
    transport: asyncio.Transport
    cycle: Any
    loop: asyncio.AbstractEventLoop
    server_state: Any

    def connection_made(self, transport: asyncio.Transport) -> None:
        self._head_timer: asyncio.TimerHandle | None = None
        self._partial = False
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]

    def data_received(self, data: bytes) -> None:
        if self._between_requests():
            self._partial = True
        super().data_received(data)  # type: ignore[misc]
        if not self._between_requests():  # the request's head is complete: the application reads on
            self._disarm()
            self._partial = False
        elif self._head_timer is None and not self.transport.is_closing():
            self._arm()

    def send_400_response(self, msg: str) -> None:  # noqa: ARG002 - uvicorn's fixed text, not used
        """The parser refused the bytes: the JSON error body (``msg`` is uvicorn's fixed text), unless a
        response has started, which the connection's close then cuts short."""
        self._disarm()
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            if cycle.response_started:
                self.transport.close()
                return
            cycle.disconnected = True  # the application, reading the body, sees the client gone
            cycle.message_event.set()
        error = ApiError(
            400, "bad_request", "malformed HTTP request: its request line, a header or the body's framing"
        )
        self.transport.write(error_response_bytes(error, self.server_state.default_headers))
        self.transport.close()

    def _between_requests(self) -> bool:
        return self.cycle is None or bool(self.cycle.response_complete)

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.read_timeout, self._expired)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _expired(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or not self._between_requests():
            return
        if self._partial:
            _LOG.warning("a request's head did not arrive within %g s; answered 408", self.read_timeout)
            error = ApiError(
                408,
                "read_timeout",
                f"the request line and headers did not arrive within {self.read_timeout:g} s",
            )
            self.transport.write(error_response_bytes(error, self.server_state.default_headers))
        self.transport.close()


def bounded_protocol(read_timeout: float, parser: str = "auto") -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class with the bounds above: ``parser`` ``"httptools"``, ``"h11"``, or
    ``"auto"`` (httptools when installed, as uvicorn chooses, else h11)."""
    if parser not in ("auto", "httptools", "h11"):
        raise ValueError(f"parser must be auto, httptools or h11, got {parser!r}")
    base: type[asyncio.Protocol]
    if parser != "h11" and importlib.util.find_spec("httptools") is not None:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol  # noqa: PLC0415

        base = HttpToolsProtocol
    elif parser == "httptools":
        raise ValueError("parser httptools needs the httptools package (uvicorn[standard])")
    else:
        from uvicorn.protocols.http.h11_impl import H11Protocol  # noqa: PLC0415

        base = H11Protocol
    return type("BoundedHTTPProtocol", (_Bounded, base), {"read_timeout": read_timeout})


def __dir__() -> list[str]:
    return list(__all__)
