"""Hostile arguments and hostile input: every failure is one clear error, never garbage or a traceback."""

from __future__ import annotations

import io
import itertools
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import HandCategory, category, describe, evaluate, evaluate_batch, tiebreak_vector
from chinese_poker.cli import main
from chinese_poker.cli.progress import Progress
from chinese_poker.evaluation import _all_strengths
from peak_memory import score_peak_memory

RANKS = "23456789TJQKA"
SUITS = "cdhs"

# --- strengths: only values some hand has ---------------------------------------------------------------


def test_strength_set_has_the_known_counts() -> None:
    strengths = _all_strengths()
    # 7462 five-card classes, the wheel once more under its second encoding (straight and straight
    # flush), and 286 + 156 + 13 three-card classes; with a card twice (added suits) or a joker 13 five of
    # a kinds and the flushes holding one pair (2,860) or two pairs (858); with a card three times (jokers)
    # the flushes holding three aces (C(12, 2) = 66 pairs of kickers: jokers would rather make an ace than
    # a third king).
    assert len(strengths) == 7462 + 2 + 286 + 156 + 13 + 13 + 2860 + 858 + 66
    assert sum(1 for s in strengths if category(s) is HandCategory.FIVE_OF_A_KIND) == 13
    assert sum(1 for s in strengths if category(s) is HandCategory.FLUSH) == 1277 + 2860 + 858 + 66
    flushes = [tiebreak_vector(s) for s in strengths if category(s) is HandCategory.FLUSH]
    trips = [v for v in flushes if max(v.count(rank) for rank in v) == 3]
    assert {v[:3] for v in trips} == {(14, 14, 14)}
    assert len(trips) == 66
    by_category = {cat: sum(1 for s in strengths if category(s) is cat) for cat in HandCategory}
    assert by_category[HandCategory.HIGH_CARD] == 1277 + 286
    assert by_category[HandCategory.ONE_PAIR] == 2860 + 156
    assert by_category[HandCategory.STRAIGHT] == by_category[HandCategory.STRAIGHT_FLUSH] == 11
    assert by_category[HandCategory.FULL_HOUSE] == by_category[HandCategory.FOUR_OF_A_KIND] == 156


def test_every_evaluated_hand_is_in_the_strength_set() -> None:
    deck = [r + s for r in RANKS for s in SUITS]
    strengths = _all_strengths()
    for combo in itertools.combinations(deck[::3], 3):
        assert evaluate(combo) in strengths
    rng = np.random.default_rng(7)
    hands = np.array([rng.choice(52, 5, replace=False) for _ in range(20_000)], dtype=np.uint8)
    for wheel in ("low", "second"):
        assert set(evaluate_batch(hands, wheel).tolist()) <= strengths
    assert evaluate("As 2d 3c 4h 5s", "second") in strengths
    assert evaluate("As 2s 3s 4s 5s") in strengths


@pytest.mark.parametrize(
    "bad",
    [
        0x34,  # category 0 with the vector (0, 0, 0, 3, 4)
        1,
        (1 << 20) | 0x55000,  # a pair whose kicker is the pair's rank
        (4 << 20) | 0x98765 + 1,  # a "straight" that is not a run
        (6 << 20) | 0xDD000,  # kings full of kings
        (0 << 20) | 0xEDCBA,  # high card A-K-Q-J-T: a straight, never a high card
        (8 << 20) | 0x54320,  # a four-card straight flush
        (2 << 20) | 0xEF000 | 0x300,  # a rank 15
        (3 << 20) | 0x10000,  # trips of rank 1
    ],
)
def test_non_strengths_are_refused(bad: int) -> None:
    for function in (category, tiebreak_vector, describe):
        with pytest.raises(ValueError, match=f"{bad} is not the strength"):
            function(bad)
        with pytest.raises(ValueError, match=f"{bad} is not the strength"):
            function(np.int32(bad))


def test_wheel_is_a_strength_under_both_encodings() -> None:
    for wheel in ("low", "second"):
        for cards in ("As 2d 3c 4h 5s", "As 2s 3s 4s 5s"):
            strength = evaluate(cards, wheel)
            assert describe(strength).endswith("five high (wheel)")
            assert category(strength) in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH)


# --- surrender flags are booleans ------------------------------------------------------------------------

_HANDS = ["2c 3d 4h | 6s 7s 8d 9c Jh | Qs Ks Ad 5c 5d", "Tc Th Ts | 2s 3s 4s 5s 9s | 6c 6d 6h 8c 8h"]


@pytest.mark.parametrize("flags", [["False", "True"], "01", [float("nan"), True], [1, 0], [None, None], True])
def test_surrender_flags_must_be_bools(flags: Any) -> None:
    with pytest.raises(TypeError, match="surrender"):
        cp.settle(_HANDS, {"surrender_units": 2}, surrender=flags)


def test_surrender_accepts_numpy_bools() -> None:
    result = cp.settle(_HANDS, {"surrender_units": 2}, surrender=np.array([True, False]))
    plain = cp.settle(_HANDS, {"surrender_units": 2}, surrender=[True, False])
    assert result.net == plain.net
    assert result.net[0] < 0


# --- public entry points name themselves ------------------------------------------------------------------

_U8 = np.zeros((1, 13), dtype=np.uint8)


_CASES: list[tuple[str, Callable[..., Any], tuple[Any, ...]]] = [
    ("evaluate", evaluate, (None,)),
    ("evaluate", evaluate, (1.5,)),
    ("evaluate_batch", evaluate_batch, ("As Ks Qs Js Ts",)),
    ("evaluate_batch", evaluate_batch, (None,)),
    ("evaluate_batch", evaluate_batch, (np.zeros((2, 5)),)),
    ("evaluate_batch", evaluate_batch, ([[0, 1, 2, 3, 4]],)),
    ("evaluate_batch", evaluate_batch, (np.zeros((2, 5), dtype=np.uint8), None)),
    ("settle_batch", cp.settle_batch, ("x",)),
    ("settle_batch", cp.settle_batch, (None,)),
    ("settle_batch", cp.settle_batch, (np.zeros((1, 2, 13)),)),
    ("settle_batch", cp.settle_batch, ([[list(range(13)), list(range(13, 26))]],)),
    ("settle_batch", cp.settle_batch, (np.zeros((1, 2, 13), dtype=np.uint8), 5)),
    ("settle", cp.settle, (None,)),
    ("settle", cp.settle, (1.5,)),
    ("settle", cp.settle, ([None, None],)),
    ("settle", cp.settle, ([1.5, 2.5],)),
    ("settle", cp.settle, (_HANDS, 5)),
    ("settle", cp.settle, (_HANDS, None, "xx")),
    ("settle", cp.settle, (_HANDS, None, None, None, 7)),
    ("settle", cp.settle, (_HANDS, None, None, None, "ab")),
    ("parse_cards", cp.parse_cards, (None,)),
    ("parse_cards", cp.parse_cards, (1.5,)),
    ("parse_cards", cp.parse_cards, ([1.5],)),
    ("parse_card", cp.parse_card, (None,)),
    ("format_card", cp.format_card, (None,)),
    ("format_cards", cp.format_cards, (None,)),
]


@pytest.mark.parametrize(("name", "function", "args"), _CASES)
def test_type_errors_name_the_public_function(name: str, function: Callable[..., Any], args: Any) -> None:
    with pytest.raises(TypeError) as caught:
        function(*args)
    message = str(caught.value)
    assert message.startswith(f"{name}: ")
    assert "_core" not in message
    assert "incompatible function arguments" not in message


# --- the score command on hostile input --------------------------------------------------------------

GOOD = {
    "players": [
        {"name": "A", "front": "2c 3d 4h", "middle": "6s 7s 8d 9c Jh", "back": "Qs Ks Ad 5c 5d"},
        {"name": "B", "front": "Tc Th Ts", "middle": "2s 3s 4s 5s 9s", "back": "6c 6d 6h 8c 8h"},
    ]
}
GOOD_LINE = json.dumps(GOOD).encode()
SURROGATE_LINE = GOOD_LINE.replace(b'"name": "A"', b'"name": "\\ud800"')


class Run:
    """One in-process run of ``chinese-poker``: exit code, stdout and stderr (each a strict UTF-8 stream,
    as a pipe is), and the exception that escaped, if any."""

    def __init__(self, code: int | None, out: bytes, err: bytes, escaped: BaseException | None) -> None:
        self.code = code
        self.out = out.decode("utf-8")
        self.err = err.decode("utf-8")
        self.escaped = escaped

    @property
    def errors(self) -> list[str]:
        lines = self.err.replace("\r\x1b[K", "\n").splitlines()  # the progress bar's redraws apart
        return [line for line in lines if line.startswith("chinese-poker: error: ")]


def run_cli(monkeypatch: pytest.MonkeyPatch, args: list[str], stdin: bytes = b"") -> Run:
    out = io.BytesIO()
    err = io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", errors="strict", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", errors="strict", write_through=True)
    stdin_stream = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    monkeypatch.setattr("sys.stdout", stdout)
    monkeypatch.setattr("sys.stderr", stderr)
    monkeypatch.setattr("sys.stdin", stdin_stream)
    code: int | None = None
    escaped: BaseException | None = None
    try:
        code = main(args)
    except BaseException as error:
        escaped = error
    stdout.flush()
    stderr.flush()
    return Run(code, out.getvalue(), err.getvalue(), escaped)


BAD_LINES: dict[str, bytes] = {
    "truncated": GOOD_LINE[:40],
    "nested": b"[" * 993 + b"]" * 993,
    "nested-in-a-round": b'{"players": ' + b"[" * 1200 + b"]" * 1200 + b"}",
    "unclosed-nesting": b"{" * 5000,
    "huge-number": b'{"id": ' + b"9" * 4301 + b', "players": []}',
    "huge-number-in-a-card": GOOD_LINE.replace(b'"2c 3d 4h"', b"[" + b"7" * 5000 + b", 1, 2]"),
    "binary": bytes(range(256)).replace(b"\n", b""),
    "latin-1": b'{"id": "caf\xe9", "players": []}',
    "overlong-utf8": b'{"id": "\xc0\xaf"}',
    "encoded-surrogate": b'{"id": "\xed\xa0\x80"}',
    "not-an-object": b"[1, 2, 3]",
    "nul": b"\x00",
}


@pytest.mark.parametrize("kind", sorted(BAD_LINES))
def test_every_bad_line_is_one_error_and_the_good_rounds_are_settled(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "rounds.jsonl"
    path.write_bytes(b"\n".join([GOOD_LINE, BAD_LINES[kind], SURROGATE_LINE, b"", GOOD_LINE]) + b"\n")
    run = run_cli(
        monkeypatch, ["score", str(path), "--keep-going", "--format", "jsonl", "--progress", "never"]
    )
    assert run.escaped is None, repr(run.escaped)
    assert run.code == 2
    assert len(run.errors) == 1, run.err
    assert run.errors[0].startswith(f"chinese-poker: error: {path}: line 2")
    outputs = [json.loads(line) for line in run.out.splitlines()]
    assert [out["id"] for out in outputs] == [1, 3, 4]
    assert outputs[1]["players"][0]["name"] == "\ud800"  # the escape written back, the string kept
    assert "1 of 4 rounds could not be settled" in run.err


def test_bad_encoding_names_the_line_and_byte_offset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "rounds.jsonl"
    bad = b'{"id": "caf\xe9"}'
    path.write_bytes(GOOD_LINE + b"\n" + bad + b"\n")
    run = run_cli(monkeypatch, ["score", str(path), "--keep-going", "--format", "jsonl"])
    offset = len(GOOD_LINE) + 1 + bad.index(b"\xe9")
    assert run.errors == [
        f"chinese-poker: error: {path}: line 2: not UTF-8 at byte offset {offset}: "
        "invalid continuation byte (byte 0xe9)"
    ]
    assert run.code == 2


def test_messages_of_malformed_lines_are_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "rounds.jsonl"
    path.write_bytes(GOOD_LINE + b'\r\n{"players": [\r\n')
    run = run_cli(monkeypatch, ["score", str(path), "--keep-going", "--format", "jsonl"])
    assert run.errors == [
        f"chinese-poker: error: {path}: line 2: malformed JSON at column 14: Expecting value"
    ]


@pytest.mark.parametrize("name", ["rounds.json", "rounds.jsonl", "rounds"])
@pytest.mark.parametrize(
    "data",
    [
        b'{"id": "caf\xe9", "players": []}',  # Latin-1
        b"\xef\xbb\xbf" + GOOD_LINE,  # a byte order mark, then one round
        b"\xef\xbb\xbf" + GOOD_LINE + b"\n" + GOOD_LINE + b"\n",
        json.dumps([GOOD, GOOD]).encode(),
        GOOD_LINE + b"\n\xff\n" + GOOD_LINE,
        b"\xff\xfe\x00\x00",
        SURROGATE_LINE,
    ],
)
def test_a_file_and_the_same_bytes_on_stdin_are_read_alike(
    name: str, data: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    common = ["--keep-going", "--format", "jsonl", "--progress", "never"]
    from_file = run_cli(monkeypatch, ["score", str(path), *common])
    from_stdin = run_cli(monkeypatch, ["score", "-", *common], stdin=data)
    assert from_file.escaped is None
    assert from_stdin.escaped is None
    assert from_file.code in (0, 2)
    if name != "rounds.jsonl":  # a .jsonl name is JSON Lines; the same bytes on stdin are decided by content
        assert (from_file.code, from_file.out) == (from_stdin.code, from_stdin.out)
        assert from_file.err.replace(str(path), "<stdin>") == from_stdin.err
    if data.startswith(b'{"id": "caf'):
        assert from_stdin.code == 2
        assert "not UTF-8 at byte offset 11" in from_stdin.err


@pytest.mark.parametrize(
    ("name", "data", "fragment"),
    [
        ("rules.toml", b'wheel = "caf\xe9"', "not UTF-8 at byte offset 12"),
        ("rules.json", bytes(range(256)), "not UTF-8 at byte offset 128"),
        ("rules.json", b'{"naturals": ' + b"[" * 993 + b"]" * 993 + b"}", "nested too deeply"),
        ("rules.toml", b"naturals = " + b"[" * 993 + b"]" * 993, "nested too deeply"),
        ("rules.json", b'{"scoop_bonus": ' + b"9" * 4301 + b"}", "4300"),
        ("rules.toml", b"scoop_bonus = " + b"9" * 4301, "4300"),
        ("rules.json", b'{"wheel": "\\ud800"}', "wheel"),
        ("rules.json", b'{"\\udfff": 1}', "unknown rules knob"),
        ("rules.json", b'{"wheel": ', "malformed JSON"),
    ],
)
def test_hostile_rules_files_are_one_error(
    name: str, data: bytes, fragment: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    rounds = tmp_path / "rounds.jsonl"
    rounds.write_bytes(GOOD_LINE + b"\n")
    for args in (["rules", str(path)], ["score", "--rules", str(path), str(rounds)]):
        run = run_cli(monkeypatch, args)
        assert run.escaped is None, repr(run.escaped)
        assert run.code == 2
        assert len(run.err.splitlines()) == 1, run.err
        assert run.err.startswith(f"chinese-poker: error: rules file {str(path)!r}: ")
        assert fragment in run.err
        assert run.out == ""


def test_rules_file_with_a_bom_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "rules.json"
    path.write_bytes(b'\xef\xbb\xbf{"wheel": "second"}')
    run = run_cli(monkeypatch, ["rules", str(path), "--format", "json"])
    assert run.code == 0
    assert json.loads(run.out)["wheel"] == "second"


@pytest.mark.parametrize("kind", ["latin-1", "nested", "huge-number", "binary", "truncated"])
def test_verify_reports_a_hostile_file_as_one_error(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rounds = tmp_path / "rounds.jsonl"
    rounds.write_bytes(GOOD_LINE + b"\n")
    expected = tmp_path / "expected.jsonl"
    scored = run_cli(monkeypatch, ["score", str(rounds), "--format", "jsonl"])
    expected.write_text(scored.out, encoding="utf-8")
    actual = tmp_path / "actual.json"
    actual.write_bytes(BAD_LINES[kind])
    run = run_cli(monkeypatch, ["verify", str(expected), str(actual)])
    assert run.escaped is None, repr(run.escaped)
    assert run.code == 2
    assert len(run.errors) == 1, run.err
    assert len(run.err.splitlines()) == 1, run.err


def _fuzz_line(rng: random.Random) -> tuple[bytes, bool]:
    """One JSON Lines line and whether it is a good round."""
    roll = rng.random()
    if roll < 0.4:
        line = GOOD_LINE if rng.random() < 0.7 else SURROGATE_LINE
        return line, True
    kind = rng.choice(sorted(BAD_LINES))
    line = BAD_LINES[kind]
    if rng.random() < 0.3:  # cut it anywhere: at worst another malformed line
        line = line[: rng.randrange(1, len(line) + 1)] if len(line) > 1 else line
    if not line.strip():
        line = b"\x00"
    return line, False


def test_fuzz_score_keep_going(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(20261201)
    for case in range(60):
        lines = [_fuzz_line(rng) for _ in range(rng.randrange(1, 12))]
        if case % 3 == 0:
            lines[0] = (GOOD_LINE, True)  # stdin is decided by content: a good first line makes it JSON Lines
        data = b"\n".join(line for line, _ in lines) + (b"\n" if rng.random() < 0.5 else b"")
        if rng.random() < 0.2:
            data = b"\xef\xbb\xbf" + data
        form = rng.choice(["jsonl", "json", "table"])
        args = ["score", "--keep-going", "--format", form, "--progress", rng.choice(["never", "always"])]
        if case % 3 == 0:
            run = run_cli(monkeypatch, [*args, "-"], stdin=data)
        else:
            path = tmp_path / f"case{case}.jsonl"
            path.write_bytes(data)
            run = run_cli(monkeypatch, [*args, str(path)])
        what = f"case {case}: {data[:300]!r}"
        assert run.escaped is None, f"{what}: {run.escaped!r}"
        assert "Traceback" not in run.err, what
        good = sum(1 for _, ok in lines if ok)
        assert run.code == (0 if good == len(lines) else 2), what
        if form == "jsonl":
            settled = len(run.out.splitlines())
        elif form == "json":
            settled = len(json.loads(run.out))
        else:
            settled = run.out.count(" under pagat\n")
        assert settled == good, what
        assert len(run.errors) == len(lines) - good, f"{what}: {run.err}"


# --- streaming --------------------------------------------------------------------------------------------


class _WatchedLines(io.RawIOBase):
    """A stdin that gives a line at a time, as a pipe does when its writer waits for each answer, and
    notes, as each line is taken, how many rounds were already written."""

    def __init__(self, lines: list[bytes], stdout: io.StringIO) -> None:
        self.lines = list(lines)
        self.stdout = stdout
        self.seen: list[int] = []
        self.pending = b""

    def readinto(self, buffer: Any) -> int:
        if not self.pending and self.lines:
            self.seen.append(len(self.stdout.getvalue().splitlines()))
            self.pending = self.lines.pop(0)
        size = min(len(buffer), len(self.pending))
        buffer[:size] = self.pending[:size]
        self.pending = self.pending[size:]
        return size

    def readable(self) -> bool:
        return True


def test_output_is_written_as_rounds_are_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    stdout = io.StringIO()
    watched = _WatchedLines([GOOD_LINE + b"\n"] * 5, stdout)
    stdin = io.StringIO()
    stdin.buffer = watched  # type: ignore[misc]
    monkeypatch.setattr("sys.stdin", stdin)
    monkeypatch.setattr("sys.stdout", stdout)
    assert main(["score", "-", "--format", "jsonl", "--progress", "never"]) == 0
    # The first two lines are read before anything is settled (the content decides JSON Lines); from then
    # on each line is read after the rounds before it were written.
    assert watched.seen == [0, 0, 2, 3, 4]
    assert len(stdout.getvalue().splitlines()) == 5


def test_progress_counts_a_stream_of_unknown_length(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Progress(None, "settling", unit="rounds").render(12, 3.2) == "settling 12 rounds, 3s"
    run = run_cli(
        monkeypatch,
        ["score", "-", "--format", "jsonl", "--progress", "always"],
        stdin=(GOOD_LINE + b"\n") * 3,
    )
    assert run.code == 0
    drawn = [part for part in run.err.split("\r\x1b[K") if part]
    assert drawn  # drawn from the start, at most ten times a second: the first count at least
    assert all(part.startswith("settling ") and " rounds, " in part for part in drawn)
    assert "%" not in run.err


@pytest.mark.slow
def test_score_streams_in_flat_memory(tmp_path: Path) -> None:
    """Settling 40,000 rounds takes no more memory than settling 10,000: the 30,000 more lines alone are
    5.5 MiB of text (and far more as parsed rounds), the peaks differ by less than 3 MiB (measured: 0.3),
    and both stay under 200 MiB. Each size spans several of the core's batches (4,096 rounds), so what
    one batch holds is in both peaks and only a per-round leftover could tell them apart."""
    if os.environ.get("CP_SANITIZED") == "1":
        # AddressSanitizer's shadow memory and quarantine dominate the peak there (about 500 MiB for this
        # run): the bound is about the program's own memory, checked by the plain build of every CI run.
        pytest.skip("peak memory is not the program's under AddressSanitizer")
    peaks = []
    for count in (10_000, 40_000):
        path = tmp_path / f"many-{count}.jsonl"
        with path.open("wb") as stream:
            for _ in range(count // 1000):
                stream.write((GOOD_LINE + b"\n") * 1000)
        code, lines, peak_kib = score_peak_memory(path, "--format", "jsonl", "--progress", "never")
        assert (code, lines) == (0, count)
        assert peak_kib < 200 * 1024, f"{count} rounds: peak RSS {peak_kib / 1024:.0f} MiB"
        peaks.append(peak_kib)
    assert len(GOOD_LINE) * 30_000 > 5 * 1024 * 1024
    assert peaks[1] - peaks[0] < 3 * 1024, f"peak RSS grew by {(peaks[1] - peaks[0]) / 1024:.1f} MiB"
