"""``score --format jsonl|json`` (full output) through the core's reader and writer (``formats.full_stream``
over ``_core.FullChunkWriter``) against the general path (``score.run(..., fast=False)``: every
round read by ``formats.records``, checked and settled by ``settle_record``, written by ``round_output`` and
``dumps``): the same standard output, standard error and exit code.

The files mix player counts (2 to 6), rules drawn from the knob table (jokers and added suits among them) and
named per round as a preset, as every knob, or not at all, stakes, banker and bets, surrender, false
declarations and fantasyland, ids and names with escapes, non-ASCII and lone surrogates, blank lines and a
byte order mark; some rounds are broken where only the core checks them, and one line of every damaged file
is broken for one reader or the other. They are read in chunks small enough to cut them into many pieces, on
one thread or two, from a file and from stdin, written as UTF-8 or to a stream that takes only ASCII.
"""

from __future__ import annotations

import contextlib
import functools
import io
import random
from pathlib import Path
from typing import Any

import pytest
from chinese_poker.cli import main
from chinese_poker.cli import score as score_command
from chinese_poker.cli.common import dumps
from chinese_poker.formats import full_stream as full_stream_module
from chinese_poker.formats.core_stream import CoreLines
from chinese_poker.formats.vectors import random_round
from chinese_poker.rules import Rules
from round_files import IDS, NAMES, damage, random_rules, spoil

SCORE_RUN = score_command.run
BOM = b"\xef\xbb\xbf"


def random_lines(seed: int, count: int) -> list[str]:
    """``count`` round lines under rules drawn afresh every few rounds, each naming its rules (mostly)."""
    rng = random.Random(seed)
    lines: list[str] = []
    rules = random_rules(rng)
    while len(lines) < count:
        if rng.random() < 0.2:
            rules = random_rules(rng)
        try:
            data = random_round(rng, rules, f"r{len(lines)}")
        except ValueError:  # rules no round can be dealt under (the table's Chi A on a short pack)
            rules = random_rules(rng)
            continue
        data.pop("tags", None)
        how = rng.random()
        if how < 0.1:
            data.pop("rules")  # pagat, or --rules
        elif how < 0.3 or rules.name is None:
            data["rules"] = rules.to_dict()
        if rng.random() < 0.3:
            data["id"] = rng.choice(IDS)
        elif rng.random() < 0.1:
            del data["id"]
        for entry in data["players"]:
            if rng.random() < 0.3:
                entry["name"] = f"{rng.choice(NAMES)} {rng.randrange(100)}"
            if rules.fantasyland != "off" and rng.random() < 0.3:
                entry["fantasyland"] = True
        if "banker" in data:
            data["banker"] = data["players"][int(data["banker"][1:]) - 1].get("name", data["banker"])
        spoil(rng, data)
        lines.append(dumps(data))
    return lines


def run_score(
    args: list[str],
    *,
    fast: bool,
    monkeypatch: pytest.MonkeyPatch,
    stdin: bytes | None = None,
    ascii: bool = False,
) -> tuple[int, bytes, str]:
    """Exit code, standard output (its bytes) and standard error of ``score ARGS``."""
    monkeypatch.setattr(score_command, "run", functools.partial(SCORE_RUN, fast=fast))
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii" if ascii else "utf-8", newline="")
    err = io.StringIO()
    if stdin is not None:
        fake = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
        monkeypatch.setattr("sys.stdin", fake)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["score", *args, "--progress", "never"])
        out.flush()
    return code, raw.getvalue(), err.getvalue()


def file_bytes(lines: list[str], rng: random.Random) -> bytes:
    body = "\n".join(lines) + ("\n" if rng.random() < 0.8 else "")
    data = body.encode("utf-8", "surrogatepass")
    return (BOM + data) if rng.random() < 0.3 else data


@pytest.mark.parametrize("seed", range(8))
def test_fast_and_general_paths_agree(seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    lines = random_lines(seed, 50)
    if seed % 2:
        lines.insert(rng.randrange(len(lines)), "  \t")
    damaged = list(lines)
    at = rng.randrange(len(damaged))
    damaged[at] = damage(rng, damaged[at])
    monkeypatch.setattr(full_stream_module, "FULL_CHUNK_BYTES", rng.choice([200, 3000, 1 << 18]))
    for body, name in ((lines, "good.jsonl"), (damaged, "bad.ndjson")):
        path = tmp_path / name
        path.write_bytes(file_bytes(body, rng))
        for extra in (
            ["--format", "jsonl", "--keep-going"],
            ["--format", "json", "--keep-going"],
            ["--format", "jsonl"],
            ["--format", "jsonl", "--keep-going", "--threads", "2"],
            [
                "--format",
                "jsonl",
                "--keep-going",
                "--rules",
                rng.choice(["pagat-bonus", "shisanshui-puxian-six"]),
            ],
        ):
            for ascii in (False, True):
                fast = run_score([str(path), *extra], fast=True, monkeypatch=monkeypatch, ascii=ascii)
                general = run_score([str(path), *extra], fast=False, monkeypatch=monkeypatch, ascii=ascii)
                assert fast == general, (name, extra, ascii)
    # Most rounds settle (spoiled ones and odd inputs aside), so the comparisons are mostly of answers.
    _, out, _ = run_score(
        [str(tmp_path / "good.jsonl"), "--format", "jsonl", "--keep-going"],
        fast=True,
        monkeypatch=monkeypatch,
    )
    assert out.count(b"\n") >= 30


@pytest.mark.parametrize("fmt", ["jsonl", "json"])
def test_stdin_is_read_by_the_core_when_its_content_is_json_lines(
    fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(5)
    data = file_bytes(random_lines(5, 40), rng)
    chunks: list[int] = []
    original = full_stream_module._core.FullChunkWriter

    class Counted:
        def __init__(self, *args: Any) -> None:
            self.writer = original(*args)

        def write(self, chunk: bytes, position: int) -> Any:
            answer = self.writer.write(chunk, position)
            chunks.append(len(answer[2]))
            return answer

    monkeypatch.setattr(full_stream_module._core, "FullChunkWriter", Counted)
    args = ["-", "--format", fmt, "--keep-going"]
    fast = run_score(args, fast=True, monkeypatch=monkeypatch, stdin=data)
    assert chunks  # the core read it
    assert fast == run_score(args, fast=False, monkeypatch=monkeypatch, stdin=data)
    # One JSON document (a list of rounds) on stdin is no JSON Lines: the general reader reads it whole.
    chunks.clear()
    document = (
        b"[" + b",".join(random_lines(6, 5)[k].encode("utf-8", "surrogatepass") for k in range(5)) + b"]"
    )
    fast = run_score(args, fast=True, monkeypatch=monkeypatch, stdin=document)
    assert chunks == []
    assert fast == run_score(args, fast=False, monkeypatch=monkeypatch, stdin=document)


def test_packs_with_jokers_and_added_suits_are_the_cores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rounds of 5 and 6 players under added suits, and rounds holding jokers, are read, settled and written
    by the core: none is left to the general path, and the bytes are the general path's."""
    rng = random.Random(9)
    lines = []
    for name in ("shisanshui-puxian-six", "shisanshui-puxian-ghost"):
        rules = Rules.preset(name)
        for k in range(40):
            data = random_round(rng, rules, f"{name}-{k}")
            data.pop("tags")
            lines.append(dumps(data))
    body = ("\n".join(lines) + "\n").encode()
    items = list(full_stream_module.full_stream(io.BytesIO(body)))
    assert all(isinstance(item, CoreLines) for item in items)
    text = b"".join(item.lines for item in items if isinstance(item, CoreLines))
    players = [line.count(b'"index":') for line in text.splitlines()]
    assert len(players) == 80
    assert max(players) >= 5  # added suits seat more than four
    assert b'"jokers":{"X1":' in text
    path = tmp_path / "packs.jsonl"
    path.write_bytes(body)
    general = run_score([str(path), "--format", "jsonl"], fast=False, monkeypatch=monkeypatch)
    assert general == (0, text, "")
