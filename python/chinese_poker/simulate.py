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

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

import chinese_poker._core as _core
from chinese_poker.arrange import arrange_batch, build_expected_model
from chinese_poker.dealing import MAX_SEED, deal_batch
from chinese_poker.hand import RulesLike, rules_or_default
from chinese_poker.rules import Rules, core_spec
from chinese_poker.settle import settle_batch
from chinese_poker.simulation import (
    SeatSummary,
    Simulation,
    SimulationTotals,
    Strategy,
    StrategyLike,
    as_strategy,
)

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

#: The name of each natural kind by its number, as the core's batch columns give it.
_NATURAL_NAMES: dict[int, str] = {
    int(kind.value): kind.name for kind in _core.NaturalKind.__members__.values()
}
#: Deals per chunk unless told otherwise: a few seconds of work, small enough for a smooth progress bar.
DEFAULT_CHUNK = 2_000
_MAX_DEALS = 2**62


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
    ``(p + r) % players`` in rotation ``r``. Every round (each deal in each rotation) is settled by one
    ``settle_batch`` call, and the sums are read from its columns.
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
    deals = stop - start
    totals = SimulationTotals(players, rotations, deals=deals)
    if deals == 0:
        return totals
    # Every (deal, rotation) is one round of the batch, in that order: seat p holds hand (p + r) % players.
    hand_of = (np.arange(players)[None, :] + np.arange(rotations)[:, None]) % players  # (rotations, seats)
    rounds = np.empty((deals, rotations, players, 13), dtype=np.uint8)
    for p in range(players):
        rounds[:, :, p, :] = settings_of[p][:, hand_of[:, p], :]
    declared = held[:, hand_of]  # (deals, rotations, seats)
    detail = settle_batch(
        rounds.reshape(deals * rotations, players, 13),
        rules,
        declared=np.ascontiguousarray(declared.reshape(deals * rotations, players)) if declares else None,
        detail=True,
    )
    net = detail.net
    totals.hands_won = [int(n) for n in (net > 0).sum(axis=0)]
    totals.hands_lost = [int(n) for n in (net < 0).sum(axis=0)]
    totals.fouls = [int(n) for n in detail.player_foul.sum(axis=0)]
    totals.home_runs = [int(n) for n in detail.player_home_run.sum(axis=0)]
    for p in range(players):
        kinds, counts = np.unique(detail.player_natural[:, p], return_counts=True)
        totals.naturals[p] = {
            _NATURAL_NAMES[int(kind)]: int(count) for kind, count in zip(kinds, counts) if kind >= 0
        }
    for q, (i, j) in enumerate(detail.pairs):
        totals.pairs[i] += len(net)
        totals.pairs[j] += len(net)
        totals.scoops[i] += int((detail.scoop[:, q] > 0).sum())
        totals.scoops[j] += int((detail.scoop[:, q] < 0).sum())
    # A sample is a seat's net over one deal, its rotations summed; the sums are Python ints, exact.
    samples = net.reshape(deals, rotations, players).sum(axis=1).T.tolist()
    totals.units = [sum(seat) for seat in samples]
    totals.units_squared = [sum(units * units for units in seat) for seat in samples]
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

    ``strategies``: one per seat (2 to 4 seats, one more per added suit), each ``"expected"``,
    ``"strongest"`` or a ``Strategy``.
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
    seats = tuple(as_strategy(value) for value in strategies)
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
