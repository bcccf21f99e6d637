"""What every command shares: the user-error type, reading input text, ``--rules``, JSON output."""

from __future__ import annotations

import io
import json
import os
import sys
from typing import IO, Any

import chinese_poker._jsontext as jsontext
from chinese_poker._suggest import did_you_mean
from chinese_poker.presets import PRESET_NAMES
from chinese_poker.rules import Rules

__all__ = [
    "PROG",
    "CliError",
    "dumps",
    "json_lines_by_name",
    "one_line",
    "open_input",
    "read_text",
    "resolve_rules",
    "safe_text",
]

PROG = "chinese-poker"


class CliError(Exception):
    """A user error: printed as one line on stderr, exit code 2."""


def safe_text(text: str) -> str:
    """``text`` as it can always be written: lone surrogates (from a ``"\\ud800"`` escape in JSON, or a
    file name that is not UTF-8) as ``\\uXXXX`` escapes."""
    return jsontext.escape_surrogates(text)


def one_line(error: BaseException) -> str:
    """The error's text on one line (and writable: see ``safe_text``)."""
    return safe_text(" ".join(str(error).split()))


def resolve_rules(value: str | None) -> Rules:
    """Rules from ``--rules``: a preset name, or a ``.toml`` / ``.json`` rules file; ``None`` is ``pagat``."""
    if value is None:
        return Rules.preset()
    if value in PRESET_NAMES:
        return Rules.preset(value)
    if value.lower().endswith((".toml", ".json")) or os.path.sep in value or os.path.exists(value):
        if not os.path.isfile(value):
            raise CliError(f"rules file {value!r} not found")
        try:
            with open(value, "rb") as file:
                data = file.read()
            skip = len(jsontext.BOM) if data.startswith(jsontext.BOM) else 0
            jsontext.decode_utf8(data[skip:], skip)  # names the byte offset of what is not UTF-8
            return Rules.load(value)
        except (ValueError, OSError) as error:
            raise CliError(f"rules file {value!r}: {one_line(error)}") from None
        except RecursionError:  # a value nested too deeply to even be named in a message
            raise CliError(f"rules file {value!r}: nested too deeply") from None
    raise CliError(
        f"unknown preset {value!r}{did_you_mean(value, PRESET_NAMES)}; presets: {', '.join(PRESET_NAMES)} "
        "(or a .toml/.json file)"
    )


def _stdin_bytes() -> IO[bytes]:
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is not None:
        return buffer  # type: ignore[no-any-return]
    # A text stream without bytes under it (a test's StringIO): its text as the bytes it stands for.
    return io.BytesIO(sys.stdin.read().encode("utf-8", "surrogateescape"))


def open_input(path: str | None) -> tuple[IO[bytes], str]:
    """``path`` (``None`` or ``"-"``: stdin) opened for reading bytes, and how to name it in messages. A file
    and the same bytes on stdin are read alike: bytes, decoded by the reader."""
    if path is None or path == "-":
        return _stdin_bytes(), "<stdin>"
    try:
        return open(path, "rb"), path
    except FileNotFoundError:
        raise CliError(f"file {path!r} not found") from None
    except OSError as error:
        raise CliError(f"cannot read {path!r}: {one_line(error)}") from None


def read_text(path: str | None) -> tuple[str, str]:
    """The text of ``path`` (``None`` or ``"-"``: stdin) and how to name it in messages: its bytes as strict
    UTF-8, a leading byte order mark skipped; bytes that are not UTF-8 are a ``CliError`` naming the byte
    offset."""
    stream, source = open_input(path)
    try:
        data = stream.read()
    except OSError as error:
        raise CliError(f"cannot read {source!r}: {one_line(error)}") from None
    finally:
        if path is not None and path != "-":
            stream.close()
    skip = len(jsontext.BOM) if data.startswith(jsontext.BOM) else 0
    try:
        return jsontext.decode_utf8(data[skip:], skip), source
    except jsontext.JSONTextError as error:
        raise CliError(f"{source}: {one_line(error)}") from None


def json_lines_by_name(source: str) -> bool | None:
    """JSON Lines for a ``.jsonl`` / ``.ndjson`` file; otherwise decided by the content."""
    return True if source.lower().endswith((".jsonl", ".ndjson")) else None


def dumps(data: Any, indent: int | None = None, *, ascii_only: bool = False) -> str:
    """JSON text: compact on one line, or indented; lone surrogates escaped, so it can always be written
    (``ascii_only``: every non-ASCII character escaped, for a stream that cannot write UTF-8)."""
    separators = None if indent is not None else (",", ":")
    return safe_text(json.dumps(data, indent=indent, ensure_ascii=ascii_only, separators=separators))


def __dir__() -> list[str]:
    return list(__all__)
