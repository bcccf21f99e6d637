"""settle_arrow's one-pass C++ grouping and gather (``_core.settle_seats``) against its general twin, the
numpy grouping that calls ``settle_batch`` once a group: the same bytes out on random mixes of player
counts and rules, and the same error (message, kind, row, player) on subtly broken rounds."""

from __future__ import annotations

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


def _batch(rounds: list[np.ndarray], rules: list[str | None] | None) -> pa.RecordBatch:
    columns: dict[str, Any] = {"cards": pa.array([r.tolist() for r in rounds], CARDS_TYPE)}
    if rules is not None:
        columns["rules"] = pa.array(rules, pa.string())
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
