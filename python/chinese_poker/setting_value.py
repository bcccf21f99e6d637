"""What ``evaluate_setting`` reports: ``SettingValue``, with its ``RowRates`` and ``Comparison`` parts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chinese_poker.hand import ROW_NAMES, Hand

__all__ = ["Comparison", "RowRates", "SettingValue"]


@dataclass(frozen=True)
class RowRates:
    """How often one of our rows beat, tied and lost to an opponent's same row, over the pairs (deal,
    opponent) whose rows were compared; the three add up to 1."""

    win: float
    tie: float
    loss: float

    def to_dict(self) -> dict[str, float]:
        """The rates as JSON-ready data."""
        return {"win": self.win, "tie": self.tie, "loss": self.loss}


@dataclass(frozen=True)
class Comparison:
    """Our setting against ``suggest``'s first (the best under the model) on the same deals and the same
    opponents' settings.

    ``hand``: the best suggestion; ``expected_units`` and ``interval``: its units per deal and their 95%
    interval; ``difference``: the mean of (ours - best) per deal, paired, and ``difference_interval`` its
    95% interval; ``regret``: ``-difference``, what the choice cost per deal (negative when ours did
    better on these deals).
    """

    hand: Hand
    expected_units: float
    interval: tuple[float, float]
    difference: float
    difference_interval: tuple[float, float]
    regret: float

    def to_dict(self) -> dict[str, Any]:
        """The comparison as JSON-ready data; ``hand`` as ``str(hand)``."""
        return {
            "hand": str(self.hand),
            "expected_units": self.expected_units,
            "interval": list(self.interval),
            "difference": self.difference,
            "difference_interval": list(self.difference_interval),
            "regret": self.regret,
        }


@dataclass(frozen=True)
class SettingValue:
    """What ``evaluate_setting`` measured for one setting.

    ``hand``; ``foul`` and ``foul_reasons`` (``HandFacts``): a fouled setting is settled as the rules'
    ``foul_policy`` says, so its units show what the foul costs; ``field``, ``opponents``, ``samples``,
    ``seed``, ``start``: what was dealt (deals ``start`` .. ``start + samples - 1`` of ``seed``).

    ``expected_units``: the mean of our net units per deal (against all ``opponents``), ``standard_error``
    and ``interval`` (95%, normal); ``total_units``: their exact integer sum, and
    ``opponents_total_units`` each opponent's (they add up to ``-total_units``: the game is zero-sum).

    ``rows``: front, middle, back ``RowRates`` over the (deal, opponent) pairs whose rows were compared
    (``compared``: the share of all pairs that were, 1.0 unless a natural decided some); the rows are
    compared as laid, also for a fouled setting. ``scoop``, ``scooped``: the share of all pairs in which we
    scooped the opponent, in which the opponent scooped us (as ``SettleDetail.scoop`` counts them).

    ``best``: the ``Comparison`` with ``suggest``'s first setting (``compare_to_best=True``), else ``None``.
    """

    hand: Hand
    foul: bool
    foul_reasons: tuple[str, ...]
    field: str
    opponents: int
    samples: int
    seed: int
    start: int
    expected_units: float
    standard_error: float
    interval: tuple[float, float]
    total_units: int
    opponents_total_units: tuple[int, ...]
    rows: tuple[RowRates, RowRates, RowRates]
    compared: float
    scoop: float
    scooped: float
    best: Comparison | None

    def to_dict(self) -> dict[str, Any]:
        """The measurement as JSON-ready data; ``hand`` as ``str(hand)``."""
        return {
            "hand": str(self.hand),
            "foul": self.foul,
            "foul_reasons": list(self.foul_reasons),
            "field": self.field,
            "opponents": self.opponents,
            "samples": self.samples,
            "seed": self.seed,
            "start": self.start,
            "expected_units": self.expected_units,
            "standard_error": self.standard_error,
            "interval": list(self.interval),
            "total_units": self.total_units,
            "opponents_total_units": list(self.opponents_total_units),
            "rows": {name: rates.to_dict() for name, rates in zip(ROW_NAMES, self.rows)},
            "compared": self.compared,
            "scoop": self.scoop,
            "scooped": self.scooped,
            "best": None if self.best is None else self.best.to_dict(),
        }


def __dir__() -> list[str]:
    return list(__all__)
