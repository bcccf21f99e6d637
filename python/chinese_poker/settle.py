"""Settling a round: who pays whom, and why, unit by unit (RULES.md section 3, docs/SETTLEMENT.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Union

import numpy as np

from chinese_poker import _core
from chinese_poker.cards import format_card
from chinese_poker.evaluation import category, describe
from chinese_poker.hand import ROW_NAMES, Hand, _rules_or_default, rules_spec
from chinese_poker.rules import Rules

__all__ = ["PairResult", "PlayerResult", "Settlement", "settle", "settle_batch"]

HandLike = Union[Hand, Sequence[Any]]


@dataclass(frozen=True)
class PairResult:
    """One pair of players ``(i, j)``, every amount from i's view (j receives ``-units``).

    ``rows`` are the three comparisons as laid (+1 i wins, -1 j wins, 0 tie; ``None`` when a side declared a
    natural), reported whatever decided the pair. ``decided_by`` is ``"natural"``, ``"surrender"``,
    ``"foul"`` or ``"rows"``. ``subtotal = multiplier * (row_units + overall_units + scoop_bonus_units)``
    plus ``royalty_units`` (times the multiplier when ``royalties_in_multiplier``), or ``natural_units`` /
    ``surrender_units`` when those decide; ``units = subtotal * stake * home_run``.
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


@dataclass(frozen=True)
class PlayerResult:
    """What is known of one player: its hand, foul, natural, row strengths and royalties, and net units."""

    hand: Hand
    foul: bool
    natural: str | None
    strengths: tuple[int, int, int] | None
    royalties: tuple[int, int, int]
    surrendered: bool
    home_run: bool
    net: int


@dataclass(frozen=True)
class Settlement:
    """The settled round: ``net`` units per player (summing to zero) and the breakdown of every pair."""

    rules: Rules
    players: tuple[PlayerResult, ...]
    pairs: tuple[PairResult, ...]

    @property
    def net(self) -> tuple[int, ...]:
        """Units won (+) or lost (-) by each player; they sum to zero."""
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

    def to_dict(self) -> dict[str, Any]:
        """The whole settlement as JSON-safe data."""
        players = []
        for index, p in enumerate(self.players):
            entry: dict[str, Any] = {"index": index, "net": p.net, "foul": p.foul, "natural": p.natural,
                                     "surrendered": p.surrendered, "home_run": p.home_run}
            if p.hand.is_declared:
                entry["declared"] = " ".join(format_card(c) for c in p.hand.cards)
                entry["rows"] = None
            else:
                cards = p.hand.cards
                rows = (cards[:3], cards[3:8], cards[8:])
                entry["rows"] = {
                    name: {"cards": " ".join(format_card(c) for c in codes), "strength": strength,
                           "category": category(strength).name.lower(), "text": describe(strength),
                           "royalty": royalty}
                    for name, codes, strength, royalty in zip(ROW_NAMES, rows, p.strengths or (), p.royalties)
                }
            players.append(entry)
        pairs = []
        for pr in self.pairs:
            data = asdict(pr)
            for key in ("rows", "foul", "natural", "surrendered"):
                data[key] = None if data[key] is None else list(data[key])
            data["royalties"] = [list(r) for r in pr.royalties]
            pairs.append(data)
        return {"rules": self.rules.name or self.rules.to_dict(), "net": list(self.net), "players": players,
                "pairs": pairs}

    def explain(self) -> str:
        """A readable account of the settlement: each player's rows, each pair unit by unit, the net."""
        lines = [f"Settlement under {self.rules.name or 'custom rules'}, {len(self.players)} players"]
        for index, p in enumerate(self.players):
            tags = [t for t, on in (("FOUL", p.foul), ("surrendered", p.surrendered),
                                    ("HOME RUN", p.home_run)) if on]
            if p.natural:
                tags.append(f"natural: {p.natural}")
            lines.append(f"Player {index}: {p.hand}" + (f"  [{', '.join(tags)}]" if tags else ""))
            if p.strengths is not None:
                for name, strength, royalty in zip(ROW_NAMES, p.strengths, p.royalties):
                    extra = f"  (royalty {royalty})" if royalty else ""
                    lines.append(f"    {name:<6} {describe(strength)}{extra}")
        lines.append("")
        header = f"{'pair':<7}{'rows F M B':<12}{'by':<10}{'rows':>5}{'roy':>5}{'ovr':>5}{'scoop':>6}" \
                 f"{'x':>4}{'nat':>5}{'surr':>5}{'stake':>6}{'HR':>4}{'units':>7}"
        lines.append(header)
        for pr in self.pairs:
            rows = " ".join(f"{r:+d}" for r in pr.rows) if pr.rows is not None else "-"
            lines.append(
                f"{pr.i}v{pr.j:<5}{rows:<12}{pr.decided_by:<10}{pr.row_units:>+5d}{pr.royalty_units:>+5d}"
                f"{pr.overall_units:>+5d}{pr.scoop_bonus_units:>+6d}{pr.multiplier:>4d}{pr.natural_units:>+5d}"
                f"{pr.surrender_units:>+5d}{pr.stake:>6d}{pr.home_run:>4d}{pr.units:>+7d}"
            )
        lines.append("")
        lines.append("Net: " + ", ".join(f"player {k} {n:+d}" for k, n in enumerate(self.net)))
        return "\n".join(lines)


def _as_hand(value: HandLike, index: int) -> Hand:
    if isinstance(value, Hand):
        return value
    try:
        if isinstance(value, str):
            return Hand.parse(value)
        if len(value) == 3:
            return Hand(*value)
        return Hand.from_cards(value)
    except (ValueError, TypeError) as error:
        raise type(error)(f"player {index}: {error}") from None


def _check_stakes(stakes: Any, players: int) -> np.ndarray | None:
    if stakes is None:
        return None
    matrix = np.asarray(stakes)
    if matrix.shape != (players, players):
        raise ValueError(f"stakes must be a {players} x {players} matrix, got shape {matrix.shape}")
    if not np.issubdtype(matrix.dtype, np.integer):
        raise TypeError(f"stakes must be integers, got dtype {matrix.dtype}")
    if not np.array_equal(matrix, matrix.T):
        raise ValueError("stakes must be symmetric: stakes[i][j] == stakes[j][i]")
    if (matrix < 0).any():
        raise ValueError("stakes must be non-negative")
    return np.ascontiguousarray(matrix, dtype=np.int64)


def settle(
    hands: Sequence[HandLike],
    rules: Rules | None = None,
    stakes: Any = None,
    surrender: Sequence[bool] | None = None,
) -> Settlement:
    """Settle one round between 2 to 4 players under ``rules`` (default: the ``pagat`` preset).

    ``hands``: ``Hand`` objects (or ``(front, middle, back)`` triples, or 13 cards front-middle-back).
    ``stakes``: an optional symmetric P x P matrix of non-negative ints multiplying each pair's result.
    ``surrender``: optional flags per player (needs ``surrender_units > 0``).
    """
    rules = _rules_or_default(rules)
    if isinstance(hands, (str, Hand)) or not 2 <= len(hands) <= 4:
        count = "one hand" if isinstance(hands, (str, Hand)) else f"{len(hands)} hands"
        raise ValueError(f"a round has 2 to 4 players, got {count}")
    players = [_as_hand(h, k) for k, h in enumerate(hands)]
    flags = [False] * len(players) if surrender is None else [bool(s) for s in surrender]
    if len(flags) != len(players):
        raise ValueError(f"surrender needs one flag per player ({len(players)}), got {len(flags)}")
    matrix = _check_stakes(stakes, len(players))
    cards = np.array([h.cards for h in players], dtype=np.uint8)
    raw = _core.settle_round(cards, [h.is_declared for h in players], flags, matrix, rules_spec(rules))
    results = []
    for index, (hand, facts) in enumerate(zip(players, raw["players"])):
        results.append(PlayerResult(
            hand=hand, foul=facts["foul"], natural=facts["natural"],
            strengths=tuple(facts["strengths"]) if facts["has_setting"] else None,
            royalties=tuple(facts["royalties"]), surrendered=flags[index],
            home_run=raw["home_run"][index], net=raw["net"][index],
        ))
    pairs = []
    for d in raw["pairs"]:
        i, j = d["i"], d["j"]
        pairs.append(PairResult(
            foul=(results[i].foul, results[j].foul), natural=(results[i].natural, results[j].natural),
            royalties=(results[i].royalties, results[j].royalties),
            surrendered=(flags[i], flags[j]), **d,
        ))
    return Settlement(rules=rules, players=tuple(results), pairs=tuple(pairs))


def settle_batch(rounds: np.ndarray, rules: Rules | None = None) -> np.ndarray:
    """Net units of many rounds at once, in C++ with the GIL released.

    ``rounds``: a C-contiguous uint8 array of shape (R, P, 13), P in 2..4, each player's front 3, middle 5 and
    back 5 card codes. Returns an int64 array (R, P). Under ``natural_declaration="auto"`` naturals are
    detected; nobody declares. A card twice in a round raises ValueError naming the round.
    """
    return _core.settle_batch(rounds, rules_spec(_rules_or_default(rules)))
