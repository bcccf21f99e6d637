"""The OpenAPI 3.1 document of the service, built from the JSON Schemas the round files use
(``formats/schema/round.schema.json`` and ``output.schema.json``): their definitions become the document's
components, so a change to the round format changes the service's description with it. Only what the
service adds is described here: a player's ``dealt`` cards, the check, arrange and error objects."""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from chinese_poker._version import __version__
from chinese_poker.formats.rounds import load_schema
from chinese_poker.serve.dealt import DEALT_KEY

__all__ = ["openapi_document"]

_ROUND = "round_"
_OUTPUT = "output_"


def _components(prefix: str, schema: dict[str, Any], top: str) -> dict[str, Any]:
    """A schema's ``$defs`` (and, as ``top``, its top-level schema) as components named ``prefix + name``,
    with every ``#/$defs/`` reference pointing at them."""

    def relink(value: Any) -> Any:
        if isinstance(value, dict):
            out = {key: relink(item) for key, item in value.items()}
            ref = out.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                out["$ref"] = "#/components/schemas/" + prefix + ref[len("#/$defs/") :]
            return out
        if isinstance(value, list):
            return [relink(item) for item in value]
        return value

    schema = copy.deepcopy(schema)
    defs = schema.pop("$defs", {})
    for key in ("$schema", "$id"):
        schema.pop(key, None)
    components = {prefix + name: relink(item) for name, item in defs.items()}
    components[prefix + top] = relink(schema)
    return components


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _service_components() -> dict[str, Any]:
    rows = {"type": "object", "additionalProperties": _ref(_OUTPUT + "row")}
    return {
        "error": {
            "type": "object",
            "required": ["error"],
            "properties": {
                "error": {
                    "type": "object",
                    "required": ["status", "code", "message"],
                    "properties": {
                        "status": {"type": "integer", "minimum": 400, "maximum": 499},
                        "code": {"type": "string"},
                        "message": {"type": "string", "description": "the command line's one-line message"},
                        "round": {
                            "type": "integer",
                            "minimum": 0,
                            "description": "the round's 0-based place among the request's rounds, when the "
                            "error names one (0 for /v1/settle)",
                        },
                        "player": {
                            "type": "integer",
                            "minimum": 0,
                            "description": "the player's 0-based seat, when the error names one",
                        },
                        "card": {
                            "type": "integer",
                            "minimum": 0,
                            "maximum": 12,
                            "description": "the card's 0-based place among the player's 13 (front 3, middle "
                            "5, back 5), when the error names one (/v1/settle/packed)",
                        },
                    },
                }
            },
        },
        "check_request": {
            "description": "a player object of the round format, plus optional rules and dealt cards",
            "allOf": [_ref(_ROUND + "player_object")],
        },
        "check_answer": {
            "type": "object",
            "properties": {
                "rules": _ref(_ROUND + "rules"),
                "declared": {"type": "boolean"},
                "foul": {"type": "boolean"},
                "reasons": {"type": "array", "items": {"type": "string"}},
                "natural": {"type": ["string", "null"]},
                "held": {"type": "array", "items": {"type": "string"}},
                "rows": {"oneOf": [rows, {"type": "null"}]},
                "suggestion": {"type": ["object", "null"]},
                "lines": {"type": "array", "items": {"type": "string"}},
            },
        },
        "arrange_request": {
            "type": "object",
            "required": ["cards"],
            "additionalProperties": False,
            "properties": {
                "cards": _ref(_ROUND + "thirteen"),
                "rules": _ref(_ROUND + "rules"),
                "strategy": {"enum": ["expected", "strongest"]},
                "opponents": {"type": "integer", "minimum": 1, "maximum": 3},
            },
        },
        "arrange_answer": {
            "type": "object",
            "properties": {
                "front": {"type": "string"},
                "middle": {"type": "string"},
                "back": {"type": "string"},
                "rows": rows,
                "expected_units": {"type": "number"},
                "declare": {"type": ["string", "null"]},
                "strategy": {"type": "string"},
            },
        },
        "suggest_request": {
            "type": "object",
            "required": ["cards"],
            "additionalProperties": False,
            "properties": {
                "cards": _ref(_ROUND + "thirteen"),
                "rules": _ref(_ROUND + "rules"),
                "k": {"type": "integer", "minimum": 1, "maximum": 10},
                "opponents": {"type": "integer", "minimum": 1, "maximum": 3},
            },
        },
        "suggest_answer": {
            "type": "object",
            "required": ["rules", "opponents", "suggestions"],
            "properties": {
                "rules": _ref(_ROUND + "rules"),
                "opponents": {"type": "integer"},
                "suggestions": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["rank", "front", "middle", "back", "rows", "expected_units", "why"],
                        "properties": {
                            "rank": {"type": "integer", "minimum": 1},
                            "front": {"type": "string"},
                            "middle": {"type": "string"},
                            "back": {"type": "string"},
                            "rows": {"type": "object", "additionalProperties": _ref("suggest_row")},
                            "expected_units": {"type": "number"},
                            "scoop": {"type": "number"},
                            "declare": {"type": ["string", "null"]},
                            "why": {"type": "string"},
                        },
                    },
                },
            },
        },
        "suggest_row": {
            "description": "a row as the output format writes it, with its chances against the field's row",
            "allOf": [
                _ref(_OUTPUT + "row"),
                {
                    "type": "object",
                    "required": ["win", "tie", "loss"],
                    "properties": {
                        "win": {"type": "number", "minimum": 0, "maximum": 1},
                        "tie": {"type": "number", "minimum": 0, "maximum": 1},
                        "loss": {"type": "number", "minimum": 0, "maximum": 1},
                    },
                },
            ],
        },
    }


def _with_dealt(components: dict[str, Any]) -> None:
    """The round's player gains ``dealt`` (the service's own key); ``player_object`` is the same player
    with ``rules`` too, for ``/v1/check``."""
    player = components[_ROUND + "player"]
    player["properties"][DEALT_KEY] = {
        **_ref(_ROUND + "thirteen"),
        "description": "the 13 cards the game server dealt: the submitted cards must be exactly these",
    }
    checked = copy.deepcopy(player)
    checked["properties"]["rules"] = _ref(_ROUND + "rules")
    components[_ROUND + "player_object"] = checked


def _json_body(name: str) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": _ref(name)}}}


def _answers(ok: dict[str, Any], *errors: int) -> dict[str, Any]:
    answers: dict[str, Any] = {"200": ok}
    words = {
        400: "malformed JSON, or a request the HTTP parser refuses",
        404: "not found",
        408: "the request did not arrive within the read timeout (the connection is closed)",
        413: "too large",
        422: "bad input (a query parameter the endpoint does not take included)",
    }
    for status in errors:
        answers[str(status)] = {"description": words[status], **_json_body("error")}
    return answers


def _json_post(summary: str, request: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
    """A POST endpoint taking and answering one JSON document of the given schemas."""
    body = {"required": True, "content": {"application/json": {"schema": request}}}
    ok = {"description": "ok", "content": {"application/json": {"schema": answer}}}
    return {"post": {"summary": summary, "requestBody": body, "responses": _answers(ok, 400, 408, 413, 422)}}


def _query(name: str, description: str, schema: dict[str, Any], *, required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": required, "description": description, "schema": schema}


@lru_cache(maxsize=1)
def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 document served at ``/v1/openapi.json``."""
    components = _components(_ROUND, load_schema("round"), "file")
    components.update(_components(_OUTPUT, load_schema("output"), "round"))
    _with_dealt(components)
    components.update(_service_components())
    rules_query = _query("rules", "a preset overriding the rounds' own rules", {"type": "string"})
    explain = _query("explain", "add the unit-by-unit explanation", {"type": "boolean"})
    receipt = _query(
        "receipt", "add the round's receipt (as `score --receipts`; docs/FAIR.md)", {"type": "boolean"}
    )
    ndjson = {"application/x-ndjson": {"schema": {"type": "string"}}}
    ok = {"description": "ok"}
    paths: dict[str, Any] = {
        "/v1/settle": {
            "post": {
                "summary": "settle one round (the line `chinese-poker score --format jsonl` writes)",
                "parameters": [rules_query, explain, receipt],
                "requestBody": {"required": True, **_json_body(_ROUND + "round")},
                "responses": _answers({**ok, **_json_body(_OUTPUT + "round")}, 400, 408, 413, 422),
            }
        },
        "/v1/settle/batch": {
            "post": {
                "summary": "settle JSON Lines rounds (as `chinese-poker score FILE.jsonl --format jsonl`)",
                "parameters": [
                    rules_query,
                    explain,
                    receipt,
                    _query(
                        "output",
                        'full (default): the output rounds; net: one {"id": ..., "net": [...]} per round '
                        "(as `score --output net`; docs/JSON_FORMAT.md 2.1)",
                        {"type": "string", "enum": ["full", "net"], "default": "full"},
                    ),
                ],
                "requestBody": {"required": True, "content": ndjson},
                "responses": _answers({**ok, "content": ndjson}, 400, 408, 413, 422),
            }
        },
        "/v1/settle/packed": {
            "post": {
                "summary": "net units only: R x P x 13 card bytes in, R x P little-endian int64 out",
                "parameters": [
                    rules_query,
                    _query(
                        "players",
                        "players per round (required)",
                        {"type": "integer", "minimum": 2, "maximum": 6},
                        required=True,
                    ),
                ],
                "requestBody": {"required": True, "content": {"application/octet-stream": {}}},
                "responses": _answers(
                    {**ok, "content": {"application/octet-stream": {}}}, 400, 408, 413, 422
                ),
            }
        },
        "/v1/check": _json_post(
            "is a setting legal, which natural, why a foul", _ref("check_request"), _ref("check_answer")
        ),
        "/v1/arrange": _json_post(
            "a legal setting for 13 cards, chosen by `arrange`",
            _ref("arrange_request"),
            _ref("arrange_answer"),
        ),
        "/v1/suggest": _json_post(
            "the best few distinct settings of 13 cards and why, by `suggest`",
            _ref("suggest_request"),
            _ref("suggest_answer"),
        ),
        "/v1/ofc/advise": _json_post(
            "every legal open-face placement with its expected units, by `ofc.advise`",
            {"type": "object"},
            {"type": "object"},
        ),
        "/v1/ofc/fantasyland": _json_post(
            "the exact best setting of a fantasyland hand of 14 to 17 cards",
            {"type": "object"},
            {"type": "object"},
        ),
        "/v1/verify": {
            "post": {
                "summary": "check one log line (as `chinese-poker audit`), one receipt or one deal",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"type": "object"}}},
                },
                "responses": _answers(ok, 400, 413, 422),
            }
        },
        "/v1/deal": {
            "get": {
                "summary": "a random round, arranged (as `chinese-poker deal --format input`)",
                "parameters": [
                    rules_query,
                    _query("players", "2 to 4", {"type": "integer", "minimum": 2, "maximum": 4}),
                    _query("seed", "0 or more", {"type": "integer", "minimum": 0}),
                ],
                "responses": _answers({**ok, **_json_body(_ROUND + "round")}, 422),
            }
        },
        "/v1/rules": {"get": {"summary": "the presets", "responses": _answers(ok, 422)}},
        "/v1/rules/{name}": {
            "get": {
                "summary": "every knob of a preset (as `chinese-poker rules NAME --format json`)",
                "parameters": [
                    {"name": "name", "in": "path", "required": True, "schema": _ref(_ROUND + "rules")}
                ],
                "responses": _answers(ok, 422),
            }
        },
        "/v1/version": {"get": {"summary": "engine, version, limits", "responses": _answers(ok, 422)}},
        "/v1/health": {"get": {"summary": "health", "responses": _answers(ok, 422)}},
        "/v1/openapi.json": {"get": {"summary": "this document", "responses": _answers(ok, 422)}},
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "chinese-poker scoring service",
            "version": __version__,
            "description": "Settle 13-card Chinese Poker rounds in the JSON format of docs/JSON_FORMAT.md.",
        },
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "paths": paths,
        "components": {"schemas": components},
    }


def __dir__() -> list[str]:
    return list(__all__)
