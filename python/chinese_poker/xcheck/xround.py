"""One round the tool sends: ``XRound``, each player's 13 card codes as front 3, middle 5 and back 5 (a
declared natural's 13 in any order), whether the player declares a natural, and the per-round inputs
(stakes, surrenders, a banker with bets) when it has them. ``to_json`` is its input object of
docs/JSON_FORMAT.md without ``rules`` (the engine plays its own); ``round_from_json`` reads one back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from chinese_poker.cards import format_card, parse_cards

__all__ = ["XRound", "round_from_json"]

_ROWS = ("front", "middle", "back")
_SLICES = ((0, 3), (3, 8), (8, 13))


@dataclass(frozen=True)
class XRound:
    """One round: ``hands[p]`` the 13 codes of player p (front, middle, back), ``declared[p]`` whether p
    declares a natural; ``tag`` what the round targets."""

    rid: str
    hands: tuple[tuple[int, ...], ...]
    declared: tuple[bool, ...]
    tag: str = "random"
    origin: str = field(default="", compare=False)
    stakes: tuple[tuple[int, ...], ...] | None = None
    surrender: tuple[bool, ...] | None = None
    banker: int | None = None
    bets: tuple[int, ...] | None = None

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def inputs(self) -> tuple[bool, bool, bool]:
        """Which per-round inputs the round has: stakes, surrenders, a banker (with bets)."""
        return (self.stakes is not None, self.surrender is not None, self.banker is not None)

    @property
    def jokers(self) -> int:
        """How many jokers the pack must hold for the round: 2 when ``X2`` (53) is held, 1 for ``X1`` only."""
        held = {c for hand in self.hands for c in hand if c >= 52}
        return 2 if 53 in held else len(held)

    def with_id(self, rid: str) -> XRound:
        return replace(self, rid=rid)

    def seats(self, seats: Sequence[int], rid: str) -> XRound | None:
        """The round of the players ``seats`` only (their stakes, surrenders and bets kept), or ``None``
        when it would lose its banker or keep nobody who does not surrender."""
        if self.banker is not None and self.banker not in seats:
            return None
        surrender = None if self.surrender is None else tuple(self.surrender[s] for s in seats)
        if surrender is not None and all(surrender):
            return None
        return replace(
            self,
            rid=rid,
            hands=tuple(self.hands[s] for s in seats),
            declared=tuple(self.declared[s] for s in seats),
            stakes=None
            if self.stakes is None
            else tuple(tuple(self.stakes[a][b] for b in seats) for a in seats),
            surrender=surrender,
            banker=None if self.banker is None else list(seats).index(self.banker),
            bets=None if self.bets is None else tuple(self.bets[s] for s in seats),
        )

    def to_json(self) -> dict[str, Any]:
        """The input object of the round (docs/JSON_FORMAT.md 1), without ``rules``."""
        players: list[dict[str, Any]] = []
        for index, (hand, declared) in enumerate(zip(self.hands, self.declared)):
            entry: dict[str, Any] = {"name": f"P{index + 1}"}
            if declared:
                entry["cards"] = " ".join(format_card(c) for c in hand)
                entry["declare_natural"] = True
            else:
                for row, (low, high) in zip(_ROWS, _SLICES):
                    entry[row] = " ".join(format_card(c) for c in hand[low:high])
            if self.surrender is not None and self.surrender[index]:
                entry["surrender"] = True
            players.append(entry)
        out: dict[str, Any] = {"id": self.rid, "players": players}
        if self.stakes is not None:
            out["stakes"] = [list(row) for row in self.stakes]
        if self.banker is not None:
            out["banker"] = self.banker
            if self.bets is not None:
                out["bets"] = list(self.bets)
        return out


def round_from_json(data: dict[str, Any], rid: str, tag: str) -> XRound | None:
    """An ``XRound`` of a JSON round object, or ``None`` when it uses what the tool does not send
    (stakes, a banker, surrender, fantasyland, jokers, more than four players)."""
    if any(key in data for key in ("stakes", "banker", "bets")) or not 2 <= len(data["players"]) <= 4:
        return None
    hands: list[tuple[int, ...]] = []
    declared: list[bool] = []
    for player in data["players"]:
        if player.get("surrender") or player.get("fantasyland"):
            return None
        try:
            if "cards" in player:
                codes = parse_cards(player["cards"])
            else:
                codes = tuple(c for row in _ROWS for c in parse_cards(player[row]))
        except ValueError:
            return None
        hands.append(codes)
        declared.append(bool(player.get("declare_natural")))
    return XRound(rid, tuple(hands), tuple(declared), tag)


def __dir__() -> list[str]:
    return list(__all__)
