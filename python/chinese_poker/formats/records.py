"""Reading JSON records from a file's text: one JSON value (an object or a list) or JSON Lines.

Shared by the round reader (``formats.rounds``) and the output reader (``formats.verify``): each record
knows where it stood (its position, and its line in JSON Lines), so every message can name it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

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


def _json_error(error: json.JSONDecodeError, line_offset: int = 0) -> str:
    return f"malformed JSON at line {error.lineno + line_offset} column {error.colno}: {error.msg}"


def _looks_like_json_lines(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        return False
    try:
        json.loads(lines[0])
    except json.JSONDecodeError:
        return False
    return True


def read_json_records(text: str, *, json_lines: bool | None = None) -> tuple[bool, list[RawRound]]:
    """Split a file's text into JSON records: ``(is_json_lines, records)``.

    The text is one JSON value (a round object, or a list of them) or JSON Lines (one object per non-blank
    line). ``json_lines=None`` decides by content: JSON Lines when the text is not one JSON value and its
    first non-blank line is a complete JSON value on its own. Malformed JSON becomes a record with an
    ``error`` (one per bad line in JSON Lines; the whole file otherwise).
    """
    if json_lines is None:
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            if not _looks_like_json_lines(text):
                return False, [RawRound(0, None, error=_json_error(error))]
            json_lines = True
        else:
            items = document if isinstance(document, list) else [document]
            return False, [RawRound(k + 1, None, data=item) for k, item in enumerate(items)]
    if not json_lines:
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            return False, [RawRound(0, None, error=_json_error(error))]
        items = document if isinstance(document, list) else [document]
        return False, [RawRound(k + 1, None, data=item) for k, item in enumerate(items)]
    records = []
    position = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        position += 1
        try:
            records.append(RawRound(position, number, data=json.loads(line)))
        except json.JSONDecodeError as error:
            records.append(
                RawRound(position, number, error=f"malformed JSON at column {error.colno}: {error.msg}")
            )
    return True, records


def read_rounds(text: str, *, json_lines: bool | None = None) -> tuple[bool, list[RawRound]]:
    """The raw rounds of a round file's text (see ``read_json_records``); an empty file holds no round."""
    if not text.strip():
        return bool(json_lines), []
    return read_json_records(text, json_lines=json_lines)


def __dir__() -> list[str]:
    return list(__all__)
