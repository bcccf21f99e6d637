"""Every public object survives pickle (and copy.deepcopy, which goes through the same protocol): it loads
equal to the original, with the same reported values (a settlement's ``net`` and ``to_dict()``, a rules'
name and knobs)."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import (
    Arrangement,
    Hand,
    HandCategory,
    PairResult,
    PlayerResult,
    Rules,
    Settlement,
    arrange,
    arrange_batch,
    arrangements,
    evaluate_batch,
    settle,
    settle_batch,
)

PROTOCOLS = sorted({2, pickle.DEFAULT_PROTOCOL, pickle.HIGHEST_PROTOCOL})

E2 = [
    Hand("Ts Th Qs", "6s 5s 4s 3s 2h", "Ks Kh Kd 3h 3d"),
    Hand("Ac Kc 7s", "Td Tc 9s 8s 6c", "Jh Jd Jc 7h 7d"),
    Hand("Qd Qc 2c", "8h 7c 6d 5c 4c", "9h 9d 9c 8d 8c"),
    Hand("Qh Js 6h", "5h 5d 4h 4d 3c", "As Ah Ad 2s 2d"),
]
DRAGON = Hand.declared("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad")
CUSTOM = Rules(
    wheel="second",
    suit_tiebreak="highest_card",
    middle_vs_back="strict",
    overall_unit=2,
    scoop_multiplier=2,
    royalties={"front": {"one_pair": 1}, "back": {"royal_flush": 25}},
    naturals=[["dragon", 13], ["six_pairs", 3]],
    surrender_units=3,
)


def round_trip(obj: Any, protocol: int) -> Any:
    return pickle.loads(pickle.dumps(obj, protocol=protocol))


def settlements() -> list[Any]:
    """Settlements decided by rows, fouls, naturals and surrender, with stakes and a home run."""
    foul_first = [Hand("Ts Th Qs", "Ks Kh Kd 3h 3d", "6s 5s 4s 3s 2h"), *E2[1:]]  # full house over a straight
    other = Hand("3c 4d 6h", "8c 8d Th Ts 2s", "Qc Qd 3h 3s 4c")
    return [
        pytest.param(lambda: settle(E2), "rows", id="E2-pagat"),
        pytest.param(lambda: settle(E2, Rules.preset("shisanzhang-hk")), "rows", id="E2-shisanzhang-hk"),
        pytest.param(lambda: settle(foul_first, Rules.preset("wikipedia-2-4")), "foul", id="foul"),
        pytest.param(lambda: settle([DRAGON, other], Rules.preset("pagat-bonus")), "natural", id="natural"),
        pytest.param(
            lambda: settle(
                E2,
                Rules().replace(surrender_units=3),
                surrender=[False, True, False, False],
                stakes=[[1, 2, 1, 1], [2, 1, 1, 1], [1, 1, 1, 3], [1, 1, 3, 1]],
            ),
            "surrender",
            id="surrender-and-stakes",
        ),
    ]


RULES = [pytest.param(Rules.preset(name), id=name) for name in Rules.presets()] + [
    pytest.param(Rules(), id="default"),
    pytest.param(CUSTOM, id="custom"),
    pytest.param(Rules.preset("pagat-bonus").replace(naturals=[]), id="changed-preset"),
]


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("rules", RULES)
def test_rules(rules: Rules, protocol: int) -> None:
    loaded = round_trip(rules, protocol)
    assert loaded == rules
    assert loaded.name == rules.name  # not part of equality: checked on its own
    assert loaded.to_dict() == rules.to_dict()
    assert hash(loaded) == hash(rules)
    assert loaded.royalty_table == rules.royalty_table
    assert copy.deepcopy(rules) == rules


def test_rules_pickled_by_another_process_hash_as_made_here() -> None:
    # A Rules keeps its hash once computed; string hashes differ between processes, so the pickle must
    # not carry it, or rules from a worker would miss every cache and set entry of this process.
    script = (
        "import pickle, sys; from chinese_poker import Rules; r = Rules.preset('capsa-susun'); hash(r);"
        " sys.stdout.buffer.write(pickle.dumps(r))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    pickled = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True, env=env).stdout
    loaded = pickle.loads(pickled)
    here = Rules.preset("capsa-susun")
    assert hash(loaded) == hash(here)
    assert loaded in {here}


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("hand", [pytest.param(E2[0], id="setting"), pytest.param(DRAGON, id="declared")])
def test_hand(hand: Hand, protocol: int) -> None:
    loaded = round_trip(hand, protocol)
    assert loaded == hand
    assert hash(loaded) == hash(hand)
    assert str(loaded) == str(hand)
    assert loaded.is_declared == hand.is_declared
    assert (loaded.front, loaded.middle, loaded.back) == (hand.front, hand.middle, hand.back)
    assert copy.deepcopy(hand) == hand


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize(("make", "decided_by"), settlements())
def test_settlement_and_its_results(make: Any, decided_by: str, protocol: int) -> None:
    settlement = make()
    assert isinstance(settlement, Settlement)
    assert decided_by in {pair.decided_by for pair in settlement.pairs}
    loaded = round_trip(settlement, protocol)
    assert loaded == settlement
    assert loaded.net == settlement.net
    assert loaded.to_dict() == settlement.to_dict()
    assert loaded.rules == settlement.rules
    for player in settlement.players:
        assert isinstance(player, PlayerResult)
        assert round_trip(player, protocol) == player
    for pair in settlement.pairs:
        assert isinstance(pair, PairResult)
        assert round_trip(pair, protocol) == pair
    assert copy.deepcopy(settlement).to_dict() == settlement.to_dict()


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("strategy", ["expected", "strongest"])
def test_arrangement(strategy: str, protocol: int) -> None:
    chosen = arrange("As Ks Qs Js Ts 9h 9d 9c 2c 2d 7h 5s 3d", Rules.preset("pagat-bonus"), strategy)
    assert isinstance(chosen, Arrangement)
    loaded = round_trip(chosen, protocol)
    assert loaded == chosen
    assert loaded.hand == chosen.hand
    assert loaded.expected_units == chosen.expected_units


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_numpy_results(protocol: int) -> None:
    rng = np.random.default_rng(3)
    rounds = np.argsort(rng.random((6, 52)), axis=1).astype(np.uint8).reshape(6, 4, 13)
    hands = np.ascontiguousarray(rounds[:, 0])
    settings_, strengths = arrangements(hands[0], with_strengths=True)
    results = [
        evaluate_batch(np.ascontiguousarray(hands[:, :5])),
        settle_batch(rounds, Rules.preset("shisanzhang-hk")),
        arrange_batch(hands),
        settings_,
        strengths,
    ]
    for result in results:
        loaded = round_trip(result, protocol)
        assert loaded.dtype == result.dtype
        assert loaded.shape == result.shape
        np.testing.assert_array_equal(loaded, result)


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("member", list(HandCategory))
def test_hand_category(member: HandCategory, protocol: int) -> None:
    assert round_trip(member, protocol) is member


def test_batch_calls_take_unpickled_arrays() -> None:
    # An array that crossed a process boundary has an equal but distinct dtype object (a Dask block does).
    hands = pickle.loads(pickle.dumps(np.arange(26, dtype=np.uint8).reshape(2, 13)))
    rounds = pickle.loads(pickle.dumps(np.arange(26, dtype=np.uint8).reshape(1, 2, 13)))
    fives = pickle.loads(pickle.dumps(np.arange(10, dtype=np.uint8).reshape(2, 5)))
    assert (
        cp.evaluate_batch(fives).tolist()
        == cp.evaluate_batch(np.arange(10, dtype=np.uint8).reshape(2, 5)).tolist()
    )
    assert (
        cp.settle_batch(rounds).tolist()
        == cp.settle_batch(np.arange(26, dtype=np.uint8).reshape(1, 2, 13)).tolist()
    )
    assert cp.arrange_batch(hands, strategy="strongest").shape == (2, 13)
