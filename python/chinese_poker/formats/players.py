"""Checking the parts of a round object (docs/JSON_FORMAT.md): a player (its three rows, or its 13 cards and
flags) and the stakes matrix, in the words every check of the round format uses (``type_name``,
``unknown_key``). ``formats.rounds.parse_round`` checks the round itself and names the round and the player
in each error; these raise plain ``ValueError``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from chinese_poker._suggest import did_you_mean
from chinese_poker.formats.round_common import type_name
from chinese_poker.hand import ROW_NAMES, Hand

__all__ = [
    "PLAYER_KEYS",
    "cards_value",
    "parse_player",
    "parse_stakes",
    "player_fantasyland",
    "type_name",
    "unknown_key",
]

#: Keys a player object may hold.
PLAYER_KEYS: tuple[str, ...] = (
    "name", "front", "middle", "back", "cards", "declare_natural", "surrender",
    "fantasyland",
)  # fmt: skip


def unknown_key(key: str, known: Sequence[str], what: str) -> str:
    return f"unknown key {key!r} in {what}{did_you_mean(key, known)}; allowed: {', '.join(known)}"


def cards_value(value: object, what: str) -> Any:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        for position, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, (str, int)):
                got = type_name(item)
                raise ValueError(
                    f"{what}: card {position} must be a card such as 'As' or a code 0..51, got {got}"
                )
        return value
    raise ValueError(f"{what} must be a string of cards or a list of cards, got {type_name(value)}")


def parse_player(data: object, extra_suits: str = "", jokers: int = 0) -> tuple[str | None, Hand, bool]:
    """A player object: its name, hand and surrender flag. ``extra_suits`` (the round's rules knob): the
    suits whose cards the hand may hold twice."""
    if not isinstance(data, Mapping):
        raise ValueError(f"a player must be an object, got {type_name(data)}")
    for key in data:
        if key not in PLAYER_KEYS:
            raise ValueError(unknown_key(str(key), PLAYER_KEYS, "a player"))
    name = data.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise ValueError(f"name must be a non-empty string, got {json.dumps(name)}")
    for flag in ("declare_natural", "surrender", "fantasyland"):
        if flag in data and not isinstance(data[flag], bool):
            raise ValueError(f"{flag} must be true or false, got {json.dumps(data[flag])}")
    declare = bool(data.get("declare_natural", False))
    surrender = bool(data.get("surrender", False))
    rows_given = [row for row in ROW_NAMES if row in data]
    if rows_given:
        if "cards" in data:
            raise ValueError("give either front, middle and back, or cards, not both")
        missing = [row for row in ROW_NAMES if row not in data]
        if missing:
            raise ValueError(f"{' and '.join(missing)} missing (a setting needs front, middle and back)")
        if declare:
            raise ValueError("a player who declares a natural gives cards (13), not front, middle and back")
        hand = Hand(
            *(cards_value(data[row], row) for row in ROW_NAMES), extra_suits=extra_suits, jokers=jokers
        )
        return name, hand, surrender
    if "cards" not in data:
        raise ValueError("a player needs front, middle and back, or cards (13) with declare_natural")
    given = cards_value(data["cards"], "cards")
    try:
        hand = (
            Hand.declared(given, extra_suits=extra_suits, jokers=jokers)
            if declare
            else Hand.from_cards(given, extra_suits=extra_suits, jokers=jokers)
        )
    except (ValueError, TypeError) as error:
        raise ValueError(f"cards: {error}") from None
    return name, hand, surrender


def player_fantasyland(data: Mapping[str, Any]) -> bool:
    """Whether a player object (already checked by ``parse_player``) played this hand in fantasyland."""
    return bool(data.get("fantasyland", False))


def parse_stakes(value: object, players: int) -> tuple[tuple[int, ...], ...]:
    """The stakes matrix's shape and integer entries; the core checks their range and symmetry."""
    shape = f"stakes must be a {players} x {players} matrix of integers"
    if not isinstance(value, list) or len(value) != players:
        raise ValueError(
            f"{shape}, got {type_name(value)}" + (f" of {len(value)} rows" if isinstance(value, list) else "")
        )
    matrix = []
    for i, row in enumerate(value):
        if not isinstance(row, list) or len(row) != players:
            count = f" of {len(row)} entries" if isinstance(row, list) else ""
            raise ValueError(f"{shape}; row {i} is {type_name(row)}{count}")
        for j, entry in enumerate(row):
            if isinstance(entry, bool) or not isinstance(entry, int):
                raise ValueError(f"{shape}; stakes[{i}][{j}] is {json.dumps(entry)}")
        matrix.append(tuple(row))
    return tuple(matrix)


def __dir__() -> list[str]:
    return list(__all__)
