"""Settlement receipts and the audit of a log (``chinese_poker.receipts``, ``chinese_poker.audit``,
``chinese-poker score --receipts``, ``chinese-poker audit``, the service's ``?receipt=true`` and
``POST /v1/verify``; docs/FAIR.md): the canonical encoding, every field of a receipt tampered with in turn,
compact replay of dealt rounds, and bad input."""

from __future__ import annotations

import copy
import hashlib
import hmac
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chinese_poker as cp
import jsonschema
import pytest
from chinese_poker import fair
from chinese_poker.audit import audit_record
from chinese_poker.cards import format_card
from chinese_poker.cli import main
from chinese_poker.formats.rounds import (
    ENGINE,
    RoundError,
    load_schema,
    parse_round,
    round_output,
    settle_round,
)
from chinese_poker.receipts import canonical_bytes, check_receipt, receipt_differences
from chinese_poker.serve import Limits, create_app
from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[1]
KEY = b"a-server-key-of-32-bytes-0123456"
NORTH = {"name": "North", "front": "Ts Th Qs", "middle": "6s 5s 4s 3s 2h", "back": "Ks Kh Kd 3h 3d"}
EAST = {"name": "East", "front": "Ac Kc 7s", "middle": "Td Tc 9s 8s 6c", "back": "Jh Jd Jc 7h 7d"}
SOUTH = {"name": "South", "front": "Qd Qc 2c", "middle": "8h 7c 6d 5c 4c", "back": "9h 9d 9c 8d 8c"}
WEST = {"name": "West", "front": "Qh Js 6h", "middle": "5h 5d 4h 4d 3c", "back": "As Ah Ad 2s 2d"}
SEED = bytes(range(32))
CLIENTS = [b"alice", b"bob"]


def settled(data: dict[str, Any]) -> cp.Settlement:
    return settle_round(parse_round(data))


def two_player(**extra: Any) -> dict[str, Any]:
    return {"id": "r1", "rules": "pagat", "players": [dict(NORTH), dict(EAST)], **extra}


def four_player(**extra: Any) -> dict[str, Any]:
    return {"id": "r4", "rules": "wikipedia-1-6", "players": [dict(p) for p in (NORTH, EAST, SOUTH, WEST)],
            "stakes": [[0, 2, 1, 1], [2, 0, 1, 1], [1, 1, 0, 3], [1, 1, 3, 0]], **extra}  # fmt: skip


# ----- the receipt itself --------------------------------------------------------------------------------


def test_receipt_of_the_documented_round() -> None:
    receipt = settled(two_player()).receipt()
    body = {k: v for k, v in receipt.items() if k != "sha256"}
    assert body["hands"][0] == [34, 35, 43, 2, 7, 11, 15, 19, 5, 6, 45, 46, 47]  # Th Ts Qs | 2h 3s .. | ...
    assert body["net"] == [3, -3]
    assert body["pairs"] == [{"i": 0, "j": 1, "decided_by": "rows", "stake": 1, "units": 3}]
    assert body["engine"] == dict(ENGINE)
    assert receipt["sha256"] == hashlib.sha256(canonical_bytes(body)).hexdigest()
    page = (ROOT / "docs" / "FAIR.md").read_text(encoding="utf-8")
    shown = re.search(r"```text\n(\{.*?\})\n```", page, flags=re.DOTALL)
    assert shown is not None
    documented = json.loads(shown.group(1))
    # The page's receipt was made by the release it names; its digest is checked as made by that release.
    assert hashlib.sha256(canonical_bytes(documented)).hexdigest() in page
    documented["engine"]["version"] = ENGINE["version"]
    assert canonical_bytes(documented) == canonical_bytes(body)


def test_equal_rounds_give_the_same_bytes_whatever_their_spelling() -> None:
    spelled = two_player()
    spelled["players"] = [
        {"back": "K♠ K♥ K♦ 3♥ 3♦", "middle": "2h 3s 4s 5s 6s", "front": "qs 10h TS", "name": "North"},
        {
            "name": "East",
            "front": ["Ac", "Kc", "7s"],
            "middle": [33, 32, 31, 27, 16],
            "back": "Jh Jd Jc 7h 7d",
        },
    ]
    assert settled(spelled).receipt() == settled(two_player()).receipt()
    assert settled(spelled).receipt(KEY) == settled(two_player()).receipt(KEY)


def test_different_rounds_give_different_receipts() -> None:
    base = settled(two_player()).receipt()["sha256"]
    other_rules = settled({**two_player(), "rules": "wikipedia-1-6"}).receipt()["sha256"]
    staked = settled(two_player(stakes=[[0, 2], [2, 0]])).receipt()["sha256"]
    swapped = settled({**two_player(), "players": [dict(EAST), dict(NORTH)]}).receipt()["sha256"]
    assert len({base, other_rules, staked, swapped}) == 4


def test_the_hmac_is_over_the_canonical_body() -> None:
    receipt = settled(four_player()).receipt(KEY)
    body = {k: v for k, v in receipt.items() if k not in ("sha256", "hmac_sha256")}
    assert receipt["hmac_sha256"] == hmac.new(KEY, canonical_bytes(body), hashlib.sha256).hexdigest()
    assert check_receipt(receipt, KEY) == []
    assert check_receipt(receipt, b"another-key-of-sixteen") == [
        ("receipt.hmac_sha256", "is not the HMAC of the receipt's contents under the key")
    ]
    with pytest.raises(ValueError, match="at least 16 bytes, got 5"):
        settled(two_player()).receipt(b"short")
    with pytest.raises(TypeError, match="must be bytes, got str"):
        settled(two_player()).receipt("a-text-key-of-20-chars")  # type: ignore[arg-type]


def test_receipts_of_jokers_fantasyland_surrender_and_banker_rounds_audit_clean() -> None:
    rounds = [
        {"rules": {"preset": "pagat", "jokers": 2}, "players": [
            {"front": "X1 Th Qs", "middle": "6s 5s 4s 3s 2h", "back": "Ks Kh Kd 3h 3d"}, dict(EAST)]},
        {"rules": "ofc", "players": [dict(NORTH), dict(EAST)]},
        {"rules": {"preset": "pagat", "surrender_units": 2},
         "players": [dict(NORTH), {**EAST, "surrender": True}]},
        {"rules": "pagat", "players": [dict(p) for p in (NORTH, EAST, SOUTH)], "banker": "East",
         "bets": [2, 1, 3]},
    ]  # fmt: skip
    for data in rounds:
        settlement = settled(data)
        receipt = settlement.receipt(KEY)
        assert audit_record({**data, "receipt": receipt}, "r", KEY) == []
        line = {
            "engine": dict(ENGINE),
            "rules": data["rules"],
            "net": list(settlement.net),
            "receipt": receipt,
        }
        assert audit_record(line, "r", KEY) == []
    assert "joker_cards" in settled(rounds[0]).receipt()
    assert "fantasyland_cards" in settled(rounds[1]).receipt()


# ----- tampering with every field ------------------------------------------------------------------------


def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every scalar inside ``value``."""
    if isinstance(value, dict):
        for key in value:
            yield from leaves(value[key], (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    else:
        yield path


def tampered(receipt: dict[str, Any], path: tuple[Any, ...]) -> dict[str, Any]:
    """``receipt`` with the scalar at ``path`` changed to another value of its kind."""
    copied = copy.deepcopy(receipt)
    holder: Any = copied
    for step in path[:-1]:
        holder = holder[step]
    old = holder[path[-1]]
    if isinstance(old, bool):
        new: Any = not old
    elif isinstance(old, int):
        new = old + 1 if old != 51 else 50
    elif isinstance(old, str):
        new = old[:-1] + ("0" if old[-1] != "0" else "1")
    else:
        new = 1  # null
    holder[path[-1]] = new
    return copied


def rehashed(receipt: dict[str, Any]) -> dict[str, Any]:
    body = {k: v for k, v in receipt.items() if k not in ("sha256", "hmac_sha256")}
    return {**receipt, "sha256": hashlib.sha256(canonical_bytes(body)).hexdigest()}


def test_a_change_to_any_field_of_a_receipt_is_caught() -> None:
    data = four_player()
    receipt = settled(data).receipt(KEY)
    paths = list(leaves(receipt))
    assert len(paths) > 80
    for path in paths:
        changed = tampered(receipt, path)
        # The receipt alone: its sha256 (or, for the hmac, the hmac) no longer matches.
        problems = check_receipt(changed, KEY)
        assert problems, path
        # Re-hashed by someone without the key: the HMAC catches it...
        if path[0] not in ("sha256", "hmac_sha256"):
            assert ("receipt.hmac_sha256", "is not the HMAC of the receipt's contents under the key") in (
                check_receipt(rehashed(changed), KEY)
            ), path
            # ... and without the key the audit's re-settlement names the field.
            found = audit_record({**data, "receipt": rehashed(changed)}, "line 1", None)
            fields = [m.field for m in found]
            assert fields, path
            name = ".".join(str(step) for step in path)
            assert any(name.startswith(f.removeprefix("receipt.").split("[")[0]) for f in fields), (
                path,
                fields,
            )
        # Every audit reports it against the round and exits 1, never silently.
        assert audit_record({**data, "receipt": changed}, "line 1", KEY), path


def test_removed_and_added_fields_are_caught() -> None:
    receipt = settled(two_player()).receipt()
    for name in receipt:
        if name == "sha256":
            continue
        less = rehashed({k: v for k, v in receipt.items() if k != name})
        assert receipt_differences(less, receipt) == [(f"receipt.{name}", "missing")]
    more = rehashed({**receipt, "extra": 1})
    assert receipt_differences(more, receipt) == [
        ("receipt.extra", "is not a field of this engine's receipts")
    ]
    assert check_receipt({k: v for k, v in receipt.items() if k != "sha256"}) == [
        ("receipt.sha256", "missing or not a string")
    ]
    assert check_receipt([1, 2]) == [("receipt", "must be an object, got list")]


# ----- the audit of rounds with deals (compact replay) ---------------------------------------------------


def dealt_round(nonce: int = 0, **extra: Any) -> dict[str, Any]:
    """A two-seat round whose settings use exactly the cards the seeds deal (each seat arranged)."""
    cards = fair.deal(SEED, CLIENTS, nonce, "pagat", 2)
    players = []
    for seat, name in enumerate(("alice", "bob")):
        setting = cp.arrange([int(c) for c in cards[seat]], "pagat").hand
        players.append({"name": name, "front": " ".join(format_card(c) for c in setting.front or ()),
                        "middle": " ".join(format_card(c) for c in setting.middle or ()),
                        "back": " ".join(format_card(c) for c in setting.back or ())})  # fmt: skip
    deal = {"commitment": fair.commitment(SEED), "server_seed": SEED.hex(),
            "client_seeds": [seed.hex() for seed in CLIENTS], "nonce": nonce}  # fmt: skip
    return {"id": nonce, "rules": "pagat", "deal": deal, "players": players, **extra}


def test_a_compact_replay_is_re_dealt_and_checked() -> None:
    data = dealt_round()
    assert audit_record(data, "line 1") == []
    settlement = settled({k: v for k, v in data.items() if k != "deal"})
    assert (
        audit_record({**data, "receipt": settlement.receipt(), "net": list(settlement.net)}, "line 1") == []
    )
    # The dealt cards given too: they must be the seeds' deal and the settings must use them.
    cards = fair.deal(SEED, CLIENTS, 0, "pagat", 2)
    full = copy.deepcopy(data)
    for seat, player in enumerate(full["players"]):
        player["dealt"] = [format_card(int(c)) for c in cards[seat]]
    assert audit_record(full, "line 1") == []


def test_a_deal_that_does_not_match_names_the_field() -> None:
    data = dealt_round()
    wrong_commitment = copy.deepcopy(data)
    wrong_commitment["deal"]["commitment"] = fair.commitment(bytes(32))
    assert [m.field for m in audit_record(wrong_commitment, "line 1")] == ["deal.commitment"]
    other_nonce = copy.deepcopy(data)
    other_nonce["deal"]["nonce"] = 1
    assert {m.field for m in audit_record(other_nonce, "line 1")} == {"players[0].cards", "players[1].cards"}
    # Two cards swapped between the players' settings: both seats hold a card they were not dealt.
    swapped = copy.deepcopy(data)
    a, b = swapped["players"][0]["back"].split(), swapped["players"][1]["back"].split()
    a[0], b[0] = b[0], a[0]
    swapped["players"][0]["back"], swapped["players"][1]["back"] = " ".join(a), " ".join(b)
    found = audit_record(swapped, "line 3 (id 0)")
    assert [m.field for m in found] == ["players[0].cards", "players[1].cards"]
    assert (
        str(found[0])
        == f"line 3 (id 0): players[0].cards: card {a[0]} is held but was not dealt by the seeds"
    )


def test_a_line_lying_about_its_rules_is_reported() -> None:
    data = four_player()
    receipt = settled(data).receipt()
    lie = {**data, "rules": "pagat", "receipt": receipt}
    fields = [m.field for m in audit_record(lie, "line 1")]
    assert "receipt.rules_digest" in fields
    assert "receipt.net[0]" in fields


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ([1, 2], "a log line must be an object, got list"),
        (two_player(), "nothing to audit: the round has no receipt, net, dealt cards or deal"),
        ({"engine": dict(ENGINE), "rules": "pagat"}, "an output round needs its receipt to be audited"),
        ({**dealt_round(), "deal": {"commitment": "00", "server_seed": "zz", "client_seeds": [], "nonce": 0}},
         "deal.server_seed must be a hex string, got 'zz'"),
        ({**dealt_round(), "deal": {**dealt_round()["deal"], "nonce": 2**64}},
         "deal: nonce must be in 0..2**64-1, got 18446744073709551616"),
        ({**dealt_round(), "deal": {**dealt_round()["deal"], "server_seed": "00"}},
         "deal: server_seed must be 16 to 64 bytes, got 1"),
        ({**dealt_round(), "deal": {**dealt_round()["deal"], "salt": 1}}, "deal: unknown key 'salt'"),
    ],
)  # fmt: skip
def test_lines_that_cannot_be_audited_are_clear_errors(line: object, message: str) -> None:
    with pytest.raises(RoundError, match=re.escape(message)):
        audit_record(line, "line 1")


# ----- the command line ----------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_receipts_then_audit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rounds = tmp_path / "rounds.jsonl"
    rounds.write_text(
        "\n".join(json.dumps(r) for r in (two_player(), four_player())) + "\n", encoding="utf-8"
    )
    key = tmp_path / "server.key"
    key.write_bytes(KEY + b"\n")
    options = ("--format", "jsonl", "--receipts", "--receipt-key-file", str(key))
    code, out, err = run(capsys, "score", str(rounds), *options)
    assert (code, err) == (0, "")
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0]["receipt"] == settled(two_player()).receipt(KEY)
    log = tmp_path / "log.jsonl"
    log.write_text(out, encoding="utf-8")
    assert run(capsys, "audit", str(log), "--key-file", str(key)) == (
        0, "", "chinese-poker audit: 2 round(s), 2 match, 0 mismatch\n")  # fmt: skip
    # A changed net in the second line: one mismatch line per field, exit code 1.
    lines[1]["net"][0] += 1
    lines[1]["receipt"]["net"][0] += 1
    log.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "audit", str(log), "--key-file", str(key))
    given = lines[1]["net"][0]
    assert code == 1
    assert out.splitlines() == [
        'line 2 (id "r4"): receipt.sha256: is not the SHA-256 of the receipt\'s contents',
        'line 2 (id "r4"): receipt.hmac_sha256: is not the HMAC of the receipt\'s contents under the key',
        f'line 2 (id "r4"): receipt.net[0]: is {given}, the round gives {given - 1}',
        f'line 2 (id "r4"): net[0]: is {given}, the round gives {given - 1}',
    ]
    assert err == "chinese-poker audit: 2 round(s), 1 match, 1 mismatch\n"


def test_audit_of_a_compact_replay_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "replay.jsonl"
    log.write_text("\n".join(json.dumps(dealt_round(n)) for n in range(5)) + "\n", encoding="utf-8")
    assert run(capsys, "audit", str(log))[0] == 0
    bad = [dealt_round(n) for n in range(3)]
    bad[1]["deal"]["nonce"] = 7
    log.write_text("\n".join(json.dumps(r) for r in bad) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "audit", str(log))
    assert code == 1
    assert {line.split(": ")[0] for line in out.splitlines()} == {"line 2 (id 1)"}


def test_audit_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps(dealt_round()) + '\n{"id": 1\n', encoding="utf-8")
    code, out, err = run(capsys, "audit", str(log))
    assert (code, out) == (2, "")
    assert "line 2: malformed JSON" in err
    assert run(capsys, "audit", str(tmp_path / "missing.jsonl"))[0] == 2
    short = tmp_path / "short.key"
    short.write_bytes(b"abc\n")
    code, _, err = run(capsys, "audit", str(log), "--key-file", str(short))
    assert code == 2
    assert "a key must be at least 16 bytes, got 3" in err
    code, _, err = run(capsys, "score", str(log), "--receipt-key-file", str(short))
    assert (code, err) == (2, "chinese-poker: error: --receipt-key-file needs --receipts\n")
    code, _, err = run(capsys, "score", str(log), "--receipts", "--output", "net", "--format", "jsonl")
    assert (code, err) == (
        2,
        "chinese-poker: error: --receipts needs --output full: the net output has no receipt\n",
    )
    code, _, err = run(capsys, "score", str(log), "--receipts")
    assert (code, err) == (
        2,
        "chinese-poker: error: --receipts needs --format json or jsonl: the table has no receipt\n",
    )
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    assert run(capsys, "audit", str(empty))[0] == 2


# ----- the service ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Limits()), raise_server_exceptions=False)


def test_settle_with_receipt_and_verify(client: TestClient) -> None:
    answer = client.post("/v1/settle?receipt=true", json=two_player())
    assert answer.status_code == 200
    line = answer.json()
    assert line["receipt"] == settled(two_player()).receipt()
    assert client.post("/v1/verify", json=line).json() == {"ok": True, "mismatches": []}
    assert client.post("/v1/verify", json={"receipt": line["receipt"]}).json()["ok"] is True
    line["receipt"]["net"] = [4, -4]
    verdict = client.post("/v1/verify", json=line).json()
    assert verdict["ok"] is False
    assert {m["field"] for m in verdict["mismatches"]} >= {"receipt.sha256", "receipt.net[0]"}
    batch = client.post("/v1/settle/batch?receipt=true", content=json.dumps(two_player()) + "\n")
    assert json.loads(batch.text)["receipt"] == settled(two_player()).receipt()
    refused = client.post("/v1/settle/batch?receipt=true&output=net", content=json.dumps(two_player()))
    assert refused.status_code == 422


def test_verify_a_deal(client: TestClient) -> None:
    cards = fair.deal(SEED, CLIENTS, 4, "pagat", 2)
    deal = {"commitment": fair.commitment(SEED), "server_seed": SEED.hex(),
            "client_seeds": [s.hex() for s in CLIENTS], "nonce": 4}  # fmt: skip
    body = {"deal": deal, "rules": "pagat", "dealt": [[format_card(int(c)) for c in seat] for seat in cards]}
    assert client.post("/v1/verify", json=body).json() == {"ok": True, "mismatches": []}
    verdict = client.post("/v1/verify", json={**body, "deal": {**deal, "nonce": 5}}).json()
    assert verdict["ok"] is False
    assert verdict["mismatches"][0]["field"] == "dealt[0]"
    verdict = client.post("/v1/verify", json={**body, "deal": {**deal, "commitment": "00" * 32}}).json()
    assert verdict["mismatches"][0]["field"] == "deal.commitment"
    assert client.post("/v1/verify", json=dealt_round()).json() == {"ok": True, "mismatches": []}


@pytest.mark.parametrize(
    "body",
    [b"{", b"[1]", json.dumps({"deal": {"nonce": 1}}).encode(), json.dumps(two_player()).encode(),
     json.dumps({"deal": {"commitment": "00", "server_seed": "00", "client_seeds": ["aa"], "nonce": 0},
                 "dealt": [["As"]]}).encode()],
)  # fmt: skip
def test_verify_refuses_what_it_cannot_read(client: TestClient, body: bytes) -> None:
    answer = client.post("/v1/verify", content=body)
    assert 400 <= answer.status_code < 500
    assert "error" in answer.json()
    assert "Traceback" not in answer.text


def test_the_service_signs_with_its_key_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, client: TestClient
) -> None:
    key = tmp_path / "service.key"
    key.write_bytes(KEY)
    monkeypatch.setenv("CHINESE_POKER_RECEIPT_KEY_FILE", str(key))
    line = client.post("/v1/settle?receipt=true", json=two_player()).json()
    assert line["receipt"]["hmac_sha256"] == settled(two_player()).receipt(KEY)["hmac_sha256"]
    assert client.post("/v1/verify", json={"receipt": line["receipt"]}).json()["ok"] is True
    unsigned = {k: v for k, v in line["receipt"].items() if k != "hmac_sha256"}
    verdict = client.post("/v1/verify", json={"receipt": unsigned}).json()
    assert verdict["mismatches"] == [
        {"field": "receipt.hmac_sha256", "message": "missing, but a key was given"}
    ]


def test_stdin_log(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(dealt_round()) + "\n"))
    assert run(capsys, "audit", "-")[0] == 0


# ----- any value in any field: a mismatch or a clear error, never another exception ----------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.text(max_size=8)
    | st.sampled_from(["As", "zz"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def _lines() -> list[dict[str, Any]]:
    data = four_player()
    settlement = settled(data)
    receipt = settlement.receipt(KEY)
    output = json.loads(json.dumps({**round_output(parse_round(data), settlement), "receipt": receipt}))
    return [{**data, "receipt": receipt, "net": list(settlement.net)}, output, dealt_round()]


LINES = _lines()


@given(st.sampled_from(range(3)), st.data())
def test_any_value_anywhere_is_a_mismatch_or_a_round_error(which: int, data: st.DataObject) -> None:
    line = copy.deepcopy(LINES[which])
    paths = list(leaves(line)) + [(key,) for key in line]
    path = data.draw(st.sampled_from(paths))
    holder: Any = line
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = data.draw(JSON_VALUES)
    refused = ""
    found = []
    try:
        found = audit_record(line, "line 1", KEY)
    except RoundError as error:
        refused = str(error)
    assert refused.startswith("line 1") if refused else all(m.where == "line 1" and m.message for m in found)


def test_output_rounds_with_receipts_match_the_output_schema() -> None:
    data = four_player()
    settlement = settled(data)
    line = {**round_output(parse_round(data), settlement), "receipt": settlement.receipt(KEY)}
    jsonschema.validate(json.loads(json.dumps(line)), load_schema("output"))
    line["receipt"]["sha256"] = "not hex"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(line, load_schema("output"))
