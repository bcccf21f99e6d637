"""Reproducible simulation: the counter-based dealer, chunk-independent totals, agreement with settle()."""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker.arrange import arrange_batch, field_sample, field_tables
from chinese_poker.cli import main
from chinese_poker.dealing import deal_batch
from chinese_poker.simulate import SimulationTotals, Strategy, simulate, simulate_chunk

SEATS = ["expected", "strongest", "strongest", "strongest"]


def test_every_deal_is_a_whole_deck_and_depends_on_its_number_only() -> None:
    deals = deal_batch(11, 0, 300, 4)
    assert deals.shape == (300, 4, 13)
    assert deals.dtype == np.uint8
    assert deals.flags.c_contiguous
    assert all(sorted(deal.ravel().tolist()) == list(range(52)) for deal in deals)
    assert (deal_batch(11, 120, 300, 4) == deals[120:]).all()
    assert (deal_batch(11, 5, 6, 2) == deals[5, :2]).all()
    assert not (deal_batch(12, 0, 300, 4) == deals).all()
    assert len({deal.tobytes() for deal in deals}) == 300


def test_deals_come_from_the_rules_pack() -> None:
    """The added suits' cards again and the jokers (RULES.md 1.1, 1.2): each deal is the whole pack, or 52 of
    the 54 cards with two jokers; the plain deck's deals are those of a call without the knobs."""
    six = deal_batch(11, 0, 100, 6, extra_suits="ch")
    pack = sorted([*range(52), *(c for c in range(52) if c % 4 in (0, 2))])
    assert all(sorted(deal.ravel().tolist()) == pack for deal in six)
    ghost = deal_batch(11, 0, 300, 4, jokers=2)
    assert all(len(set(deal.ravel().tolist())) == 52 and max(deal.ravel()) <= 53 for deal in ghost)
    # Both jokers are dealt with probability C(52, 2) / C(54, 2) = 0.927.
    assert 260 < sum(52 in deal and 53 in deal for deal in ghost) < 295
    assert (deal_batch(11, 0, 300, 4, extra_suits="", jokers=0) == deal_batch(11, 0, 300, 4)).all()
    with pytest.raises(ValueError, match="players"):
        deal_batch(11, 0, 1, 5)
    result = simulate(cp.Rules.preset("shisanshui-puxian-ghost"), ["expected", "strongest"], deals=40, seed=3)
    assert sum(result.totals.units) == 0
    assert result.totals.deals == 40
    six_seats = simulate(cp.Rules.preset("shisanshui-puxian-six"), ["strongest"] * 6, deals=20, seed=3)
    assert len(six_seats.seats) == 6
    assert sum(six_seats.totals.units) == 0


def test_the_dealer_is_uniform_enough() -> None:
    # 20,000 deals: the count of each card in each of the 52 positions is binomial(20000, 1/52); a
    # chi-square over the 52 x 52 table (2,601 degrees of freedom) stays far below its 1e-6 tail (~2,900).
    deals = deal_batch(2024, 0, 20_000, 4).reshape(20_000, 52)
    counts = np.zeros((52, 52))
    for position in range(52):
        counts[position] = np.bincount(deals[:, position], minlength=52)
    expected = 20_000 / 52
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert 2_300 < chi2 < 2_900


def test_deal_batch_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="seed"):
        deal_batch(-1, 0, 1)
    with pytest.raises(ValueError, match="seed"):
        deal_batch(2**64, 0, 1)
    with pytest.raises(ValueError, match="stop"):
        deal_batch(0, 5, 4)
    with pytest.raises(ValueError, match="players"):
        deal_batch(0, 0, 1, 5)
    with pytest.raises(TypeError, match="seed"):
        deal_batch(1.5, 0, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="start"):
        deal_batch(1, True, 1)


def test_totals_equal_settling_every_deal_by_hand() -> None:
    rules = cp.Rules.preset("pagat-bonus")
    result = simulate(rules, SEATS, deals=60, seed=3, chunk=25)
    dealt = deal_batch(3, 0, 60, 4)
    expected = arrange_batch(np.ascontiguousarray(dealt[:, 0]), rules, "expected")
    strongest = arrange_batch(np.ascontiguousarray(dealt[:, 1:].reshape(-1, 13)), rules, "strongest")
    units = [0, 0, 0, 0]
    fouls = won = 0
    for d in range(60):
        settings = [expected[d], *strongest.reshape(60, 3, 13)[d]]
        declared = [cp.detect_natural(dealt[d, p].tolist(), rules) is not None for p in range(4)]
        hands = [
            cp.Hand.declared(dealt[d, p].tolist())
            if declared[p]
            else cp.Hand.from_cards(settings[p].tolist())
            for p in range(4)
        ]
        settlement = cp.settle(hands, rules)
        for p in range(4):
            units[p] += settlement.net[p]
        fouls += sum(player.foul for player in settlement.players)
        won += settlement.net[0] > 0
    assert result.totals.units == units
    assert sum(result.totals.units) == 0
    assert sum(result.totals.fouls) == fouls == 0
    assert result.totals.hands_won[0] == won
    assert result.seats[0].hands == 60


def test_the_result_is_the_same_for_any_chunking_threads_or_executor() -> None:
    rules = cp.Rules.preset("shisanshui-app")
    baseline = simulate(rules, SEATS, deals=120, seed=99, chunk=120)
    # Spawned, not forked: this pytest process runs threads (the thread pools of other tests, a Dask
    # client's), and a child forked while one of them held a lock (the allocator's, under the sanitizers)
    # would wait on it forever.
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as processes:
        layouts = [
            simulate(rules, SEATS, deals=120, seed=99, chunk=7, threads=2),
            simulate(rules, SEATS, deals=120, seed=99, chunk=50, threads=0),
            simulate(rules, SEATS, deals=120, seed=99, chunk=31, executor=processes),
        ]
    for layout in layouts:
        assert layout.totals == baseline.totals
        assert layout.seats == baseline.seats


def test_rotated_identical_seats_each_net_exactly_zero() -> None:
    # With every seat arranging alike, a rotation only reassigns the same nets to other seats, so over all
    # rotations each seat collects the whole table's net: zero.
    result = simulate("pagat-bonus", ["expected"] * 3, deals=40, seed=5, chunk=9, rotate=True)
    assert result.totals.units == [0, 0, 0]
    assert result.seats[0].hands == 120
    lo, hi = result.seats[0].ci95
    assert lo == hi == 0.0
    better = simulate("pagat", ["expected", "strongest"], deals=200, seed=8, rotate=True)
    assert better.totals.units[0] == -better.totals.units[1] > 0


def test_figures_are_consistent() -> None:
    result = simulate("shisanzhang-hk", SEATS, deals=200, seed=1, chunk=64)
    for seat in result.seats:
        assert seat.ci95[0] < seat.mean_units < seat.ci95[1]
        assert 0 <= seat.won_share + seat.lost_share <= 1
        assert 0 <= seat.scoop_rate <= 1
        assert seat.foul_rate == 0
    assert result.totals.pairs == [600, 600, 600, 600]
    assert sum(seat.mean_units for seat in result.seats) == pytest.approx(0, abs=1e-12)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["deals"] == 200
    assert len(data["seats"]) == 4
    assert data["seats"][0]["strategy"] == "expected"


def test_field_tables_make_a_strategy() -> None:
    tables = field_tables()
    custom = Strategy("expected", field=tables, label="shipped-field")
    a = simulate("pagat", [custom, "strongest"], deals=30, seed=4)
    b = simulate("pagat", ["expected", "strongest"], deals=30, seed=4)
    assert a.totals == b.totals
    assert a.seats[0].strategy == "shipped-field"
    # Under rules with a second stage the shipped strategy plays it; a field of one's own plays it with a
    # sample and the model's best alone without one (which changes some of 200 hands' results).
    tables, sample = field_tables("wikipedia-2-4"), field_sample("wikipedia-2-4")
    staged = Strategy("expected", field=tables, sample=sample)
    shipped = simulate("wikipedia-2-4", ["expected", "strongest"], deals=200, seed=4)
    assert simulate("wikipedia-2-4", [staged, "strongest"], deals=200, seed=4).totals == shipped.totals
    alone = simulate("wikipedia-2-4", [Strategy("expected", field=tables), "strongest"], deals=200, seed=4)
    assert alone.totals != shipped.totals
    with pytest.raises(ValueError, match="field sample goes with field tables"):
        Strategy("expected", sample=field_sample())
    with pytest.raises(ValueError, match="no field tables"):
        Strategy("strongest", field=tables)


class FlakyExecutor(Executor):
    """Runs on threads, but the first run of each chunk whose start is in ``fail_starts`` dies, as a lost
    worker would."""

    def __init__(self, fail_starts: set[int], times: int = 1) -> None:
        self.pool = ThreadPoolExecutor(2)
        self.failures: dict[int, int] = dict.fromkeys(fail_starts, times)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        job = args[0]
        if self.failures.get(job.start, 0) > 0:
            self.failures[job.start] -= 1
            future: Future[Any] = Future()
            future.set_exception(RuntimeError(f"worker lost while running deals {job.start}.."))
            return future
        return self.pool.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.pool.shutdown(wait, cancel_futures=cancel_futures)


def test_a_lost_chunk_is_run_again_and_counted_once() -> None:
    clean = simulate("pagat", SEATS, deals=90, seed=2, chunk=20)
    flaky = FlakyExecutor({0, 40, 80})
    assert simulate("pagat", SEATS, deals=90, seed=2, chunk=20, executor=flaky).totals == clean.totals
    with pytest.raises(RuntimeError, match="worker lost"):
        simulate("pagat", SEATS, deals=90, seed=2, chunk=20, executor=FlakyExecutor({40}, times=3), retries=2)


def test_progress_reaches_the_total() -> None:
    seen: list[tuple[int, int]] = []
    record = lambda done, total: seen.append((done, total))  # noqa: E731
    simulate("pagat", ["strongest"] * 2, deals=50, seed=0, chunk=12, progress=record)
    done = [count for count, _ in seen]
    # Once per chunk, in whatever order the chunks finish: the steps are the chunks' sizes.
    assert done == sorted(done)
    assert sorted(b - a for a, b in zip([0, *done], done)) == [2, 12, 12, 12, 12]
    assert done[-1] == 50
    assert {total for _, total in seen} == {50}


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"strategies": ["expected"]}, ValueError, "2 to 4 seats"),
        ({"strategies": ["expected"] * 5}, ValueError, "2 to 4 seats"),
        ({"strategies": ["expected", "greedy"]}, ValueError, "unknown strategy 'greedy'"),
        ({"strategies": ["expected", 3]}, TypeError, "a strategy is a name"),
        ({"deals": -1}, ValueError, "deals must be in"),
        ({"deals": 2.0}, TypeError, "deals must be an int"),
        ({"seed": 2**64}, ValueError, "seed must be in"),
        ({"chunk": 0}, ValueError, "chunk must be in"),
        ({"threads": -1}, ValueError, "threads must be in"),
        ({"rules": "no-such-preset"}, ValueError, "no-such-preset"),
    ],
)
def test_bad_arguments_raise(kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    arguments: dict[str, Any] = {"rules": "pagat", "strategies": ["expected", "strongest"], "deals": 4}
    arguments.update(kwargs)
    with pytest.raises(error, match=message):
        simulate(**arguments)


def test_no_deals_is_an_empty_result() -> None:
    result = simulate("pagat", ["expected", "strongest"], deals=0)
    assert result.totals.units == [0, 0]
    assert result.seats[0].hands == 0


def test_command_line_prints_the_table_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sim.json"
    code = main(["simulate", "--rules", "pagat-bonus", "--strategies", "expected,strongest", "--deals", "40",
                 "--seed", "6", "--chunk", "15", "--json", str(out), "--progress", "never"])  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "40 deals, seed 6, rules pagat-bonus" in printed
    assert "units/hand" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    expected = simulate("pagat-bonus", ["expected", "strongest"], deals=40, seed=6)
    assert [seat["mean_units"] for seat in data["seats"]] == [seat.mean_units for seat in expected.seats]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--strategies", "expected,foo"], "unknown strategy 'foo'"),
        (["--strategies", "expected"], "2 to 4 seats"),
        (["--deals", "-3"], "--deals must be 0 or more"),
        (["--chunk", "0"], "--chunk must be 1 or more"),
        (["--threads", "-2"], "--threads must be 0"),
        (["--seed", str(2**64)], "--seed must be at most"),
    ],
)
def test_command_line_bad_input_exits_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--deals", "2", *argv]) == 2
    assert message in capsys.readouterr().err


def _per_deal_totals(
    rules: cp.Rules, strategies: list[str], seed: int, start: int, stop: int, *, rotate: bool
) -> SimulationTotals:
    """The sums of ``simulate_chunk`` built the slow way: every deal in every rotation settled on its own
    with ``settle``, each player's figures read from its ``Settlement``."""
    players = len(strategies)
    dealt = deal_batch(seed, start, stop, players, extra_suits=rules.extra_suits, jokers=rules.jokers)
    flat = np.ascontiguousarray(dealt.reshape(-1, 13))
    laid = {name: arrange_batch(flat, rules, name).reshape(dealt.shape) for name in set(strategies)}
    declares = rules.natural_declaration == "must_declare" and bool(rules.naturals)
    pack = {"extra_suits": rules.extra_suits, "jokers": rules.jokers}
    rotations = players if rotate else 1
    totals = SimulationTotals(players, rotations, deals=stop - start)
    for d in range(stop - start):
        sample = [0] * players
        for r in range(rotations):
            hands = []
            for p in range(players):
                held = (p + r) % players
                cards = dealt[d, held].tolist()
                if declares and cp.detect_natural(cards, rules) is not None:
                    hands.append(cp.Hand.declared(cards, **pack))
                else:
                    hands.append(cp.Hand.from_cards(laid[strategies[p]][d, held].tolist(), **pack))
            settlement = cp.settle(hands, rules)
            for p, player in enumerate(settlement.players):
                sample[p] += player.net
                totals.hands_won[p] += player.net > 0
                totals.hands_lost[p] += player.net < 0
                totals.fouls[p] += player.foul
                totals.home_runs[p] += player.home_run
                if player.natural is not None:
                    totals.naturals[p][player.natural] = totals.naturals[p].get(player.natural, 0) + 1
            for pair in settlement.pairs:
                totals.pairs[pair.i] += 1
                totals.pairs[pair.j] += 1
                totals.scoops[pair.i] += pair.scoop > 0
                totals.scoops[pair.j] += pair.scoop < 0
        for p in range(players):
            totals.units[p] += sample[p]
            totals.units_squared[p] += sample[p] * sample[p]
    return totals


@pytest.mark.parametrize(
    ("preset", "strategies", "rotate"),
    [
        ("pagat-bonus", SEATS, False),
        ("pagat-bonus", ["expected", "strongest", "strongest"], True),
        ("maubinh", ["strongest"] * 4, False),  # declared naturals, Chi A against the table, home runs
        ("shisanshui-puxian-ghost", ["strongest", "expected"], True),  # jokers
        ("shisanshui-puxian-six", ["strongest"] * 6, False),  # added suits, six seats
    ],
)
def test_a_chunk_settled_in_one_batch_equals_settling_each_deal(
    preset: str, strategies: list[str], rotate: bool
) -> None:
    rules = cp.Rules.preset(preset)
    seats = tuple(Strategy(name) for name in strategies)
    chunk = simulate_chunk(rules, seats, 21, 40, 100, rotate=rotate)
    slow = _per_deal_totals(rules, strategies, 21, 40, 100, rotate=rotate)
    assert chunk == slow
    assert sum(chunk.units) == 0
    assert chunk.deals == 60
    assert sum(chunk.pairs) == 60 * chunk.rotations * len(seats) * (len(seats) - 1)


def test_the_batch_reports_the_counts_a_chunk_needs() -> None:
    # maubinh deals naturals often enough and scores home runs: the chunk sees both, as settle does.
    rules = cp.Rules.preset("maubinh")
    chunk = simulate_chunk(rules, tuple(Strategy("strongest") for _ in range(4)), 5, 0, 400)
    assert chunk == _per_deal_totals(rules, ["strongest"] * 4, 5, 0, 400, rotate=False)
    assert sum(sum(kinds.values()) for kinds in chunk.naturals) > 0
    assert sum(chunk.home_runs) > 0
