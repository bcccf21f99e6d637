"""The core's full-output writer (``formats.full_lines.FullLines``, over ``_core.RoundOutputWriter``) against
the Python writer it replaces in ``score``, which stays the reference: ``round_output`` of ``settle_round``
dumped as ``cli.common.dumps`` dumps it.

Rounds are drawn under random rules from the knob table (tests/knob_draws.py, as the fuzz draws them) by
the vectors' generator (jokers, added suits, stakes, banker and bets, surrender, false declarations), with
fantasyland flags, ids and names holding escapes, non-ASCII, emoji and lone surrogates added, and some
rounds broken so that only the core refuses them (a card held twice, a stake or bet out of range, a
natural declared without being held). Every stream is written compact and indented, with and without
``ascii_only``; the bytes and the errors (in their places) must be the reference's.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from chinese_poker import _core
from chinese_poker.cli import main
from chinese_poker.cli.common import dumps
from chinese_poker.cli.score import settle_record
from chinese_poker.evaluation import _all_strengths, describe
from chinese_poker.formats.full_lines import FullLines
from chinese_poker.formats.full_stream import dumps_output
from chinese_poker.formats.records import stream_rounds
from chinese_poker.formats.round_parse import Round, RoundError, parse_round
from chinese_poker.formats.round_settle import round_output, settle_round
from chinese_poker.formats.vectors import random_round
from chinese_poker.rules import Rules
from chinese_poker.serve.config import Limits
from chinese_poker.serve.errors import ApiError, error_body
from chinese_poker.serve.settling import settle_lines
from round_files import IDS, NAMES, random_rules, spoil


def random_rounds(seed: int, count: int) -> list[tuple[Round, str]]:
    """``count`` checked rounds under rules drawn afresh every few rounds."""
    rng = random.Random(seed)
    rounds: list[tuple[Round, str]] = []
    rules = random_rules(rng)
    while len(rounds) < count:
        if rng.random() < 0.2:
            rules = random_rules(rng)
        try:
            data = random_round(rng, rules, "x")
        except ValueError:  # rules no round can be dealt under (the table's Chi A on a short pack)
            rules = random_rules(rng)
            continue
        data.pop("tags", None)
        data["id"] = rng.choice(IDS) if rng.random() < 0.5 else f"r{len(rounds)}"
        for entry in data["players"]:
            if rng.random() < 0.4:
                entry["name"] = f"{rng.choice(NAMES)} {rng.randrange(100)}"
            if rules.fantasyland != "off" and rng.random() < 0.3:
                entry["fantasyland"] = True
        if "banker" in data:
            data["banker"] = data["players"][int(data["banker"][1:]) - 1].get("name", data["banker"])
        spoil(rng, data)
        where = f"line {len(rounds) + 1}"
        try:
            rounds.append((parse_round(data, position=len(rounds) + 1, where=where), where))
        except RoundError:
            continue  # refused before the settlement: not the writer's business
    return rounds


def merged(items: Iterable[str | RoundError]) -> list[str | tuple[str, str]]:
    """Runs of text joined; each error as its type and message, in its place."""
    out: list[str | tuple[str, str]] = []
    for item in items:
        if isinstance(item, str):
            if out and isinstance(out[-1], str):
                out[-1] += item
            else:
                out.append(item)
        else:
            out.append((type(item).__name__, str(item)))
    return out


def reference(rounds: list[tuple[Round, str]], *, ascii_only: bool, indented: bool) -> list[str | RoundError]:
    """What the Python writer gives each round, as ``FullLines.flush`` yields it."""
    items: list[str | RoundError] = []
    for rnd, where in rounds:
        try:
            settlement = settle_round(rnd, where)
        except RoundError as error:
            items.append(error)
            continue
        text = dumps_output(round_output(rnd, settlement), ascii_only=ascii_only, indented=indented)
        items.append(",\n  " + text.replace("\n", "\n  ") if indented else text + "\n")
    return items


@pytest.mark.parametrize("seed", range(4))
def test_random_rules_same_bytes_and_errors(seed: int) -> None:
    rounds = random_rounds(seed, 150)
    for ascii_only in (False, True):
        for indented in (False, True):
            lines = FullLines(ascii_only=ascii_only, indented=indented)
            for rnd, where in rounds:
                lines.add(rnd, where)
            got = merged(lines.flush())
            assert got == merged(reference(rounds, ascii_only=ascii_only, indented=indented))
            assert len(lines) == 0
    errors = sum(isinstance(item, RoundError) for item in reference(rounds, ascii_only=False, indented=False))
    assert 0 < errors < len(rounds)  # the broken rounds are there, and most rounds are good


def test_indented_items_make_the_list_json_dumps_writes() -> None:
    rounds = random_rounds(11, 40)
    lines = FullLines(indented=True)
    for rnd, where in rounds:
        lines.add(rnd, where)
    text = "".join(item for item in lines.flush() if isinstance(item, str))
    outputs = []
    for rnd, where in rounds:
        with contextlib.suppress(RoundError):
            outputs.append(round_output(rnd, settle_round(rnd, where)))
    assert "[" + text[1:] + "\n]" == dumps(outputs, indent=2)


def test_covers_the_fields_the_rules_call_for() -> None:
    """The random rounds reach every optional field: else the comparison above proves less than it says."""
    rounds = random_rounds(3, 400)
    lines = FullLines()
    for rnd, where in rounds:
        lines.add(rnd, where)
    text = "".join(item for item in lines.flush() if isinstance(item, str))
    for field in (
        '"fantasyland_cards":',
        '"ace_units":',
        '"jokers":{"X',
        '"declared":',
        '"banker":',
        '"bets":',
        '"false_declaration_units":',
        '"surrendered":true',
        '"decided_by":"false_declaration"',
        "\\u",
        " as ",
    ):
        assert field in text, field


def test_worked_example() -> None:
    data = {
        "id": "r1",
        "rules": "pagat-bonus",
        "players": [
            {"name": "North", "front": "Ts Th Qs", "middle": "6s 5s 4s 3s 2h", "back": "Ks Kh Kd 3h 3d"},
            {"name": 'Zoë "E"', "front": "2c 4d 6h", "middle": "8c 9d Jh Qc Ad", "back": "7c 7d 7h 7s 9c"},
        ],
    }
    lines = FullLines()
    lines.add(parse_round(data))
    (text,) = lines.flush()
    assert isinstance(text, str)
    assert text.startswith('{"id":"r1","engine":{"name":"chinese-poker","version":"')
    assert '"name":"Zoë \\"E\\""' in text
    out = json.loads(text)
    north = out["players"][0]
    assert north["rows"]["front"]["text"] == "Pair of tens, queen kicker"
    assert north["rows"]["middle"]["text"] == "Straight, six high"
    assert north["rows"]["back"]["category"] == "full_house"
    assert out["players"][1]["rows"]["back"]["text"] == "Four of a kind, sevens, nine kicker"
    assert sum(out["net"]) == 0
    assert out["pairs"][0]["rows"] == [1, 1, -1]
    assert text == dumps(round_output(parse_round(data), settle_round(parse_round(data)))) + "\n"


def test_strength_text_is_describe_for_every_strength() -> None:
    strengths = sorted(_all_strengths())
    assert len(strengths) > 7462
    assert [_core.strength_text(s) for s in strengths] == [describe(s) for s in strengths]


def test_errors_of_refused_rounds_in_place() -> None:
    good = {
        "players": [
            {"front": "2c 3c 4c", "middle": "5d 6d 7d 8d Td", "back": "Js Qs Ks As 9h"},
            {"front": "2d 3d 4d", "middle": "5c 6c 7c 8c Tc", "back": "Jh Qh Kh Ah 9s"},
        ]
    }
    twice = json.loads(json.dumps(good))
    twice["players"][1]["front"] = "2c 3d 4d"  # 2c held by both
    stake = dict(good, stakes=[[1, 5_000_000], [5_000_000, 1]])
    rounds = [
        (parse_round(d, position=k + 1), f"line {k + 1}") for k, d in enumerate((good, twice, good, stake))
    ]
    lines = FullLines()
    for rnd, where in rounds:
        lines.add(rnd, where)
    items = list(lines.flush())
    assert [type(item).__name__ for item in items] == ["str", "RoundError", "str", "RoundError"]
    assert str(items[1]) == "line 2: card 2c is held by both P1 and P2"
    assert str(items[3]).startswith("line 4: ")
    assert "5000000" in str(items[3])


def write_file(path: Path, rounds: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    rules = [Rules.preset(name) for name in ("pagat", "capsa-susun", "shisanshui-app")]
    written = []
    with path.open("w", encoding="utf-8") as out:
        for k in range(rounds):
            data = random_round(rng, rules[k % 3], f"r{k}")
            del data["tags"]
            if k % 97 == 5:
                data["players"][1]["front"] = data["players"][0].get("front", "2c 2d 2h")  # refused
            written.append(data)
            out.write(dumps(data) + "\n")
    return written


def settled_one_by_one(path: Path) -> list[tuple[Any, Any, RoundError | None]]:
    """Each round of the file read, checked and settled as the general path does it (``settle_record``)."""
    out: list[tuple[Any, Any, RoundError | None]] = []
    with path.open("rb") as stream:
        for raw in stream_rounds(stream, json_lines=True).records:
            try:
                out.append((*settle_record(raw, None), None))
            except RoundError as error:
                out.append((None, None, error))
    return out


@pytest.mark.parametrize("fmt", ["jsonl", "json"])
def test_score_same_bytes_errors_and_exit_code(
    tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``score`` through the core against the reference: each round checked, settled and dumped in Python
    (chunks made small, so that the file takes several)."""
    monkeypatch.setattr("chinese_poker.formats.full_stream.FULL_CHUNK_BYTES", 20_000)
    path = tmp_path / "rounds.jsonl"
    rounds = write_file(path, 300, 5)
    code = main(["score", str(path), "--format", fmt, "--keep-going", "--progress", "never"])
    out, err = capsys.readouterr()
    outputs, errors = [], []
    for rnd, settlement, error in settled_one_by_one(path):
        if error is None:
            outputs.append(round_output(rnd, settlement))
        else:
            errors.append(f"chinese-poker: error: {path}: {error}")
    assert errors
    assert code == 2
    if fmt == "jsonl":
        assert out == "".join(dumps(o) + "\n" for o in outputs)
    else:
        assert out == dumps(outputs, indent=2) + "\n"
    assert err.splitlines() == [
        *errors,
        f"chinese-poker: {len(errors)} of {len(rounds)} rounds could not be settled",
    ]


def test_score_stops_at_the_first_bad_round(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rounds.jsonl"
    write_file(path, 200, 5)
    code = main(["score", str(path), "--format", "jsonl", "--progress", "never"])
    out, err = capsys.readouterr()
    assert code == 2
    good = []
    for rnd, settlement, error in settled_one_by_one(path):
        if error is not None:
            message = f"chinese-poker: error: {path}: {error}\n"
            break
        good.append(round_output(rnd, settlement))
    assert len(good) == 5  # the first refused round is the sixth
    assert out == "".join(dumps(o) + "\n" for o in good)
    assert err == message


def test_streams_a_chunk_at_a_time(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Memory stays flat: the core reads, settles and writes the file a chunk of whole lines at a time, and
    each chunk's output is written before the next is read."""
    monkeypatch.setattr("chinese_poker.formats.full_stream.FULL_CHUNK_BYTES", 4000)
    path = tmp_path / "rounds.jsonl"
    write_file(path, 110, 8)
    out = io.StringIO()
    chunks: list[tuple[int, int]] = []  # (bytes read, output written before the chunk)
    original = _core.FullChunkWriter

    class Watched:
        def __init__(self, *args: Any) -> None:
            self.writer = original(*args)

        def write(self, chunk: bytes, position: int) -> Any:
            chunks.append((len(chunk), len(out.getvalue())))
            return self.writer.write(chunk, position)

    monkeypatch.setattr(_core, "FullChunkWriter", Watched)
    monkeypatch.setattr("sys.stdout", out)
    main(["score", str(path), "--format", "jsonl", "--keep-going", "--progress", "never"])
    assert sum(size for size, _ in chunks) == path.stat().st_size
    # Every chunk is at most the read size plus the line it cuts, and each one's output is written before
    # the next chunk is read.
    longest = max(len(line) for line in path.read_bytes().splitlines(keepends=True))
    assert max(size for size, _ in chunks) <= 4000 + longest
    written = [before for _, before in chunks]
    assert len(chunks) >= 3
    assert written == sorted(written)
    assert written[-1] > 0
    assert out.getvalue().count("\n") == 110 - 2  # two rounds of the file are refused


def batch_answer(body: bytes, limits: Limits, *, fast: bool) -> tuple[int, bytes]:
    """What ``/v1/settle/batch`` answers with the full output: status and body."""
    try:
        return 200, settle_lines(body, {}, limits, fast=fast).body
    except ApiError as error:
        return error.status, error_body(error)


def test_service_batch_same_bytes_and_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The service's full-output batches through the core against its round-by-round loop: good bodies,
    and bodies with a malformed line, a round the core refuses, a round with ``dealt`` cards, too many
    players, or past the round limit."""
    monkeypatch.setattr("chinese_poker.formats.full_stream.FULL_CHUNK_BYTES", 3000)
    path = tmp_path / "rounds.jsonl"
    write_file(path, 90, 9)
    lines = path.read_bytes().splitlines(keepends=True)
    good = [line for k, line in enumerate(lines) if k % 97 != 5]
    dealt = json.loads(good[3])
    dealt["players"][0]["dealt"] = "2c 3c"  # not the player's cards
    six = json.loads(good[4])
    six["players"] = six["players"] * 3
    bodies = {
        "good": b"".join(good),
        "malformed": b"".join(good[:40]) + b'{"players": [\n' + b"".join(good[40:]),
        "refused": b"".join(lines),
        "dealt": b"".join(good[:30]) + dumps(dealt).encode() + b"\n" + b"".join(good[30:]),
        "players": b"".join(good[:20]) + dumps(six).encode() + b"\n" + b"".join(good[20:]),
    }
    statuses = {}
    for name, body in bodies.items():
        for limits in (Limits(), Limits(max_rounds=50), Limits(max_players=3)):
            fast = batch_answer(body, limits, fast=True)
            assert fast == batch_answer(body, limits, fast=False), name
            statuses[name, limits.max_rounds, limits.max_players] = fast[0]
    assert statuses["good", Limits().max_rounds, Limits().max_players] == 200
    assert statuses["malformed", Limits().max_rounds, Limits().max_players] == 400
    assert statuses["refused", Limits().max_rounds, Limits().max_players] == 422
    assert statuses["good", 50, Limits().max_players] == 413
    assert statuses["players", Limits().max_rounds, Limits().max_players] == 422
