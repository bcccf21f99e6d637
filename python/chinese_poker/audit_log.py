"""Auditing a whole log file (``chinese-poker audit``): every round of it checked by ``audit_record``,
with a fast path for JSON Lines.

The lines of the two common kinds (docs/FAIR.md, "Auditing fast"): output rounds of ``score --receipts``
and compact replays, under a preset of one plain pack, are read, settled, their receipts' canonical bytes
hashed and their deals redone in the compiled core, a chunk of lines per call with the GIL released. A
line passes there only when every check matches; every other line (a mismatch, another shape, bad JSON)
is audited by ``audit_record``, which names what differs. The reports are the same either way.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import chain, islice
from typing import IO

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

__all__ = ["CHUNK_LINES", "audit_log"]

#: Lines handed to the core at a time.
CHUNK_LINES = 2048

_MATCHES, _BLANK = 1, 2

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
        yield from _audit_json_lines(chain(head, lines), secret)
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


def _audit_json_lines(lines: Iterable[tuple[int, int, bytes]], key: bytes | None) -> Iterator[AuditResult]:
    names, specs, digests = _fast_rules()
    engine = (str(ENGINE["name"]), str(ENGINE["version"]))
    position = 0
    source = iter(lines)
    while chunk := list(islice(source, CHUNK_LINES)):
        text = b"".join(line for _, _, line in chunk)
        status = _core.fair_audit_lines(text, names, specs, digests, *engine, RECEIPT_FORMAT, key or b"")
        for (number, offset, line), state in zip(chunk, status.tolist()):
            if state == _BLANK:
                continue
            position += 1
            if state == _MATCHES:
                yield []
                continue
            yield _audit_raw(_line_raw(position, number, offset, line), key)


def _line_raw(position: int, number: int, offset: int, line: bytes) -> RawRound:
    """One JSON Lines record, as ``formats.records`` reads it."""
    try:
        text = jsontext.decode_utf8(line.rstrip(b"\r\n"), offset)
    except JSONTextError as error:
        return RawRound(position, number, error=str(error))
    return _line_record(position, number, text)


def __dir__() -> list[str]:
    return list(__all__)
