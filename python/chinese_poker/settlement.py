"""The result of settling a round: ``Settlement`` and its ``PlayerResult`` and ``PairResult`` parts.

A ``Settlement`` wraps the core's result and builds the per-player and per-pair records on first use.
``to_dict`` gives the JSON output form (built by ``formats.output``), ``explain`` the readable account
(``_render.explain_settlement``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import chinese_poker._core as _core
from chinese_poker._render import explain_settlement
from chinese_poker.cards import CARD_TEXT
from chinese_poker.formats.round_common import uses_settlement_knobs
from chinese_poker.hand import Hand
from chinese_poker.rules import Rules

__all__ = ["EXTENDED_PAIR_FIELDS", "PairResult", "PlayerResult", "Settlement", "uses_settlement_knobs"]


@dataclass(frozen=True)
class PairResult:
    """One pair of players ``(i, j)``, every amount from i's view (j receives ``-units``).

    ``rows`` are the three comparisons as laid (+1 i wins, -1 j wins, 0 tie; ``None`` when a side declared a
    natural), reported whatever decided the pair. ``decided_by`` is ``"natural"``, ``"surrender"``,
    ``"foul"``, ``"rows"`` or ``"false_declaration"``. ``subtotal = multiplier * (row_units + overall_units
    + scoop_bonus_units)`` plus ``royalty_units`` (times the multiplier when ``royalties_in_multiplier``),
    or ``natural_units`` / ``surrender_units`` / ``false_declaration_units`` when those decide. Then
    (RULES.md 11.9): ``pair_cap`` clamps it (``capped``); a home run multiplies it by ``home_run`` and adds
    ``home_run_bonus_units``, and ``home_run_cap`` clamps that (``home_run_capped``); ``ace_units`` is added;
    ``units`` is that times ``horse``, ``bet`` and ``stake``. Without the real-table knobs and a banker,
    ``units = subtotal * stake * home_run``.
    """

    i: int
    j: int
    decided_by: str
    rows: tuple[int, int, int] | None
    foul: tuple[bool, bool]
    natural: tuple[str | None, str | None]
    royalties: tuple[tuple[int, int, int], tuple[int, int, int]]
    surrendered: tuple[bool, bool]
    natural_units: int
    surrender_units: int
    row_units: int
    royalty_units: int
    overall_units: int
    scoop: int
    scoop_bonus_units: int
    multiplier: int
    subtotal: int
    stake: int
    home_run: int
    units: int
    # The real-table knobs' fields (EXTENDED_PAIR_FIELDS).
    false_declaration_units: int = 0
    ace_units: int = 0
    capped: bool = False
    home_run_bonus_units: int = 0
    home_run_capped: bool = False
    horse: int = 1
    bet: int = 1


#: The fields of the real-table settlement knobs: in the output only when a round uses them.
EXTENDED_PAIR_FIELDS: tuple[str, ...] = (
    "false_declaration_units", "ace_units", "capped", "home_run_bonus_units", "home_run_capped", "horse",
    "bet",
)  # fmt: skip


@dataclass(frozen=True)
class PlayerResult:
    """What is known of one player: its hand, foul, natural, row strengths and royalties, and net units.

    ``fantasyland_cards``: the cards the player is dealt next hand in fantasyland (RULES.md 4.2); 0 when
    it does not qualify or the rules' ``fantasyland`` is ``"off"``. ``ace_units``: under
    ``ace_basis="table"``, the player's Chi A, ``ace_units x (aces - 1)``, counted apart from the pairs
    and part of ``net`` (RULES.md 11.9); 0 otherwise. ``joker_cards``: what ``X1`` and ``X2`` became
    (RULES.md 1.2), a card code each, ``None`` for a joker the player does not hold.
    """

    hand: Hand
    foul: bool
    natural: str | None
    strengths: tuple[int, int, int] | None
    royalties: tuple[int, int, int]
    surrendered: bool
    home_run: bool
    net: int
    fantasyland_cards: int = 0
    ace_units: int = 0
    joker_cards: tuple[int | None, int | None] = (None, None)

    def jokers_in(self, codes: Sequence[int]) -> str:
        """``"X1 as Qs"`` (and ``", X2 as ..."``) for the jokers among ``codes``; ``""`` when none."""
        return ", ".join(
            f"{CARD_TEXT[joker]} as {CARD_TEXT[card]}"
            for joker, card in zip((52, 53), self.joker_cards)
            if card is not None and joker in codes
        )


class Settlement:
    """The settled round: ``net`` units per player (summing to zero) and the breakdown of every pair.

    ``players`` and ``pairs`` are built from the core's result on first use (most callers read ``net``).
    """

    __slots__ = ("_pairs", "_players", "_result", "_surrendered", "banker", "bets", "hands", "names", "rules")

    def __init__(
        self,
        rules: Rules,
        hands: tuple[Hand, ...],
        result: _core.RoundResult | None,
        *,
        surrendered: tuple[bool, ...],
        names: tuple[str, ...] | None = None,
        players: tuple[PlayerResult, ...] | None = None,
        pairs: tuple[PairResult, ...] | None = None,
        banker: int | None = None,
        bets: tuple[int, ...] | None = None,
    ) -> None:
        self.rules = rules
        self.hands = hands
        self.names = names if names is not None else tuple(f"Player {k}" for k in range(len(hands)))
        self._result = result
        self._surrendered = surrendered
        self._players = players
        self._pairs = pairs
        #: The banker's seat in a banker round, else None; ``bets`` the players' bets (None: all 1).
        self.banker = result.banker if result is not None else banker
        self.bets = bets

    def __reduce__(self) -> tuple[Any, ...]:
        # The core's result does not pickle; the materialised breakdown does.
        return (
            _restore,
            (
                self.rules,
                self.hands,
                self._surrendered,
                self.names,
                self.players,
                self.pairs,
                self.banker,
                self.bets,
            ),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Settlement):
            return NotImplemented
        return (self.rules, self.hands, self.names, self.players, self.pairs) == (
            other.rules,
            other.hands,
            other.names,
            other.players,
            other.pairs,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Settlement(rules={self.rules!r}, names={self.names!r}, net={self.net!r})"

    @property
    def players(self) -> tuple[PlayerResult, ...]:
        """Each player's hand, foul, natural, row strengths, royalties, surrender, home run and net."""
        if self._players is None:
            assert self._result is not None
            result = self._result
            self._players = tuple(
                PlayerResult(
                    hand=hand,
                    foul=facts.foul,
                    natural=None if facts.natural is None else facts.natural.name,
                    strengths=facts.strengths if facts.has_setting else None,
                    royalties=facts.royalties,
                    surrendered=surrendered,
                    home_run=home_run,
                    net=net,
                    fantasyland_cards=facts.fantasyland_cards,
                    ace_units=facts.ace_units,
                    joker_cards=facts.joker_cards,
                )
                for hand, facts, surrendered, home_run, net in zip(
                    self.hands, result.facts, self._surrendered, result.home_run, result.net
                )
            )
        return self._players

    @property
    def pairs(self) -> tuple[PairResult, ...]:
        """The breakdown of every pair ``(i, j)``, ``i < j``: (0, 1), (0, 2), ..."""
        if self._pairs is None:
            assert self._result is not None
            players = self.players
            self._pairs = tuple(
                PairResult(
                    i=p.i,
                    j=p.j,
                    decided_by=p.decided_by.name,
                    rows=p.rows,
                    foul=(players[p.i].foul, players[p.j].foul),
                    natural=(players[p.i].natural, players[p.j].natural),
                    royalties=(players[p.i].royalties, players[p.j].royalties),
                    surrendered=(players[p.i].surrendered, players[p.j].surrendered),
                    natural_units=p.natural_units,
                    surrender_units=p.surrender_units,
                    row_units=p.row_units,
                    royalty_units=p.royalty_units,
                    overall_units=p.overall_units,
                    scoop=p.scoop,
                    scoop_bonus_units=p.scoop_bonus_units,
                    multiplier=p.multiplier,
                    subtotal=p.subtotal,
                    stake=p.stake,
                    home_run=p.home_run,
                    units=p.units,
                    false_declaration_units=p.false_declaration_units,
                    ace_units=p.ace_units,
                    capped=p.capped,
                    home_run_bonus_units=p.home_run_bonus_units,
                    home_run_capped=p.home_run_capped,
                    horse=p.horse,
                    bet=p.bet,
                )
                for p in self._result.pairs
            )
        return self._pairs

    @property
    def net(self) -> tuple[int, ...]:
        """Units won (+) or lost (-) by each player; they sum to zero."""
        if self._result is not None:
            return self._result.net
        return tuple(p.net for p in self.players)

    @property
    def home_run(self) -> tuple[bool, ...]:
        """For each player, whether it scooped every opponent and had its pairs multiplied (home run)."""
        return tuple(p.home_run for p in self.players)

    def pair(self, i: int, j: int) -> PairResult:
        """The breakdown of players i and j (in either order; amounts stay from the lower index's view)."""
        a, b = min(i, j), max(i, j)
        for result in self.pairs:
            if (result.i, result.j) == (a, b):
                return result
        raise KeyError(f"no pair ({i}, {j}) among {len(self.players)} players")

    def _pair_sources(self) -> tuple[Any, ...]:
        """The pairs as held: the core's records while no ``PairResult`` was built, else those."""
        if self._pairs is None and self._result is not None:
            return tuple(self._result.pairs)
        return self.pairs

    def to_dict(self) -> dict[str, Any]:
        """The whole settlement as JSON-safe data (docs/JSON_FORMAT.md)."""
        # Imported here: the output shape reads this module's records, so it imports this module.
        from chinese_poker.formats.output import settlement_dict  # noqa: PLC0415

        return settlement_dict(self)

    def receipt(self, key: bytes | None = None) -> dict[str, Any]:
        """The settlement's receipt (``chinese_poker.receipts``): the canonical record of its inputs, rules
        digest, engine and result, with its SHA-256 and, given a ``key``, an HMAC-SHA256 under it."""
        from chinese_poker.receipts import make_receipt  # noqa: PLC0415 - receipts imports this module's users

        return make_receipt(self, key)

    @property
    def extended(self) -> bool:
        """Whether the breakdown reports the real-table fields (``EXTENDED_PAIR_FIELDS``): when the rules use
        a real-table settlement knob or the round has a banker."""
        return self.banker is not None or uses_settlement_knobs(self.rules)

    def explain(self) -> str:
        """A readable account of the settlement: each player's rows, each pair unit by unit, the net."""
        return explain_settlement(self)


def _restore(  # noqa: PLR0917 - pickle calls it with positional arguments
    rules: Rules,
    hands: tuple[Hand, ...],
    surrendered: tuple[bool, ...],
    names: tuple[str, ...],
    players: tuple[PlayerResult, ...],
    pairs: tuple[PairResult, ...],
    banker: int | None = None,
    bets: tuple[int, ...] | None = None,
) -> Settlement:
    """A pickled settlement again, from its materialised breakdown."""
    return Settlement(
        rules, hands, None, surrendered=surrendered, names=names, players=players, pairs=pairs, banker=banker,
        bets=bets,
    )  # fmt: skip


def __dir__() -> list[str]:
    return list(__all__)
