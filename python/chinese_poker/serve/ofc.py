"""Open-face play for the service: ``advise_one`` (``POST /v1/ofc/advise``, every legal placement's
expected units by ``chinese_poker.ofc.advise``) and ``fantasyland_one`` (``POST /v1/ofc/fantasyland``, the
exact best setting of a fantasyland hand). Bad input is a 422 whose message starts with the field."""

from __future__ import annotations

import re
from typing import Any

from chinese_poker.cli.common import dumps, one_line
from chinese_poker.ofc.advise import advise
from chinese_poker.ofc.fantasyland import fantasyland, stay_value_of
from chinese_poker.ofc.position import position
from chinese_poker.rules import Rules
from chinese_poker.serve.bodies import Reply, json_object, rules_field
from chinese_poker.serve.errors import ApiError

__all__ = ["MAX_SAMPLES", "advise_one", "fantasyland_one"]

#: The most deals one ``/v1/ofc/advise`` request may draw (a second or so of one core).
MAX_SAMPLES = 20_000
_ADVISE_KEYS = ("rules", "boards", "hand", "discards", "player", "fantasyland", "samples", "seed")
_FANTASYLAND_KEYS = ("rules", "cards", "stay_value")
_PLAYER = re.compile(r"player (\d+)")


def _rules(data: dict[str, Any]) -> Rules:
    # Open-face requests default to the ofc preset, as the library's open-face calls do.
    return Rules.preset("ofc") if data.get("rules") is None else rules_field(data)


def _check_keys(data: dict[str, Any], allowed: tuple[str, ...]) -> None:
    for key in data:
        if key not in allowed:
            raise ApiError(
                422, "bad_request", f"{key}: not a field of this request; fields: {', '.join(allowed)}"
            )


def _int_field(data: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(422, "bad_request", f"{key}: must be an integer in {low}..{high}, got {value!r}")
    return value


def _cards_field(data: dict[str, Any], key: str, required: bool) -> Any:
    value = data.get(key)
    if value is None:
        if required:
            raise ApiError(422, "bad_request", f'{key}: missing (cards as text, e.g. "As Kd 2c")')
        return ()
    if not isinstance(value, (str, list)):
        raise ApiError(422, "bad_request", f"{key}: cards as text or a list of card texts")
    return value


def _field_of(message: str) -> str:
    if "'s hand" in message or "the hand holds" in message:
        return "hand"
    if "discard" in message:
        return "discards"
    if message.startswith("fantasyland"):
        return "fantasyland"
    return "boards"


def advise_one(body: bytes) -> Reply:
    """``POST /v1/ofc/advise``: ``boards`` (per seat an object of ``front``/``middle``/``back`` card
    texts), the advised seat's ``hand`` and ``discards``, optional ``player`` (default 0),
    ``fantasyland`` (per seat false, true or the size of its fantasyland hand, one the rules allow),
    ``samples`` (1..MAX_SAMPLES, default 1000), ``seed`` and ``rules`` (default ``ofc``). The answer:
    ``player``, ``street``, ``exact`` and ``options``, best first."""
    data = json_object(body, "an advise request")
    _check_keys(data, _ADVISE_KEYS)
    rules = _rules(data)
    boards = data.get("boards")
    if not isinstance(boards, list):
        raise ApiError(422, "bad_request", "boards: missing, or not a list of one board per seat")
    hand = _cards_field(data, "hand", required=True)
    discards = _cards_field(data, "discards", required=False)
    player = _int_field(data, "player", 0, 0, 2)
    samples = _int_field(data, "samples", 1000, 1, MAX_SAMPLES)
    seed = _int_field(data, "seed", 0, 0, 2**64 - 1)
    flags = data.get("fantasyland")
    if flags is not None and (
        not isinstance(flags, list) or not all(isinstance(f, (bool, int)) for f in flags)
    ):
        raise ApiError(
            422,
            "bad_request",
            "fantasyland: a list of one entry per seat: false, true (a hand of 14 cards) or the hand's size",
        )
    try:
        state = position(rules, boards, hand, discards, player, fantasyland=flags)
        options = advise(state, samples=samples, seed=seed, player=player)
    except (ValueError, TypeError) as error:
        message = one_line(error)
        field = _field_of(message)
        # The library's fantasyland messages already start with the field.
        message = message.removeprefix(f"{field}: ")
        named = _PLAYER.match(message)
        raise ApiError(
            422,
            "bad_position",
            f"{field}: {message}",
            player=int(named.group(1)) if named else None,
        ) from None
    answer = {
        "player": player,
        "street": state.street,
        "exact": options[0].exact,
        "options": [o.to_dict() for o in options],
    }
    return Reply(dumps(answer).encode())


def fantasyland_one(body: bytes) -> Reply:
    """``POST /v1/ofc/fantasyland``: ``cards`` (14 to 17), optional ``rules`` (default ``ofc``) and
    ``stay_value`` (default ``stay_value_of(rules)``). The answer: the setting and the stay value."""
    data = json_object(body, "a fantasyland request")
    _check_keys(data, _FANTASYLAND_KEYS)
    rules = _rules(data)
    cards = _cards_field(data, "cards", required=True)
    stay = data.get("stay_value")
    if stay is not None and (isinstance(stay, bool) or not isinstance(stay, (int, float))):
        raise ApiError(422, "bad_request", f"stay_value: a number, got {stay!r}")
    try:
        value = stay_value_of(rules) if stay is None else float(stay)
        best = fantasyland(cards, rules, value)
    except (ValueError, TypeError) as error:
        message = one_line(error)
        field = "stay_value" if message.startswith("stay_value") else "cards"
        raise ApiError(422, "bad_hand", f"{field}: {message}") from None
    return Reply(dumps({"stay_value": value, **best.to_dict()}).encode())


def __dir__() -> list[str]:
    return sorted(__all__)
