"""Receipts and deals for the service: ``POST /v1/verify`` (one log line, receipt or deal checked) and the
receipt that ``?receipt=true`` adds to a settled round (docs/FAIR.md).

The service signs its receipts (and checks their ``hmac_sha256``) with the key in the file named by the
environment variable ``CHINESE_POKER_RECEIPT_KEY_FILE``, when it is set.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from chinese_poker.audit import audit_record
from chinese_poker.cli.common import dumps
from chinese_poker.fair import verify_deal_detail
from chinese_poker.formats.rounds import RoundError, rules_from_value
from chinese_poker.receipts import check_receipt, read_key_file
from chinese_poker.serve.bodies import Reply, json_object
from chinese_poker.serve.config import Limits
from chinese_poker.serve.errors import ApiError

__all__ = ["KEY_ENV_VAR", "receipt_key", "verify_one"]

#: The environment variable naming the file of the service's receipt key.
KEY_ENV_VAR = "CHINESE_POKER_RECEIPT_KEY_FILE"
_DEAL_KEYS = frozenset({"commitment", "server_seed", "client_seeds", "nonce"})


@lru_cache(maxsize=4)
def _key_of(path: str) -> bytes:
    return read_key_file(path)


def receipt_key() -> bytes | None:
    """The service's receipt key (``KEY_ENV_VAR``), or None; an unreadable key file is a 500-free 422."""
    path = os.environ.get(KEY_ENV_VAR)
    if not path:
        return None
    try:
        return _key_of(path)
    except ValueError as error:
        raise ApiError(422, "bad_receipt_key", f"{KEY_ENV_VAR}: {error}") from None


def _answer(found: list[tuple[str, str]]) -> Reply:
    mismatches = [{"field": name, "message": message} for name, message in found]
    return Reply((dumps({"ok": not found, "mismatches": mismatches}) + "\n").encode("utf-8"))


def _hex(value: object, name: str) -> bytes:
    try:
        if isinstance(value, str):
            return bytes.fromhex(value)
    except ValueError:
        pass
    raise ApiError(422, "bad_request", f"{name} must be a hex string")


def _verify_deal(data: Mapping[str, Any]) -> Reply:
    """``{"deal": {commitment, server_seed, client_seeds, nonce}, "rules": ..., "dealt": [[cards], ...]}``."""
    deal = data["deal"]
    if not isinstance(deal, Mapping) or set(deal) != _DEAL_KEYS:
        raise ApiError(422, "bad_request", f"deal must be an object of {', '.join(sorted(_DEAL_KEYS))}")
    seeds = deal["client_seeds"]
    if not isinstance(seeds, list):
        raise ApiError(422, "bad_request", "deal.client_seeds must be a list of hex strings")
    try:
        rules = rules_from_value(data.get("rules", "pagat"))
        check = verify_deal_detail(
            deal["commitment"], _hex(deal["server_seed"], "deal.server_seed"),
            [_hex(seed, f"deal.client_seeds[{k}]") for k, seed in enumerate(seeds)], deal["nonce"], rules,
            data.get("dealt"),
        )  # fmt: skip
    except (ValueError, TypeError) as error:
        raise ApiError(422, "bad_request", f"deal: {error}") from None
    if check.ok:
        return _answer([])
    name = "deal.commitment" if check.failed == "commitment" else "dealt"
    return _answer([(f"dealt[{check.seat}]" if check.seat is not None else name, check.message)])


def verify_one(body: bytes, _query: Mapping[str, str], _limits: Limits) -> Reply:
    """``POST /v1/verify``: a JSON object, one of: a log line as ``chinese-poker audit`` reads it (an
    output round with its receipt, or a round with a receipt, net, dealt cards or deal); ``{"receipt":
    ...}`` alone (its SHA-256, and its HMAC when the service has a key); or ``{"deal": ..., "rules": ...,
    "dealt": ...}`` (a deal against its commitment and seeds). The answer: ``{"ok": ..., "mismatches":
    [{"field": ..., "message": ...}]}``; a body that cannot be read is a 4xx error."""
    data = json_object(body, "a log line")
    key = receipt_key()
    if set(data) == {"receipt"}:
        return _answer(check_receipt(data["receipt"], key))
    if "deal" in data and "players" not in data:
        return _verify_deal(data)
    try:
        found = audit_record(data, "the round", key)
    except RoundError as error:
        raise ApiError.from_round_error(error, 0) from None
    return _answer([(mismatch.field, mismatch.message) for mismatch in found])


def __dir__() -> list[str]:
    return list(__all__)
