"""Rules documents as text and files: JSON and TOML read into mappings of knobs, and knobs written as TOML.

Every malformed document is a ``ValueError`` (text that is not text a ``TypeError``); ``Rules`` turns the
mappings into rules (``Rules.from_json``, ``from_toml``, ``load``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import chinese_poker._jsontext as jsontext
from chinese_poker._toml import toml_key, toml_value

__all__ = ["file_suffix", "json_document", "read_document", "toml_document", "toml_text"]


def utf8_text(data: bytes | bytearray) -> str:
    """Bytes of a rules document as text: UTF-8, a leading byte order mark allowed."""
    try:
        return bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"rules text is not UTF-8: {error}") from None


def json_document(text: object) -> dict[str, Any]:
    """The object of JSON rules text (str or UTF-8 bytes)."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"Rules.from_json takes JSON text, got {type(text).__name__}")
    data = jsontext.loads(text if isinstance(text, str) else utf8_text(text))
    if not isinstance(data, dict):
        raise ValueError(f"rules JSON must be an object, got {type(data).__name__}")
    _check_depth(data, "JSON")
    return data


# Rules nest four levels at most (a row's royalty table); the limit is explicit because how deep the
# decoders reach before a RecursionError differs between Python versions.
MAX_DEPTH = 32


def _check_depth(data: object, kind: str) -> None:
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ValueError(f"rules {kind} is nested too deeply (more than {MAX_DEPTH} levels)")
        if isinstance(value, dict):
            stack.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)


def toml_document(text: object) -> dict[str, Any]:
    """The table of TOML rules text (str or UTF-8 bytes)."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"Rules.from_toml takes TOML text, got {type(text).__name__}")
    import tomllib  # noqa: PLC0415 - about 8 % of a command's start-up; the presets are read as JSON

    try:
        data = tomllib.loads(text if isinstance(text, str) else utf8_text(text))
    except RecursionError:
        raise ValueError("rules TOML is nested too deeply") from None
    _check_depth(data, "TOML")
    return data


def toml_text(data: Mapping[str, Any]) -> str:
    """A rules mapping as TOML text: one ``key = value`` line per knob."""
    lines = ["# chinese-poker rules: every knob of RULES.md (see chinese_poker.rules)"]
    # TOML has no null: a knob whose value is None (horse_card) is left out, which reads back as None.
    lines += [f"{toml_key(key)} = {toml_value(value)}" for key, value in data.items() if value is not None]
    return "\n".join(lines) + "\n"


def file_suffix(path: str | os.PathLike[str]) -> str:
    """``".json"`` or ``".toml"``, the kind of a rules file by its extension; else ``ValueError``."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in (".json", ".toml"):
        raise ValueError(f"a rules file must end in .json or .toml, got {os.fspath(path)!r}")
    return suffix


def read_document(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The mapping of a ``.json`` or ``.toml`` rules file (UTF-8, a byte order mark allowed)."""
    suffix = file_suffix(path)
    with open(path, "rb") as file:
        text = utf8_text(file.read())
    return json_document(text) if suffix == ".json" else toml_document(text)


def __dir__() -> list[str]:
    return list(__all__)
