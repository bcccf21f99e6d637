"""What a simulation is made of and reports: the seats' ``Strategy``, the chunks' ``SimulationTotals`` and
the ``Simulation`` with a ``SeatSummary`` per seat (``simulate`` plays the deals)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from chinese_poker._render import text_table
from chinese_poker.arrange import STRATEGIES
from chinese_poker.rules import Rules

__all__ = ["SeatSummary", "Simulation", "SimulationTotals", "Strategy", "StrategyLike", "as_strategy"]

#: The z value of a two-sided 95% normal interval.
_Z95 = 1.959963984540054


@dataclass(frozen=True, eq=False)
class Strategy:
    """How one seat arranges its hands.

    ``name``: a strategy of ``arrange`` (``"expected"`` or ``"strongest"``). ``field``: for ``"expected"``,
    field tables in the form ``arrange.field_tables()`` gives (``{row}_strengths``, ``{row}_prob``), to
    arrange against another field than the shipped one; ``None`` uses the shipped tables and field sample
    the rules get (``arrange.field_preset``), the second stage included. ``sample``: with ``field``, the
    field sample of the second stage, in the form ``arrange.field_sample()`` gives; ``None`` (the default
    with a field of one's own) plays the model's best alone. ``label`` names the seat in tables (default:
    the name).
    """

    name: str = "expected"
    field: Mapping[str, Any] | None = None
    label: str | None = None
    sample: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.name not in STRATEGIES:
            raise ValueError(f"unknown strategy {self.name!r}: expected one of {', '.join(STRATEGIES)}")
        if self.field is not None and self.name != "expected":
            raise ValueError(f"strategy {self.name!r} takes no field tables (only 'expected' does)")
        if self.sample is not None and self.field is None:
            raise ValueError("a field sample goes with field tables of one's own (field=...)")

    @property
    def title(self) -> str:
        """The seat's name in tables: the label, else the strategy's name."""
        return self.label if self.label is not None else self.name


#: A strategy, or just its name.
StrategyLike = str | Strategy


def as_strategy(value: StrategyLike) -> Strategy:
    """``value`` as a ``Strategy``: a ``Strategy`` as it is, a name as ``Strategy(name)``."""
    if isinstance(value, Strategy):
        return value
    if isinstance(value, str):
        return Strategy(value)
    raise TypeError(
        f"a strategy is a name ({', '.join(STRATEGIES)}) or a Strategy, got {type(value).__name__}"
    )


def _zeros(seats: int) -> list[int]:
    return [0] * seats


# The per-seat integer sums of SimulationTotals (naturals apart: one count per kind).
_PER_SEAT_COUNTS = (
    "units",
    "units_squared",
    "hands_won",
    "hands_lost",
    "pairs",
    "scoops",
    "fouls",
    "home_runs",
)


@dataclass
class SimulationTotals:
    """Integer sums over some deals, per seat; two totals over different deals combine by addition.

    A *hand* is one seat's play of one deal in one rotation; a *sample* is a seat's net units over one deal
    (summed over the rotations when seats rotate), the unit of the confidence interval.
    """

    seats: int
    rotations: int
    deals: int = 0
    units: list[int] = field(default_factory=list)
    units_squared: list[int] = field(default_factory=list)
    hands_won: list[int] = field(default_factory=list)
    hands_lost: list[int] = field(default_factory=list)
    pairs: list[int] = field(default_factory=list)
    scoops: list[int] = field(default_factory=list)
    fouls: list[int] = field(default_factory=list)
    home_runs: list[int] = field(default_factory=list)
    naturals: list[dict[str, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name in _PER_SEAT_COUNTS:
            if not getattr(self, name):
                setattr(self, name, _zeros(self.seats))
        if not self.naturals:
            self.naturals = [{} for _ in range(self.seats)]

    @property
    def hands(self) -> int:
        """Hands each seat played: deals times rotations."""
        return self.deals * self.rotations

    def add(self, other: SimulationTotals) -> None:
        """Adds ``other``'s sums (same seats and rotations) to these."""
        if (other.seats, other.rotations) != (self.seats, self.rotations):
            raise ValueError("simulation totals of different tables cannot be combined")
        self.deals += other.deals
        for name in _PER_SEAT_COUNTS:
            mine, theirs = getattr(self, name), getattr(other, name)
            for seat in range(self.seats):
                mine[seat] += theirs[seat]
        for mine_n, theirs_n in zip(self.naturals, other.naturals):
            for kind, count in theirs_n.items():
                mine_n[kind] = mine_n.get(kind, 0) + count

    @classmethod
    def combine(cls, parts: Iterable[SimulationTotals]) -> SimulationTotals:
        """The sum of several chunks' totals (at least one)."""
        iterator = iter(parts)
        try:
            first = next(iterator)
        except StopIteration:
            raise ValueError("no simulation totals to combine") from None
        total = cls(first.seats, first.rotations)
        total.add(first)
        for part in iterator:
            total.add(part)
        return total


@dataclass(frozen=True)
class SeatSummary:
    """One seat's figures over a simulation."""

    seat: int
    strategy: str
    hands: int
    mean_units: float
    ci95: tuple[float, float]
    won_share: float
    lost_share: float
    scoop_rate: float
    foul_rate: float
    home_runs: int
    naturals: Mapping[str, int]

    def to_dict(self) -> dict[str, Any]:
        """The summary as plain JSON-ready values."""
        return {
            "seat": self.seat,
            "strategy": self.strategy,
            "hands": self.hands,
            "mean_units": self.mean_units,
            "ci95": list(self.ci95),
            "won_share": self.won_share,
            "lost_share": self.lost_share,
            "scoop_rate": self.scoop_rate,
            "foul_rate": self.foul_rate,
            "home_runs": self.home_runs,
            "naturals": dict(sorted(self.naturals.items())),
        }


@dataclass(frozen=True)
class Simulation:
    """What ``simulate`` returns: the settings of the run, its exact totals and a summary per seat."""

    rules: Rules
    strategies: tuple[Strategy, ...]
    deals: int
    seed: int
    rotate: bool
    totals: SimulationTotals

    @property
    def seats(self) -> tuple[SeatSummary, ...]:
        """Per seat: mean units per hand and its 95% interval, shares and rates."""
        return tuple(self._seat(seat) for seat in range(len(self.strategies)))

    def _seat(self, seat: int) -> SeatSummary:
        t = self.totals
        hands = t.hands
        per_sample = t.rotations  # hands in one sample
        mean = t.units[seat] / hands if hands else math.nan
        if t.deals >= 2:
            # Sample variance from the integer sums, then the interval of the per-hand mean.
            variance = (t.units_squared[seat] - t.units[seat] ** 2 / t.deals) / (t.deals - 1)
            half = _Z95 * math.sqrt(max(variance, 0.0) / t.deals) / per_sample
        else:
            half = math.nan
        return SeatSummary(
            seat=seat,
            strategy=self.strategies[seat].title,
            hands=hands,
            mean_units=mean,
            ci95=(mean - half, mean + half),
            won_share=t.hands_won[seat] / hands if hands else math.nan,
            lost_share=t.hands_lost[seat] / hands if hands else math.nan,
            scoop_rate=t.scoops[seat] / t.pairs[seat] if t.pairs[seat] else math.nan,
            foul_rate=t.fouls[seat] / hands if hands else math.nan,
            home_runs=t.home_runs[seat],
            naturals=dict(t.naturals[seat]),
        )

    def to_dict(self) -> dict[str, Any]:
        """The run and its per-seat figures as plain JSON-ready values."""
        return {
            "rules": self.rules.to_dict(),
            "strategies": [strategy.title for strategy in self.strategies],
            "deals": self.deals,
            "seed": self.seed,
            "rotate": self.rotate,
            "seats": [summary.to_dict() for summary in self.seats],
        }

    def table(self) -> str:
        """The per-seat figures as a text table."""
        rows = [
            [
                str(s.seat),
                s.strategy,
                f"{s.mean_units:+.4f}",
                f"[{s.ci95[0]:+.4f}, {s.ci95[1]:+.4f}]",
                f"{s.won_share:.3f}",
                f"{s.scoop_rate:.3f}",
                f"{s.foul_rate:.3f}",
                str(s.home_runs),
                str(sum(s.naturals.values())),
            ]
            for s in self.seats
        ]
        header = [
            "seat",
            "strategy",
            "units/hand",
            "95% interval",
            "won",
            "scoop",
            "foul",
            "home runs",
            "naturals",
        ]
        return "\n".join(text_table(header, rows, right=(2, 4, 5, 6, 7, 8)))


def __dir__() -> list[str]:
    return list(__all__)
