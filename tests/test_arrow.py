"""chinese_poker.arrow: rounds as Arrow columns settle to exactly what settle_batch and the JSON path give
(every preset's conformance vectors, jokers and added suits included), in the input's order whatever the mix
of rules and player counts; JSON Lines and Parquet round-trip; a bad column names the column and the row."""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass
from pathlib import Path

import chinese_poker as cp
import numpy as np
import pytest

pa = pytest.importorskip("pyarrow", reason="needs the arrow extra: pip install '.[arrow]'")

from chinese_poker import arrow as cpa  # noqa: E402
from chinese_poker.cli import main  # noqa: E402
from chinese_poker.dealing import deal_batch  # noqa: E402
from chinese_poker.formats.round_parse import rules_digest  # noqa: E402
from chinese_poker.formats.vectors import generate_vectors  # noqa: E402
from chinese_poker.presets import PRESET_NAMES  # noqa: E402
from chinese_poker.settle import DECIDED_BY  # noqa: E402

DATA = Path(__file__).parent / "data"


def _settings(seed: int, rounds: int, players: int, rules: str = "pagat") -> np.ndarray:
    hands = deal_batch(seed, 0, rounds, players)
    return cp.arrange_batch(hands.reshape(-1, 13), rules, "strongest").reshape(rounds, players, 13)


def _cards(rounds: list[np.ndarray]) -> pa.Array:
    return pa.array([r.tolist() for r in rounds], cpa.CARDS_TYPE)


def _nets(batch: pa.RecordBatch | pa.Table) -> list[list[int]]:
    return list(batch.column("net").to_pylist())


def test_one_player_count_is_settle_batch_on_a_view() -> None:
    settings = _settings(5, 500, 4)
    offsets = pa.array(np.arange(0, 2001, 4, dtype=np.int32))
    seats = pa.FixedSizeListArray.from_arrays(pa.array(settings.reshape(-1)), 13)
    batch = pa.RecordBatch.from_pydict({"cards": pa.ListArray.from_arrays(offsets, seats)})
    out = cpa.settle_arrow(batch)
    assert out.schema.names == ["id", "rules_digest", "net"]
    assert np.array_equal(np.array(_nets(out)), cp.settle_batch(settings, "pagat"))
    assert out.column("id").to_pylist() == list(range(1, 501))
    assert set(out.column("rules_digest").to_pylist()) == {rules_digest(cp.Rules.preset("pagat"))}
    # A slice (an offset into the same buffers) settles its own rows; ids stay those of the slice's rows
    # only when the batch carries them, so here they restart at 1.
    part = cpa.settle_arrow(batch.slice(123, 77))
    assert np.array_equal(np.array(_nets(part)), cp.settle_batch(settings[123:200], "pagat"))


def test_mixed_rules_and_player_counts_come_back_in_input_order() -> None:
    four, three, two = _settings(1, 30, 4), _settings(2, 30, 3), _settings(3, 30, 2)
    presets = ["pagat", "pagat-bonus", "shisanzhang-hk"]
    rounds = [(four, three, two)[k % 3][k] for k in range(30)]
    rules = [presets[(k // 3) % 3] for k in range(30)]
    batch = pa.RecordBatch.from_pydict(
        {"id": [f"r{k}" for k in range(30)], "rules": rules, "cards": _cards(rounds)}
    )
    out = cpa.settle_arrow(batch)
    expected = [cp.settle_batch(r[None], p)[0].tolist() for r, p in zip(rounds, rules)]
    assert _nets(out) == expected
    assert out.column("id").to_pylist() == [f"r{k}" for k in range(30)]
    assert out.column("rules_digest").to_pylist() == [rules_digest(cp.Rules.preset(p)) for p in rules]
    # The same rounds settled as a whole batch of one shape (the zero-copy path) give the same values.
    uniform = cpa.settle_arrow(pa.RecordBatch.from_pydict({"cards": _cards(list(four))}), "pagat")
    assert _nets(uniform) == cp.settle_batch(four, "pagat").tolist()


def test_a_table_of_several_batches_numbers_rows_globally() -> None:
    settings = _settings(8, 40, 4)
    table = pa.Table.from_batches(
        [pa.RecordBatch.from_pydict({"cards": _cards(list(settings[k : k + 10]))}) for k in range(0, 40, 10)]
    )
    out = cpa.settle_arrow(table)
    assert isinstance(out, pa.Table)
    assert out.column("id").to_pylist() == list(range(1, 41))
    assert _nets(out) == cp.settle_batch(settings, "pagat").tolist()
    bad = settings.copy()
    bad[27, 2, 5] = bad[27, 2, 6]
    broken = pa.Table.from_batches(
        [pa.RecordBatch.from_pydict({"cards": _cards(list(bad[k : k + 10]))}) for k in range(0, 40, 10)]
    )
    with pytest.raises(ValueError, match=r"column 'cards', row 7: player 2, index 6: card .* appears twice"):
        cpa.settle_arrow(broken)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_presets_vectors_agree_with_the_json_path(preset: str) -> None:
    vectors = list(generate_vectors(cp.Rules.preset(preset), 12, 41))
    text = "".join(json.dumps(v) + "\n" for v in vectors)
    table = cpa.from_jsonl(io.BytesIO(text.encode()))
    out = cpa.settle_arrow(table, detail=True)
    assert _nets(out) == [v["expected"]["net"] for v in vectors]
    not_played = DECIDED_BY.index("not_played")
    units, decided = out.column("pair_units").to_pylist(), out.column("pair_decided_by").to_pylist()
    for k, vector in enumerate(vectors):
        played = [u for u, d in zip(units[k], decided[k]) if d != not_played]
        assert played == [p["units"] for p in vector["expected"]["pairs"]]
        names = [DECIDED_BY[d] for d in decided[k] if d != not_played]
        assert names == [p["decided_by"] for p in vector["expected"]["pairs"]]


@pytest.mark.parametrize("name", ["vectors-jokers.jsonl", "vectors-added-suits.jsonl"])
def test_jokers_and_added_suits_round_trip_jsonl_and_parquet(name: str, tmp_path: Path) -> None:
    table = cpa.from_jsonl(DATA / name)
    expected = [json.loads(line)["expected"]["net"] for line in (DATA / name).read_text().splitlines()]
    assert _nets(cpa.settle_arrow(table)) == expected
    cpa.write_parquet(table, tmp_path / "rounds.parquet")
    again = cpa.read_parquet(tmp_path / "rounds.parquet")
    assert again.equals(table)
    assert again.schema.field("cards").type == cpa.CARDS_TYPE
    cpa.to_jsonl(again, tmp_path / "rounds.jsonl")
    assert cpa.from_jsonl(tmp_path / "rounds.jsonl").equals(table)


def test_detail_is_settle_batch_detail() -> None:
    settings = _settings(11, 50, 3, "pagat-bonus")
    batch = pa.RecordBatch.from_pydict({"cards": _cards(list(settings))})
    out = cpa.settle_arrow(batch, "pagat-bonus", detail=True)
    detail = cp.settle_batch(settings, "pagat-bonus", detail=True)
    assert out.column("pair_royalties").to_pylist() == detail.royalties.tolist()
    assert detail.royalties.any()
    assert out.column("pair_rows").to_pylist() == detail.rows.tolist()
    assert out.column("player_foul").to_pylist() == detail.player_foul.tolist()


def test_per_round_inputs_reach_the_kernel() -> None:
    settings = _settings(13, 4, 3)
    stakes = [[[1, 2, 3], [2, 1, 4], [3, 4, 1]], None, [[1, 0, 0], [0, 1, 5], [0, 5, 1]], None]
    batch = pa.RecordBatch.from_pydict(
        {
            "cards": _cards(list(settings)),
            "stakes": pa.array(stakes, pa.list_(pa.list_(pa.int64()))),
            "banker": pa.array([None, 1, None, 0], pa.int8()),
            "bets": pa.array([None, [2, 1, 3], None, None], pa.list_(pa.int64())),
        }
    )
    full = np.ones((4, 3, 3), dtype=np.int64)
    full[0], full[2] = stakes[0], stakes[2]
    bets = np.ones((4, 3), dtype=np.int64)
    bets[1] = [2, 1, 3]
    expected = cp.settle_batch(settings, stakes=full, banker=np.array([-1, 1, -1, 0]), bets=bets)
    assert _nets(cpa.settle_arrow(batch)) == expected.tolist()


def test_arrange_arrow_is_arrange_batch() -> None:
    hands = deal_batch(21, 0, 60, 4)
    batch = pa.RecordBatch.from_pydict({"id": list(range(60)), "cards": _cards(list(hands))})
    arranged = cpa.arrange_arrow(batch, "pagat", "strongest")
    expected = cp.arrange_batch(hands.reshape(-1, 13), "pagat", "strongest").reshape(60, 4, 13)
    assert arranged.column("cards").to_pylist() == expected.tolist()
    assert arranged.column("id").to_pylist() == list(range(60))
    assert _nets(cpa.settle_arrow(arranged)) == cp.settle_batch(expected).tolist()


def _one_bad(**columns: object) -> pa.RecordBatch:
    settings = _settings(3, 3, 2)
    base: dict[str, object] = {"cards": _cards(list(settings))}
    base.update(columns)
    return pa.RecordBatch.from_pydict(base)


def _raw(rows: object, kind: object) -> pa.RecordBatch:
    return pa.RecordBatch.from_pydict({"cards": pa.array(rows, kind)})


SEAT_A, SEAT_B = list(range(13)), list(range(13, 26))
LISTS = pa.list_(pa.list_(pa.int64()))
BAD_BATCHES = [
    (lambda: pa.RecordBatch.from_pydict({"x": [1]}), r"column 'cards': missing"),
    (
        lambda: _raw([[SEAT_A, SEAT_B]], pa.list_(pa.list_(pa.uint8()))),
        r"column 'cards': must be list<fixed_size_list<uint8>\[13\]>",
    ),
    (lambda: _raw([[[1] * 12] * 2], pa.list_(pa.list_(pa.uint8(), 12))), r"column 'cards': must be .*\[12\]"),
    (
        lambda: _raw([[SEAT_A, SEAT_B]], pa.list_(pa.list_(pa.int16(), 13))),
        r"column 'cards': must be .*int16",
    ),
    (lambda: _raw([[SEAT_A, SEAT_B], None], cpa.CARDS_TYPE), r"column 'cards', row 1: null round"),
    (lambda: _raw([[SEAT_A, None]], cpa.CARDS_TYPE), r"column 'cards', row 0: null seat"),
    (
        lambda: _raw([[SEAT_A, SEAT_B], [SEAT_A, [None, *SEAT_B[1:]]]], cpa.CARDS_TYPE),
        r"column 'cards', row 1: null card",
    ),
    (lambda: _raw([[SEAT_A]], cpa.CARDS_TYPE), r"column 'cards', row 0: a round has 2 to 6 seats, got 1"),
    (
        lambda: _one_bad(declared=pa.array([[False, False], [True], None])),
        r"column 'declared', row 1: 1 values for 2 seats",
    ),
    (
        lambda: _one_bad(declared=pa.array([[False, None], None, None])),
        r"column 'declared', row 0: null bool",
    ),
    (lambda: _one_bad(surrender=pa.array([[1, 0], None, None])), r"column 'surrender': must be list<bool>"),
    (
        lambda: _one_bad(rules=pa.array(["pagat", "no-such-preset", None])),
        r"column 'rules', row 1: .*no-such-preset",
    ),
    (
        lambda: _one_bad(rules=pa.array([None, None, "0" * 64])),
        r"column 'rules', row 2: digest 000000000000\.\.\. is neither",
    ),
    (lambda: _one_bad(rules=pa.array([1, 2, 3])), r"column 'rules': must be a string"),
    (
        lambda: _one_bad(stakes=pa.array([None, [[1, 1]], None], LISTS)),
        r"column 'stakes', row 1: 1 values for 2 seats",
    ),
    (
        lambda: _one_bad(stakes=pa.array([None, None, [[1, 1], [1]]], LISTS)),
        r"column 'stakes', row 2: a row of the matrix has 1 values",
    ),
    (
        lambda: _one_bad(stakes=pa.array([None, [[1, -2], [-2, 1]], None], LISTS)),
        r"column 'stakes', row 1: stakes\[0\]\[1\] = -2",
    ),
    (lambda: _one_bad(banker=pa.array([0.5, None, None])), r"column 'banker': must be an integer"),
    (lambda: _one_bad(banker=pa.array([None, 7, None])), r"column 'banker', row 1: "),
]


@pytest.mark.parametrize(("batch", "message"), BAD_BATCHES)
def test_bad_columns_name_the_column_and_row(batch: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        cpa.settle_arrow(batch())  # type: ignore[operator]


def test_a_bad_round_is_named_alike_on_the_view_and_the_gather_path() -> None:
    settings = _settings(17, 20, 4)
    settings[9, 1, 0] = 60
    uniform = pa.RecordBatch.from_pydict({"cards": _cards(list(settings))})
    mixed = pa.RecordBatch.from_pydict({"cards": _cards([*settings, _settings(1, 1, 3)[0]])})
    with pytest.raises(ValueError, match="column 'cards', row 9: player 1") as on_view:
        cpa.settle_arrow(uniform)
    with pytest.raises(ValueError, match="column 'cards', row 9: player 1") as on_gather:
        cpa.settle_arrow(mixed)
    assert str(on_view.value) == str(on_gather.value)
    assert on_view.value.item == on_gather.value.item == 9  # type: ignore[attr-defined]


def test_conform_rounds_checks_what_it_converts() -> None:
    settings = _settings(2, 5, 4)
    spark_like = pa.RecordBatch.from_pydict(
        {"cards": pa.array(settings.astype(np.int16).tolist(), pa.list_(pa.list_(pa.int16())))}
    )
    conformed = cpa.conform_rounds(spark_like)
    assert conformed.column("cards").type == cpa.CARDS_TYPE
    assert _nets(cpa.settle_arrow(conformed)) == cp.settle_batch(settings).tolist()
    short = settings.tolist()
    short[3][2] = short[3][2][:12]
    with pytest.raises(ValueError, match=r"column 'cards', row 3: a seat has 12 cards, not 13"):
        cpa.conform_rounds(
            pa.RecordBatch.from_pydict({"cards": pa.array(short, pa.list_(pa.list_(pa.int16())))})
        )
    negative = settings.astype(np.int16)
    negative[4, 0, 0] = -3
    with pytest.raises(ValueError, match=r"column 'cards', row 4: card code -3 is not in 0..255"):
        cpa.conform_rounds(
            pa.RecordBatch.from_pydict({"cards": pa.array(negative.tolist(), pa.list_(pa.list_(pa.int16())))})
        )


@dataclass
class _Run:
    returncode: int
    stdout: str
    stderr: str


def _cli(*args: object) -> _Run:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return _Run(code, out.getvalue(), err.getvalue())


def test_cli_scores_parquet_and_converts_both_ways(tmp_path: Path) -> None:
    source = DATA / "vectors-jokers.jsonl"
    parquet, out, back = tmp_path / "r.parquet", tmp_path / "out.parquet", tmp_path / "back.jsonl"
    assert _cli("convert", source, parquet).returncode == 0
    scored = _cli("score", parquet, "--format", "parquet", "-o", out)
    assert scored.returncode == 0, scored.stderr
    expected = [json.loads(line)["expected"]["net"] for line in source.read_text().splitlines()]
    assert _nets(cpa.read_parquet(out)) == expected
    assert _cli("convert", parquet, back).returncode == 0
    lines = _cli("score", back, "--format", "jsonl", "--output", "net")
    assert [json.loads(line)["net"] for line in lines.stdout.splitlines()] == expected
    missing = _cli("score", parquet, "--format", "parquet")
    assert missing.returncode == 2
    assert "needs -o/--out" in missing.stderr
    broken = tmp_path / "broken.parquet"
    table = cpa.read_parquet(parquet)
    cpa.write_parquet(table.drop_columns(["cards"]), broken)
    failed = _cli("score", broken, "--format", "parquet", "-o", out)
    assert failed.returncode == 2
    assert "column 'cards': missing" in failed.stderr
