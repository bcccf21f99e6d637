"""Settlement receipts: a record of one settled round that proves which rules and which engine produced
which result (docs/FAIR.md, "Receipts").

A receipt is a JSON object: the *body* (``RECEIPT_FORMAT``, the engine's name and version, the rules
digest, the round's inputs with cards as codes in seat order, and the output's nets and pairs) and
``"sha256"``, the SHA-256 of the body's canonical encoding; with a server key also ``"hmac_sha256"``,
the HMAC-SHA256 of the same bytes under the key.

The canonical encoding is JSON with sorted keys, no whitespace (``","`` and ``":"`` separators) and
ASCII only; the body holds only integers, booleans, ASCII strings, null, lists and objects, and every
card is its code with each row's codes (a declared natural's 13) in ascending order. Two equal rounds
give the same bytes however their JSON was spelled (card text, row order, key order, whitespace).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chinese_poker.formats.rounds import ENGINE, rules_digest

if TYPE_CHECKING:
    from chinese_poker.settlement import Settlement

__all__ = [
    "DIGEST_KEYS",
    "RECEIPT_FORMAT",
    "canonical_bytes",
    "check_receipt",
    "make_receipt",
    "read_key_file",
    "receipt_body",
    "receipt_differences",
]

#: The ``"format"`` of every receipt body: its layout and encoding, versioned.
RECEIPT_FORMAT = "chinese-poker-receipt/1"
#: The keys of a receipt that are not part of its body.
DIGEST_KEYS: tuple[str, ...] = ("sha256", "hmac_sha256")
#: A receipt key holds at least this many bytes.
MIN_KEY_BYTES = 16


def _hand_codes(settlement: Settlement) -> list[list[int]]:
    codes = []
    for hand in settlement.hands:
        cards = hand.cards
        if hand.is_declared:
            codes.append(sorted(cards))
        else:
            codes.append(sorted(cards[:3]) + sorted(cards[3:8]) + sorted(cards[8:]))
    return codes


def receipt_body(settlement: Settlement) -> dict[str, Any]:
    """The receipt's body: what the canonical encoding hashes (module docstring). ``hands``: each seat's
    13 codes, front 3, middle 5, back 5 (each row ascending), or a declared natural's 13 ascending with
    ``declared`` true; ``pairs``: each settled pair's seats, what decided it, its stake and its units."""
    rules = settlement.rules
    players = settlement.players
    body: dict[str, Any] = {
        "format": RECEIPT_FORMAT,
        "engine": dict(ENGINE),
        "rules_digest": rules_digest(rules),
        "players": len(settlement.hands),
        "hands": _hand_codes(settlement),
        "declared": [hand.is_declared for hand in settlement.hands],
        "surrendered": [p.surrendered for p in players],
        "banker": settlement.banker,
        "bets": None if settlement.bets is None else list(settlement.bets),
        "net": list(settlement.net),
        "pairs": [
            {"i": p.i, "j": p.j, "decided_by": p.decided_by, "stake": p.stake, "units": p.units}
            for p in settlement.pairs
        ],
    }
    if rules.jokers:
        body["joker_cards"] = [list(p.joker_cards) for p in players]
    if rules.fantasyland != "off":
        body["fantasyland_cards"] = [p.fantasyland_cards for p in players]
    return body


def canonical_bytes(body: Mapping[str, Any]) -> bytes:
    """The canonical encoding of a receipt body: compact JSON, sorted keys, ASCII only. A value JSON
    cannot hold (a float that is not finite, a non-string key) is a ValueError."""
    try:
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise ValueError(f"a receipt body must be plain JSON data: {error}") from None
    return text.encode("ascii")


def _check_key(key: object) -> bytes | None:
    if key is None:
        return None
    if not isinstance(key, (bytes, bytearray)):
        raise TypeError(f"a receipt key must be bytes, got {type(key).__name__}")
    if len(key) < MIN_KEY_BYTES:
        raise ValueError(f"a receipt key must be at least {MIN_KEY_BYTES} bytes, got {len(key)}")
    return bytes(key)


def make_receipt(settlement: Settlement, key: bytes | None = None) -> dict[str, Any]:
    """The receipt of ``settlement``: its body, ``"sha256"`` and, with ``key`` (at least 16 bytes), the
    ``"hmac_sha256"`` of the canonical body under the key."""
    secret = _check_key(key)
    body = receipt_body(settlement)
    data = canonical_bytes(body)
    receipt = {**body, "sha256": hashlib.sha256(data).hexdigest()}
    if secret is not None:
        receipt["hmac_sha256"] = hmac.new(secret, data, hashlib.sha256).hexdigest()
    return receipt


def check_receipt(receipt: object, key: bytes | None = None) -> list[tuple[str, str]]:
    """What is wrong with a receipt on its own, as ``(field, message)`` pairs (none: it is intact): not
    an object, a missing or wrong ``sha256``, and with ``key`` a missing or wrong ``hmac_sha256``."""
    secret = _check_key(key)
    if not isinstance(receipt, Mapping):
        return [("receipt", f"must be an object, got {type(receipt).__name__}")]
    body = {k: v for k, v in receipt.items() if k not in DIGEST_KEYS}
    try:
        data = canonical_bytes(body)
    except ValueError as error:
        return [("receipt", str(error))]
    problems = []
    given = receipt.get("sha256")
    if not isinstance(given, str):
        problems.append(("receipt.sha256", "missing or not a string"))
    elif not hmac.compare_digest(given.encode("utf-8"), hashlib.sha256(data).hexdigest().encode("ascii")):
        problems.append(("receipt.sha256", "is not the SHA-256 of the receipt's contents"))
    if secret is not None:
        mac = receipt.get("hmac_sha256")
        if not isinstance(mac, str):
            problems.append(("receipt.hmac_sha256", "missing, but a key was given"))
        else:
            expected = hmac.new(secret, data, hashlib.sha256).hexdigest()
            if not hmac.compare_digest(mac.encode("utf-8"), expected.encode("ascii")):
                problems.append(
                    ("receipt.hmac_sha256", "is not the HMAC of the receipt's contents under the key")
                )
    return problems


def _first_difference(given: object, expected: object, path: str) -> tuple[str, object, object]:
    """The path of the first element where ``given`` and ``expected`` differ, and the two elements."""
    if isinstance(given, list) and isinstance(expected, list) and len(given) == len(expected):
        for index, (a, b) in enumerate(zip(given, expected)):
            if a != b or type(a) is not type(b):
                return _first_difference(a, b, f"{path}[{index}]")
    if isinstance(given, Mapping) and isinstance(expected, Mapping) and given.keys() == expected.keys():
        for name in sorted(expected):
            if given[name] != expected[name] or type(given[name]) is not type(expected[name]):
                return _first_difference(given[name], expected[name], f"{path}.{name}")
    return path, given, expected


def receipt_differences(given: Mapping[str, Any], expected: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The body fields where a given receipt differs from the one made again, as ``(field, message)``
    pairs naming the first differing element (e.g. ``receipt.net[1]``); the digests are not compared."""
    given_body = {k: v for k, v in given.items() if k not in DIGEST_KEYS}
    expected_body = {k: v for k, v in expected.items() if k not in DIGEST_KEYS}
    try:
        if canonical_bytes(given_body) == canonical_bytes(expected_body):
            return []  # the usual case, in two encodings
    except ValueError:
        pass  # a value JSON cannot hold: found field by field below
    differences = []
    for name in sorted(set(given_body) | set(expected_body)):
        if name not in given:
            differences.append((f"receipt.{name}", "missing"))
        elif name not in expected:
            differences.append((f"receipt.{name}", "is not a field of this engine's receipts"))
        elif _encoded(given[name]) != _encoded(expected[name]):
            where, a, b = _first_difference(given[name], expected[name], f"receipt.{name}")
            differences.append((where, f"is {_short(a)}, the round gives {_short(b)}"))
    return differences


def _encoded(value: object) -> bytes:
    try:
        return canonical_bytes({"v": value})
    except ValueError:
        return repr(value).encode("utf-8")


def _short(value: object) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return text if len(text) <= 70 else text[:67] + "..."


def read_key_file(path: str) -> bytes:
    """A receipt key from a file: its bytes, less one trailing newline (``\\n`` or ``\\r\\n``); at least
    16 bytes. An unreadable or short file is a ValueError naming it."""
    try:
        with open(path, "rb") as stream:  # noqa: PTH123 - the path is the user's text, named as given
            data = stream.read()
    except OSError as error:
        raise ValueError(f"key file {path!r}: {error.strerror or error}") from None
    if data.endswith(b"\r\n"):
        data = data[:-2]
    elif data.endswith(b"\n"):
        data = data[:-1]
    if len(data) < MIN_KEY_BYTES:
        raise ValueError(f"key file {path!r}: a key must be at least {MIN_KEY_BYTES} bytes, got {len(data)}")
    return data


def __dir__() -> list[str]:
    return list(__all__)
