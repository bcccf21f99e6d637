"""Settling a checked round and writing its output objects (docs/JSON_FORMAT.md): ``settle_round``
(the core's errors in the words of the round format), ``round_output`` and ``round_net_output`` (the full
and the net output object), ``round_input`` (the round as an input object again) and ``iter_settled``.
``formats.rounds`` is the face of the format and re-exports all of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from chinese_poker._core import InputError
from chinese_poker._version import __version__
from chinese_poker.cards import format_card
from chinese_poker.formats.records import RawRound
from chinese_poker.formats.round_common import OUTPUT_SHAPES
from chinese_poker.formats.round_parse import Round, RoundError, parse_round, rules_digest, rules_reference
from chinese_poker.hand import ROW_NAMES
from chinese_poker.rules import Rules
from chinese_poker.settlement import Settlement

__all__ = [
    "ENGINE",
    "OUTPUT_SHAPES",
    "iter_settled",
    "round_input",
    "round_net_output",
    "round_output",
    "settle_round",
]

#: What made an output: every output object carries it as ``"engine"``.
ENGINE: Mapping[str, str] = MappingProxyType({"name": "chinese-poker", "version": __version__})


def settle_round(rnd: Round, where: str = "") -> Settlement:
    """Settle a checked round. What only the core checks (a card held twice, a declared natural not held,
    surrender while it is off, the stakes' values) comes back as a ``RoundError`` naming ``where`` (default:
    the round's id) and the players by name."""
    from chinese_poker.settle import settle  # noqa: PLC0415 - numpy's import, only when a round needs it

    where = where or f"round {json.dumps(rnd.id, ensure_ascii=False)}"
    try:
        return settle(
            list(rnd.hands), rnd.rules, stakes=rnd.stakes, surrender=rnd.surrender, names=rnd.names,
            banker=rnd.banker, bets=rnd.bets, fantasyland=rnd.fantasyland,
        )  # fmt: skip
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
    if error.kind == "fantasyland_off" and player is not None:
        return RoundError(
            f'{names[player]} played in fantasyland, but the rules have fantasyland = "off"', where
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
    if "banker" in data:  # banker rounds
        out["banker"] = data["banker"]
        out["bets"] = data["bets"]
    if explain:
        out["explain"] = settlement.explain()
    return out


def round_net_output(rnd: Round, settlement: Settlement) -> dict[str, Any]:
    """The net output object of a settled round: its ``id`` (as ``round_output`` gives it) and ``net``, the
    units of each player in seat order; nothing else (docs/JSON_FORMAT.md 2.1)."""
    return {"id": rnd.id, "net": list(settlement.net)}


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
        if rnd.fantasyland is not None and rnd.fantasyland[index]:
            entry["fantasyland"] = True
        players.append(entry)
    data: dict[str, Any] = {"id": rnd.id, "rules": rules_reference(rnd.rules), "players": players}
    if rnd.stakes is not None:
        data["stakes"] = [list(row) for row in rnd.stakes]
    if rnd.banker is not None:
        data["banker"] = rnd.names[rnd.banker]
        if rnd.bets is not None:
            data["bets"] = list(rnd.bets)
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
