"""Auditing a whole log file (``chinese-poker audit``): every round of it checked by ``audit_record``,
with a fast path for JSON Lines.

The lines of the two common kinds (docs/FAIR.md, "Auditing fast"): output rounds of ``score --receipts``
and compact replays, under a preset of one plain pack, are read, settled, their receipts' canonical bytes
hashed and their deals redone in the compiled core, the whole lines of a read of the log (``CHUNK_BYTES``)
per call with the GIL released. A line passes there only when every check matches; every other line (a
mismatch, another shape, bad JSON) is audited by ``audit_record``, which names what differs. The reports
are the same either way.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import chain
from typing import IO

import numpy as np

import chinese_poker._core as _core
import chinese_poker._jsontext as jsontext
from chinese_poker._jsontext import JSONTextError
from chinese_poker.audit import Mismatch, audit_record
from chinese_poker.formats.records import (
    RawRound,
    _document,
    _line_record,
    _numbered_lines,
    sniff_json_lines,
)
from chinese_poker.formats.rounds import ENGINE, RoundError, rules_digest
from chinese_poker.receipts import RECEIPT_FORMAT, _check_key
from chinese_poker.rules import Rules, core_spec

__all__ = ["CHUNK_BYTES", "audit_log"]

#: Bytes read from the stream at a time: the whole lines among them are handed to the core in one call.
CHUNK_BYTES = 1 << 20

_GENERAL, _MATCHES, _BLANK = 0, 1, 2

#: One audited round: its mismatches (none: everything matches), or the error that it cannot be read.
AuditResult = list[Mismatch] | RoundError


@lru_cache(maxsize=1)
def _fast_rules() -> tuple[list[str], list[_core.RulesSpec], list[str]]:
    """The presets the fast path takes (one plain pack, no fantasyland): names, core specs, digests."""
    names, specs, digests = [], [], []
    for name in Rules.presets():
        rules = Rules.preset(name)
        if rules.extra_suits or rules.jokers or rules.fantasyland != "off":
            continue
        names.append(name)
        specs.append(core_spec(rules))
        digests.append(rules_digest(rules))
    return names, specs, digests


@lru_cache(maxsize=4)
def _fast_audit(key: bytes) -> _core.FairAudit:
    """The core's fast path, configured with the presets it takes and the receipts' key (b"": none)."""
    names, specs, digests = _fast_rules()
    return _core.FairAudit(
        names, specs, digests, str(ENGINE["name"]), str(ENGINE["version"]), RECEIPT_FORMAT, key
    )


def audit_log(
    stream: IO[bytes], key: bytes | None = None, *, json_lines: bool | None = None
) -> Iterator[AuditResult]:
    """One result per round of the log's bytes (read as ``formats.records.stream_rounds`` reads them), in
    order: the list of its mismatches (empty when all match), or the ``RoundError`` of a round that cannot
    be read. ``key``: the receipts' HMAC key (at least 16 bytes), when they carry one."""
    secret = _check_key(key)
    lines = _numbered_lines(stream)
    head: list[tuple[int, int, bytes]] = []
    if json_lines is None:  # as stream_rounds decides
        json_lines, head = sniff_json_lines(lines)
    if json_lines:
        yield from _audit_json_lines(head, stream, secret)
        return
    for raw in _document(chain(head, lines)).records:
        yield _audit_raw(raw, secret)


def _audit_raw(raw: RawRound, key: bytes | None) -> AuditResult:
    try:
        if raw.error is not None:
            raise RoundError(raw.error, raw.where)
        return audit_record(raw.data, raw.where, key)
    except RoundError as error:
        return error


def _audit_json_lines(
    head: list[tuple[int, int, bytes]], stream: IO[bytes], key: bytes | None
) -> Iterator[AuditResult]:
    """The rounds of JSON Lines: the ``head`` lines already read (numbered), then the rest of ``stream``
    read a block of whole lines at a time."""
    fast = _fast_audit(key or b"")
    position = 0
    number = head[0][0] if head else 1  # of the block's first line
    for block_offset, text, begin, end in _line_blocks(head, stream):
        status = fast.lines(text, begin, end)
        if text[end - 1 : end] == b"\n":  # the empty line after the last newline is not a line of the file
            status = status[:-1]
        if not (status == _GENERAL).any():
            matched = int(np.count_nonzero(status == _MATCHES))
            position += matched
            yield from [[] for _ in range(matched)]
            number += len(status)
            continue
        offset = block_offset
        for line, state in zip(text[begin:end].split(b"\n"), status.tolist()):
            if state != _BLANK:
                position += 1
                if state == _MATCHES:
                    yield []
                else:
                    yield _audit_raw(_line_raw(position, number, offset, line), key)
            number += 1
            offset += len(line) + 1


def _line_blocks(
    head: list[tuple[int, int, bytes]], stream: IO[bytes]
) -> Iterator[tuple[int, bytes, int, int]]:
    """Whole lines in blocks: (the block's byte offset in the file, bytes, the block's start and end in
    them), the ``head`` lines first, then the rest of ``stream``, a read at a time (a block is most of a
    read, not a copy of it). Lines end at b"\\n" as ``formats.records._numbered_lines`` splits them, and a
    leading byte order mark is skipped as it skips it (counted in the offsets)."""
    offset = 0
    if head:
        text = b"".join(line for _, _, line in head)
        yield head[0][1], text, 0, len(text)
        offset = head[-1][1] + len(head[-1][2])
    pending: list[bytes] = []  # the start of a line not ended yet
    opening = not head  # the file's first bytes, where a byte order mark may stand
    while True:
        read = stream.read(CHUNK_BYTES)
        end = not read
        if opening:
            pending.append(read)
            start = b"".join(pending)
            if len(start) < len(jsontext.BOM) and not end:
                pending = [start]
                continue
            opening, pending = False, []
            if start.startswith(jsontext.BOM):
                start = start[len(jsontext.BOM) :]
                offset += len(jsontext.BOM)
            read = start
        if end:
            if last := b"".join([*pending, read]):
                yield offset, last, 0, len(last)
            return
        cut = read.rfind(b"\n") + 1
        if cut == 0:
            pending.append(read)
            continue
        begin = 0
        if pending:  # the line begun in an earlier read, alone
            begin = read.find(b"\n") + 1
            pending.append(read[:begin])
            first = b"".join(pending)
            yield offset, first, 0, len(first)
            offset += len(first)
        if begin < cut:
            yield offset, read, begin, cut
            offset += cut - begin
        pending = [read[cut:]] if cut < len(read) else []


def _line_raw(position: int, number: int, offset: int, line: bytes) -> RawRound:
    """One JSON Lines record, as ``formats.records`` reads it."""
    try:
        text = jsontext.decode_utf8(line.rstrip(b"\r\n"), offset)
    except JSONTextError as error:
        return RawRound(position, number, error=str(error))
    return _line_record(position, number, text)


def __dir__() -> list[str]:
    return list(__all__)
