"""The JSON output form of a settlement (docs/JSON_FORMAT.md, "Output"): ``settlement_dict``.

``Settlement.to_dict`` is this function. Players carry the fields their rules use (fantasyland cards, Chi A
units, jokers only under rules that have them); a pair carries ``EXTENDED_PAIR_FIELDS`` only when the
settlement is ``extended``, so the output of a round without the real-table knobs stays as it was.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from chinese_poker.cards import CARD_TEXT
from chinese_poker.evaluation import CATEGORY_SHIFT, HandCategory, describe
from chinese_poker.hand import ROW_NAMES
from chinese_poker.settlement import EXTENDED_PAIR_FIELDS, PairResult, PlayerResult, Settlement

__all__ = ["PAIR_FIELDS", "player_dict", "settlement_dict"]

#: The output name of every category, made once: the core's strengths are valid by construction.
_CATEGORY_NAMES: tuple[str, ...] = tuple(member.name.lower() for member in HandCategory)
#: The fields of a pair's breakdown, in their order in the output.
PAIR_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PairResult))
_BASIC_PAIR_FIELDS = tuple(name for name in PAIR_FIELDS if name not in EXTENDED_PAIR_FIELDS)


def _pair_dict(players: tuple[PlayerResult, ...], source: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """One pair (a ``PairResult`` or the core's record of it) as JSON-safe data with the fields
    ``names``, in that order. The core's record is read as it is when no ``PairResult`` was built
    (building them, frozen dataclasses, dominated a service request), giving the same values."""
    first, second = players[source.i], players[source.j]
    decided_by = source.decided_by if isinstance(source, PairResult) else source.decided_by.name
    rows = source.rows
    derived: dict[str, Any] = {
        "decided_by": decided_by,
        "rows": None if rows is None else list(rows),
        "foul": [first.foul, second.foul],
        "natural": [first.natural, second.natural],
        "royalties": [list(first.royalties), list(second.royalties)],
        "surrendered": [first.surrendered, second.surrendered],
    }
    # Field by field, not dataclasses.asdict: that deep-copies every value and dominated scoring.
    return {name: derived[name] if name in derived else getattr(source, name) for name in names}


def player_dict(settlement: Settlement, index: int) -> dict[str, Any]:
    """Player ``index`` of ``settlement`` as JSON-safe data: net, foul, natural, rows and what the rules
    add."""
    rules = settlement.rules
    p = settlement.players[index]
    entry: dict[str, Any] = {
        "index": index,
        "net": p.net,
        "foul": p.foul,
        "natural": p.natural,
        "surrendered": p.surrendered,
        "home_run": p.home_run,
    }
    if rules.fantasyland != "off":
        # Only under fantasyland rules, so the output of every other rule set stays as it was.
        entry["fantasyland_cards"] = p.fantasyland_cards
    if rules.ace_basis == "table":
        # Likewise only when the table counts the aces (RULES.md 11.9).
        entry["ace_units"] = p.ace_units
    if rules.jokers:
        # What each joker became (RULES.md 1.2); only under rules with jokers.
        entry["jokers"] = {
            CARD_TEXT[joker]: CARD_TEXT[card]
            for joker, card in zip((52, 53), p.joker_cards)
            if card is not None
        }
    if p.hand.is_declared:
        entry["declared"] = " ".join(CARD_TEXT[c] for c in p.hand.cards)
        entry["rows"] = None
        return entry
    cards = p.hand.cards
    rows = (cards[:3], cards[3:8], cards[8:])
    entry["rows"] = {
        name: {
            "cards": " ".join(CARD_TEXT[c] for c in codes),
            "strength": strength,
            "category": _CATEGORY_NAMES[strength >> CATEGORY_SHIFT],
            "text": describe(strength),
            "royalty": royalty,
        }
        for name, codes, strength, royalty in zip(ROW_NAMES, rows, p.strengths or (), p.royalties)
    }
    if rules.jokers:
        for name, codes in zip(ROW_NAMES, rows):
            jokers = p.jokers_in(codes)
            if jokers:
                entry["rows"][name]["text"] += f" ({jokers})"
    return entry


def settlement_dict(settlement: Settlement) -> dict[str, Any]:
    """The whole settlement as JSON-safe data: the rules, the net, every player and every pair (and the
    banker and the bets of a banker round)."""
    players = [player_dict(settlement, index) for index in range(len(settlement.players))]
    names = PAIR_FIELDS if settlement.extended else _BASIC_PAIR_FIELDS
    held = settlement.players
    pairs = [_pair_dict(held, source, names) for source in settlement._pair_sources()]
    out: dict[str, Any] = {
        "rules": settlement.rules.name or settlement.rules.to_dict(),
        "net": list(settlement.net),
        "players": players,
        "pairs": pairs,
    }
    if settlement.banker is not None:
        out["banker"] = settlement.banker
        bets = settlement.bets
        out["bets"] = list(bets) if bets is not None else [1] * len(settlement.hands)
    return out


def __dir__() -> list[str]:
    return list(__all__)
