"""The net output (docs/JSON_FORMAT.md 2.1) of ``score --output net`` and of ``POST
/v1/settle/batch?output=net``, and the core's fast path behind the endpoint: known nets (RULES.md's E2),
the same bytes as the command line, the same answer (bytes and status, errors included) as the general
path for random and subtly broken batches, and the limits."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from chinese_poker import _core
from chinese_poker.cards import parse_card
from chinese_poker.cli import main
from chinese_poker.rules import Rules, core_spec
from chinese_poker.serve import Limits, create_app
from chinese_poker.serve.errors import ApiError, error_body
from chinese_poker.serve.settling import settle_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

E2_PLAYERS = [
    {"name": "North", "front": "Ts Th Qs", "middle": "6s 5s 4s 3s 2h", "back": "Ks Kh Kd 3h 3d"},
    {"name": "East", "front": "Ac Kc 7s", "middle": "Td Tc 9s 8s 6c", "back": "Jh Jd Jc 7h 7d"},
    {"name": "South", "front": "Qd Qc 2c", "middle": "8h 7c 6d 5c 4c", "back": "9h 9d 9c 8d 8c"},
    {"name": "West", "front": "Qh Js 6h", "middle": "5h 5d 4h 4d 3c", "back": "As Ah Ad 2s 2d"},
]
ROWS = ("front", "middle", "back")


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Limits()), raise_server_exceptions=False)


def answer(body: bytes, query: dict[str, str], limits: Limits, *, fast: bool) -> tuple[int, bytes]:
    """What the batch endpoint answers (status and body), by the fast path or the general one only."""
    try:
        return 200, settle_lines(body, query, limits, fast=fast).body
    except ApiError as error:
        return error.status, error_body(error)


def codes_round(players: list[dict[str, Any]], rid: object = None) -> dict[str, Any]:
    """The round with every row as a list of card codes."""
    rows = [{row: [parse_card(c) for c in player[row].split()] for row in ROWS} for player in players]
    return {"players": rows} if rid is None else {"id": rid, "players": rows}


# ----- known values -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "net"),
    [("pagat", [3, -5, 3, -1]), ("wikipedia-2-4", [4, -8, 6, -2]), ("shisanzhang-hk", [6, -8, 3, -1])],
)
def test_e2_nets_through_the_fast_path(client: TestClient, preset: str, net: list[int]) -> None:
    """RULES.md's E2 (North, East, South, West): its nets under three presets, as text cards with names,
    as codes without, with and without an id."""
    lines = [
        json.dumps({"id": "e2", "players": E2_PLAYERS}),
        json.dumps(codes_round(E2_PLAYERS, -7)),
        json.dumps(codes_round(E2_PLAYERS)),
    ]
    body = ("\n".join(lines) + "\n").encode()
    assert _core.settle_net_lines(body, core_spec(Rules.preset(preset)), 10, 6) is not None  # the fast path
    reply = client.post(f"/v1/settle/batch?output=net&rules={preset}", content=body)
    assert reply.status_code == 200
    assert reply.headers["content-type"] == "application/x-ndjson"
    text = json.dumps(net, separators=(",", ":"))
    assert (
        reply.content
        == f'{{"id":"e2","net":{text}}}\n{{"id":-7,"net":{text}}}\n{{"id":3,"net":{text}}}\n'.encode()
    )
    assert answer(body, {"output": "net", "rules": preset}, Limits(), fast=False) == (200, reply.content)


def test_read_round_lines_gives_the_codes_and_ids() -> None:
    body = (
        json.dumps({"id": "e2", "players": E2_PLAYERS}) + "\n\n" + json.dumps(codes_round(E2_PLAYERS))
    ).encode()
    read = _core.read_round_lines(body, 10, 6)
    assert read is not None
    cards, ids, more = read
    want = [[parse_card(c) for row in ROWS for c in player[row].split()] for player in E2_PLAYERS]
    assert cards.dtype == np.uint8
    assert cards.tolist() == [want, want]
    assert ids == ["e2", 2]  # the second round's position (the blank line is not a round)
    assert more is False
    first = _core.read_round_lines(body, 1, 6)
    assert first is not None
    assert first[0].tolist() == [want]
    assert first[1:] == (["e2"], True)
    assert _core.read_round_lines(body, 10, 3) is None  # four players past a limit of three
    assert _core.read_round_lines(b'{"players": []}', 10, 6) is None


def test_the_full_output_stays_the_default(client: TestClient) -> None:
    body = json.dumps({"id": "e2", "players": E2_PLAYERS}).encode()
    full = client.post("/v1/settle/batch", content=body)
    also_full = client.post("/v1/settle/batch?output=full", content=body)
    assert full.status_code == 200
    assert full.content == also_full.content
    assert json.loads(full.content)["net"] == [3, -5, 3, -1]
    assert "pairs" in json.loads(full.content)


def test_bad_output_queries(client: TestClient) -> None:
    body = json.dumps({"id": "e2", "players": E2_PLAYERS}).encode()
    reply = client.post("/v1/settle/batch?output=nett", content=body)
    assert reply.status_code == 422
    assert reply.json()["error"]["message"] == "output must be full or net, got 'nett' (did you mean 'net'?)"
    reply = client.post("/v1/settle/batch?output=net&explain=true", content=body)
    assert reply.status_code == 422
    assert "explain=true needs output=full" in reply.json()["error"]["message"]


# ----- the command line writes the same bytes ---------------------------------------------------------------


def test_score_output_net_gives_the_service_bytes(client: TestClient, tmp_path: Path) -> None:
    """Rounds of the fast path's shape and of others (per-round rules, a declared natural, stakes): the same
    bytes from ``score --output net`` and from the endpoint (each of its paths)."""
    simple = [json.dumps({"id": k, "players": E2_PLAYERS[: 2 + k % 3]}) for k in range(3)]
    other = [
        json.dumps({"id": "bonus", "rules": "pagat-bonus", "players": E2_PLAYERS}),
        json.dumps(
            {"players": E2_PLAYERS, "stakes": [[1, 2, 1, 1], [2, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]}
        ),
        json.dumps({"id": "noted", "note": "metadata, never read", "players": E2_PLAYERS}),
    ]
    path = tmp_path / "rounds.jsonl"
    for name, lines in [("simple", simple[:1]), ("mixed", simple + other)]:
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "chinese_poker",
                "score",
                str(path),
                "--format",
                "jsonl",
                "--output",
                "net",
            ],
            capture_output=True,
            check=True,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        )
        body = path.read_bytes()
        reply = client.post("/v1/settle/batch?output=net", content=body)
        assert reply.status_code == 200, name
        assert reply.content == done.stdout, name
        assert answer(body, {"output": "net"}, Limits(), fast=False) == (200, done.stdout)
        # Every net line is the full output's id and net.
        full = client.post("/v1/settle/batch", content=body).content.decode().splitlines()
        nets = [json.loads(line) for line in done.stdout.decode().splitlines()]
        assert nets == [{"id": json.loads(line)["id"], "net": json.loads(line)["net"]} for line in full]


def test_score_output_net_refuses_table_and_explain(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"players": E2_PLAYERS}) + "\n", encoding="utf-8")
    refusals = [
        ((), "--output net needs --format json or jsonl"),
        (("--format", "jsonl", "--explain"), "--explain needs --output full"),
    ]
    for extra, message in refusals:
        done = subprocess.run(
            [sys.executable, "-m", "chinese_poker", "score", str(path), "--output", "net", *extra],
            capture_output=True,
            check=False,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        )
        assert done.returncode == 2
        assert message in done.stderr.decode()
    done = subprocess.run(
        [sys.executable, "-m", "chinese_poker", "score", str(path), "--output", "net", "--format", "json"],
        capture_output=True,
        check=True,
    )
    assert json.loads(done.stdout) == [{"id": 1, "net": [3, -5, 3, -1]}]


# ----- the limits behave as on the general path -------------------------------------------------------------


def test_limits_on_the_fast_path() -> None:
    line = json.dumps(codes_round(E2_PLAYERS[:2])) + "\n"
    body = (line * 4).encode()
    for limits in [Limits(max_rounds=3), Limits(max_rounds=4), Limits(max_players=2), Limits(max_players=3)]:
        fast = answer(body, {"output": "net"}, limits, fast=True)
        assert fast == answer(body, {"output": "net"}, limits, fast=False)
    assert answer(body, {"output": "net"}, Limits(max_rounds=3), fast=True)[0] == 413
    # A bad line past the limit: still 413 (the general path counts before it reads a line).
    assert answer(body + b"{bad\n", {"output": "net"}, Limits(max_rounds=4), fast=True)[0] == 413
    # A bad line before it: its own error, from the general path.
    status, text = answer(b"{bad\n" + body, {"output": "net"}, Limits(max_rounds=4), fast=True)
    assert status == 400
    assert json.loads(text)["error"]["round"] == 0
    four = (json.dumps(codes_round(E2_PLAYERS)) + "\n").encode()
    status, text = answer(four, {"output": "net"}, Limits(max_players=3), fast=True)
    assert status == 422
    assert "at most 3 players, got 4" in json.loads(text)["error"]["message"]


# ----- the fast path and the general path answer alike ------------------------------------------------------

_PRESETS = ("pagat", "pagat-bonus", "shisanshui-app", "shisanzhang-hk", "shisanshui-puxian-ghost", "ofc")


@st.composite
def round_objects(draw: st.DrawFn, players: int) -> dict[str, Any]:
    """A round of ``players`` hands dealt from a shuffled deck, each row as codes, card strings or text,
    laid as dealt or sorted (so mostly legal, sometimes fouled, sometimes a natural)."""
    deck = draw(st.permutations(range(52)))
    round_players = []
    for k in range(players):
        cards = list(deck[13 * k : 13 * k + 13])
        if draw(st.booleans()):
            cards.sort()
        player: dict[str, Any] = {}
        for row, start, size in [("front", 0, 3), ("middle", 3, 5), ("back", 8, 5)]:
            codes = cards[start : start + size]
            form = draw(st.sampled_from(["codes", "strings", "text", "text10"]))
            texts = [_core.format_card(c) for c in codes]
            if form == "codes":
                player[row] = codes
            elif form == "strings":
                player[row] = texts
            elif form == "text":
                player[row] = " ".join(texts)
            else:
                player[row] = ",".join(t.replace("T", "10").lower() for t in texts)
        if draw(st.integers(0, 3)) == 0:
            player["name"] = draw(st.sampled_from(["Ann", "Bo", "P1", "P2", "Ann Lee", " x"]))
        round_players.append(player)
    data: dict[str, Any] = {"players": round_players}
    rid = draw(st.one_of(st.none(), st.integers(-(2**63), 2**63 - 1), st.text("abz -/_.:09", max_size=8)))
    if rid is not None:
        data["id"] = rid
    return data


_MUTATIONS = (
    "none", "unknown key", "metadata key", "id escape", "id unicode", "big id", "float id", "id twice",
    "duplicate card", "short row", "long row", "code 52", "joker", "bad card", "rules", "stakes",
    "declared", "surrender", "truncated", "nested", "name escape", "empty name", "card escape", "null id",
)  # fmt: skip


def mutate(data: dict[str, Any], how: str, pick: int) -> str:
    """The round's JSON line, changed in one way (most of them make it an error, some are only a shape
    the fast path leaves to the general one)."""
    data = copy.deepcopy(data)
    player = data["players"][pick % len(data["players"])]
    other = data["players"][(pick + 1) % len(data["players"])]
    if how == "unknown key":
        data["idd"] = 1
    elif how == "metadata key":
        data["note"] = "kept, never read"
    elif how == "id escape":
        data["id"] = 'a"b\\c'
    elif how == "id unicode":
        data["id"] = "r\u00e9\u20ac"
    elif how == "big id":
        data["id"] = [2**63, -(2**63) - 1, 10**30][pick % 3]
    elif how == "float id":
        data["id"] = 1.5
    elif how == "null id":
        data["id"] = None
    elif how == "duplicate card":
        held = _core.parse_cards(other["back"]) if other is not player else _core.parse_cards(player["back"])
        player["front"] = [held[pick % 5], *_core.parse_cards(player["front"])[1:]]
    elif how in ("short row", "long row"):
        cards = list(_core.parse_cards(player["middle"]))
        player["middle"] = cards[:4] if how == "short row" else [*cards, cards[0]]
    elif how == "code 52":
        player["front"] = [52, 0, 1]
    elif how == "joker":
        player["front"] = "X1 2c 2d" if pick % 2 else "\U0001f0cf 2c 2d"
    elif how == "bad card":
        player["back"] = "Zz 2c 2d 2h 2s"
    elif how == "rules":
        data["rules"] = "pagat-bonus"
    elif how == "stakes":
        data["stakes"] = None
    elif how == "declared":
        player["declare_natural"] = False
    elif how == "surrender":
        player["surrender"] = False
    elif how == "name escape":
        player["name"] = "tab\there"
    elif how == "empty name":
        player["name"] = ""
    elif how == "card escape":
        player["front"] = "\\u0041s" if pick % 2 else "A\u2660 Kc 2d"
    elif how == "nested":
        data["players"] = [data["players"]]
    text = json.dumps(data, ensure_ascii=pick % 2 == 0)
    if how == "id twice":
        text = '{"id": 1, ' + text[1:]
    if how == "truncated":
        text = text[: len(text) // 2]
    return text


def spaced(text: str, style: int) -> str:
    """The same JSON with other white space between tokens (JSON's own, or none)."""
    if style == 1:
        return json.dumps(json.loads(text), separators=(",", ":"))
    if style == 2:
        return json.dumps(json.loads(text), indent=None, separators=(" ,\t", " :\r ")) + " \r"
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    rounds=st.lists(
        st.tuples(
            st.integers(0, 3), st.one_of(st.just("none"), st.sampled_from(_MUTATIONS)), st.integers(0, 5)
        ),
        min_size=1,
        max_size=6,
    ),
    base=st.data(),
    preset=st.sampled_from(_PRESETS),
    query_rules=st.booleans(),
    separators=st.sampled_from(["\n", "\r\n", "\n\n", "\n \x0b\n"]),
    bom=st.booleans(),
    limits=st.sampled_from([Limits(), Limits(max_rounds=2), Limits(max_players=3)]),
)
def test_fast_and_general_paths_answer_alike(
    *,
    players: int,
    rounds: list[tuple[int, str, int]],
    base: st.DataObject,
    preset: str,
    query_rules: bool,
    separators: str,
    bom: bool,
    limits: Limits,
) -> None:
    lines = []
    for extra, how, pick in rounds:
        # Mostly the batch's player count; sometimes one more or less (the fast path wants one count).
        count = players if extra else min(4, max(2, players - 1 + pick % 3))
        data = base.draw(round_objects(count))
        text = mutate(data, how, pick)
        if how != "truncated":
            text = spaced(text, pick % 3)
        lines.append(text)
    body = (
        (b"\xef\xbb\xbf" if bom else b"") + separators.join(lines).encode("utf-8", "surrogatepass")
    ) + b"\n"
    query = {"output": "net", **({"rules": preset} if query_rules else {})}
    fast = answer(body, query, limits, fast=True)
    general = answer(body, query, limits, fast=False)
    assert fast == general


def test_the_property_test_meets_the_fast_path() -> None:
    """The generated batches above are not all left to the general path: a clean one is read by the core."""
    high = {"front": [39, 40, 41], "middle": [42, 43, 44, 45, 46], "back": [47, 48, 49, 50, 51]}
    data = {"id": "x", "players": [{"name": "Bo", "front": [0, 1, 2], "middle": "2s,3c 3d 3h 3s",
            "back": ["4c", "4d", "4h", "4s", "5c"]}, high]}  # fmt: skip
    for style in range(3):
        body = (spaced(json.dumps(data), style) + "\r\n").encode()
        assert _core.read_round_lines(body, 10, 6) is not None, style
        assert answer(body, {"output": "net"}, Limits(), fast=True) == answer(
            body, {"output": "net"}, Limits(), fast=False
        )


def test_score_output_net_fast_path_on_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``score --output net`` reads a JSON Lines file through the core (mixed player counts included): the
    same bytes as the rounds read one by one by the general path (``run(..., fast=False)``)."""
    import functools  # noqa: PLC0415

    from chinese_poker.cli import score  # noqa: PLC0415

    calls: list[int] = []
    original = _core.NetChunkWriter

    class Counted:
        def __init__(self, *args: Any) -> None:
            self.writer = original(*args)

        def write(self, chunk: bytes, position: int) -> Any:
            answer = self.writer.write(chunk, position)
            calls.append(len(answer[2]))  # the rounds left to the general path
            return answer

    monkeypatch.setattr(_core, "NetChunkWriter", Counted)
    path = tmp_path / "rounds.jsonl"
    lines = [json.dumps({"id": f"t{k}", "players": E2_PLAYERS[: 2 + k % 3]}) for k in range(3)]
    path.write_text("\n".join(lines[:1] * 3) + "\n\n" + json.dumps(codes_round(E2_PLAYERS[:2])) + "\n")
    run = score.run
    for rules in ([], ["--rules", "wikipedia-2-4"]):
        outputs = []
        for fast in (True, False):
            monkeypatch.setattr(score, "run", functools.partial(run, fast=fast))
            assert main(["score", str(path), "--format", "jsonl", "--output", "net", *rules]) == 0
            outputs.append(capsys.readouterr().out)
        assert outputs[0] == outputs[1]
        assert calls.pop() == 0  # the fast run left no round to the general path; the other never called it
        assert calls == []
    assert outputs[0].splitlines()[-1] == '{"id":4,"net":[4,-4]}'  # wikipedia-2-4: North scoops East
    # A file of mixed player counts is read by the core too.
    monkeypatch.setattr(score, "run", run)
    path.write_text("\n".join(lines) + "\n")
    assert main(["score", str(path), "--format", "jsonl", "--output", "net"]) == 0
    assert calls == [0]
    assert [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()] == ["t0", "t1", "t2"]
