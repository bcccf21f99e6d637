"""What every command shares: the user-error type, reading input text, ``--rules``, JSON output."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from chinese_poker._suggest import did_you_mean
from chinese_poker.presets import PRESET_NAMES
from chinese_poker.rules import Rules

__all__ = ["PROG", "CliError", "dumps", "json_lines_by_name", "one_line", "read_text", "resolve_rules"]

PROG = "chinese-poker"


class CliError(Exception):
    """A user error: printed as one line on stderr, exit code 2."""


def one_line(error: BaseException) -> str:
    """The error's text on one line."""
    return " ".join(str(error).split())


def resolve_rules(value: str | None) -> Rules:
    """Rules from ``--rules``: a preset name, or a ``.toml`` / ``.json`` rules file; ``None`` is ``pagat``."""
    if value is None:
        return Rules.preset()
    if value in PRESET_NAMES:
        return Rules.preset(value)
    if value.lower().endswith((".toml", ".json")) or os.path.sep in value or Path(value).exists():
        if not Path(value).is_file():
            raise CliError(f"rules file {value!r} not found")
        try:
            return Rules.load(value)
        except (ValueError, OSError) as error:
            raise CliError(f"rules file {value!r}: {one_line(error)}") from None
    raise CliError(
        f"unknown preset {value!r}{did_you_mean(value, PRESET_NAMES)}; presets: {', '.join(PRESET_NAMES)} "
        "(or a .toml/.json file)"
    )


def read_text(path: str | None) -> tuple[str, str]:
    """The text of ``path`` (``None`` or ``"-"``: stdin) and how to name it in messages."""
    if path is None or path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        return Path(path).read_text(encoding="utf-8"), path
    except FileNotFoundError:
        raise CliError(f"file {path!r} not found") from None
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(f"cannot read {path!r}: {one_line(error)}") from None


def json_lines_by_name(source: str) -> bool | None:
    """JSON Lines for a ``.jsonl`` / ``.ndjson`` file; otherwise decided by the content."""
    return True if source.lower().endswith((".jsonl", ".ndjson")) else None


def dumps(data: Any, indent: int | None = None) -> str:
    """JSON text: compact on one line, or indented."""
    separators = None if indent is not None else (",", ":")
    return json.dumps(data, indent=indent, ensure_ascii=False, separators=separators)


def __dir__() -> list[str]:
    return list(__all__)
