"""Hostile input against every endpoint of the service: random bytes, truncated JSON, huge numbers, deep
nesting, wrong types and mutated rounds. Every answer is a 4xx with a JSON error body (never a 500, never a
traceback), and the service still answers health afterwards. Seeded: the same inputs every run."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from chinese_poker.serve import Limits, create_app
from starlette.testclient import TestClient

ROUND: dict[str, Any] = {
    "id": "r",
    "rules": "pagat-bonus",
    "players": [
        {"name": "North", "front": "Ts Th Qs", "middle": "6s 5s 4s 3s 2h", "back": "Ks Kh Kd 3h 3d"},
        {"name": "East", "front": "Ac Kc 7s", "middle": "Td Tc 9s 8s 6c", "back": "Jh Jd Jc 7h 7d"},
    ],
    "stakes": [[1, 2], [2, 1]],
}
CHECK: dict[str, Any] = {"front": "Qs Qh 7s", "middle": "Qd Qc 6h 5d 4c", "back": "Ks Kh Kd 3h 3d"}
ARRANGE: dict[str, Any] = {"cards": "As Ks Qs Js Ts 9h 9d 9c 2c 2d 7h 5s 3d", "strategy": "expected"}

#: Every POST endpoint and a valid body for it (mutated below).
POSTS: dict[str, Any] = {
    "/v1/settle": ROUND,
    "/v1/settle/batch": ROUND,
    "/v1/check": CHECK,
    "/v1/arrange": ARRANGE,
}
GETS = ["/v1/deal", "/v1/rules/pagat", "/v1/version", "/v1/health", "/v1/rules", "/v1/openapi.json"]

WEIRD_VALUES: list[Any] = [
    None,
    True,
    0,
    -1,
    10**30,
    1e308,
    -0.0,
    "",
    " ",
    "\u0000",
    "\ud800",
    "As" * 1000,
    [],
    [[]],
    {},
    {"": {}},
    [None] * 13,
    list(range(60)),
    [-1] * 13,
    [52] * 13,
    ["As"] * 13,
    "As Ks Qs Js Ts 9h 9d 9c 2c 2d 7h 5s 3d 4d",
    {"preset": "pagat", "royalties": {"front": {"full_house": 10**20}}},
    {"naturals": [["dragon", -5]]},
]


def _client() -> TestClient:
    return TestClient(
        create_app(Limits(max_body_bytes=1 << 20, max_rounds=50)), raise_server_exceptions=False
    )


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into a JSON value (keys and indices), so each can be replaced."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    out = copy.deepcopy(value)
    target = out
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return out


def _encode(path: str, data: Any) -> bytes:
    text = json.dumps(data, ensure_ascii=False) if not isinstance(data, bytes) else None
    if text is None:
        return data  # type: ignore[no-any-return]
    if path.endswith("/batch"):
        text += "\n"
    return text.encode("utf-8", "surrogatepass")


def _bodies(path: str, valid: Any, rng: random.Random) -> Iterator[bytes]:
    text = _encode(path, valid)
    for cut in range(0, len(text), 7):  # truncated JSON
        if cut and text[:cut].strip():
            yield text[:cut]
    for _ in range(40):  # random bytes
        yield bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    for _ in range(40):  # a few bytes flipped in a valid body
        body = bytearray(text)
        for _ in range(rng.randrange(1, 4)):
            body[rng.randrange(len(body))] = rng.randrange(256)
        yield bytes(body)
    yield b"[" * 100_000 + b"]" * 100_000  # deep nesting
    yield b'{"id": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"
    yield b'{"players": ' + b'{"a":' * 20_000 + b"1" + b"}" * 20_000 + b"}"
    yield b'{"id": ' + b"9" * 5000 + b"}"  # past the int-conversion digit limit
    yield b'{"id": 1e99999, "players": [1e400, -1e400]}'
    yield b'{"id": NaN, "players": [Infinity, -Infinity]}'
    yield b"\xef\xbb\xbf" + text  # a byte order mark is fine, but the rest must still be checked
    yield b"\xff\xfe" + text.decode("utf-8", "ignore").encode("utf-16-le")
    yield b"null"
    yield b'"a string"'
    yield b"12345"
    yield b"{}" + b"\n{}" * 60  # more rounds than allowed (batch), trailing data (others)
    for item in _paths(valid):  # wrong types everywhere
        for new in rng.sample(WEIRD_VALUES, 6):
            yield _encode(path, _replaced(valid, item, new))


def _assert_json_4xx(answer: Any, what: str) -> None:
    assert 400 <= answer.status_code < 500, (what, answer.status_code, answer.content[:300])
    data = answer.json()
    error = data["error"]
    assert error["status"] == answer.status_code
    assert isinstance(error["message"], str)
    assert error["message"]
    assert "Traceback" not in answer.text
    assert "\n" not in error["message"]


@pytest.mark.parametrize("path", sorted(POSTS))
def test_every_post_endpoint_answers_hostile_bodies_with_a_4xx(path: str) -> None:
    client = _client()
    rng = random.Random(f"fuzz {path}")
    seen = 0
    for body in _bodies(path, POSTS[path], rng):
        answer = client.post(path, content=body)
        if answer.status_code == 200:  # a mutation that is still a valid request
            assert answer.content
            continue
        _assert_json_4xx(answer, f"{path} {body[:80]!r}")
        seen += 1
    assert seen > 100
    assert client.get("/v1/health").json() == {"status": "ok"}


def test_hostile_queries_paths_and_methods() -> None:
    client = _client()
    rng = random.Random("queries")
    values = ["", "x", "-1", "99999999999999999999999999", "1e3", "%ff", "\u00e9", "true", "5", "pagat\u0000"]
    for path in ["/v1/settle", "/v1/settle/batch", "/v1/settle/packed"]:
        for key in ("rules", "explain", "players"):
            for value in values:
                answer = client.post(path, params={key: value}, content=json.dumps(ROUND).encode())
                if answer.status_code != 200:
                    _assert_json_4xx(answer, f"{path}?{key}={value!r}")
    for key in ("players", "seed", "rules"):
        for value in values:
            answer = client.get("/v1/deal", params={key: value})
            if answer.status_code != 200:
                _assert_json_4xx(answer, f"/v1/deal?{key}={value!r}")
    for name in ["nope", "%00", "..%2f..%2fetc%2fpasswd", "a" * 5000, "pagat%20"]:
        _assert_json_4xx(client.get(f"/v1/rules/{name}"), name)
    for _ in range(50):
        junk = "".join(rng.choice("abc/%._-~") for _ in range(rng.randrange(1, 40)))
        answer = client.get(f"/v1/{junk}")
        if answer.status_code != 200:
            _assert_json_4xx(answer, junk)
    for path in [*POSTS, *GETS]:
        for method in ("PUT", "DELETE", "PATCH"):
            _assert_json_4xx(client.request(method, path), f"{method} {path}")
    for path in GETS:
        _assert_json_4xx(client.post(path, content=b"{}"), f"POST {path}")
    for path in POSTS:
        _assert_json_4xx(client.get(path), f"GET {path}")
    for length in ("abc", "-5", "99999999999999999999"):
        answer = client.post("/v1/settle", content=b"{}", headers={"content-length": length})
        _assert_json_4xx(answer, f"Content-Length {length}")
    assert client.get("/v1/health").json() == {"status": "ok"}


def test_packed_bodies() -> None:
    client = _client()
    rng = random.Random("packed")
    for _ in range(60):
        body = bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 25, 26, 39, 52, 520, 999])))
        players = rng.choice(["2", "3", "4"])
        answer = client.post(f"/v1/settle/packed?players={players}", content=body)
        if answer.status_code != 200:
            _assert_json_4xx(answer, f"packed {len(body)} bytes")
    deck = list(range(52))
    rng.shuffle(deck)
    good = client.post("/v1/settle/packed?players=4", content=bytes(deck))
    assert good.status_code == 200
    assert len(good.content) == 32
    assert client.get("/v1/health").json() == {"status": "ok"}
