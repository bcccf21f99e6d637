"""Batch calls: settle_batch takes every per-round input settle takes (stakes, declarations, surrender) and
gives every pair's columns (detail=True), each value the one settle gives; and evaluate_batch, settle_batch
and arrange_batch give the same results, and the same error (the lowest bad row's), on any thread count."""

from __future__ import annotations

import concurrent.futures
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import (
    Hand,
    Rules,
    SettleDetail,
    _core,
    arrange_batch,
    evaluate_batch,
    settle,
    settle_batch,
)
from chinese_poker.knobs import NATURAL_NAMES
from chinese_poker.rules import core_spec
from chinese_poker.settle import DECIDED_BY

# Naturals listed and declared (must_declare), surrender on, a home run, royalties: every branch of a pair.
RULES = Rules.preset("shisanzhang-hk").replace(surrender_units=3, home_run_min_opponents=2)


def deals(count: int, players: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    order = np.argsort(rng.random((count, 52)), axis=1).astype(np.uint8)
    return np.ascontiguousarray(order[:, : 13 * players].reshape(count, players, 13))


def six_pairs_table(players: int, rng: np.random.Generator) -> np.ndarray:
    """A round whose player 0 holds six pairs and a single (a natural of RULES), the rest dealt at random."""
    ranks = rng.choice(13, size=7, replace=False)
    suits = rng.permutation(4)
    hand = [4 * int(r) + int(s) for r in ranks[:6] for s in suits[:2]] + [4 * int(ranks[6]) + int(suits[2])]
    rest = [c for c in rng.permutation(52).tolist() if c not in hand]
    return np.array(hand + rest[: 13 * (players - 1)], dtype=np.uint8).reshape(players, 13)


def random_inputs(count: int, players: int, seed: int) -> dict[str, np.ndarray]:
    """Rounds with random symmetric stakes 0..3, surrender flags, and declared six pairs in about a tenth."""
    rng = np.random.default_rng(seed)
    rounds = deals(count, players, seed)
    declared = np.zeros((count, players), dtype=bool)
    for r in range(0, count, 10):
        rounds[r] = six_pairs_table(players, rng)
        declared[r, 0] = bool(rng.integers(2))
    upper = np.triu(rng.integers(0, 4, size=(count, players, players)), 1)
    stakes = (upper + upper.transpose(0, 2, 1)).astype(np.int64)
    surrender = rng.random((count, players)) < 0.1
    return {"rounds": rounds, "stakes": stakes, "declared": declared, "surrender": surrender}


def settle_round(inputs: dict[str, np.ndarray], r: int, rules: Rules) -> cp.Settlement:
    """Round r of ``inputs`` through settle(), the one-round path."""
    hands = [
        Hand.declared(cards.tolist()) if inputs["declared"][r, k] else Hand.from_cards(cards.tolist())
        for k, cards in enumerate(inputs["rounds"][r])
    ]
    return settle(hands, rules, stakes=inputs["stakes"][r], surrender=inputs["surrender"][r].tolist())


# --- parity with settle ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_input_and_every_column_match_settle(players: int) -> None:
    inputs = random_inputs(400, players, seed=players)
    detail = settle_batch(
        inputs["rounds"], RULES, stakes=inputs["stakes"], declared=inputs["declared"],
        surrender=inputs["surrender"], detail=True,
    )  # fmt: skip
    assert isinstance(detail, SettleDetail)
    pairs = players * (players - 1) // 2
    assert detail.pairs == tuple((i, j) for i in range(players) for j in range(i + 1, players))
    shapes = {
        "net": (400, players), "rows": (400, pairs, 3), "rows_known": (400, pairs),
        "decided_by": (400, pairs), "scoop": (400, pairs), "units": (400, pairs), "home_run": (400, pairs),
        "foul": (400, pairs, 2), "natural": (400, pairs, 2), "royalties": (400, pairs, 2, 3),
        "player_foul": (400, players), "player_natural": (400, players), "player_home_run": (400, players),
    }  # fmt: skip
    for name, shape in shapes.items():
        assert getattr(detail, name).shape == shape, name
    seen: set[str] = set()
    for r in range(400):
        expected = settle_round(inputs, r, RULES)
        assert tuple(detail.net[r]) == expected.net
        assert tuple(detail.player_foul[r]) == tuple(p.foul for p in expected.players)
        assert tuple(None if k < 0 else NATURAL_NAMES[k] for k in detail.player_natural[r]) == tuple(
            p.natural for p in expected.players
        )
        assert tuple(detail.player_home_run[r]) == expected.home_run
        if any(expected.home_run):
            seen.add("player home run")
        for q, pair in enumerate(expected.pairs):
            assert (pair.i, pair.j) == detail.pairs[q]
            assert DECIDED_BY[detail.decided_by[r, q]] == pair.decided_by
            assert bool(detail.rows_known[r, q]) == (pair.rows is not None)
            assert tuple(detail.rows[r, q]) == (pair.rows or (0, 0, 0))
            assert detail.scoop[r, q] == pair.scoop
            assert detail.subtotal[r, q] == pair.subtotal
            assert detail.stake[r, q] == pair.stake
            assert detail.home_run[r, q] == pair.home_run
            assert detail.units[r, q] == pair.units
            assert tuple(detail.foul[r, q]) == pair.foul
            names = tuple(None if k < 0 else NATURAL_NAMES[k] for k in detail.natural[r, q])
            assert names == pair.natural
            assert tuple(map(tuple, detail.royalties[r, q])) == pair.royalties
            seen.add(pair.decided_by)
            if pair.home_run != 1:
                seen.add("home run")
    # The random rounds reach every way a pair is decided (home runs need three or four players here).
    assert seen >= {"natural", "surrender", "foul", "rows"}
    if players > 2:
        assert {"home run", "player home run"} <= seen
    net = settle_batch(
        inputs["rounds"], RULES, stakes=inputs["stakes"], declared=inputs["declared"],
        surrender=inputs["surrender"],
    )  # fmt: skip
    assert net.dtype == np.int64
    assert np.array_equal(net, detail.net)
    assert (net.sum(axis=1) == 0).all()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_banker_rounds_and_bets_match_settle(players: int) -> None:
    # Real-table knobs on, so the pairs carry horse, bet and caps: every amount of a banker round.
    rules = RULES.replace(horse_card="As", pair_cap=8, home_run_bonus=1)
    inputs = random_inputs(300, players, seed=10 + players)
    rng = np.random.default_rng(players)
    banker = rng.integers(-1, players, size=300).astype(np.int64)  # -1: a round without a banker
    bets = rng.integers(1, 4, size=(300, players)).astype(np.int64)
    detail = settle_batch(
        inputs["rounds"], rules, stakes=inputs["stakes"], declared=inputs["declared"],
        surrender=inputs["surrender"], banker=banker, bets=bets, detail=True,
    )  # fmt: skip
    slot = {pair: q for q, pair in enumerate(detail.pairs)}
    banker_rounds = 0
    for r in range(300):
        seat = int(banker[r])
        hands = [
            Hand.declared(c.tolist()) if inputs["declared"][r, k] else Hand.from_cards(c.tolist())
            for k, c in enumerate(inputs["rounds"][r])
        ]
        expected = settle(
            hands, rules, stakes=inputs["stakes"][r], surrender=inputs["surrender"][r].tolist(),
            banker=None if seat < 0 else seat, bets=None if seat < 0 else bets[r].tolist(),
        )  # fmt: skip
        assert tuple(detail.net[r]) == expected.net
        played = {(p.i, p.j) for p in expected.pairs}
        for pair in expected.pairs:
            q = slot[(pair.i, pair.j)]
            assert DECIDED_BY[detail.decided_by[r, q]] == pair.decided_by
            assert detail.units[r, q] == pair.units
            assert detail.bet[r, q] == pair.bet
        for pair, q in slot.items():
            if pair not in played:
                assert DECIDED_BY[detail.decided_by[r, q]] == "not_played"
                assert detail.units[r, q] == detail.stake[r, q] == detail.bet[r, q] == 0
        banker_rounds += seat >= 0
        if seat >= 0:
            assert len(played) == players - 1
    assert banker_rounds > 100
    net = settle_batch(inputs["rounds"], rules, stakes=inputs["stakes"], declared=inputs["declared"],
                       surrender=inputs["surrender"], banker=banker, bets=bets)  # fmt: skip
    assert np.array_equal(net, detail.net)


def test_fantasyland_flags_match_settle() -> None:
    rules = Rules.preset("ofc").replace(fantasyland="progressive")
    # Legal boards (arranged), and in every fourth round player 0 holds a board with queens in front.
    rounds = arrange_batch(deals(400, 3, seed=7).reshape(1200, 13), rules, "strongest").reshape(400, 3, 13)
    queens = Hand.parse("Qs Qh 2c / 3d 4d 5d 6d 8d / 9c 9h 9s Kc Kd").cards
    rest = [c for c in range(52) if c not in queens]
    for r in range(0, 400, 4):
        others = np.random.default_rng(r).permutation(rest)[:26].astype(np.uint8).reshape(2, 13)
        rounds[r] = np.concatenate(
            [np.array([queens], dtype=np.uint8), arrange_batch(others, rules, "strongest")]
        )
    rounds = np.ascontiguousarray(rounds)
    flags = np.random.default_rng(3).random((400, 3)) < 0.3
    detail = settle_batch(rounds, rules, fantasyland=flags, detail=True)
    qualified = 0
    for r in range(400):
        expected = settle(
            [Hand.from_cards(c.tolist()) for c in rounds[r]], rules, fantasyland=flags[r].tolist()
        )
        assert tuple(detail.net[r]) == expected.net
        assert tuple(detail.fantasyland_cards[r]) == tuple(p.fantasyland_cards for p in expected.players)
        qualified += sum(p.fantasyland_cards > 0 for p in expected.players)
    assert qualified >= 100
    with pytest.raises(cp.InputError, match=r"^round 0, player 1 .*fantasyland") as caught:
        settle_batch(rounds[:2], "pagat", fantasyland=np.array([[False, True, False]] * 2))
    assert caught.value.item == 0


def test_banker_and_bets_errors_name_round_and_player() -> None:
    rounds = deals(5, 4, seed=1)
    with pytest.raises(cp.InputError, match=r"^round 3: banker = 9 is not a seat") as caught:
        settle_batch(rounds, "pagat", banker=np.array([0, 1, -1, 9, 2]))
    assert caught.value.item == 3
    bets = np.ones((5, 4), dtype=np.int64)
    bets[2, 1] = 0
    with pytest.raises(cp.InputError, match=r"round 2.*bets\[1\] = 0") as bet_error:
        settle_batch(rounds, "pagat", banker=np.array([0, 0, 0, 0, 0]), bets=bets)
    assert bet_error.value.item == 2
    # A bet of a round without a banker is not read.
    assert settle_batch(rounds, "pagat", banker=np.array([0, 0, -1, 0, 0]), bets=bets).shape == (5, 4)
    with pytest.raises(ValueError, match="bets need banker rounds"):
        settle_batch(rounds, "pagat", bets=np.ones((5, 4), dtype=np.int64))
    with pytest.raises(ValueError, match=r"banker must have shape \(R,\) = \(5,\)"):
        settle_batch(rounds, "pagat", banker=np.zeros((5, 4), dtype=np.int64))
    with pytest.raises(TypeError, match="fantasyland must have dtype bool"):
        settle_batch(rounds, "pagat", fantasyland=np.zeros((5, 4), dtype=np.int64))


def test_the_core_names_a_bad_banker_seat_as_given() -> None:
    # The core itself (no check before it) names the seat of the batch as given, not clamped to the table,
    # and no player: the banker seat is none of them.
    rounds = deals(5, 4, seed=1)
    for seat in (9, 2**40, -7):
        seats = np.array([0, 1, -1, seat, 2], dtype=np.int64)
        with pytest.raises(cp.InputError) as caught:
            _core.settle_batch(rounds, core_spec(cp.Rules.preset()), None, None, None, seats)
        assert str(caught.value) == (
            f"round 3: banker = {seat} is not a seat: a round of 4 players has seats 0..3 (-1: no banker)"
        )
        assert (caught.value.kind, caught.value.item, caught.value.player) == ("bad_banker", 3, None)
    # The lowest bad round is named, whatever its fault: a repeated card in round 1 comes first.
    broken = rounds.copy()
    broken[1, 0, 0] = broken[1, 1, 0]
    with pytest.raises(cp.InputError, match=r"^round 1"):
        settle_batch(broken, "pagat", banker=np.array([0, 0, 0, 9, 0]))


def test_detail_arrays_are_read_only() -> None:
    detail = settle_batch(deals(3, 2, 1), RULES, detail=True)
    with pytest.raises(ValueError, match="read-only"):
        detail.units[0, 0] = 5


def test_one_stakes_matrix_for_every_round() -> None:
    rounds = deals(300, 3, 5)
    one = np.array([[0, 2, 5], [2, 0, 1], [5, 1, 0]], dtype=np.int64)
    shared = settle_batch(rounds, RULES, stakes=one)
    repeated = settle_batch(rounds, RULES, stakes=np.repeat(one[None], 300, axis=0))
    assert np.array_equal(shared, repeated)
    plain = settle_batch(rounds, RULES, detail=True)
    assert np.array_equal(settle_batch(rounds, RULES, stakes=one, detail=True).units, plain.units * [2, 5, 1])
    # Another integer dtype is taken as int64.
    assert np.array_equal(settle_batch(rounds, RULES, stakes=one.astype(np.uint8)), shared)


def test_without_inputs_the_defaults() -> None:
    rounds = deals(200, 4, 8)
    plain = settle_batch(rounds, RULES)
    assert np.array_equal(
        settle_batch(
            rounds, RULES, stakes=np.ones((4, 4), dtype=np.int64), declared=np.zeros((200, 4), dtype=bool),
            surrender=np.zeros((200, 4), dtype=bool),
        ),
        plain,
    )  # fmt: skip
    for r in range(0, 200, 17):
        assert tuple(plain[r]) == settle([Hand.from_cards(p.tolist()) for p in rounds[r]], RULES).net


# --- arguments checked up front -------------------------------------------------------------------------


def test_dtypes_and_shapes_name_the_argument() -> None:
    rounds = deals(3, 4, 2)
    cases: list[tuple[dict[str, Any], type[Exception], str]] = [
        ({"stakes": [[1] * 4] * 4}, TypeError, r"stakes must be a numpy array of dtype int64 .* got list"),
        ({"stakes": np.ones((4, 4))}, TypeError, "stakes must have dtype int64, got float64"),
        ({"stakes": np.ones((3, 4), np.int64)}, ValueError,
         r"stakes must have shape \(R, P, P\) = \(3, 4, 4\) or \(P, P\) = \(4, 4\), got \(3, 4\)"),
        ({"stakes": np.ones((2, 4, 4), np.int64)}, ValueError, r"stakes must have shape .* got \(2, 4, 4\)"),
        ({"stakes": np.ones((3, 4, 8), np.int64)[:, :, ::2]}, ValueError, "stakes must be C-contiguous"),
        ({"declared": np.zeros((3, 4), np.int64)}, TypeError, "declared must have dtype bool, got int64"),
        ({"declared": np.zeros((3, 3), bool)}, ValueError,
         r"declared must have shape \(R, P\) = \(3, 4\), got \(3, 3\)"),
        ({"declared": [False] * 4}, TypeError, "declared must be a numpy array of dtype bool"),
        ({"surrender": np.zeros(12, bool)}, ValueError,
         r"surrender must have shape \(R, P\) = \(3, 4\), got \(12,\)"),
        ({"surrender": np.zeros((3, 4), np.uint8)}, TypeError, "surrender must have dtype bool, got uint8"),
        ({"detail": 1}, TypeError, "detail must be a bool, got int"),
        ({"threads": -1}, ValueError,
         r"threads must be 0 \(every available core\) or a count 1..256, got -1"),
        ({"threads": 257}, ValueError, "got 257"),
        ({"threads": 1.0}, TypeError, "settle_batch: threads must be an int, got float"),
        ({"threads": True}, TypeError, "threads must be an int, got bool"),
    ]  # fmt: skip
    for kwargs, error, message in cases:
        with pytest.raises(error, match=message):
            settle_batch(rounds, RULES, **kwargs)
    with pytest.raises(ValueError, match=r"stakes: 18446744073709551615 is not in 0..1000000"):
        settle_batch(rounds, RULES, stakes=np.full((4, 4), 2**64 - 1, dtype=np.uint64))
    rows, hands = deals(2, 1, 0)[:, 0, :5].copy(), deals(2, 1, 0)[:, 0]
    for function, argument in ((evaluate_batch, rows), (arrange_batch, hands)):
        with pytest.raises(ValueError, match="threads must be 0"):
            function(argument, threads=-2)  # type: ignore[operator]
        with pytest.raises(TypeError, match="threads must be an int, got str"):
            function(argument, threads="2")  # type: ignore[operator]


def test_bad_rows_are_named_like_settle_names_them() -> None:
    inputs = random_inputs(30, 4, seed=9)
    kwargs = {k: inputs[k] for k in ("stakes", "declared", "surrender")}
    rules = RULES
    # A stake out of range, then an asymmetric one, in round 12.
    symmetric = r"stakes\[1\]\[2\] = 7 but stakes\[2\]\[1\] = \d: stakes must be symmetric"
    for value, text in ((-1, r"stakes\[1\]\[2\] = -1 is not in 0..1000000"), (7, symmetric)):
        stakes = inputs["stakes"].copy()
        stakes[12, 1, 2] = value
        with pytest.raises(cp.InputError, match=f"round 12, {text}") as caught:
            settle_batch(inputs["rounds"], rules, **{**kwargs, "stakes": stakes})
        where = (caught.value.kind, caught.value.item, caught.value.player, caught.value.other)
        assert where == ("bad_stake", 12, 1, 2)
        with pytest.raises(cp.InputError, match=text):
            settle_round({**inputs, "stakes": stakes}, 12, rules)
    # Declared without a natural: round 13 is a random deal (checked to hold none).
    assert cp.detect_natural(inputs["rounds"][13, 2].tolist(), rules) is None
    declared = inputs["declared"].copy()
    declared[13, 2] = True
    with pytest.raises(cp.InputError, match="round 13, player 2 declared a natural but holds none") as caught:
        settle_batch(inputs["rounds"], rules, **{**kwargs, "declared": declared})
    assert (caught.value.kind, caught.value.item, caught.value.player) == ("declared_without_natural", 13, 2)
    with pytest.raises(cp.InputError, match="player 2 declared a natural but holds none"):
        settle_round({**inputs, "declared": declared}, 13, rules)
    # Surrender while it is off: the lowest round with a surrender flag is named.
    first = int(np.argwhere(inputs["surrender"].any(axis=1))[0, 0])
    player = int(np.argmax(inputs["surrender"][first]))
    message = f"round {first}, player {player} surrendered but these rules have"
    with pytest.raises(cp.InputError, match=message):
        settle_batch(inputs["rounds"], rules.replace(surrender_units=0), **kwargs)
    # A bad shared matrix names no round.
    one = np.ones((4, 4), dtype=np.int64)
    one[0, 3] = 2
    with pytest.raises(cp.InputError, match=r"^stakes\[0\]\[3\] = 2 but stakes\[3\]\[0\] = 1") as caught:
        settle_batch(inputs["rounds"], rules, stakes=one)
    assert caught.value.item is None


# --- threads --------------------------------------------------------------------------------------------

THREADS = [1, 2, 3, 0]


@pytest.mark.parametrize("count", [0, 1, 7, 513, 3000])
def test_settle_batch_is_the_same_on_any_thread_count(count: int) -> None:
    inputs = random_inputs(count, 4, seed=count)
    kwargs = {k: inputs[k] for k in ("stakes", "declared", "surrender")}
    single = settle_batch(inputs["rounds"], RULES, detail=True, **kwargs)
    for threads in THREADS[1:]:
        net = settle_batch(inputs["rounds"], RULES, threads=threads, **kwargs)
        assert np.array_equal(net, single.net)
        many = settle_batch(inputs["rounds"], RULES, detail=True, threads=threads, **kwargs)
        for name in ("net", "rows", "rows_known", "decided_by", "scoop", "subtotal", "stake", "home_run",
                     "units", "foul", "natural", "royalties"):  # fmt: skip
            assert np.array_equal(getattr(many, name), getattr(single, name)), name


@pytest.mark.parametrize("count", [0, 1, 300, 70_000])
def test_evaluate_batch_is_the_same_on_any_thread_count(count: int) -> None:
    rows = deals(count, 1, 4)[:, 0, :5].copy()
    single = evaluate_batch(rows)
    for threads in THREADS[1:]:
        assert np.array_equal(evaluate_batch(rows, threads=threads), single)
    three = np.ascontiguousarray(rows[:, :3])
    assert np.array_equal(evaluate_batch(three, threads=2), evaluate_batch(three))


@pytest.mark.parametrize("count", [0, 1, 9, 150])
def test_arrange_batch_is_the_same_on_any_thread_count(count: int) -> None:
    hands = np.ascontiguousarray(deals(count, 1, 6)[:, 0])
    for strategy in ("strongest", "expected"):
        single = arrange_batch(hands, RULES, strategy)
        for threads in THREADS[1:]:
            assert np.array_equal(arrange_batch(hands, RULES, strategy, threads=threads), single), strategy


def test_the_lowest_bad_row_is_reported_on_any_thread_count() -> None:
    inputs = random_inputs(5000, 4, seed=3)
    rounds = inputs["rounds"].copy()
    rounds[4500, 3, 2] = rounds[4500, 0, 0]  # a card twice
    rounds[1234, 1, 4] = 77  # not a card
    declared = inputs["declared"].copy()
    assert cp.detect_natural(rounds[2000, 1].tolist(), RULES) is None
    declared[2000, 1] = True  # declared without a natural
    stakes = inputs["stakes"].copy()
    stakes[1300, 0, 1] = -3
    for threads in THREADS * 3:
        with pytest.raises(cp.InputError, match="round 1234, player 1, index 4: card code 77") as caught:
            settle_batch(rounds, RULES, stakes=stakes, declared=declared, threads=threads)
        assert caught.value.item == 1234
        with pytest.raises(cp.InputError, match=r"round 1300, stakes\[0\]\[1\] = -3"):
            settle_batch(inputs["rounds"], RULES, stakes=stakes, declared=declared, threads=threads)
        with pytest.raises(cp.InputError, match="round 2000, player 1 declared"):
            settle_batch(inputs["rounds"], RULES, declared=declared, threads=threads)
    rows = deals(60_000, 1, 2)[:, 0, :5].copy()
    rows[50_000, 1] = rows[50_000, 3]
    rows[20_001, 0] = 200
    rows[20_000, 4] = rows[20_000, 2]
    hands = np.ascontiguousarray(deals(100, 1, 3)[:, 0])
    hands[90, 0] = 52
    hands[41, 5] = hands[41, 6]
    for threads in THREADS * 3:
        with pytest.raises(cp.InputError, match=r"row 20000, index 4: card .* appears twice"):
            evaluate_batch(rows, threads=threads)
        with pytest.raises(cp.InputError, match="hand 41, index 6"):
            arrange_batch(hands, RULES, "strongest", threads=threads)


def test_many_python_threads_at_once() -> None:
    inputs = random_inputs(3000, 4, seed=12)
    kwargs = {k: inputs[k] for k in ("stakes", "declared", "surrender")}
    single = settle_batch(inputs["rounds"], RULES, **kwargs)
    hands = np.ascontiguousarray(inputs["rounds"][:60, 0])
    arranged = arrange_batch(hands, RULES, "strongest")

    def work(k: int) -> bool:
        net = settle_batch(inputs["rounds"], RULES, threads=1 + k % 3, **kwargs)
        settings = arrange_batch(hands, RULES, "strongest", threads=k % 3)
        return np.array_equal(net, single) and np.array_equal(settings, arranged)

    with concurrent.futures.ThreadPoolExecutor(6) as pool:
        assert all(pool.map(work, range(12)))
