"""Reading JSON records from a file's text: one JSON value (an object or a list) or JSON Lines.

Shared by the round reader (``formats.rounds``) and the output reader (``formats.verify``): each record
knows where it stood (its position, and its line in JSON Lines), so every message can name it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chinese_poker import _jsontext as jsontext
from chinese_poker._jsontext import JSONTextError

__all__ = ["RawRound", "read_json_records", "read_rounds"]


@dataclass(frozen=True)
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
        try:
            records.append(RawRound(position, number, data=jsontext.loads(line)))
        except JSONTextError as error:
            where = f" at column {error.column}" if error.column is not None else ""
            message = str(error).split(": ", 1)[-1]
            records.append(RawRound(position, number, error=f"malformed JSON{where}: {message}"))
    return True, records


def read_rounds(text: str, *, json_lines: bool | None = None) -> tuple[bool, list[RawRound]]:
    """The raw rounds of a round file's text (see ``read_json_records``); an empty file holds no round."""
    if not text.strip():
        return bool(json_lines), []
    return read_json_records(text, json_lines=json_lines)


def __dir__() -> list[str]:
    return list(__all__)
