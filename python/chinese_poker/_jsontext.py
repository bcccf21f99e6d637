"""Decoding JSON text that may be hostile: every failure is one ``JSONTextError`` (a ValueError) with a
one-line message, never a RecursionError from deep nesting or the int-conversion limit's bare ValueError."""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["BOM", "JSONTextError", "decode_utf8", "escape_surrogates", "loads"]

#: The UTF-8 byte order mark, allowed at the start of a round or rules file.
BOM = b"\xef\xbb\xbf"

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class JSONTextError(ValueError):
    """JSON text that cannot be decoded; ``line`` and ``column`` say where, when the decoder knows."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


def loads(text: str, line_offset: int = 0) -> Any:
    """``json.loads(text)``, with every failure a ``JSONTextError`` naming the line (plus ``line_offset``)
    and column where the decoder stopped."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        line = error.lineno + line_offset
        raise JSONTextError(
            f"malformed JSON at line {line} column {error.colno}: {error.msg}", line, error.colno
        ) from None
    except RecursionError:
        raise JSONTextError("malformed JSON: nested too deeply") from None
    except ValueError as error:  # an integer literal past the interpreter's digit limit
        raise JSONTextError(f"malformed JSON: {' '.join(str(error).split())}") from None


def decode_utf8(data: bytes, offset: int = 0) -> str:
    """``data`` decoded as strict UTF-8; a failure is a ``JSONTextError`` naming the byte offset (``offset``
    is where ``data`` starts in its file) and the offending byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        at = offset + error.start
        raise JSONTextError(
            f"not UTF-8 at byte offset {at}: {error.reason} (byte 0x{data[error.start]:02x})"
        ) from None


def escape_surrogates(text: str) -> str:
    """``text`` with every lone surrogate (which no encoding can write) as its ``\\uXXXX`` escape: in JSON
    text the escape stands for the same string, in plain text it shows what was there."""
    if text.isascii() or _LONE_SURROGATE.search(text) is None:  # the first test is the fast one
        return text
    return _LONE_SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def __dir__() -> list[str]:
    return list(__all__)
