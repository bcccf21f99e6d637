"""The JSON round format (docs/JSON_FORMAT.md): reading rounds, settling them, writing the results.

A *round* is a JSON object::

    {"id": "r1", "rules": "pagat-bonus",
     "players": [
       {"name": "North", "front": "Ts Th Qs", "middle": "6s 5s 4s 3s 2h", "back": "Ks Kh Kd 3h 3d"},
       {"name": "East", "cards": "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s", "declare_natural": true}],
     "stakes": [[1, 2], [2, 1]]}

A file holds one round, a JSON list of rounds, or JSON Lines (one round per line). ``read_rounds`` splits a
text into raw rounds, ``parse_round`` checks one and builds a ``Round`` (its hands, names, stakes, id and
rules), ``settle_round`` settles it and ``round_output`` gives the output object: ``Settlement.to_dict()``
with the round's ``id`` and each player's ``name`` added. Every problem is a ``RoundError``: one line that
names the round and the player. The checks here mirror ``schema/round.schema.json`` (no ``jsonschema``
needed at run time).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any, Union

from chinese_poker import __version__
from chinese_poker._core import InputError
from chinese_poker._suggest import did_you_mean
from chinese_poker.cards import format_card
from chinese_poker.formats.records import RawRound
from chinese_poker.hand import ROW_NAMES, Hand
from chinese_poker.rules import Rules
from chinese_poker.settle import settle
from chinese_poker.settlement import Settlement

__all__ = [
    "ENGINE",
    "METADATA_KEYS",
    "PLAYER_KEYS",
    "ROUND_KEYS",
    "Round",
    "RoundError",
    "default_names",
    "iter_settled",
    "load_schema",
    "parse_round",
    "round_input",
    "round_output",
    "rules_digest",
    "rules_from_value",
    "rules_reference",
    "settle_round",
]

RoundId = Union[str, int]

#: Keys a player object may hold.
PLAYER_KEYS: tuple[str, ...] = ("name", "front", "middle", "back", "cards", "declare_natural", "surrender")
#: Keys a round object may hold that this package reads.
ROUND_KEYS: tuple[str, ...] = ("id", "rules", "players", "stakes")
#: Keys a round object may hold that are carried along and never read (conformance vectors use them).
METADATA_KEYS: tuple[str, ...] = ("expected", "tags", "note")

_DEFAULT_NAMES = ("P1", "P2", "P3", "P4")

#: What made an output: every output object carries it as ``"engine"``.
ENGINE: Mapping[str, str] = MappingProxyType({"name": "chinese-poker", "version": __version__})


class RoundError(ValueError):
    """A round that cannot be read or settled; ``str()`` is one line naming the round (and the player)."""

    def __init__(self, message: str, where: str = "", player: str = "") -> None:
        self.message = message
        self.where = where
        self.player = player
        parts = [part for part in (where, player) if part]
        super().__init__(": ".join([", ".join(parts), message]) if parts else message)

    def located(self, where: str) -> RoundError:
        """The same error, naming the round as ``where``."""
        return RoundError(self.message, where, self.player)


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


def default_names(count: int) -> tuple[str, ...]:
    """The names given to players that have none: ``P1``, ``P2``, ..."""
    return _DEFAULT_NAMES[:count]


def load_schema(name: str = "round") -> dict[str, Any]:
    """The JSON Schema shipped in ``chinese_poker/formats/schema``: ``"round"`` (input) or ``"output"``."""
    schema_file = resources.files("chinese_poker.formats.schema").joinpath(f"{name}.schema.json")
    schema: dict[str, Any] = json.loads(schema_file.read_text(encoding="utf-8"))
    return schema


# ----- checking one round ------------------------------------------------------------------------------


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _unknown_key(key: str, known: Sequence[str], what: str) -> str:
    return f"unknown key {key!r} in {what}{did_you_mean(key, known)}; allowed: {', '.join(known)}"


def rules_from_value(value: object) -> Rules:
    """Rules from a round's ``"rules"`` value: a preset name or a rules object (``Rules.from_dict``)."""
    if isinstance(value, str):
        return Rules.preset(value)
    if isinstance(value, Mapping):
        return Rules.from_dict(value)
    raise ValueError(f"rules must be a preset name or an object of knobs, got {_type_name(value)}")


def rules_reference(rules: Rules) -> str | dict[str, Any]:
    """How a round names its rules: the preset name when the rules are a preset, else every knob."""
    return rules.name if rules.name is not None else rules.to_dict()


def rules_digest(rules: Rules) -> str:
    """The SHA-256 (hex) of the canonical rules: ``rules.to_dict()`` without ``"preset"``, as compact JSON
    with sorted keys; equal rules give the same digest whatever they were named or spelled as."""
    data = rules.to_dict()
    data.pop("preset", None)
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _cards_value(value: object, what: str) -> Any:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        for position, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, (str, int)):
                got = _type_name(item)
                raise ValueError(
                    f"{what}: card {position} must be a card such as 'As' or a code 0..51, got {got}"
                )
        return value
    raise ValueError(f"{what} must be a string of cards or a list of cards, got {_type_name(value)}")


def _parse_player(data: object) -> tuple[str | None, Hand, bool]:
    if not isinstance(data, Mapping):
        raise ValueError(f"a player must be an object, got {_type_name(data)}")
    for key in data:
        if key not in PLAYER_KEYS:
            raise ValueError(_unknown_key(str(key), PLAYER_KEYS, "a player"))
    name = data.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise ValueError(f"name must be a non-empty string, got {json.dumps(name)}")
    for flag in ("declare_natural", "surrender"):
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
        hand = Hand(*(_cards_value(data[row], row) for row in ROW_NAMES))
        return name, hand, surrender
    if "cards" not in data:
        raise ValueError("a player needs front, middle and back, or cards (13) with declare_natural")
    given = _cards_value(data["cards"], "cards")
    try:
        hand = Hand.declared(given) if declare else Hand.from_cards(given)
    except (ValueError, TypeError) as error:
        raise ValueError(f"cards: {error}") from None
    return name, hand, surrender


def _parse_stakes(value: object, players: int) -> tuple[tuple[int, ...], ...]:
    """The stakes matrix's shape and integer entries; the core checks their range and symmetry."""
    shape = f"stakes must be a {players} x {players} matrix of integers"
    if not isinstance(value, list) or len(value) != players:
        raise ValueError(
            f"{shape}, got {_type_name(value)}"
            + (f" of {len(value)} rows" if isinstance(value, list) else "")
        )
    matrix = []
    for i, row in enumerate(value):
        if not isinstance(row, list) or len(row) != players:
            count = f" of {len(row)} entries" if isinstance(row, list) else ""
            raise ValueError(f"{shape}; row {i} is {_type_name(row)}{count}")
        for j, entry in enumerate(row):
            if isinstance(entry, bool) or not isinstance(entry, int):
                raise ValueError(f"{shape}; stakes[{i}][{j}] is {json.dumps(entry)}")
        matrix.append(tuple(row))
    return tuple(matrix)


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
        raise RoundError(f'a round must be an object with "players", got {_type_name(data)}', where)
    for key in data:
        if key not in ROUND_KEYS and key not in METADATA_KEYS:
            raise RoundError(_unknown_key(str(key), ROUND_KEYS + METADATA_KEYS, "a round"), where)
    rid = data.get("id", position)
    if isinstance(rid, bool) or not isinstance(rid, (str, int)):
        raise RoundError(f"id must be a string or an integer, got {_type_name(rid)}", where)
    if "rules" in data and not override_rules:
        try:
            round_rules = rules_from_value(data["rules"])
        except ValueError as error:
            raise RoundError(f"rules: {error}", where) from None
    else:
        round_rules = rules if rules is not None else Rules.preset()
    players = data.get("players")
    if not isinstance(players, list):
        missing = "missing" if "players" not in data else f"must be a list, got {_type_name(players)}"
        raise RoundError(f"players {missing}", where)
    if not 2 <= len(players) <= 4:
        raise RoundError(f"a round has 2 to 4 players, got {len(players)}", where)
    names: list[str] = []
    hands: list[Hand] = []
    flags: list[bool] = []
    for index, player in enumerate(players):
        label = f"player {index + 1} ({_DEFAULT_NAMES[index]})"
        if isinstance(player, Mapping) and isinstance(player.get("name"), str) and player["name"].strip():
            label = f"player {index + 1} ({player['name']})"
        try:
            name, hand, surrender = _parse_player(player)
        except ValueError as error:
            raise RoundError(str(error), where, label) from None
        names.append(name if name is not None else _DEFAULT_NAMES[index])
        hands.append(hand)
        flags.append(surrender)
    seen_names: dict[str, int] = {}
    for index, name in enumerate(names):
        if name in seen_names:
            raise RoundError(f"players {seen_names[name] + 1} and {index + 1} are both named {name!r}", where)
        seen_names[name] = index
    stakes = None
    if data.get("stakes") is not None:
        try:
            stakes = _parse_stakes(data["stakes"], len(hands))
        except ValueError as error:
            raise RoundError(str(error), where) from None
    return Round(
        id=rid,
        names=tuple(names),
        hands=tuple(hands),
        stakes=stakes,
        surrender=tuple(flags) if any(flags) else None,
        rules=round_rules,
    )


def settle_round(rnd: Round, where: str = "") -> Settlement:
    """Settle a checked round. What only the core checks (a card held twice, a declared natural not held,
    surrender while it is off, the stakes' values) comes back as a ``RoundError`` naming ``where`` (default:
    the round's id) and the players by name."""
    where = where or f"round {json.dumps(rnd.id, ensure_ascii=False)}"
    try:
        return settle(list(rnd.hands), rnd.rules, stakes=rnd.stakes, surrender=rnd.surrender, names=rnd.names)
    except InputError as error:
        raise _named_error(error, rnd, where) from None
    except (ValueError, TypeError) as error:
        raise RoundError(str(error), where) from None


def _named_error(error: InputError, rnd: Round, where: str) -> RoundError:
    """The core's index-based error in the words of the round format: players by number and name."""
    names = rnd.names
    player = error.player

    def label(index: int) -> str:
        return f"player {index + 1} ({names[index]})"

    rules_name = rnd.rules.name or "custom"
    if (
        error.kind == "card_repeated"
        and error.other is not None
        and error.other != player
        and error.card is not None
    ):
        assert player is not None
        return RoundError(
            f"card {format_card(error.card)} is held by both {names[error.other]} and {names[player]}", where
        )
    if error.kind == "declared_without_natural" and player is not None:
        if not rnd.rules.naturals:
            return RoundError(
                f"declares a natural, but the rules ({rules_name}) list no naturals", where, label(player)
            )
        listed = ", ".join(name for name, _ in rnd.rules.naturals)
        return RoundError(
            f"declares a natural but holds none of those the rules ({rules_name}) list: {listed}",
            where,
            label(player),
        )
    if error.kind == "surrender_off" and player is not None:
        return RoundError(
            f"{names[player]} surrenders, but the rules have surrender_units = 0 (surrender off)", where
        )
    return RoundError(str(error), where)


def round_output(rnd: Round, settlement: Settlement, *, explain: bool = False) -> dict[str, Any]:
    """The output object of a settled round: ``Settlement.to_dict()`` with the round's ``id`` first, each
    player's ``name``, the ``"engine"`` that made it (``ENGINE``) and the ``"rules_digest"`` of its rules
    (``rules_digest``); with ``explain``, also ``"explain"``: the text of ``Settlement.explain()``."""
    data = settlement.to_dict()
    players = [{"name": name, **player} for name, player in zip(rnd.names, data["players"])]
    out: dict[str, Any] = {
        "id": rnd.id,
        "engine": dict(ENGINE),
        "rules": data["rules"],
        "rules_digest": rules_digest(rnd.rules),
        "net": data["net"],
        "players": players,
        "pairs": data["pairs"],
    }
    if explain:
        out["explain"] = settlement.explain()
    return out


def round_input(rnd: Round) -> dict[str, Any]:
    """The round as an input object again (cards as canonical text, rules by preset name or in full)."""
    players = []
    for name, hand, index in zip(rnd.names, rnd.hands, range(len(rnd.hands))):
        entry: dict[str, Any] = {"name": name}
        if hand.is_declared:
            entry["cards"] = " ".join(format_card(c) for c in hand.cards)
            entry["declare_natural"] = True
        else:
            for row, codes in zip(ROW_NAMES, (hand.front, hand.middle, hand.back)):
                entry[row] = " ".join(format_card(c) for c in codes or ())
        if rnd.surrender is not None and rnd.surrender[index]:
            entry["surrender"] = True
        players.append(entry)
    data: dict[str, Any] = {"id": rnd.id, "rules": rules_reference(rnd.rules), "players": players}
    if rnd.stakes is not None:
        data["stakes"] = [list(row) for row in rnd.stakes]
    return data


def iter_settled(
    raws: Sequence[RawRound], rules: Rules | None = None, *, override_rules: bool = False
) -> Iterator[tuple[RawRound, Round | None, Settlement | None, RoundError | None]]:
    """Check and settle raw rounds one by one: ``(raw, round, settlement, None)`` or ``(raw, None, None,
    error)``."""
    for raw in raws:
        if raw.error is not None:
            yield raw, None, None, RoundError(raw.error, raw.where)
            continue
        try:
            rnd = parse_round(
                raw.data, position=raw.position, where=raw.where, rules=rules, override_rules=override_rules
            )
            yield raw, rnd, settle_round(rnd, raw.where), None
        except RoundError as error:
            yield raw, None, None, error


def __dir__() -> list[str]:
    return list(__all__)
