"""Checking one round object of the JSON round format (docs/JSON_FORMAT.md): ``parse_round`` builds a
``Round`` (its hands, names, stakes, banker, bets, id and rules) or raises a ``RoundError`` naming the round
and the player; ``rules_from_value``, ``rules_reference`` and ``rules_digest`` read, name and hash a round's
rules. ``formats.rounds`` is the face of the format and re-exports all of it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chinese_poker.formats.players import (
    parse_player,
    parse_stakes,
    player_fantasyland,
    unknown_key,
)
from chinese_poker.formats.round_common import (
    DIGESTED_ALWAYS,
    MAX_PLAYERS,
    RoundError,
    rules_digest,
    rules_from_value,
    rules_reference,
    type_name,
)
from chinese_poker.hand import Hand
from chinese_poker.rules import Rules

__all__ = [
    "DIGESTED_ALWAYS",
    "MAX_PLAYERS",
    "METADATA_KEYS",
    "ROUND_KEYS",
    "Round",
    "RoundError",
    "RoundId",
    "default_names",
    "load_schema",
    "parse_round",
    "rules_digest",
    "rules_from_value",
    "rules_reference",
]

RoundId = str | int

#: Keys a round object may hold that this package reads.
ROUND_KEYS: tuple[str, ...] = ("id", "rules", "players", "stakes", "banker", "bets")
#: Keys a round object may hold that are carried along and never read (conformance vectors use them).
METADATA_KEYS: tuple[str, ...] = ("expected", "tags", "note")

_DEFAULT_NAMES = ("P1", "P2", "P3", "P4", "P5", "P6")


@dataclass(frozen=True)
class Round:
    """A checked round: ``id`` (echoed back; the 1-based position when the input has none), player
    ``names``, ``hands``, optional ``stakes`` matrix and ``surrender`` flags, and the ``rules`` to settle
    by."""

    id: RoundId
    names: tuple[str, ...]
    hands: tuple[Hand, ...]
    stakes: tuple[tuple[int, ...], ...] | None
    surrender: tuple[bool, ...] | None
    rules: Rules
    #: A banker round: the banker's seat and the players' bets.
    banker: int | None = None
    bets: tuple[int, ...] | None = None
    #: Whether each player played this hand in fantasyland (None: nobody did).
    fantasyland: tuple[bool, ...] | None = None


def default_names(count: int) -> tuple[str, ...]:
    """The names given to players that have none: ``P1``, ``P2``, ..."""
    return _DEFAULT_NAMES[:count]


def load_schema(name: str = "round") -> dict[str, Any]:
    """The JSON Schema shipped in ``chinese_poker/formats/schema``: ``"round"`` (input) or ``"output"``."""
    from importlib import resources  # noqa: PLC0415 - its import is a fifth of a command's start-up

    schema_file = resources.files("chinese_poker.formats.schema").joinpath(f"{name}.schema.json")
    schema: dict[str, Any] = json.loads(schema_file.read_text(encoding="utf-8"))
    return schema


def parse_round(
    data: object,
    *,
    position: int = 1,
    where: str | None = None,
    rules: Rules | None = None,
    override_rules: bool = False,
) -> Round:
    """Check one round object and build its ``Round``; any problem is a ``RoundError`` naming the round as
    ``where`` (default ``"round <position>"``) and the player.

    The rules are the round's own ``"rules"`` when it has them and ``override_rules`` is false, else
    ``rules`` (default ``pagat``). A round without an ``id`` gets its ``position``.
    """
    where = where or f"round {position}"
    if not isinstance(data, Mapping):
        raise RoundError(f'a round must be an object with "players", got {type_name(data)}', where)
    for key in data:
        if key not in ROUND_KEYS and key not in METADATA_KEYS:
            raise RoundError(unknown_key(str(key), ROUND_KEYS + METADATA_KEYS, "a round"), where)
    rid = data.get("id", position)
    if isinstance(rid, bool) or not isinstance(rid, (str, int)):
        raise RoundError(f"id must be a string or an integer, got {type_name(rid)}", where)
    if "rules" in data and not override_rules:
        try:
            round_rules = rules_from_value(data["rules"])
        except ValueError as error:
            raise RoundError(f"rules: {error}", where) from None
    else:
        round_rules = rules if rules is not None else Rules.preset()
    players = data.get("players")
    if not isinstance(players, list):
        missing = "missing" if "players" not in data else f"must be a list, got {type_name(players)}"
        raise RoundError(f"players {missing}", where)
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise RoundError(
            f"a round has 2 to {MAX_PLAYERS} players (5 and 6 with added suits), got {len(players)}", where
        )
    names: list[str] = []
    hands: list[Hand] = []
    flags: list[bool] = []
    in_fantasyland: list[bool] = []
    for index, player in enumerate(players):
        label = f"player {index + 1} ({_DEFAULT_NAMES[index]})"
        if isinstance(player, Mapping) and isinstance(player.get("name"), str) and player["name"].strip():
            label = f"player {index + 1} ({player['name']})"
        try:
            name, hand, surrender = parse_player(player, round_rules.extra_suits, round_rules.jokers)
        except ValueError as error:
            raise RoundError(str(error), where, label) from None
        names.append(name if name is not None else _DEFAULT_NAMES[index])
        hands.append(hand)
        flags.append(surrender)
        in_fantasyland.append(player_fantasyland(player))
    seen_names: dict[str, int] = {}
    for index, name in enumerate(names):
        if name in seen_names:
            raise RoundError(f"players {seen_names[name] + 1} and {index + 1} are both named {name!r}", where)
        seen_names[name] = index
    stakes = None
    if data.get("stakes") is not None:
        try:
            stakes = parse_stakes(data["stakes"], len(hands))
        except ValueError as error:
            raise RoundError(str(error), where) from None
    banker = _parse_banker(data.get("banker"), names, where)
    bets = _parse_bets(data.get("bets"), names, banker, where)
    return Round(
        id=rid,
        names=tuple(names),
        hands=tuple(hands),
        stakes=stakes,
        surrender=tuple(flags) if any(flags) else None,
        rules=round_rules,
        banker=banker,
        bets=bets,
        fantasyland=tuple(in_fantasyland) if any(in_fantasyland) else None,
    )


def _parse_banker(value: object, names: Sequence[str], where: str) -> int | None:
    """The banker's seat from a round's ``"banker"``: a player's name or a 0-based seat (or null)."""
    if value is None:
        return None
    if isinstance(value, str):
        if value not in names:
            raise RoundError(f"banker {value!r} is not a player of the round ({', '.join(names)})", where)
        return names.index(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoundError(f"banker must be a player's name or a 0-based seat, got {type_name(value)}", where)
    if not 0 <= value < len(names):
        raise RoundError(f"banker seat {value} is not a seat: the round has seats 0..{len(names) - 1}", where)
    return value


def _parse_bets(
    value: object, names: Sequence[str], banker: int | None, where: str
) -> tuple[int, ...] | None:
    """The bets of a banker round: one int 1..1000 per player, in seat order (or null)."""
    if value is None:
        return None
    if banker is None:
        raise RoundError("bets are given but the round names no banker", where)
    if not isinstance(value, list) or len(value) != len(names):
        count = f" of {len(value)}" if isinstance(value, list) else ""
        raise RoundError(
            f"bets must be a list of one int per player ({len(names)}), got {type_name(value)}{count}", where
        )
    for index, bet in enumerate(value):
        if isinstance(bet, bool) or not isinstance(bet, int) or not 1 <= bet <= 1000:
            raise RoundError(f"bet {json.dumps(bet)} is not an int from 1 to 1000", where,
                             f"player {index + 1} ({names[index]})")  # fmt: skip
    return tuple(value)


def __dir__() -> list[str]:
    return list(__all__)
