"""Auditing a log of rounds: settle every round again and report each receipt, net or deal that does not
match, naming the round and the field (``chinese-poker audit``, ``POST /v1/verify``; docs/FAIR.md).

A log line is one of:

- an output round of ``chinese-poker score --receipts`` (it has ``"engine"``): re-settled from its
  receipt's inputs under its ``"rules"``; the receipt, ``"net"``, ``"pairs"`` and ``"rules_digest"`` are
  checked against that settlement;
- a round in the input format (docs/JSON_FORMAT.md) with any of ``"receipt"`` (checked as above),
  ``"net"`` (the units each seat was paid), each player's ``"dealt"`` (the 13 cards the player was dealt:
  the setting must use exactly those) and ``"deal"``: ``{"commitment", "server_seed", "client_seeds",
  "nonce"}`` (hex strings, hex strings, an int), re-dealt by ``chinese_poker.fair``: the commitment must be
  the server seed's SHA-256 and each setting must use exactly the cards the seeds deal that seat. A line
  with ``"deal"`` and no ``"dealt"`` is a compact replay: the seeds stand for the dealt cards.

A line that cannot be read at all is a ``RoundError`` (the command's exit code 2); everything that can be
compared and differs is a ``Mismatch``.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from chinese_poker.cards import format_card, parse_cards
from chinese_poker.fair import commitment as seed_commitment
from chinese_poker.fair import deal
from chinese_poker.formats.rounds import (
    Round,
    RoundError,
    parse_round,
    rules_digest,
    rules_from_value,
    settle_round,
)
from chinese_poker.hand import Hand
from chinese_poker.receipts import check_receipt, receipt_differences
from chinese_poker.rules import Rules
from chinese_poker.settle import settle
from chinese_poker.settlement import Settlement

__all__ = ["LOG_KEYS", "Mismatch", "audit_record"]

#: Keys a log line in the input format may carry besides a round's own.
LOG_KEYS: tuple[str, ...] = ("receipt", "net", "deal")
_DEALT = "dealt"


@dataclass(frozen=True)
class Mismatch:
    """One thing of a round that does not match: the round (``where``), the ``field`` (e.g.
    ``receipt.net[1]``, ``deal.commitment``, ``players[2].cards``) and what differs."""

    where: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.field}: {self.message}"


def audit_record(data: object, where: str, key: bytes | None = None) -> list[Mismatch]:
    """Every mismatch of one log line (see the module docstring), in the order checked; none when all
    match. ``key``: the receipts' HMAC key, when they carry one. A line that cannot be read is a
    ``RoundError`` naming ``where``."""
    if not isinstance(data, Mapping):
        raise RoundError(f"a log line must be an object, got {type(data).__name__}", where)
    found: list[tuple[str, str]] = []
    if "engine" in data:
        _audit_output(data, where, key, found)
    else:
        _audit_input(data, where, key, found)
    return [Mismatch(where, name, message) for name, message in found]


# ----- output rounds (score --receipts) ----------------------------------------------------------------


def _audit_output(
    data: Mapping[str, Any], where: str, key: bytes | None, found: list[tuple[str, str]]
) -> None:
    receipt = data.get("receipt")
    if receipt is None:
        raise RoundError("an output round needs its receipt to be audited (score --receipts)", where)
    try:
        rules = rules_from_value(data.get("rules"))
    except ValueError as error:
        raise RoundError(f"rules: {error}", where) from None
    intact = not (problems := check_receipt(receipt, key))
    found += problems
    if not isinstance(receipt, Mapping):
        return
    try:
        settlement = _settle_receipt(receipt, rules, data.get("players"))
    except (ValueError, TypeError, KeyError, IndexError, OverflowError) as error:
        found.append(("receipt", f"its inputs cannot be settled: {' '.join(str(error).split())}"))
        return
    found += _differences(receipt, settlement, intact)
    digest = data.get("rules_digest")
    if digest is not None and digest != rules_digest(rules):
        found.append(("rules_digest", "is not the digest of the line's rules"))
    _compare_net(data, settlement, found)
    pairs = data.get("pairs")
    if isinstance(pairs, list):
        units = [p.get("units") if isinstance(p, Mapping) else None for p in pairs]
        again = [p.units for p in settlement.pairs]
        if units != again:
            index = next(
                (k for k, (a, b) in enumerate(zip(units, again)) if a != b), min(len(units), len(again))
            )
            found.append((f"pairs[{index}].units", f"are {units}, the round gives {again}"))


def _settle_receipt(receipt: Mapping[str, Any], rules: Rules, players: object) -> Settlement:
    """The settlement of a receipt's inputs under ``rules``: its hands, surrenders, banker, bets and
    stakes (from its pairs)."""
    codes, declared = receipt["hands"], receipt["declared"]
    if not isinstance(codes, list) or not isinstance(declared, list) or len(codes) != len(declared):
        raise ValueError("hands and declared must be lists of one entry per seat")
    hands = []
    for seat, (cards, flag) in enumerate(zip(codes, declared)):
        if not isinstance(cards, list) or len(cards) != 13:
            raise ValueError(f"hands[{seat}] must be 13 card codes")
        if flag:
            hands.append(Hand.declared(cards, extra_suits=rules.extra_suits, jokers=rules.jokers))
        else:
            rows = (cards[:3], cards[3:8], cards[8:])
            hands.append(Hand(*rows, extra_suits=rules.extra_suits, jokers=rules.jokers))
    count = len(hands)
    stakes = np.ones((count, count), dtype=np.int64)
    for pair in receipt["pairs"]:
        stakes[pair["i"], pair["j"]] = stakes[pair["j"], pair["i"]] = pair["stake"]
    names: list[str] | None = None
    if isinstance(players, list) and len(players) == count:
        given = [p.get("name") if isinstance(p, Mapping) else None for p in players]
        if all(isinstance(name, str) for name in given) and len(set(given)) == count:
            names = [str(name) for name in given]
    return settle(
        hands, rules, stakes=stakes if (stakes != 1).any() else None, surrender=receipt["surrendered"],
        names=names, banker=receipt["banker"], bets=receipt["bets"],
    )  # fmt: skip


def _differences(receipt: Mapping[str, Any], settlement: Settlement, intact: bool) -> list[tuple[str, str]]:
    """The fields where the receipt differs from the settlement's own. An intact receipt (its sha256 is
    the hash of its contents) with the same sha256 has the same contents: nothing to compare."""
    expected = settlement.receipt()
    if intact and receipt.get("sha256") == expected["sha256"]:
        return []
    return receipt_differences(receipt, expected)


def _compare_net(data: Mapping[str, Any], settlement: Settlement, found: list[tuple[str, str]]) -> None:
    if "net" not in data:
        return
    net, again = data["net"], list(settlement.net)
    if not isinstance(net, list) or len(net) != len(again):
        found.append(("net", f"is {json.dumps(net)}, the round gives {again}"))
        return
    for seat, (given, fresh) in enumerate(zip(net, again)):
        if isinstance(given, bool) or given != fresh:
            found.append((f"net[{seat}]", f"is {json.dumps(given)}, the round gives {fresh}"))


# ----- input rounds (with receipts, nets and deals) ----------------------------------------------------


def _split(data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[int, object]]:
    """The round without the log's own keys and the players' ``dealt``, and the ``dealt`` values by seat."""
    core = {k: v for k, v in data.items() if k not in LOG_KEYS}
    players = core.get("players")
    dealt: dict[int, object] = {}
    if isinstance(players, list):
        stripped = []
        for seat, player in enumerate(players):
            if isinstance(player, Mapping) and _DEALT in player:
                dealt[seat] = player[_DEALT]
                player = {k: v for k, v in player.items() if k != _DEALT}  # noqa: PLW2901
            stripped.append(player)
        core["players"] = stripped
    return core, dealt


def _audit_input(
    data: Mapping[str, Any], where: str, key: bytes | None, found: list[tuple[str, str]]
) -> None:
    core, dealt = _split(data)
    if not dealt and not any(name in data for name in LOG_KEYS):
        raise RoundError("nothing to audit: the round has no receipt, net, dealt cards or deal", where)
    rnd = parse_round(core, where=where)
    settlement = settle_round(rnd, where)
    if "receipt" in data:
        receipt = data["receipt"]
        problems = check_receipt(receipt, key)
        found += problems
        if isinstance(receipt, Mapping):
            found += _differences(receipt, settlement, not problems)
    _compare_net(data, settlement, found)
    rules = rnd.rules
    given_dealt = {
        seat: _codes(value, rules, f"players[{seat}].dealt", where) for seat, value in dealt.items()
    }
    for seat, codes in given_dealt.items():
        if seat < len(rnd.hands):
            _compare_cards(f"players[{seat}].cards", rnd.hands[seat].cards, codes, "dealt", found)
    if "deal" in data:
        _audit_deal(data["deal"], rnd, given_dealt, where, found)


def _codes(value: object, rules: Rules, name: str, where: str) -> list[int]:
    if isinstance(value, bool) or not isinstance(value, (str, list)):
        raise RoundError(f"{name} must be a string of cards or a list of cards", where)
    try:
        codes = list(parse_cards(value, rules.extra_suits, rules.jokers))
    except (ValueError, TypeError) as error:
        raise RoundError(f"{name}: {error}", where) from None
    if len(codes) != 13:
        raise RoundError(f"{name} must be 13 cards, got {len(codes)}", where)
    return codes


def _compare_cards(
    name: str, held: Sequence[int], dealt: Sequence[int], source: str, found: list[tuple[str, str]]
) -> None:
    """Whether the 13 ``held`` cards are exactly the ``dealt`` ones (as multisets); the first card off."""
    rest = list(dealt)
    for card in held:
        if card in rest:
            rest.remove(card)
        else:
            found.append((name, f"card {format_card(card)} is held but was not {source}"))
            return
    if rest:
        found.append((name, f"card {format_card(rest[0])} was {source} but is not held"))


def _hex(value: object, name: str, where: str) -> bytes:
    if not isinstance(value, str):
        raise RoundError(f"{name} must be a hex string, got {type(value).__name__}", where)
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise RoundError(f"{name} must be a hex string, got {value[:40]!r}", where) from None


def _audit_deal(
    value: object, rnd: Round, given_dealt: Mapping[int, list[int]], where: str, found: list[tuple[str, str]]
) -> None:
    if not isinstance(value, Mapping):
        raise RoundError(f"deal must be an object, got {type(value).__name__}", where)
    for name in value:
        if name not in ("commitment", "server_seed", "client_seeds", "nonce"):
            raise RoundError(f"deal: unknown key {name!r}", where)
    seeds = value.get("client_seeds")
    if not isinstance(seeds, list):
        raise RoundError("deal.client_seeds must be a list of hex strings", where)
    server = _hex(value.get("server_seed"), "deal.server_seed", where)
    clients = [_hex(seed, f"deal.client_seeds[{k}]", where) for k, seed in enumerate(seeds)]
    commitment = value.get("commitment")
    if not isinstance(commitment, str):
        raise RoundError("deal.commitment must be a hex string", where)
    try:
        published = seed_commitment(server)
        cards = deal(server, clients, value.get("nonce"), rnd.rules, len(rnd.hands))  # type: ignore[arg-type]
    except (ValueError, TypeError) as error:
        raise RoundError(f"deal: {error}", where) from None
    if not hmac.compare_digest(commitment.strip().lower().encode("utf-8"), published.encode("ascii")):
        found.append(("deal.commitment", "is not the SHA-256 of the revealed server seed"))
    for seat, hand in enumerate(rnd.hands):
        fresh = [int(c) for c in cards[seat]]
        if seat in given_dealt:
            _compare_cards(f"players[{seat}].dealt", given_dealt[seat], fresh, "dealt by the seeds", found)
        else:
            _compare_cards(f"players[{seat}].cards", hand.cards, fresh, "dealt by the seeds", found)


def __dir__() -> list[str]:
    return list(__all__)
