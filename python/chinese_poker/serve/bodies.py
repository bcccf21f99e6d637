"""Reading what a request carries: its body as one JSON object, and the query parameters shared by the
endpoints (``rules``, ``explain``); and ``Reply``, what every endpoint returns to the application."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import chinese_poker._jsontext as jsontext
from chinese_poker._suggest import did_you_mean
from chinese_poker.formats.players import type_name
from chinese_poker.formats.rounds import rules_from_value
from chinese_poker.presets import PRESET_NAMES
from chinese_poker.rules import Rules
from chinese_poker.serve.errors import ApiError

__all__ = [
    "JSON",
    "JSON_LINES",
    "Reply",
    "body_text",
    "json_object",
    "query_choice",
    "query_flag",
    "query_int",
    "query_rules",
    "rules_field",
]

JSON = "application/json"
JSON_LINES = "application/x-ndjson"


@dataclass(frozen=True)
class Reply:
    """A successful answer: the body's bytes and their media type."""

    body: bytes
    media_type: str = JSON


def body_text(body: bytes) -> str:
    """The body as strict UTF-8 (a leading byte order mark skipped, as the command line reads files); what
    is not UTF-8 is a 400 naming the byte offset."""
    skip = len(jsontext.BOM) if body.startswith(jsontext.BOM) else 0
    try:
        return jsontext.decode_utf8(body[skip:], skip)
    except jsontext.JSONTextError as error:
        raise ApiError(400, "malformed_json", str(error)) from None


def json_object(body: bytes, what: str) -> dict[str, Any]:
    """The body as one JSON object: malformed JSON is a 400, any other JSON value a 422."""
    try:
        data = jsontext.loads(body_text(body))
    except jsontext.JSONTextError as error:
        raise ApiError(400, "malformed_json", str(error)) from None
    if not isinstance(data, dict):
        raise ApiError(422, "bad_request", f"{what} must be a JSON object, got {type_name(data)}")
    return data


def query_rules(query: Mapping[str, str]) -> Rules | None:
    """The ``rules`` query parameter: a preset name that overrides the rounds' own rules (as ``score
    --rules`` does; rules files are not read by the service), or ``None`` when absent."""
    name = query.get("rules")
    if name is None:
        return None
    if name not in PRESET_NAMES:
        raise ApiError(
            422,
            "bad_rules",
            f"unknown preset {name!r}{did_you_mean(name, PRESET_NAMES)}; presets: {', '.join(PRESET_NAMES)}",
        )
    return Rules.preset(name)


def query_flag(query: Mapping[str, str], key: str) -> bool:
    """A boolean query parameter: ``true``/``1``/``yes`` or ``false``/``0``/``no`` (absent: false)."""
    value = query.get(key)
    if value is None:
        return False
    lowered = value.lower()
    if lowered in ("true", "1", "yes"):
        return True
    if lowered in ("false", "0", "no", ""):
        return False
    raise ApiError(422, "bad_request", f"{key} must be true or false, got {value!r}")


def query_choice(query: Mapping[str, str], key: str, choices: tuple[str, ...], default: str) -> str:
    """A query parameter that names one of ``choices`` (absent: ``default``)."""
    value = query.get(key)
    if value is None:
        return default
    if value not in choices:
        raise ApiError(
            422,
            "bad_request",
            f"{key} must be {' or '.join(choices)}, got {value!r}{did_you_mean(value, choices)}",
        )
    return value


def query_int(query: Mapping[str, str], key: str, default: int | None, low: int, high: int) -> int | None:
    """An integer query parameter in ``low..high`` (absent: ``default``)."""
    value = query.get(key)
    if value is None:
        return default
    text = value.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(high)):
        raise ApiError(422, "bad_request", f"{key} must be an integer {low}..{high}, got {value!r}")
    number = int(text)
    if not low <= number <= high:
        raise ApiError(422, "bad_request", f"{key} must be an integer {low}..{high}, got {number}")
    return number


def rules_field(data: Mapping[str, Any]) -> Rules:
    """The ``"rules"`` of a request object (a preset name or an object of knobs; default ``pagat``)."""
    if data.get("rules") is None:
        return Rules.preset()
    try:
        return rules_from_value(data["rules"])
    except (ValueError, TypeError) as error:
        raise ApiError(422, "bad_rules", f"rules: {error}") from None
    except RecursionError:
        raise ApiError(422, "bad_rules", "rules: a value is nested too deeply") from None


def __dir__() -> list[str]:
    return list(__all__)
