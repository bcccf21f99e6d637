"""``score --output net`` through the core's reader (``formats.net_stream``) against the general path
(``score.run(..., fast=False)``: every round read by ``formats.records``, checked and settled by
``settle_record`` and written by ``round_net_output``): the same standard output, standard error and exit
code, on random files that mix player counts, rules named per round (presets and objects), stakes,
banker and bets, surrender, declarations, fantasyland, ids and names of every kind, and on the same files
with one round damaged (with ``--keep-going`` and without), over chunks small enough to cut files into
many pieces and on one thread or two."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from chinese_poker.cli import main
from chinese_poker.cli import score as score_command
from chinese_poker.cli.common import dumps
from chinese_poker.formats import core_stream as core_stream_module
from chinese_poker.formats import net_stream as net_stream_module
from chinese_poker.formats.core_stream import CoreLines
from chinese_poker.formats.vectors import random_round
from chinese_poker.rules import Rules
from peak_memory import score_peak_memory
from round_files import damage

PRESETS = ("pagat", "pagat-bonus", "capsa-susun", "shisanshui-app", "pusoy", "ofc")
RULES = {name: Rules.preset(name) for name in PRESETS}
SCORE_RUN = score_command.run


def mixed_round(rng: random.Random, k: int) -> dict[str, Any]:
    """A random round (``vectors``' generator) under a random preset, with its rules named in one of the
    ways the format allows and its id, names and inputs varied."""
    name = rng.choice(PRESETS)
    data = random_round(rng, RULES[name], f"r{k}")
    del data["tags"]
    how = rng.random()
    if how < 0.6:
        data["rules"] = name
    elif how < 0.75:
        data["rules"] = {"preset": name}
    elif how < 0.85 and name == "pagat":
        data.pop("rules", None)
    else:
        data["rules"] = name
    kind = rng.random()
    if kind < 0.2:
        data["id"] = rng.choice([k, -k, 2**63 - 1, 2**70, "é-" + str(k), 'q"' + str(k), "tab\t", "x"])
    elif kind < 0.3:
        del data["id"]
    if rng.random() < 0.1:
        data["players"][0]["name"] = rng.choice(["Zoë", "a\\b", "  ", "P2", "N"])
    if rng.random() < 0.1:
        data["note"] = {"any": [1, 2.5, None, True]}
    if rng.random() < 0.05:
        data["players"][-1]["surrender"] = rng.choice([True, False])
    if rng.random() < 0.05:
        data["players"][0]["fantasyland"] = True
    if rng.random() < 0.05:
        data["banker"] = rng.choice([0, "P1", 7, None])
    return data


def run_score(
    path: Path, extra: list[str], *, fast: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    """Exit code, standard output and standard error of ``score PATH --format jsonl --output net EXTRA``."""
    monkeypatch.setattr(score_command, "run", functools.partial(SCORE_RUN, fast=fast))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(
            ["score", str(path), "--format", "jsonl", "--output", "net", "--progress", "never", *extra]
        )
    return code, out.getvalue(), err.getvalue()


def write_lines(path: Path, lines: list[str]) -> None:
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8", "surrogatepass"))


@pytest.mark.parametrize("seed", range(6))
def test_fast_and_general_paths_agree(seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    lines = [dumps(mixed_round(rng, k)) for k in range(60)]
    if seed % 2:
        lines.insert(rng.randrange(len(lines)), "   ")
    bad = list(lines)
    at = rng.randrange(len(bad))
    bad[at] = damage(rng, bad[at])
    monkeypatch.setattr(core_stream_module, "CHUNK_BYTES", rng.choice([300, 2000, 1 << 20]))
    for body, name in ((lines, "good.jsonl"), (bad, "bad.jsonl")):
        path = tmp_path / name
        write_lines(path, body)
        for extra in ([], ["--keep-going"], ["--threads", "2", "--keep-going"], ["--rules", "pagat-bonus"]):
            fast = run_score(path, extra, fast=True, monkeypatch=monkeypatch)
            general = run_score(path, extra, fast=False, monkeypatch=monkeypatch)
            assert fast == general, (name, extra)
    # Most rounds of the undamaged file settle (some of its inputs are odd on purpose: a banker that is not
    # a seat, surrender under rules without it), so the comparisons above are mostly of answers.
    _, out, _ = run_score(tmp_path / "good.jsonl", ["--keep-going"], fast=True, monkeypatch=monkeypatch)
    assert out.count("\n") >= 40


def test_most_rounds_are_the_cores() -> None:
    """The reader takes the rounds the format allows (here every one but the damaged), so a file of them
    is not settled by the general path."""
    rng = random.Random(7)
    rounds = [mixed_round(rng, k) for k in range(40)]
    body = ("\n".join(dumps(r) for r in rounds) + "\n").encode()
    items = list(net_stream_module.net_stream(io.BytesIO(body)))
    settled = sum(item.rounds for item in items if isinstance(item, CoreLines))
    left = [item for item in items if not isinstance(item, CoreLines)]
    # What may be left: an id past int64, a blank or repeated name, and the inputs the core refuses here
    # (fantasyland or surrender under rules without them, a banker that is not a seat). Escapes and
    # UTF-8 in ids and names are the core's.
    for raw in left:
        text = json.dumps(raw.data, ensure_ascii=False)
        names = [player.get("name") for player in raw.data["players"]]
        odd = any(key in text for key in ("fantasyland", "surrender", "banker"))
        odd = odd or raw.data.get("id") == 2**70 or "  " in names or len(set(names)) < len(names)
        assert odd, text
    assert settled + len(left) == 40
    assert settled >= 25


def test_threads_give_the_same_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(11)
    path = tmp_path / "many.jsonl"
    write_lines(path, [dumps(mixed_round(rng, k)) for k in range(200)])
    one = run_score(path, ["--threads", "1", "--keep-going"], fast=True, monkeypatch=monkeypatch)
    two = run_score(path, ["--threads", "2", "--keep-going"], fast=True, monkeypatch=monkeypatch)
    assert one == two
    assert one[1].count("\n") >= 150


def test_out_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    path = tmp_path / "in.jsonl"
    write_lines(path, [dumps(mixed_round(rng, k)) for k in range(10)])
    code, out, err = run_score(path, ["--keep-going"], fast=True, monkeypatch=monkeypatch)
    target = tmp_path / "net.jsonl"
    assert run_score(path, ["--keep-going", "-o", str(target)], fast=True, monkeypatch=monkeypatch) == (
        code,
        "",
        err,
    )
    assert out.count("\n") >= 5
    assert target.read_text(encoding="utf-8") == out


def test_escapes_and_utf8_in_ids_and_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ids and names with escapes and UTF-8 are read by the core and written back as the general path
    writes them; a lone surrogate is the general path's (it writes it back as its escape)."""
    hands = (
        '{"name":NAME,"front":"As Ks Qs","middle":"2c 3c 4c 5c 7d","back":"2d 3d 4d 5d 7h"},'
        '{"front":"Ah Kh Qh","middle":"2h 3h 4h 5h 7s","back":"8c 8d 8h 9c 9d"}'
    )
    ids = [r'"\u00e9\ud83c\udca1\u0001\"\\\/"', '"Zoë"', r'"\ud800"', r'"tab\t\b\f\r\n"', '"x\\u007f"']
    names = [r'"N\u00f6"', '"Zoë"', r'"P\u0032"', r'"\u00a0"', '"a\\\\b"']
    lines = []
    for k, (rid, name) in enumerate(zip(ids, names, strict=True)):
        banker = f',"banker":{name},"bets":[1,3]' if k == 1 else ""
        lines.append(f'{{"id":{rid},"players":[{hands.replace("NAME", name)}]{banker}}}')
    path = tmp_path / "escapes.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    fast = run_score(path, ["--keep-going"], fast=True, monkeypatch=monkeypatch)
    assert fast == run_score(path, ["--keep-going"], fast=False, monkeypatch=monkeypatch)
    assert fast[1].splitlines()[0] == '{"id":"é\U0001f0a1\\u0001\\"\\\\/","net":[0,0]}'  # both foul
    assert fast[1].count("\n") == 3  # round 3's name P\u0032 repeats P2's, round 4's \u00a0 is blank
    items = list(net_stream_module.net_stream(io.BytesIO(path.read_bytes())))
    left = [item.position for item in items if not isinstance(item, CoreLines)]
    assert left == [3, 4]  # the lone surrogate (and repeated name), the name that is only white space


def test_net_output_streams_in_flat_memory(tmp_path: Path) -> None:
    """A file of 400,000 rounds (about 110 MB, whose rounds held at once would take more than the bound)
    goes through the core in chunks: the process's peak stays under 200 MiB."""
    if os.environ.get("CP_SANITIZED") == "1":
        pytest.skip("peak memory is not the program's under AddressSanitizer")
    line = dumps(mixed_round(random.Random(5), 0)).encode() + b"\n"
    count = 400_000
    path = tmp_path / "many.jsonl"
    with path.open("wb") as stream:
        for _ in range(count // 1000):
            stream.write(line * 1000)
    code, lines, peak_kib = score_peak_memory(
        path, "--format", "jsonl", "--output", "net", "--progress", "never"
    )
    assert (code, lines) == (0, count)
    assert peak_kib < 200 * 1024, f"peak RSS {peak_kib / 1024:.0f} MiB"


def test_packs_with_jokers_and_added_suits_are_the_cores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rounds of 5 and 6 players under added suits, and rounds holding jokers, are settled by the core (none
    is left to the general path), with the general path's net lines; a round of seven is left and refused."""
    rng = random.Random(12)
    lines = []
    for name in ("shisanshui-puxian-six", "shisanshui-puxian-ghost"):
        for k in range(40):
            data = random_round(rng, Rules.preset(name), f"{name}-{k}")
            del data["tags"]
            lines.append(dumps(data))
    path = tmp_path / "packs.jsonl"
    write_lines(path, lines)
    items = list(net_stream_module.net_stream(io.BytesIO(path.read_bytes())))
    assert all(isinstance(item, CoreLines) for item in items)
    fast = run_score(path, [], fast=True, monkeypatch=monkeypatch)
    assert fast == run_score(path, [], fast=False, monkeypatch=monkeypatch)
    assert fast[0] == 0
    nets = [json.loads(line)["net"] for line in fast[1].splitlines()]
    assert len(nets) == 80
    assert max(len(net) for net in nets) >= 5  # added suits seat more than four
    seven = json.loads(lines[0])
    seven["players"].append(dict(seven["players"][0], name="Z"))
    write_lines(path, [dumps(seven)])
    items = list(net_stream_module.net_stream(io.BytesIO(path.read_bytes())))
    assert not any(isinstance(item, CoreLines) for item in items)
    assert run_score(path, [], fast=True, monkeypatch=monkeypatch)[0] == 2


@pytest.mark.parametrize(
    ("middle", "cores"),
    [
        ('"2c 3c 4c 5c 7d"', True),  # as score and vectors write it: read in place
        ('"2C 3c 4C 5c 7D"', True),
        ('"2c  3c 4c 5c 7d"', True),  # other separators: the core's general card text
        ('"2c 3c 4c 5c 7d "', True),
        ('"2c,3c;4c 5c 7d"', True),
        ('"10c 3c 4c 5c 7d"', True),
        ('"2c 3c 4c 5c"', False),  # wrong or damaged rows: the general path's error, both ways
        ('"2c 3c 4c 5c 7d 8d"', False),
        ('"2c 3c 4c 5c 7"', False),
        ('"2c 3c 4c 5c 7x"', False),
        ('"2c 3c 4c 5c 7\\u0064"', False),
        ('"2c 3c 4c 5c 7d', False),
        ('["2c", "3c", "4c", "5c", "7d"]', True),
    ],
)
def test_row_spellings_near_the_written_one(
    middle: str, cores: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row string one step from the spelling the core reads in place: the same answer or error as the
    general path, and the core's own where its reader takes the spelling."""
    line = (
        '{"id":1,"players":[{"front":"As Ks Qs","middle":MIDDLE,"back":"2d 3d 4d 5d 7h"},'
        '{"front":"Ah Kh Qh","middle":"2h 3h 4h 5h 7s","back":"8c 8d 8h 9c 9d"}]}'
    ).replace("MIDDLE", middle)
    path = tmp_path / "rows.jsonl"
    path.write_text(line + "\n" + line.replace('"id":1', '"id":2') + "\n", encoding="utf-8")
    fast = run_score(path, ["--keep-going"], fast=True, monkeypatch=monkeypatch)
    assert fast == run_score(path, ["--keep-going"], fast=False, monkeypatch=monkeypatch)
    items = list(net_stream_module.net_stream(io.BytesIO(path.read_bytes())))
    assert all(isinstance(item, CoreLines) for item in items) == cores


class _Trickle(io.RawIOBase):
    """A raw stream giving at most ``step`` bytes a read, as a pipe may."""

    def __init__(self, data: bytes, step: int) -> None:
        self.data, self.position, self.step = data, 0, step

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(self.step, len(buffer), len(self.data) - self.position)
        buffer[:n] = self.data[self.position : self.position + n]
        self.position += n
        return n


BOM = b"\xef\xbb\xbf"


@pytest.mark.parametrize(
    "data",
    [b"", b"\n", BOM, BOM[:2], BOM + b"{}\n{}", b"a" * 100 + b"\n" + b"b" * 50, b"x\ny\nz\n", b"\n\nabc"],
)
def test_chunks_read_into_one_buffer_are_the_streams_lines(data: bytes) -> None:
    # Whatever the read sizes, the buffer's size and the bytes already read (the head): every chunk but the
    # last ends a line, each sits at its offset in the stream, and together they are the stream without
    # its byte order mark, as the chunks read one bytes object at a time are. A chunk is a view valid until
    # the next one is asked for: each is copied as it comes.
    stripped = data[len(BOM) :] if data.startswith(BOM) else data
    for step in (1, 2, 7, 1000):
        for size in (4, 16, 1 << 20):
            for taken in (0, 1, 3):
                chunked = core_stream_module._chunks(_Trickle(data[taken:], step), size, data[:taken])
                chunks = [(at, bytes(chunk)) for at, chunk in chunked]
                read = io.BufferedReader(_Trickle(data[taken:], step))
                reference = list(core_stream_module._read_chunks(read, size, data[:taken]))
                assert b"".join(chunk for _, chunk in chunks) == stripped
                assert b"".join(chunk for _, chunk in reference) == stripped
                assert all(chunk.endswith(b"\n") for _, chunk in chunks[:-1])
                assert all(data[at : at + len(chunk)] == chunk for at, chunk in chunks)


def test_chunk_writers_take_any_contiguous_byte_buffer_and_name_the_others() -> None:
    # The reader hands a chunk over as a memoryview of its bytearray: the same answer as bytes; a buffer
    # that is not one run of bytes (strided, or of wider items) is a TypeError saying what is wanted.
    from array import array  # noqa: PLC0415

    import chinese_poker._core as _core  # noqa: PLC0415
    from chinese_poker.formats.full_stream import output_rules  # noqa: PLC0415
    from chinese_poker.rules import core_spec  # noqa: PLC0415

    rules = Rules.preset()
    line = random_round(random.Random(5), rules, "r1")
    del line["tags"], line["rules"]  # the writers' fallback rules settle it
    text = (dumps(line) + "\n").encode()
    writers = [
        _core.NetChunkWriter(lambda values: [None for _ in values], core_spec(rules)),
        _core.FullChunkWriter(
            lambda values: [None for _ in values],
            output_rules(rules, ascii_only=False, indented=False),
            "0",
        ),
    ]
    for writer in writers:
        answer = writer.write(text, 1)
        assert answer[0].startswith(b'{"id":"r1"')
        assert answer[2] == []
        assert answer[3] == 1
        assert writer.write(memoryview(bytearray(text)), 1) == answer
        assert writer.write(bytearray(text), 1) == answer
        for bad in (memoryview(text * 2)[::2], array("i", [1, 2, 3])):
            with pytest.raises(TypeError, match="contiguous buffer of bytes"):
                writer.write(bad, 1)
        with pytest.raises(TypeError):
            writer.write("text", 1)  # type: ignore[arg-type]
