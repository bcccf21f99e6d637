"""Decoding JSON text that may be hostile: every failure is one ``JSONTextError`` (a ValueError) with a
one-line message, never a RecursionError from deep nesting or the int-conversion limit's bare ValueError."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["JSONTextError", "loads"]


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


def __dir__() -> list[str]:
    return list(__all__)
