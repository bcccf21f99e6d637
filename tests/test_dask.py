"""chinese_poker.dask on a real dask.distributed LocalCluster with two worker processes: the same results as
one process, errors naming the global row, and no chunk lost or counted twice when a worker dies."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import chinese_poker as cp
import numpy as np
import pytest

da = pytest.importorskip("dask.array", reason="needs the dask extra: pip install '.[dask]'")
distributed = pytest.importorskip("distributed")

from chinese_poker import dask as cpd  # noqa: E402
from chinese_poker.dealing import deal_batch  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def client() -> Iterator[distributed.Client]:
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
        ) as cluster,
        distributed.Client(cluster) as dask_client,
    ):
        yield dask_client


@pytest.mark.usefixtures("client")
def test_deal_is_the_counter_based_dealer() -> None:
    dealt = cpd.deal(250, players=3, seed=17, chunk=64)
    assert dealt.shape == (250, 3, 13)
    assert dealt.chunks[0] == (64, 64, 64, 58)
    assert (dealt.compute() == deal_batch(17, 0, 250, 3)).all()


@pytest.mark.usefixtures("client")
@pytest.mark.parametrize(
    ("preset", "players"), [("shisanshui-puxian-six", 6), ("shisanshui-puxian-ghost", 4)]
)
def test_deal_and_settle_from_the_rules_pack(preset: str, players: int) -> None:
    rules = cp.Rules.preset(preset)
    dealt = cpd.deal(120, players=players, seed=29, chunk=50, rules=rules)
    local = deal_batch(29, 0, 120, players, extra_suits=rules.extra_suits, jokers=rules.jokers)
    assert (dealt.compute() == local).all()
    # No card more often than the pack holds it: the added suits' cards twice, a joker once. Six players
    # of the 78-card pack hold all of it; four of the 54-card pack all but two cards.
    held = np.array([2 if "cdhs"[c % 4] in rules.extra_suits else 1 for c in range(52)] + [1] * rules.jokers)
    for deal in local:
        counts = np.bincount(deal.ravel(), minlength=len(held))
        assert len(counts) == len(held)
        assert (counts <= held).all()
        assert int(counts.sum()) == 13 * players
    assert int(local.max()) == (53 if rules.jokers == 2 else 51)
    settings = cp.arrange_batch(local.reshape(-1, 13), rules, "strongest").reshape(local.shape)
    rounds = da.from_array(settings, chunks=(35, players, 13))
    net = cpd.settle(rounds, rules).compute()
    assert (net == cp.settle_batch(settings, rules)).all()
    assert (net.sum(axis=1) == 0).all()


@pytest.mark.usefixtures("client")
def test_settle_and_arrange_equal_one_process() -> None:
    rules = cp.Rules.preset("shisanshui-app")
    hands = cpd.deal(300, players=4, seed=3, chunk=70).reshape(1200, 13)
    settings = cpd.arrange(hands, rules, "strongest")
    local_settings = cp.arrange_batch(deal_batch(3, 0, 300, 4).reshape(1200, 13), rules, "strongest")
    assert (settings.compute() == local_settings).all()
    rounds = settings.reshape(300, 4, 13).rechunk((45, 4, 13))
    net = cpd.settle(rounds, rules)
    assert net.shape == (300, 4)
    assert net.dtype == np.int64
    expected = cp.settle_batch(local_settings.reshape(300, 4, 13), rules)
    assert (net.compute() == expected).all()
    assert int(expected.sum()) == 0


@pytest.mark.usefixtures("client")
def test_a_bad_round_names_its_global_index() -> None:
    rounds = deal_batch(5, 0, 200, 2).copy()
    rounds[157, 1, 4] = rounds[157, 0, 0]
    with pytest.raises(
        cp.InputError, match=r"^round 157, player 1, index 4: card .* appears twice"
    ) as caught:
        cpd.settle(da.from_array(rounds, chunks=(50, 2, 13)), "pagat").compute()
    assert caught.value.item == 157
    assert caught.value.player == 1
    hands = deal_batch(5, 0, 90, 1).reshape(90, 13).copy()
    hands[61, 2] = 60
    with pytest.raises(cp.InputError, match=r"^hand 61, index 2: card code 60") as caught_hand:
        cpd.arrange(da.from_array(hands, chunks=(20, 13)), "pagat", "strongest").compute()
    assert caught_hand.value.item == 61


def test_wrong_arrays_are_refused_up_front() -> None:
    with pytest.raises(TypeError, match="expected a dask array"):
        cpd.settle(np.zeros((2, 2, 13), np.uint8))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="dtype uint8"):
        cpd.settle(da.zeros((2, 2, 13), dtype=np.int64))
    with pytest.raises(ValueError, match=r"\(R, P, 13\)"):
        cpd.settle(da.zeros((2, 5, 13), dtype=np.uint8))
    with pytest.raises(ValueError, match=r"\(N, 13\)"):
        cpd.arrange(da.zeros((2, 12), dtype=np.uint8))
    with pytest.raises(ValueError, match="players"):
        cpd.deal(10, players=5)


def test_simulate_on_the_cluster_equals_one_process(client: distributed.Client) -> None:
    seats = ["expected", "strongest", "strongest"]
    local = cp.simulate("pagat-bonus", seats, deals=160, seed=21, chunk=160)
    remote = cpd.simulate("pagat-bonus", seats, deals=160, seed=21, client=client, chunk=23)
    assert remote.totals == local.totals


def test_a_killed_worker_loses_no_chunk(client: distributed.Client) -> None:
    seats = ["expected", "expected", "strongest", "strongest"]
    clean = cp.simulate("pagat", seats, deals=240, seed=8, chunk=240)
    pids = sorted(client.run(os.getpid).values())
    assert len(pids) == 2
    killed: list[int] = []

    def kill_a_worker_once(done: int, _total: int) -> None:
        # After the first chunk of 24 comes back, one worker process dies with its running and queued
        # chunks; its nanny starts a new process and the scheduler runs the lost chunks again.
        if not killed:
            killed.append(done)
            os.kill(pids[0], signal.SIGKILL)

    result = cpd.simulate(
        "pagat", seats, deals=240, seed=8, client=client, chunk=10, progress=kill_a_worker_once
    )
    assert killed
    assert killed[0] < 240
    assert result.totals == clean.totals
    client.wait_for_workers(2, timeout=60)
    assert pids[0] not in client.run(os.getpid).values()
