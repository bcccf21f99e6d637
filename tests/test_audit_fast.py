"""The audit's fast path (chinese_poker.audit_log, the core's fair_audit_lines) against its general twin
(stream_rounds and audit_record, line by line): the same report on random logs, on every field of a
receipt changed in turn, on changed deals and on other spellings of the same rounds."""

from __future__ import annotations

import copy
import io
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import chinese_poker._core as _core
import pytest
from chinese_poker import fair
from chinese_poker.audit import audit_record
from chinese_poker.audit_log import RECEIPT_FORMAT, _fast_rules, audit_log
from chinese_poker.cards import format_card
from chinese_poker.formats.records import stream_rounds
from chinese_poker.formats.rounds import ENGINE, RoundError, parse_round, round_output, settle_round

KEY = b"k" * 24
SEED = bytes(range(7, 39))
CLIENTS = [b"north", b"south", b"east", b"west"]
PRESETS = ("pagat", "capsa-susun", "pusoy", "maubinh", "pagat-bonus")

Report = list[object]


def general(data: bytes, key: bytes | None) -> Report:
    """The report of the general path: each round's mismatches as text, or its error."""
    report: Report = []
    for raw in stream_rounds(io.BytesIO(data)).records:
        try:
            if raw.error is not None:
                raise RoundError(raw.error, raw.where)
            report.append([str(m) for m in audit_record(raw.data, raw.where, key)])
        except RoundError as error:
            report.append(("error", str(error)))
    return report


def fast(data: bytes, key: bytes | None) -> Report:
    return [
        ("error", str(found)) if isinstance(found, RoundError) else [str(m) for m in found]
        for found in audit_log(io.BytesIO(data), key)
    ]


def statuses(data: bytes, key: bytes | None) -> list[int]:
    names, specs, digests = _fast_rules()
    engine = (str(ENGINE["name"]), str(ENGINE["version"]))
    status = _core.fair_audit_lines(data, names, specs, digests, *engine, RECEIPT_FORMAT, key or b"")
    return [int(s) for s in status]


def replay_line(nonce: int, rules: str, players: int, rng: random.Random) -> dict[str, Any]:
    """A compact replay: each seat's dealt cards laid in a random order (fouls included)."""
    cards = fair.deal(SEED, CLIENTS, nonce, rules, players)
    seats = []
    for seat in range(players):
        hand = [int(c) for c in cards[seat]]
        rng.shuffle(hand)
        rows = (hand[:3], hand[3:8], hand[8:])
        spelled = [" ".join(format_card(c) for c in row) if rng.random() < 0.7 else row for row in rows]
        seats.append({"name": f"seat{seat}", "front": spelled[0], "middle": spelled[1], "back": spelled[2]})
    seeds = {"commitment": fair.commitment(SEED), "server_seed": SEED.hex(),
             "client_seeds": [c.hex() for c in CLIENTS], "nonce": nonce}  # fmt: skip
    return {"id": nonce, "rules": rules, "players": seats, "deal": seeds}


def output_line(replay: dict[str, Any], key: bytes | None) -> dict[str, Any]:
    plain = {k: v for k, v in replay.items() if k != "deal"}
    rnd = parse_round(plain)
    settlement = settle_round(rnd)
    out = round_output(rnd, settlement)
    out["receipt"] = settlement.receipt(key)
    loaded: dict[str, Any] = json.loads(json.dumps(out))
    return loaded


def random_log(seed: int, count: int, key: bytes | None) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    lines = []
    for nonce in range(count):
        rules = rng.choice(PRESETS)
        # maubinh's ace_basis "table" settles 4 players only (a line of 3 is an error: tested below).
        players = 4 if rules == "maubinh" else rng.choice((2, 3, 4))
        replay = replay_line(seed * 1000 + nonce, rules, players, rng)
        lines.append(replay if rng.random() < 0.5 else output_line(replay, key))
    return lines


def text_of(lines: list[dict[str, Any]]) -> bytes:
    return ("\n".join(json.dumps(line) for line in lines) + "\n").encode("ascii")


@pytest.mark.parametrize("key", [None, KEY])
def test_fast_and_general_agree_on_random_logs(key: bytes | None) -> None:
    lines = random_log(1 if key else 2, 24, key)
    data = text_of(lines)
    assert fast(data, key) == general(data, key) == [[]] * len(lines)
    # Every line was taken by the fast path (status 1), the trailing newline's empty line is blank (2).
    assert statuses(data, key) == [1] * len(lines) + [2]


def paths(value: object, path: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    """The path of every leaf of a JSON value."""
    if isinstance(value, dict):
        for name, item in value.items():
            yield from paths(item, (*path, name))
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from paths(item, (*path, index))
    else:
        yield path


def changed(value: object) -> object:
    """Another value of the same JSON kind (a bool flipped, an int moved, a string's last digit changed)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1 if value != 51 else 50
    if isinstance(value, str):
        return value[:-1] + ("0" if value[-1] != "0" else "1") if value else "x"
    return 1 if value is None else None


def set_path(data: Any, path: tuple[object, ...], value: object) -> None:
    for step in path[:-1]:
        data = data[step]
    data[path[-1]] = value


@pytest.mark.parametrize("key", [None, KEY])
def test_every_receipt_field_changed_in_turn(key: bytes | None) -> None:
    rng = random.Random(5)
    base = output_line(replay_line(77, "pagat", 3, rng), key)
    tampered = []
    for path in paths(base["receipt"]):
        line = copy.deepcopy(base)
        set_path(line["receipt"], path, changed(_get(base["receipt"], path)))
        tampered.append(line)
    for name in list(base["receipt"]):
        line = copy.deepcopy(base)
        del line["receipt"][name]
        tampered.append(line)
    line = copy.deepcopy(base)
    line["receipt"]["extra"] = 1
    tampered.append(line)
    data = text_of([base, *tampered])
    report = fast(data, key)
    assert report == general(data, key)
    assert report[0] == []
    assert all(found for found in report[1:])  # every change is caught
    assert statuses(data, key)[: len(tampered) + 1] == [1] + [0] * len(tampered)


def _get(data: Any, path: tuple[object, ...]) -> object:
    for step in path:
        data = data[step]
    return data


def test_changed_output_fields_and_deals_agree() -> None:
    rng = random.Random(9)
    replay = replay_line(3, "capsa-susun", 4, rng)
    out = output_line(replay, None)
    lines: list[object] = [replay, out]
    for name, value in (("net", None), ("rules_digest", "0" * 64), ("rules", "pusoy"), ("rules", "nope")):
        line = copy.deepcopy(out)
        line[name] = value if value is not None else [n + 1 for n in out["net"]]
        lines.append(line)
    line = copy.deepcopy(out)
    line["pairs"][2]["units"] += 1
    lines.append(line)
    for path, value in (
        (("deal", "nonce"), 4),
        (("deal", "commitment"), "ab" * 32),
        (("deal", "commitment"), fair.commitment(SEED).upper()),
        (("deal", "server_seed"), bytes(range(8, 40)).hex()),
        (("deal", "client_seeds", 1), b"souths".hex()),
        (("deal", "nonce"), -1),
        (("deal", "nonce"), 2**64),
        (("players", 1, "name"), "seat0"),
        (("players", 0, "name"), "  "),
        (("players", 2, "front"), "As Ks"),
        (("id",), 1.5),
    ):
        line = copy.deepcopy(replay)
        set_path(line, path, value)
        lines.append(line)
    line = copy.deepcopy(replay)
    first, second = line["players"][0], line["players"][1]
    first["back"], second["back"] = second["back"], first["back"]  # the cards moved between seats
    lines.append(line)
    line = copy.deepcopy(replay)
    line["stakes"] = None
    lines.append(line)
    lines.append(replay_line(5, "maubinh", 3, rng))  # the core refuses to settle it: an error
    data = text_of(lines)  # type: ignore[arg-type]
    report = fast(data, None)
    assert report == general(data, None)
    assert report[:2] == [[], []]
    # All but the intact lines are caught, and two spellings the general path accepts: the commitment in
    # capitals (compared without case) and "stakes": null (no stakes). The fast path leaves both to it.
    assert [k for k, found in enumerate(report) if not found] == [0, 1, 9, 19]
    assert statuses(data, None)[:2] == [1, 1]
    assert statuses(data, None)[9] == statuses(data, None)[19] == 0


def test_other_spellings_and_broken_text_agree() -> None:
    rng = random.Random(11)
    replay = replay_line(8, "pagat", 4, rng)
    out = output_line(replay, None)
    compact = json.dumps(out, separators=(",", ":"))
    reordered = json.dumps(dict(reversed(list(out.items()))), indent=None)
    text = "\n".join(
        [
            "\ufeff" + json.dumps(replay),
            "   ",
            compact,
            reordered + "\r",
            json.dumps(replay).replace(": ", ":\t"),
            compact[:-1],
            compact.replace('"rules": "pagat"', '"rules": "pagat", "rules": "pagat"'),
            compact.replace(":", ": ", 3),
            json.dumps(out, ensure_ascii=False).replace("Ace", "\u00c1ce"),
            json.dumps(replay).replace("seat1", "se\\u0061t1"),
            "[1, 2]",
            "nul",
            compact + " x",
        ]
    ).encode("utf-8")
    text += b"\n" + b'{"id": 1, "players": "\xff"}' + b"\r\n"
    report = fast(text, None)
    assert report == general(text, None)
    assert report[:3] == [[], [], []]
    assert statuses(text, None)[:4] == [0, 2, 1, 1]  # a BOM is for the general reader to take off


def test_blocks_of_every_size_give_the_same_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """The log is read a block of bytes at a time: a line cut by a block's end, a byte order mark cut
    after its first bytes, CRLF, blank lines, a last line without newline, bytes that are not UTF-8 and
    mismatches give the report (line numbers and byte offsets included) of the general path."""
    lines = [json.dumps(line) for line in random_log(3, 6, None)]
    broken = json.loads(lines[1])
    broken["players"][0]["name"] = broken["players"][1]["name"]  # a name twice: an error
    text = "\ufeff" + "\n\n".join(lines[:3]) + "\r\n  \n" + json.dumps(broken) + "\n" + "\n".join(lines[3:])
    data = text.encode("utf-8") + b'\n{"id": 1, "players": "\xff"}\n' + lines[0].encode("ascii")
    tampered = data.replace(b'"net": [', b'"net": [1', 1)
    assert general(data, None) != general(tampered, None)
    import chinese_poker.audit_log as audit_log_module  # noqa: PLC0415

    for chunk in (1, 2, 3, 4, 7, 64, 1000, 1 << 20):
        monkeypatch.setattr(audit_log_module, "CHUNK_BYTES", chunk)
        for log in (data, tampered, data[3:], data.rstrip(b"0123456789}]\n"), b"\xef\xbb", b"", b"\n\n"):
            assert fast(log, None) == general(log, None), (chunk, log[:20])
            as_lines = [
                ("error", str(found)) if isinstance(found, RoundError) else [str(m) for m in found]
                for found in audit_log(io.BytesIO(log), None, json_lines=True)
            ]
            assert as_lines == general_lines(log)


def general_lines(data: bytes) -> Report:
    """The general path's report of bytes read as JSON Lines, whatever their content."""
    report: Report = []
    for raw in stream_rounds(io.BytesIO(data), json_lines=True).records:
        try:
            if raw.error is not None:
                raise RoundError(raw.error, raw.where)
            report.append([str(m) for m in audit_record(raw.data, raw.where, None)])
        except RoundError as error:
            report.append(("error", str(error)))
    return report


#: Bytes a mutation puts in: JSON's punctuation, digits, letters of its literals, a space.
_MUTATION_BYTES = ' "{}[],:-+.0123456789eEtrufalsn'


def mutated(text: str, rng: random.Random) -> str:
    """``text`` with one byte changed, taken out or put in."""
    at = rng.randrange(len(text))
    byte = rng.choice(_MUTATION_BYTES)
    kind = rng.randrange(3)
    if kind == 0:
        return text[:at] + byte + text[at + 1 :]
    if kind == 1:
        return text[:at] + text[at + 1 :]
    return text[:at] + byte + text[at:]


@pytest.mark.parametrize("key", [None, KEY])
def test_random_byte_changes_agree(key: bytes | None) -> None:
    """One byte of a line changed anywhere (most of an output round's bytes are the players' rows and
    the pairs' breakdowns, which the fast path only checks as JSON): the same report as the general
    path, whether the change breaks the JSON, changes a value the audit compares or one it does not."""
    rng = random.Random(17 if key else 19)
    base = [json.dumps(line) for line in random_log(4 if key else 6, 12, key)]
    # The first line intact, so that the file reads as JSON Lines whatever the others hold.
    lines = [base[0]] + [mutated(rng.choice(base), rng) for _ in range(400)]
    data = ("\n".join(lines) + "\n").encode("ascii")
    report = fast(data, key)
    assert report == general(data, key)
    assert len(report) == len(lines)
    taken = statuses(data, key)[: len(lines)]
    # Both kinds of change occur: those caught (a mismatch or an error) and those that keep every
    # compared value (a name's letter, a row's text), which the fast path passes.
    assert any(found for found in report)
    assert taken.count(1) > 20
    assert all(report[k] == [] for k, state in enumerate(taken) if state == 1)


@pytest.mark.parametrize(
    ("old", "new", "valid"),
    [
        ('"index": 0', '"index": 00', False),
        ('"index": 0', '"index": 0.', False),
        ('"index": 0', '"index": 0.5e-3', True),
        ('"index": 0', '"index": 0e', False),
        ('"index": 0', '"index": 1E+99999', True),  # inf to Python; the fast path leaves it
        ('"index": 0', '"index": -', False),
        ('"index": 0', '"index": 0x', False),
        ('"foul": false', '"foul": fals', False),
        ('"foul": false', '"foul": falsey', False),
        ('"natural": null', '"natural": [[[[1]]]]', True),
        ('"natural": null', '"natural": ' + "[" * 70 + "]" * 70, True),  # deeper than the fast path reads
        ('"natural": null', '"natural": [1,]', False),
        ('"natural": null', '"natural": {"a": 1,}', False),
        ('"natural": null', '"natural": {"a" 1}', False),
        ('"natural": null', '"natural": {}', True),
        ('"natural": null', '"natural": [ ]', True),
        ('"royalty": 0}', '"royalty": 0 }', True),
        ('"royalty": 0}', '"royalty": 0,}', False),
        ('"units": ', '"units": 1, "units": ', True),  # a key twice: the general reader keeps the last
    ],
)
def test_broken_json_in_passed_over_values(old: str, new: str, valid: bool) -> None:
    rng = random.Random(23)
    line = json.dumps(output_line(replay_line(31, "pagat", 4, rng), None))
    assert old in line
    data = (line.replace(old, new, 1) + "\n").encode("ascii")
    report = fast(data, None)
    assert report == general(data, None)
    assert (report == [[]]) == valid


def _receipt_span(line: str) -> tuple[int, int]:
    """Where the receipt's object stands in a line as ``score --receipts`` writes it."""
    start = line.index('"receipt": ') + len('"receipt": ')
    return start, len(line) - 1


@pytest.mark.parametrize("key", [None, KEY])
def test_every_byte_of_a_written_receipt_changed(key: bytes | None) -> None:
    """The receipt as our writer spells it is read by its spelling first (runs of bytes between the
    values): each of its bytes changed in turn to a byte of JSON's punctuation, a digit or a letter gives
    the general path's report, whether the change breaks the JSON, changes a field or only its spelling."""
    rng = random.Random(29 if key else 31)
    line = json.dumps(output_line(replay_line(41, "pagat", 4, rng), key))
    start, end = _receipt_span(line)
    lines = [line]
    for at in range(start, end):
        byte = _MUTATION_BYTES[at % len(_MUTATION_BYTES)]
        if byte == line[at]:
            byte = "7" if line[at] != "7" else "x"
        lines.append(line[:at] + byte + line[at + 1 :])
    data = ("\n".join(lines) + "\n").encode("ascii")
    report = fast(data, key)
    assert report == general(data, key)
    assert report[0] == []
    assert sum(1 for found in report if found) > (end - start) // 2


@pytest.mark.parametrize("key", [None, KEY])
def test_receipt_spellings_and_lies_agree(key: bytes | None) -> None:
    """Other spellings of the same receipt (keys reordered, other white space, escapes, numbers spelled
    otherwise) and lines whose other fields lie about it: the fast path's report is the general path's,
    and the spellings the general path accepts pass."""
    rng = random.Random(37)
    out = output_line(replay_line(43, "capsa-susun", 3, rng), key)
    receipt = out["receipt"]
    line = json.dumps(out)
    start, end = _receipt_span(line)
    written = line[start:end]
    decided = receipt["pairs"][0]["decided_by"]

    def with_receipt(text: str) -> str:
        return line[:start] + text + line[end:]

    spelled_otherwise = [
        json.dumps(dict(reversed(list(receipt.items())))),
        json.dumps(receipt, separators=(",", ":")),
        json.dumps(receipt, indent=None).replace(", ", " ,  ", 7),
        written.replace("{", "{ ", 1),
        json.dumps({**receipt, "engine": dict(reversed(list(receipt["engine"].items())))}),
        written.replace('"decided_by": "', '"decided_by":"', 1),
    ]
    changed_receipts = [
        written.replace(
            f'"decided_by": "{decided}"', f'"decided_by": "\\u{ord(decided[0]):04x}{decided[1:]}"'
        ),
        written.replace('"format": "', '"format": "\\u0063', 1),
        written.replace('"hands": [[', '"hands": [[0', 1),
        written.replace('"hands": [[', '"hands": [[-', 1),
        written.replace(', "surrendered": [false', ', "surrendered": [true', 1),
        written.replace('"banker": null', '"banker": 0', 1),
        written.replace('"bets": null', '"bets": [1, 1, 1]', 1),
        written.replace('"players": 3', '"players": 03', 1),
        written.replace('"players": 3', '"players": 3.0', 1),
        written.replace('"players": 3', '"players": 4', 1),
        written.replace('"stake": 1', '"stake": 1e0', 1),
        written.replace('"stake": 1', '"stake": -0', 1),
        written.replace('"units": ', '"units": 1', 1),
        written.replace('"net": [', '"net": [99999999999999999999, ', 1),
        written.replace('"net": [', '"net": [], "x": [', 1),
        written.replace('"pairs": [', '"pairs": [], "y": [', 1),
        written.replace('"sha256": "', '"sha256": "0', 1),
        written[:-1] + ', "sha256": "00"}',
        written[:-1] + ', "hmac_sha256": "00"}',
        written[:-1] + ', "note": 1}',
    ]
    assert written not in spelled_otherwise + changed_receipts
    lies = []
    for name, value in (("rules", "pagat"), ("rules", "pusoy"), ("rules_digest", None)):
        lied = copy.deepcopy(out)
        lied[name] = value
        lies.append(json.dumps(lied))
    lines = [line, *map(with_receipt, spelled_otherwise + changed_receipts), *lies]
    data = ("\n".join(lines) + "\n").encode("ascii")
    report = fast(data, key)
    assert report == general(data, key)
    taken = statuses(data, key)
    passing = 1 + len(spelled_otherwise)
    assert report[:passing] == [[]] * passing
    assert taken[:passing] == [1] * passing
    # Also passing: the escape that spells "rows" again (left to the general path, as every line with
    # a backslash is), an "hmac_sha256" when no key is given (not checked) and a null rules digest at the
    # top (not compared). Every other change is caught.
    escaped, hmac_added = passing, passing + changed_receipts.index(written[:-1] + ', "hmac_sha256": "00"}')
    assert taken[escaped] == 0
    unchecked = [escaped] if key else [escaped, hmac_added]
    assert [k for k, found in enumerate(report) if not found] == [*range(passing), *unchecked, len(lines) - 1]


def test_every_byte_of_the_players_and_pairs_changed() -> None:
    """An output round's players and pairs are read by their shape first, the values most rounds hold
    (no foul, natural, surrender or royalty; stake and multiplier 1) compared as bytes with the text
    around them: each byte of them changed in turn (to a byte of JSON's punctuation, a digit or a
    letter), taken out or doubled gives the general path's report. The round holds a foul and a
    royalty, so that values other than the common ones are read there as well."""
    rng = random.Random(53)
    line = ""
    while '"foul": true' not in line or not re.search(r'"royalty": [1-9]', line):
        line = json.dumps(output_line(replay_line(rng.randrange(1000), "pagat-bonus", 2, rng), None))
    start, end = line.index('"players": '), line.index(', "receipt": ')
    lines = [line]
    for at in range(start, end):
        kind = at % 3
        if kind == 0:
            byte = _MUTATION_BYTES[at % len(_MUTATION_BYTES)]
            byte = byte if byte != line[at] else "x"
            lines.append(line[:at] + byte + line[at + 1 :])
        elif kind == 1:
            lines.append(line[:at] + line[at + 1 :])
        else:
            lines.append(line[:at] + line[at] + line[at:])
    data = ("\n".join(lines) + "\n").encode("ascii")
    report = fast(data, None)
    assert report == general(data, None)
    taken = statuses(data, None)[: len(lines)]
    assert report[0] == []
    assert taken[0] == 1
    # Both kinds occur: changes caught, and changes of values the audit does not compare (passed).
    assert any(found for found in report)
    assert taken.count(1) > (end - start) // 4


@pytest.mark.parametrize("byte", ["\x7f", "\t", "\x1f", "\u00c1", "\\\\", "\\u0041"])
def test_a_byte_that_is_not_plain_anywhere_in_a_line(byte: str) -> None:
    """The fast path takes only lines of printable ASCII without a backslash (checked many bytes at a
    time): a byte outside them (DEL, a control byte, a non-ASCII letter, an escape) near the start, the
    end or anywhere in the middle of a line leaves the line to the general path, which gives the report."""
    rng = random.Random(61)
    line = json.dumps(output_line(replay_line(67, "pagat", 4, rng), KEY))
    letters = [k for k, c in enumerate(line) if c.isalpha()]
    picks = letters[:40] + letters[-40:] + letters[40:-40:97]
    lines = [line] + [line[:k] + byte + line[k + 1 :] for k in picks]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    report = fast(data, KEY)
    assert report == general(data, KEY)
    assert report[0] == []
    assert statuses(data, KEY)[: len(lines)] == [1] + [0] * len(picks)


def test_integers_past_int64_never_pass_for_the_settled_ones() -> None:
    """The fast path reads integers of up to 18 digits itself and leaves longer ones to the scanner,
    which bounds them: a net, units or stake off by 2**64 (the same number in 64-bit arithmetic that
    wraps) or of 18 and 19 digits gives the general path's report, a mismatch or an error."""
    rng = random.Random(71)
    out = output_line(replay_line(73, "pagat", 4, rng), None)
    lines = [json.dumps(out)]
    fields: list[tuple[object, ...]] = [
        ("receipt", "pairs", 0, "units"),
        ("receipt", "pairs", 1, "stake"),
        ("receipt", "net", 0),
        ("pairs", 0, "units"),
        ("net", 1),
    ]
    for path in fields:
        settled = _get(out, path)
        assert isinstance(settled, int)
        for value in (
            settled + 2**64,
            settled - 2**64,
            10**17 + 1,
            10**18 - 1,
            1 - 10**18,
            10**18,
            2**63 - 1,
            -(2**63),
        ):
            line = copy.deepcopy(out)
            set_path(line, path, value)
            lines.append(json.dumps(line))
    data = ("\n".join(lines) + "\n").encode("ascii")
    report = fast(data, None)
    assert report == general(data, None)
    assert report[0] == []
    assert all(found for found in report[1:])
