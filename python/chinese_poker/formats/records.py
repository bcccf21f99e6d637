"""Reading JSON records from a file's text: one JSON value (an object or a list) or JSON Lines.

Shared by the round reader (``formats.rounds``) and the output reader (``formats.verify``): each record
knows where it stood (its position, and its line in JSON Lines), so every message can name it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from itertools import chain
from typing import IO, Any

import chinese_poker._jsontext as jsontext
from chinese_poker._jsontext import JSONTextError
from chinese_poker._record import record

__all__ = [
    "OutputFileError",
    "RawRound",
    "RecordStream",
    "count_json_lines",
    "json_line_round",
    "read_json_records",
    "read_rounds",
    "sniff_json_lines",
    "split_stream",
    "stream_rounds",
]


class OutputFileError(ValueError):
    """An output file that cannot be read as output rounds (one line of text)."""


@record()
class RawRound:
    """One round as read from a file, before checking: its 1-based ``position`` among the file's rounds (0
    for a file that is not JSON at all), its ``line`` (JSON Lines only, else ``None``), and either the
    decoded ``data`` or the ``error`` met."""

    position: int
    line: int | None
    data: Any = None
    error: str | None = None

    @property
    def where(self) -> str:
        """How error messages name this round: ``"round 3"``, ``"line 7"``, plus its id when it has one
        (empty for position 0: the whole file, which is not JSON)."""
        if self.position == 0:
            return ""
        label = f"line {self.line}" if self.line is not None else f"round {self.position}"
        if isinstance(self.data, Mapping):
            rid = self.data.get("id")
            if isinstance(rid, (str, int)) and not isinstance(rid, bool):
                label += f" (id {json.dumps(rid, ensure_ascii=False)})"
        return label


# ----- reading files -----------------------------------------------------------------------------------


def _looks_like_json_lines(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        return False
    try:
        jsontext.loads(lines[0])
    except JSONTextError:
        return False
    return True


def _document_records(document: Any) -> list[RawRound]:
    items = document if isinstance(document, list) else [document]
    return [RawRound(k + 1, None, data=item) for k, item in enumerate(items)]


def read_json_records(text: str, *, json_lines: bool | None = None) -> tuple[bool, list[RawRound]]:
    """Split a file's text into JSON records: ``(is_json_lines, records)``.

    The text is one JSON value (a round object, or a list of them) or JSON Lines (one object per non-blank
    line). ``json_lines=None`` decides by content: JSON Lines when the text is not one JSON value and its
    first non-blank line is a complete JSON value on its own. Malformed JSON (deep nesting and huge numbers
    included) becomes a record with an ``error`` (one per bad line in JSON Lines; the whole file otherwise).
    """
    if not json_lines:
        try:
            return False, _document_records(jsontext.loads(text))
        except JSONTextError as error:
            if json_lines is not None or not _looks_like_json_lines(text):
                return False, [RawRound(0, None, error=str(error))]
    records = []
    position = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        position += 1
        records.append(_line_record(position, number, line))
    return True, records


def _line_record(position: int, number: int, line: str) -> RawRound:
    """One JSON Lines record: its value, or the one-line error naming the column."""
    try:
        return RawRound(position, number, data=jsontext.loads(line))
    except JSONTextError as error:
        where = f" at column {error.column}" if error.column is not None else ""
        message = str(error).split(": ", 1)[-1]
        return RawRound(position, number, error=f"malformed JSON{where}: {message}")


def read_rounds(text: str, *, json_lines: bool | None = None) -> tuple[bool, list[RawRound]]:
    """The raw rounds of a round file's text (see ``read_json_records``); an empty file holds no round."""
    if not text.strip():
        return bool(json_lines), []
    return read_json_records(text, json_lines=json_lines)


# ----- streaming a file's bytes ------------------------------------------------------------------------


@record()
class RecordStream:
    """The records of a round file read from a byte stream: ``json_lines`` tells the form, ``records``
    yields them as they are read (JSON Lines) or from the whole document, and ``total`` is their count when
    known before reading them all (a whole document), else ``None``."""

    json_lines: bool
    records: Iterator[RawRound]
    total: int | None


_Line = tuple[int, int, bytes]  # (1-based line number, byte offset in the file, the line's bytes)


def _numbered_lines(stream: IO[bytes]) -> Iterator[_Line]:
    """The stream's lines with their numbers and byte offsets; a leading byte order mark is skipped (and
    counted in the offsets)."""
    offset = 0
    for number, read in enumerate(stream, start=1):
        start = offset
        offset += len(read)
        skip = len(jsontext.BOM) if number == 1 and read.startswith(jsontext.BOM) else 0
        yield number, start + skip, read[skip:] if skip else read


def _json_lines(lines: Iterable[_Line]) -> Iterator[RawRound]:
    position = 0
    for number, offset, line in lines:
        if not line.strip():
            continue
        position += 1
        yield json_line_round(position, number, offset, line)


def json_line_round(position: int, number: int, offset: int, line: bytes) -> RawRound:
    """The raw round of one non-blank JSON Lines line: its ``position`` among the file's rounds, its 1-based
    line ``number``, and the byte ``offset`` in the file where ``line`` starts (named by a UTF-8 error)."""
    try:
        text = jsontext.decode_utf8(line.rstrip(b"\r\n"), offset)
    except JSONTextError as error:
        return RawRound(position, number, error=str(error))
    return _line_record(position, number, text)


def _document(lines: Iterable[_Line]) -> RecordStream:
    """The records of a whole document (read at once): one JSON value, or one error for the whole file."""
    items = list(lines)
    data = b"".join(line for _, _, line in items)
    try:
        text = jsontext.decode_utf8(data, items[0][1] if items else 0)
    except JSONTextError as error:
        return RecordStream(False, iter([RawRound(0, None, error=str(error))]), 1)
    is_lines, records = read_rounds(text, json_lines=False)
    return RecordStream(is_lines, iter(records), len(records))


def count_json_lines(path: str) -> int | None:
    """How many records a JSON Lines file holds (its non-blank lines), counted in a pass of its own that
    keeps one line at a time; ``None`` for what is not a regular file (a pipe can be read only once)."""
    try:
        if not os.path.isfile(path):  # checked before opening: opening a pipe would wait for a writer
            return None
        with open(path, "rb") as stream:
            return sum(1 for line in stream if line.strip())
    except OSError:
        return None


def stream_rounds(stream: IO[bytes], *, json_lines: bool | None = None) -> RecordStream:
    """The raw rounds of a round file's bytes, UTF-8 (a byte order mark allowed), decoded strictly.

    JSON Lines (``json_lines=True``, or by content as for ``read_json_records``: the first non-blank line is
    a complete JSON value and another non-blank line follows) is streamed: one line is read, decoded and
    yielded at a time, and a line that is not UTF-8 is a record with an error naming the byte offset. A
    whole document (``json_lines=False``, or by content) is read at once.
    """
    lines = _numbered_lines(stream)
    if json_lines:
        return RecordStream(True, _json_lines(lines), None)
    head: list[_Line] = []
    if json_lines is None:
        found, head = sniff_json_lines(lines)
        if found:
            return RecordStream(True, _json_lines(chain(head, lines)), None)
    return _document(chain(head, lines))


def split_stream(stream: IO[bytes], *, json_lines: bool | None = None) -> tuple[bytes, RecordStream | None]:
    """A round file's bytes told apart as ``stream_rounds`` tells them: ``(head, None)`` for JSON Lines,
    where ``head`` holds the bytes read to decide (a byte order mark included), which the caller reads
    before the rest of the stream; ``(b"", records)`` for a whole document, read at once."""
    if json_lines:
        return b"", None
    lines = _numbered_lines(stream)
    head: list[_Line] = []
    if json_lines is None:
        found, head = sniff_json_lines(lines)
        if found:
            start = jsontext.BOM if head[0][1] else b""  # the first line's offset counts a byte order mark
            return start + b"".join(line for _, _, line in head), None
    return b"", _document(chain(head, lines))


def sniff_json_lines(lines: Iterator[_Line]) -> tuple[bool, list[_Line]]:
    """Whether numbered lines are JSON Lines by content (the first non-blank line is a complete JSON value
    and another non-blank line follows), and the lines read to decide, which the caller reads first."""
    head: list[_Line] = []
    for item in lines:
        head.append(item)
        if item[2].strip():
            break
    if head and head[-1][2].strip() and next(_json_lines(head[-1:])).error is None:
        for item in lines:
            head.append(item)
            if item[2].strip():
                return True, head
    return False, head


def __dir__() -> list[str]:
    return list(__all__)
