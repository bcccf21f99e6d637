"""Reproducible simulation: deal, arrange (a strategy per seat) and settle many random deals.

``simulate(rules, strategies, deals, seed)`` plays ``deals`` random deals and reports, per seat, the mean
units per hand with a 95% confidence interval, the share of hands won, the scoop and foul rates, home runs
and the naturals held. Deals come from ``dealing.deal_batch``, where deal ``d`` depends on ``(seed, d)``
only, and every figure is built from integer sums, so the result is identical for any chunk size, thread
count or executor (a ``concurrent.futures`` executor, a Dask client's ``get_executor()``, ...).

The work is cut into chunks of consecutive deals; ``simulate_chunk`` plays one chunk. It is a plain
module-level function of picklable arguments, so any engine that maps a function over tasks can run it;
``SimulationTotals.combine`` adds the chunks' sums up in any order.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Union

import numpy as np
import numpy.typing as npt

import chinese_poker._core as _core
from chinese_poker._render import text_table
from chinese_poker.arrange import STRATEGIES, arrange_batch, build_expected_model
from chinese_poker.dealing import MAX_SEED, deal_batch
from chinese_poker.hand import RulesLike, rules_or_default
from chinese_poker.rules import Rules, core_spec

__all__ = [
    "DEFAULT_CHUNK",
    "SeatSummary",
    "Simulation",
    "SimulationTotals",
    "Strategy",
    "StrategyLike",
    "chunk_bounds",
    "simulate",
    "simulate_chunk",
]

#: Deals per chunk unless told otherwise: a few seconds of work, small enough for a smooth progress bar.
DEFAULT_CHUNK = 2_000
#: The z value of a two-sided 95% normal interval.
_Z95 = 1.959963984540054
_MAX_DEALS = 2**62


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
StrategyLike = Union[str, Strategy]


def _strategy(value: StrategyLike) -> Strategy:
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


@dataclass(frozen=True)
class _ChunkJob:
    rules: Rules
    strategies: tuple[Strategy, ...]
    seed: int
    start: int
    stop: int
    rotate: bool


def _arrange_all(hands: npt.NDArray[np.uint8], rules: Rules, strategy: Strategy) -> npt.NDArray[np.uint8]:
    flat = np.ascontiguousarray(hands.reshape(-1, 13))
    model = None
    if strategy.name == "expected" and strategy.field is not None:
        sample = dict(strategy.sample) if strategy.sample is not None else None
        model = build_expected_model(dict(strategy.field), rules, sample=sample)
    return arrange_batch(flat, rules, strategy.name, model=model).reshape(hands.shape)


def simulate_chunk(
    rules: Rules, strategies: Sequence[Strategy], seed: int, start: int, stop: int, *, rotate: bool = False
) -> SimulationTotals:
    """Plays deals ``start`` to ``stop - 1`` of ``seed`` (see ``simulate``) and returns their sums.

    Every seat arranges its hands by its strategy. Under ``natural_declaration="must_declare"`` a player
    whose 13 cards hold a listed natural declares it [decided: a natural pays more than any setting's rows
    on average]. With ``rotate`` each deal is played once per seat rotation, seat ``p`` holding hand
    ``(p + r) % players`` in rotation ``r``.
    """
    players = len(strategies)
    dealt = deal_batch(seed, start, stop, players, extra_suits=rules.extra_suits, jokers=rules.jokers)
    spec = core_spec(rules)
    # Each distinct way of arranging (strategy and field tables) arranges every dealt hand once; seats and
    # rotations then pick from those.
    arranged: dict[tuple[str, int], npt.NDArray[np.uint8]] = {}
    for strategy in strategies:
        key = (strategy.name, id(strategy.field))
        if key not in arranged:
            arranged[key] = _arrange_all(dealt, rules, strategy)
    settings_of = [arranged[(strategy.name, id(strategy.field))] for strategy in strategies]
    declares = rules.natural_declaration == "must_declare" and bool(rules.naturals)
    held = np.zeros((stop - start, players), dtype=bool)
    if declares:
        for d in range(stop - start):
            for p in range(players):
                held[d, p] = _core.detect_natural(dealt[d, p].tobytes(), spec) is not None
    rotations = players if rotate else 1
    totals = SimulationTotals(players, rotations, deals=stop - start)
    no_surrender = [False] * players
    for d in range(stop - start):
        sample = _zeros(players)
        for r in range(rotations):
            hand_of = [(p + r) % players for p in range(players)]
            table = b"".join(settings_of[p][d, hand_of[p]].tobytes() for p in range(players))
            declared = [bool(held[d, hand_of[p]]) for p in range(players)]
            result = _core.settle_round(table, declared, no_surrender, None, spec)
            for p, net in enumerate(result.net):
                sample[p] += net
                totals.hands_won[p] += net > 0
                totals.hands_lost[p] += net < 0
                facts = result.facts[p]
                totals.fouls[p] += facts.foul
                totals.home_runs[p] += result.home_run[p]
                if facts.natural is not None:
                    kinds = totals.naturals[p]
                    kinds[facts.natural.name] = kinds.get(facts.natural.name, 0) + 1
            for pair in result.pairs:
                totals.pairs[pair.i] += 1
                totals.pairs[pair.j] += 1
                totals.scoops[pair.i] += pair.scoop > 0
                totals.scoops[pair.j] += pair.scoop < 0
        for p in range(players):
            totals.units[p] += sample[p]
            totals.units_squared[p] += sample[p] * sample[p]
    return totals


def _run_chunk(job: _ChunkJob) -> SimulationTotals:
    return simulate_chunk(job.rules, job.strategies, job.seed, job.start, job.stop, rotate=job.rotate)


def chunk_bounds(deals: int, chunk: int) -> Iterator[tuple[int, int]]:
    """The ``(start, stop)`` of each chunk of ``deals`` deals, ``chunk`` deals each (the last one shorter)."""
    for start in range(0, deals, chunk):
        yield start, min(start + chunk, deals)


def _positive_int(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"simulate: {name} must be an int, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"simulate: {name} must be in {low}..{high}, got {value}")
    return value


# Failures that are the caller's input, never retried: the same chunk would fail again.
_INPUT_ERRORS = (ValueError, TypeError)


def _gather(
    executor: Executor, jobs: list[_ChunkJob], retries: int, progress: Callable[[int, int], None] | None
) -> list[SimulationTotals]:
    """Runs every job on ``executor``; a job whose run fails (a lost worker, say) is submitted again, up to
    ``retries`` times, so no chunk is lost or counted twice: each chunk's result is kept exactly once."""
    total = sum(job.stop - job.start for job in jobs)
    results: list[SimulationTotals | None] = [None] * len(jobs)
    attempts = [0] * len(jobs)
    pending: dict[Future[SimulationTotals], int] = {
        executor.submit(_run_chunk, job): k for k, job in enumerate(jobs)
    }
    done_deals = 0
    while pending:
        finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
        for future in finished:
            k = pending.pop(future)
            try:
                results[k] = future.result()
            except _INPUT_ERRORS:
                for other in pending:
                    other.cancel()
                raise
            except Exception:
                attempts[k] += 1
                if attempts[k] > retries:
                    for other in pending:
                        other.cancel()
                    raise
                pending[executor.submit(_run_chunk, jobs[k])] = k
                continue
            done_deals += jobs[k].stop - jobs[k].start
            if progress is not None:
                progress(done_deals, total)
    return [result for result in results if result is not None]


def simulate(
    rules: RulesLike | None = None,
    strategies: Sequence[StrategyLike] = ("expected", "expected", "expected", "expected"),
    deals: int = 10_000,
    seed: int = 0,
    *,
    chunk: int = DEFAULT_CHUNK,
    threads: int = 1,
    executor: Executor | None = None,
    rotate: bool = False,
    retries: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> Simulation:
    """Deal, arrange and settle ``deals`` random deals; per seat, the mean units per hand and more.

    ``strategies``: one per seat (2 to 4 seats), each ``"expected"``, ``"strongest"`` or a ``Strategy``.
    ``seed``: 0..2**64-1; deal ``d`` is the same cards for a seed whatever else changes. ``chunk``: deals
    per unit of work. ``threads``: chunks played at once in this process (the arranging releases the GIL;
    0 = every core). ``executor``: run the chunks there instead (any ``concurrent.futures.Executor``,
    e.g. a ``ProcessPoolExecutor`` made with ``mp_context=multiprocessing.get_context("spawn")``, since
    forking a process that runs threads can leave the child waiting on a lock forever, or a Dask client's
    ``get_executor()``); a chunk whose run fails for
    another reason than bad input is run again, up to ``retries`` times. ``rotate``: play every deal once
    per seat rotation, so each strategy plays every hand from every seat (duplicate style).
    ``progress(done, total)`` is called as chunks finish. The result is identical for every chunk size,
    thread count and executor.
    """
    resolved = rules_or_default(rules)
    seats = tuple(_strategy(value) for value in strategies)
    most = 4 + len(resolved.extra_suits)  # one more seat per added suit (RULES.md 1.1)
    if not 2 <= len(seats) <= most:
        raise ValueError(f"simulate: 2 to {most} seats need a strategy each, got {len(seats)}")
    deals = _positive_int(deals, "deals", 0, _MAX_DEALS)
    seed = _positive_int(seed, "seed", 0, MAX_SEED)
    chunk = _positive_int(chunk, "chunk", 1, _MAX_DEALS)
    threads = _positive_int(threads, "threads", 0, 1024)
    retries = _positive_int(retries, "retries", 0, 100)
    jobs = [
        _ChunkJob(resolved, seats, seed, start, stop, rotate) for start, stop in chunk_bounds(deals, chunk)
    ]
    rotations = len(seats) if rotate else 1
    if not jobs:
        totals = SimulationTotals(len(seats), rotations)
    elif executor is not None:
        totals = SimulationTotals.combine(_gather(executor, jobs, retries, progress))
    else:
        workers = (os.cpu_count() or 1) if threads == 0 else threads
        with ThreadPoolExecutor(max_workers=workers) as pool:
            totals = SimulationTotals.combine(_gather(pool, jobs, 0, progress))
    return Simulation(resolved, seats, deals, seed, rotate, totals)


def __dir__() -> list[str]:
    return list(__all__)
