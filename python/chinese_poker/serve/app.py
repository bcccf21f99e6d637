"""The ASGI application (Starlette): routes, the body limit, error bodies. Batch endpoints run in a worker
thread (``run_in_threadpool``) so that a long batch never stalls the event loop; one-round endpoints run on
the loop itself (see ``_posting``).

Each endpoint is a plain function of ``serve.settling``, ``serve.hands`` or ``serve.info`` (bytes and query
in, a ``Reply`` out, ``ApiError`` for what it refuses); this module only carries requests to them.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from functools import partial
from importlib import resources
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route

from chinese_poker.cli.common import dumps
from chinese_poker.serve import hands, info, ofc, settling, verify
from chinese_poker.serve.bodies import JSON, Reply, query_params
from chinese_poker.serve.config import Limits
from chinese_poker.serve.errors import ApiError, error_body
from chinese_poker.serve.openapi import openapi_document

__all__ = ["create_app"]

_LOG = logging.getLogger("chinese_poker.serve")

#: The page's files (``GET /`` and ``GET /static/NAME``), and their media types.
_PAGE_FILES = {
    "index.html": "text/html; charset=utf-8",
    "page.js": "text/javascript; charset=utf-8",
    "page.css": "text/css; charset=utf-8",
}
#: The page loads nothing from elsewhere.
_PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
}

Handler = Callable[[Request], Awaitable[Reply]]


def _error_response(error: ApiError) -> Response:
    return Response(error_body(error), status_code=error.status, media_type=JSON, headers=error.headers)


async def _read_body(request: Request, limits: Limits) -> bytes:
    """The request body, refused with 413 as soon as it is known to exceed ``limits.max_body_bytes`` (by
    its ``Content-Length``, or while it streams in), and with 408 (closing the connection) when it has
    not all arrived within ``limits.read_timeout`` seconds: a body cut short of its ``Content-Length``
    would otherwise hold the connection for ever."""
    limit = limits.max_body_bytes
    declared = request.headers.get("content-length")
    if declared is not None:
        if not (declared.isascii() and declared.isdigit()):
            raise ApiError(400, "bad_request", f"Content-Length must be a number, got {declared!r}")
        if int(declared) > limit:
            raise ApiError(413, "body_too_large", f"the body exceeds {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        with anyio.fail_after(limits.read_timeout):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise ApiError(413, "body_too_large", f"the body exceeds {limit} bytes")
                chunks.append(chunk)
    except TimeoutError:
        expected = f" of the {declared} declared" if declared is not None else ""
        raise ApiError(
            408,
            "read_timeout",
            f"the body did not arrive within {limits.read_timeout:g} s ({size} bytes{expected} received)",
            headers={"Connection": "close"},
        ) from None
    except ClientDisconnect:  # nobody reads the answer; it is not an error of the service
        raise ApiError(
            400, "client_disconnected", "the client closed the connection before the body arrived"
        ) from None
    return b"".join(chunks)


def _endpoint(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """``handler`` answering with its ``Reply``, or the JSON error body of an ``ApiError``; anything else
    is logged and answered 500 with a JSON body and no traceback (a defect: the tests look for it)."""

    async def endpoint(request: Request) -> Response:
        try:
            reply = await handler(request)
        except ApiError as error:
            return _error_response(error)
        except Exception:
            _LOG.exception("unexpected error in %s %s", request.method, request.url.path)
            return _error_response(ApiError(500, "internal_error", "internal error"))
        return Response(reply.body, media_type=reply.media_type)

    return endpoint


def _posting(
    limits: Limits,
    work: Callable[..., Reply],
    params: tuple[str, ...] = (),
    *,
    required: Mapping[str, str] | None = None,
    query: bool = True,
    inline: bool = False,
) -> Handler:
    """A POST handler: the query (only ``params``, with every one of ``required``) and the body (within
    the limit) go to ``work``, in a worker thread, or with ``inline`` on the event loop; without
    ``query``, ``work`` takes the body alone. One round is about a millisecond of Python that holds the GIL
    wherever it runs: in a thread it gains nothing, and concurrent requests then queue behind GIL
    hand-offs (measured: 8 clients fell from about 700 to 170 requests/s). Batches, whose core calls
    release the GIL, go to threads so a long one never stalls the loop."""

    async def handler(request: Request) -> Reply:
        given = query_params(request.query_params.multi_items(), params, required)
        body = await _read_body(request, limits)
        arguments = (body, given, limits) if query else (body,)
        if inline:
            return work(*arguments)
        return await run_in_threadpool(work, *arguments)

    return handler


def _getting(work: Callable[..., Reply], *args: Any) -> Handler:
    """A GET handler that calls no core (health, version, presets) and takes no query parameters:
    answered on the event loop, so health answers even while every worker thread is busy."""

    async def handler(request: Request) -> Reply:
        query_params(request.query_params.multi_items(), ())
        return work(*args)

    return handler


def _page_file(name: str) -> bytes:
    return resources.files("chinese_poker.serve").joinpath("static", name).read_bytes()


def _page(files: dict[str, bytes], name: str) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(_request: Request) -> Response:
        return Response(files[name], media_type=_PAGE_FILES[name], headers=_PAGE_HEADERS)

    return endpoint


async def _http_error(request: Request, error: Exception) -> Response:
    """Starlette's own refusals (no such path, wrong method) as the service's JSON error bodies."""
    assert isinstance(error, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "bad_request")
    message = {404: f"no such path: {request.url.path}", 405: f"{request.method} is not allowed here"}
    failure = ApiError(error.status_code, code, message.get(error.status_code, str(error.detail)))
    response = _error_response(failure)
    if error.headers:
        response.headers.update(error.headers)
    return response


def create_app(limits: Limits | None = None) -> Starlette:
    """The service's ASGI application under ``limits`` (default: ``Limits.from_env()``, which is how the
    ``--workers`` processes of ``chinese-poker serve`` receive the command's limits)."""
    limits = limits if limits is not None else Limits.from_env()
    files = {name: _page_file(name) for name in _PAGE_FILES}
    openapi = (dumps(openapi_document(), 2) + "\n").encode("utf-8")

    async def preset(request: Request) -> Reply:
        query_params(request.query_params.multi_items(), ())
        return await run_in_threadpool(info.preset_rules, request.path_params["name"])

    async def deal(request: Request) -> Reply:
        query = query_params(request.query_params.multi_items(), info.DEAL_PARAMS)
        return await run_in_threadpool(info.deal, query)

    packed = {"players": f"the number of players of every round, 2 to {limits.max_players}"}
    post = partial(_posting, limits)

    routes = [
        Route("/", _page(files, "index.html"), methods=["GET"]),
        *(Route(f"/static/{name}", _page(files, name), methods=["GET"]) for name in _PAGE_FILES),
        Route(
            "/v1/settle",
            _endpoint(post(settling.settle_one, settling.ONE_PARAMS, inline=True)),
            methods=["POST"],
        ),
        Route(
            "/v1/settle/batch",
            _endpoint(post(settling.settle_lines, settling.BATCH_PARAMS)),
            methods=["POST"],
        ),
        Route(
            "/v1/settle/packed",
            _endpoint(post(settling.settle_packed, settling.PACKED_PARAMS, required=packed)),
            methods=["POST"],
        ),
        Route("/v1/check", _endpoint(post(hands.check_one, query=False, inline=True)), methods=["POST"]),
        Route("/v1/arrange", _endpoint(post(hands.arrange_one, query=False)), methods=["POST"]),
        Route("/v1/suggest", _endpoint(post(hands.suggest_one, query=False)), methods=["POST"]),
        Route("/v1/ofc/advise", _endpoint(post(ofc.advise_one, query=False)), methods=["POST"]),
        Route("/v1/ofc/fantasyland", _endpoint(post(ofc.fantasyland_one, query=False)), methods=["POST"]),
        Route("/v1/verify", _endpoint(post(verify.verify_one, inline=True)), methods=["POST"]),
        Route("/v1/deal", _endpoint(deal), methods=["GET"]),
        Route("/v1/rules", _endpoint(_getting(info.presets)), methods=["GET"]),
        Route("/v1/rules/{name}", _endpoint(preset), methods=["GET"]),
        Route("/v1/version", _endpoint(_getting(partial(info.version, limits))), methods=["GET"]),
        Route("/v1/health", _endpoint(_getting(info.health)), methods=["GET"]),
        Route("/v1/openapi.json", _endpoint(_getting(Reply, openapi)), methods=["GET"]),
    ]
    return Starlette(routes=routes, exception_handlers={HTTPException: _http_error})


def __dir__() -> list[str]:
    return list(__all__)
