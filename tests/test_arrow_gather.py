"""settle_arrow's one-pass C++ grouping and gather (``_core.settle_seats``) against its general twin, the
numpy grouping that calls ``settle_batch`` once a group: the same bytes out on random mixes of player
counts, rules and per-round input columns, and the same error (message, kind, row, player) on subtly broken
rounds and input values."""

from __future__ import annotations

import json
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow", reason="needs the arrow extra: pip install '.[arrow]'")

from chinese_poker.arrow import CARDS_TYPE  # noqa: E402
from chinese_poker.arrow import _settle as arrow_settle  # noqa: E402
from chinese_poker.dealing import deal_batch  # noqa: E402
from chinese_poker.rules import core_spec  # noqa: E402

PRESETS = [None, "pagat", "pagat-bonus", "shisanzhang-hk"]
ERROR_FIELDS = ("kind", "item", "player", "other", "position", "card")


def _round(seed: int, players: int, arranged: bool) -> np.ndarray:
    hands = deal_batch(seed, 0, 1, players)[0]
    if not arranged:
        return hands
    return cp.arrange_batch(np.ascontiguousarray(hands), "pagat", "strongest")


def _batch(
    rounds: list[np.ndarray], rules: list[str | None] | None, inputs: dict[str, pa.Array] | None = None
) -> pa.RecordBatch:
    columns: dict[str, Any] = {"cards": pa.array([r.tolist() for r in rounds], CARDS_TYPE)}
    if rules is not None:
        columns["rules"] = pa.array(rules, pa.string())
    columns.update(inputs or {})
    return pa.RecordBatch.from_pydict(columns)


def _settled(batch: pa.RecordBatch, gather: str, threads: int = 1) -> tuple[str, Any]:
    """("ok", the output batch) or ("error", what the error says and names)."""
    try:
        out = arrow_settle._settle_one(batch, cp.Rules.preset("pagat"), False, threads, 0, gather=gather)
    except ValueError as error:
        return "error", (type(error), str(error), *(getattr(error, f, None) for f in ERROR_FIELDS))
    return "ok", out


def _same(batch: pa.RecordBatch) -> tuple[str, Any]:
    core = _settled(batch, "core")
    general = _settled(batch, "numpy")
    assert core[0] == general[0], (core, general)
    if core[0] == "ok":
        assert core[1].equals(general[1])
        assert (
            core[1].column("net").buffers()[-1].to_pybytes()
            == general[1].column("net").buffers()[-1].to_pybytes()
        )
    else:
        assert core[1] == general[1]
    return core


ROUNDS = st.lists(
    st.tuples(st.integers(0, 10_000), st.integers(2, 4), st.sampled_from(range(len(PRESETS))), st.booleans()),
    min_size=1,
    max_size=30,
)


@settings(max_examples=60, deadline=None)
@given(ROUNDS, st.booleans())
def test_random_mixes_give_the_same_bytes(rounds: list[tuple[int, int, int, bool]], with_rules: bool) -> None:
    cards = [_round(seed, players, arranged) for seed, players, _, arranged in rounds]
    rules = [PRESETS[k] for _, _, k, _ in rounds] if with_rules else None
    kind, out = _same(_batch(cards, rules))
    assert kind == "ok"
    expected = [
        cp.settle_batch(c[None], (PRESETS[k] or "pagat") if with_rules else "pagat")[0].tolist()
        for c, (_, _, k, _) in zip(cards, rounds)
    ]
    assert out.column("net").to_pylist() == expected


@settings(max_examples=80, deadline=None)
@given(
    ROUNDS,
    st.data(),
    st.sampled_from(["out of range", "joker", "repeat", "five seats"]),
)
def test_broken_rounds_give_the_same_error(
    rounds: list[tuple[int, int, int, bool]], data: st.DataObject, breakage: str
) -> None:
    cards = [_round(seed, players, arranged).copy() for seed, players, _, arranged in rounds]
    rules = [PRESETS[k] for _, _, k, _ in rounds]
    # One or two rounds broken, so the error must be the lowest bad round of the first group holding one.
    for _ in range(data.draw(st.integers(1, 2))):
        r = data.draw(st.integers(0, len(cards) - 1))
        seat = data.draw(st.integers(0, cards[r].shape[0] - 1))
        index = data.draw(st.integers(0, 12))
        if breakage == "out of range":
            cards[r][seat, index] = data.draw(st.integers(54, 255))
        elif breakage == "joker":
            cards[r][seat, index] = 52
        elif breakage == "repeat":
            where = seat * 13 + index
            other = data.draw(st.integers(0, cards[r].size - 1).filter(lambda k, at=where: k != at))
            cards[r][seat, index] = cards[r].reshape(-1)[other]
        else:
            cards[r] = np.concatenate([cards[r], _round(r, 4, False)])[:5]
    kind, error = _same(_batch(cards, rules))
    assert kind == "error"
    assert error[1].startswith("column 'cards', row ")


def test_one_group_and_thread_counts_agree() -> None:
    cards = [_round(seed, 4, True) for seed in range(200)]
    batch = _batch(cards, None)
    one = _same(batch)[1]
    assert one.column("net").to_pylist() == cp.settle_batch(np.stack(cards), "pagat").tolist()
    mixed = _batch([_round(seed, 2 + seed % 3, True) for seed in range(300)], None)
    single = _settled(mixed, "core", threads=1)[1]
    assert _settled(mixed, "core", threads=2)[1].equals(single)
    assert single.equals(_settled(mixed, "numpy", threads=2)[1])


def test_the_layout_is_checked_before_any_read() -> None:
    spec = [core_spec(cp.Rules.preset("pagat"))]
    codes = np.zeros((8, 13), dtype=np.uint8)
    with pytest.raises(ValueError, match=r"offsets must run from 0 to the number of seats \(8\), got 0 to 9"):
        cp._core.settle_seats(codes, np.array([0, 4, 9], dtype=np.int64), None, spec)
    with pytest.raises(ValueError, match="round 1: a round has 2 to 6 seats, got 7"):
        cp._core.settle_seats(
            np.zeros((9, 13), dtype=np.uint8), np.array([0, 2, 9], dtype=np.int64), None, spec
        )
    with pytest.raises(ValueError, match=r"round 0: rules index 1 is not in 0\.\.0"):
        cp._core.settle_seats(codes, np.array([0, 4, 8], dtype=np.int64), np.array([1, 0]), spec)
    with pytest.raises(TypeError, match="rules_index"):
        cp._core.settle_seats(codes, np.array([0, 4, 8], dtype=np.int64), np.array([0.0, 0.0]), spec)
    two = np.array([0, 4, 8], dtype=np.int64)
    with pytest.raises(ValueError, match=r"stakes .*\(sum of P x P,\) = \(32,\)"):
        cp._core.settle_seats(codes, two, None, spec, stakes=np.ones(16, dtype=np.int64))
    with pytest.raises(ValueError, match=r"declared .*\(S,\) = \(8,\)"):
        cp._core.settle_seats(codes, two, None, spec, declared=np.zeros(2, dtype=np.bool_))
    with pytest.raises(TypeError, match="banker"):
        cp._core.settle_seats(codes, two, None, spec, banker=np.zeros(2, dtype=np.int32))
    with pytest.raises(ValueError, match="bets are given but no banker"):
        cp._core.settle_seats(codes, two, None, spec, bets=np.ones(8, dtype=np.int64))


def test_inputs_across_several_blocks_of_a_group() -> None:
    # More rounds than one block of the gather (8,192), in two groups, every input column given.
    count = 20_000
    players = np.where(np.arange(count) % 7 == 3, 3, 4)
    fours, threes = deal_batch(3, 0, count, 4), deal_batch(4, 0, count, 3)
    offsets = np.concatenate(([0], np.cumsum(players))).astype(np.int32)
    seats = np.concatenate([fours[r] if p == 4 else threes[r] for r, p in enumerate(players)])
    rng = np.random.default_rng(8)
    banker = np.where(rng.random(count) < 0.5, rng.integers(0, 3, count), -1)
    squares = np.concatenate(([0], np.cumsum(players * players))).astype(np.int32)
    stakes = np.ones(int(squares[-1]), dtype=np.int64)
    stake = rng.integers(0, 4, count)
    stakes[squares[:-1] + 1] = stake  # each matrix's [0][1] and [1][0]: symmetric
    stakes[squares[:-1] + players] = stake
    per_seat_rows = np.concatenate(([0], np.cumsum(np.repeat(players, players)))).astype(np.int32)
    matrices = pa.ListArray.from_arrays(
        pa.array(offsets), pa.ListArray.from_arrays(pa.array(per_seat_rows), pa.array(stakes))
    )
    batch = pa.RecordBatch.from_pydict(
        {
            "cards": pa.ListArray.from_arrays(
                pa.array(offsets), pa.FixedSizeListArray.from_arrays(pa.array(seats.reshape(-1)), 13)
            ),
            "banker": pa.array(banker, pa.int64(), mask=banker < 0),  # null: no banker
            "bets": pa.ListArray.from_arrays(pa.array(offsets), pa.array(rng.integers(1, 6, len(seats)))),
            "stakes": matrices,
        }
    )
    kind, out = _same(batch)
    assert kind == "ok"
    assert _settled(batch, "core", threads=2)[1].equals(out)
    nets = out.column("net").flatten().to_numpy()
    assert nets.any()
    # Every round's nets sum to zero (no house), and the 4-player rounds are settle_batch's.
    assert not np.add.reduceat(nets, offsets[:-1]).any()
    four = np.flatnonzero(players == 4)
    square_of = np.stack([stakes[squares[r] : squares[r] + 16] for r in four]).reshape(-1, 4, 4)
    bets = batch.column("bets").flatten().to_numpy()
    expected = cp.settle_batch(
        fours[four],
        stakes=square_of,
        banker=banker[four],
        bets=np.stack([bets[offsets[r] : offsets[r] + 4] for r in four]),
    )
    got = np.stack([nets[offsets[r] : offsets[r] + 4] for r in four])
    assert np.array_equal(got, expected)


SURRENDER = json.dumps({"preset": "pagat-bonus", "surrender_units": 2})
#: Rules for the input columns: plain, declarations detected ("auto"), surrender on, fantasyland on.
INPUT_RULES = [None, "pagat-bonus", "shisanshui-app", SURRENDER, "ofc"]
INPUT_TYPES = {
    "declared": pa.list_(pa.bool_()),
    "surrender": pa.list_(pa.bool_()),
    "fantasyland": pa.list_(pa.bool_()),
    "bets": pa.list_(pa.int64()),
    "stakes": pa.list_(pa.list_(pa.int64())),
    "banker": pa.int64(),
}
BREAKAGES = ["banker seat", "bet", "stake range", "stake symmetry", "declared", "surrender", "fantasyland"]


def _valid_value(data: st.DataObject, name: str, players: int, rules: str | None) -> Any:
    """A value of column ``name`` that the round's rules accept (None: a null round)."""
    if data.draw(st.integers(0, 4)) == 0:
        return None
    flag_ok = {"surrender": rules == SURRENDER, "fantasyland": rules == "ofc", "declared": False}
    if name in flag_ok:
        return [flag_ok[name] and data.draw(st.booleans()) for _ in range(players)]
    if name == "bets":
        return [data.draw(st.integers(1, 1000)) for _ in range(players)]
    if name == "banker":
        return data.draw(st.integers(0, players - 1))  # a null round: no banker
    upper = [[data.draw(st.integers(0, 5)) for _ in range(players)] for _ in range(players)]
    return [[upper[min(i, j)][max(i, j)] for j in range(players)] for i in range(players)]


def _broken_value(data: st.DataObject, players: int, breakage: str) -> Any:
    seat = data.draw(st.integers(0, players - 1))
    if breakage == "banker seat":
        return data.draw(st.integers(players, 9))
    if breakage == "bet":
        bets = [1] * players
        bets[seat] = data.draw(st.sampled_from([0, -3, 1001]))
        return bets
    if breakage.startswith("stake"):
        stakes = [[1] * players for _ in range(players)]
        other = (seat + 1) % players
        if breakage == "stake range":
            outside = data.draw(st.sampled_from([-1, cp._core.MAX_STAKE + 1]))
            stakes[seat][other] = stakes[other][seat] = outside
        else:
            stakes[seat][other] = 2
        return stakes
    flags = [False] * players
    flags[seat] = True
    return flags


def _column_of(breakage: str) -> str:
    named = {"banker seat": "banker", "bet": "bets", "stake range": "stakes", "stake symmetry": "stakes"}
    return named.get(breakage, breakage)


@settings(max_examples=120, deadline=None)
@given(st.data(), st.sampled_from([None, *BREAKAGES]))
def test_input_columns_give_the_same_nets_and_errors(data: st.DataObject, breakage: str | None) -> None:
    shapes = data.draw(
        st.lists(
            st.tuples(st.integers(0, 10_000), st.sampled_from(range(len(INPUT_RULES))), st.booleans()),
            min_size=1,
            max_size=25,
        )
    )
    # Fantasyland rules seat 2 or 3 players; the others 2 to 4.
    players = [data.draw(st.integers(2, 3 if INPUT_RULES[k] == "ofc" else 4)) for _, k, _ in shapes]
    cards = [_round(seed, p, arranged) for (seed, _, arranged), p in zip(shapes, players)]
    rules = [INPUT_RULES[k] for _, k, _ in shapes]
    names = data.draw(st.sets(st.sampled_from(sorted(INPUT_TYPES))))
    if breakage is not None:
        names.add(_column_of(breakage))
    if "bets" in names:
        names.add("banker")
    values = {name: [_valid_value(data, name, p, r) for p, r in zip(players, rules)] for name in names}
    if breakage is not None:
        name = _column_of(breakage)
        for _ in range(data.draw(st.integers(1, 2))):
            r = data.draw(st.integers(0, len(cards) - 1))
            values[name][r] = _broken_value(data, players[r], breakage)
            if name in ("declared", "surrender", "fantasyland"):
                rules[r] = None  # pagat: no naturals to declare, no surrender, no fantasyland
            if name == "bets":
                values["banker"][r] = 0
    inputs = {name: pa.array(column, INPUT_TYPES[name]) for name, column in values.items()}
    kind, out = _same(_batch(cards, rules, inputs))
    if breakage is None:
        assert kind == "ok", out
        for r, c in enumerate(cards):
            expected = cp.settle_batch(c[None], _rules_of(rules[r]), **_round_inputs(values, r, players[r]))
            assert out.column("net")[r].as_py() == expected[0].tolist()
    else:
        assert kind == "error"
        assert out[1].startswith("column '"), out


def _rules_of(value: str | None) -> Any:
    if value is None:
        return "pagat"
    return cp.Rules.from_dict(json.loads(value)) if value.startswith("{") else value


def _round_inputs(values: dict[str, list[Any]], r: int, players: int) -> dict[str, np.ndarray]:
    """Round r's inputs as settle_batch takes them, a null round's as the column's default."""
    defaults: dict[str, Any] = {
        "declared": [False] * players,
        "surrender": [False] * players,
        "fantasyland": [False] * players,
        "bets": [1] * players,
        "stakes": [[1] * players for _ in range(players)],
        "banker": -1,
    }
    out = {}
    for name, column in values.items():
        value = defaults[name] if column[r] is None else column[r]
        dtype = np.bool_ if name in ("declared", "surrender", "fantasyland") else np.int64
        out[name] = np.array([value], dtype=dtype)
    return out


def test_bets_without_a_banker_column_are_named() -> None:
    batch = _batch([_round(1, 3, True)], None, {"bets": pa.array([[1, 2, 1]], INPUT_TYPES["bets"])})
    for gather in ("core", "numpy"):
        kind, error = _settled(batch, gather)
        assert kind == "error"
        assert error[1] == (
            "column 'bets': given without a 'banker' column: bets are read in banker rounds only"
        )


def test_a_bad_banker_seat_reads_as_one_sentence() -> None:
    cards = [_round(seed, 3, True) for seed in range(3)]
    kind, error = _same(_batch(cards, None, {"banker": pa.array([0, None, 5], pa.int64())}))
    assert kind == "error"
    assert error[1] == (
        "column 'banker', row 2: banker = 5 is not a seat: a round of 3 players has seats 0..2"
        " (-1: no banker)"
    )
