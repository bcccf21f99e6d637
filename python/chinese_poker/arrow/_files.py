"""Round files as Arrow tables: JSON Lines in and out (every round checked as ``score`` checks it), Parquet
in and out, and other engines' integer layouts of the cards brought to the documented one."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterable
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any, Union

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from chinese_poker.arrow._columns import CARDS, CARDS_TYPE, bad, read_cards
from chinese_poker.formats.records import stream_rounds
from chinese_poker.formats.round_parse import Round, RoundError, parse_round, rules_reference
from chinese_poker.formats.round_settle import round_input
from chinese_poker.hand import Hand
from chinese_poker.rules import Rules

__all__ = ["conform_rounds", "from_jsonl", "read_parquet", "to_jsonl", "write_parquet"]

PathLike = Union[str, "os.PathLike[str]"]


def _rules_text(rules: Rules) -> str:
    reference = rules_reference(rules)
    if isinstance(reference, str):
        return reference
    return json.dumps(reference, sort_keys=True, separators=(",", ":"))


def _rounds_table(rounds: list[Round]) -> pa.Table:
    ids = [r.id for r in rounds]
    if all(isinstance(i, int) for i in ids):
        id_column = pa.array(ids, pa.int64())
    elif all(isinstance(i, str) for i in ids):
        id_column = pa.array(ids, pa.string())
    else:
        first = next(k for k, i in enumerate(ids) if not isinstance(i, type(ids[0])))
        raise bad("id", first, "the rounds' ids mix strings and integers: an Arrow column holds one type")
    columns: dict[str, pa.Array] = {
        "id": id_column,
        "rules": pa.array([_rules_text(r.rules) for r in rounds], pa.string()),
        CARDS: pa.array([[h.cards for h in r.hands] for r in rounds], CARDS_TYPE),
        "names": pa.array([list(r.names) for r in rounds], pa.list_(pa.string())),
    }
    if any(h.is_declared for r in rounds for h in r.hands):
        columns["declared"] = pa.array(
            [[h.is_declared for h in r.hands] for r in rounds], pa.list_(pa.bool_())
        )
    for name in ("surrender", "fantasyland", "bets"):
        values = [getattr(r, name) for r in rounds]
        if any(v is not None for v in values):
            kind = pa.list_(pa.int64() if name == "bets" else pa.bool_())
            columns[name] = pa.array([None if v is None else list(v) for v in values], kind)
    if any(r.stakes is not None for r in rounds):
        columns["stakes"] = pa.array(
            [None if r.stakes is None else [list(row) for row in r.stakes] for r in rounds],
            pa.list_(pa.list_(pa.int64())),
        )
    if any(r.banker is not None for r in rounds):
        columns["banker"] = pa.array([r.banker for r in rounds], pa.int64())
    return pa.table(columns)


def from_jsonl(source: PathLike | IO[bytes], rules: Rules | None = None) -> pa.Table:
    """A table of rounds (docs/JSON_FORMAT.md 5) from a JSON Lines round file (a path or a binary stream):
    every round checked as ``chinese-poker score`` checks it (a bad one raises ``RoundError``, a ValueError
    naming its line). ``rules`` override the rounds' own, as ``score --rules`` does."""
    with ExitStack() as stack:
        stream = (
            stack.enter_context(Path(source).open("rb")) if isinstance(source, (str, os.PathLike)) else source
        )
        rounds = []
        for raw in stream_rounds(stream, json_lines=True).records:
            if raw.error is not None:
                raise RoundError(raw.error, raw.where)
            rounds.append(
                parse_round(
                    raw.data,
                    position=raw.position,
                    where=raw.where,
                    rules=rules,
                    override_rules=rules is not None,
                )
            )
    return _rounds_table(rounds)


def _round_of_row(row: dict[str, Any], position: int) -> dict[str, Any]:
    """The JSON round object of one row of a rounds table."""
    rules = row.get("rules")
    resolved = Rules() if rules is None else (
        Rules.from_dict(json.loads(rules)) if rules.startswith("{") else Rules.preset(rules)
    )  # fmt: skip
    declared = row.get("declared") or [False] * len(row[CARDS])
    hands = tuple(
        (Hand.declared if flag else Hand.from_cards)(
            cards, extra_suits=resolved.extra_suits, jokers=resolved.jokers
        )
        for cards, flag in zip(row[CARDS], declared)
    )
    names = row.get("names") or [f"P{k + 1}" for k in range(len(hands))]
    stakes = row.get("stakes")
    rnd = Round(
        id=row["id"] if row.get("id") is not None else position,
        names=tuple(names),
        hands=hands,
        stakes=None if stakes is None else tuple(tuple(s) for s in stakes),
        surrender=None if row.get("surrender") is None else tuple(row["surrender"]),
        rules=resolved,
        banker=row.get("banker"),
        bets=None if row.get("bets") is None else tuple(row["bets"]),
        fantasyland=None if row.get("fantasyland") is None else tuple(row["fantasyland"]),
    )
    return round_input(rnd)


def to_jsonl(table: pa.Table | pa.RecordBatch, target: PathLike | IO[str]) -> int:
    """Write a table as JSON Lines: a table of rounds (it has ``cards``) as round objects that
    ``from_jsonl`` and ``chinese-poker score`` read back; any other table (``settle_arrow``'s output) one
    object per row, its columns as keys. Returns the number of lines."""
    rows: Iterable[dict[str, Any]] = table.to_pylist()
    is_rounds = CARDS in table.schema.names
    if is_rounds:
        for batch in table.to_batches() if isinstance(table, pa.Table) else [table]:
            read_cards(batch)  # the cards' types and nulls are checked before anything is written
    count = 0
    with ExitStack() as stack:
        stream = (
            stack.enter_context(Path(target).open("w", encoding="utf-8"))
            if isinstance(target, (str, os.PathLike))
            else target
        )
        for position, row in enumerate(rows, start=1):
            try:
                data = _round_of_row(row, position) if is_rounds else row
            except (ValueError, TypeError) as error:
                raise ValueError(f"row {position - 1}: {error}") from None
            stream.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")
            count += 1
    return count


def write_parquet(table: pa.Table | pa.RecordBatch, path: PathLike, **options: Any) -> None:
    """Write a table (of rounds or results) to a Parquet file; ``options`` go to
    ``pyarrow.parquet.write_table``."""
    if isinstance(table, pa.RecordBatch):
        table = pa.Table.from_batches([table])
    pq.write_table(table, path, **options)


def read_parquet(path: PathLike | io.BytesIO) -> pa.Table:
    """A table from a Parquet file (what ``write_parquet`` wrote, the cards' fixed-size lists kept)."""
    return pq.read_table(path)


def conform_rounds(batch: pa.RecordBatch | pa.Table) -> pa.RecordBatch | pa.Table:
    """The batch with its ``cards`` in the documented type, list<fixed_size_list<uint8>[13]>, from the
    layouts engines turn it into (Spark's arrays of small signed integers, variable-size or large lists):
    every seat must hold 13 integers 0..255 and nothing null, or ValueError names the column and row.
    Already conforming columns are returned as they are."""
    if isinstance(batch, pa.Table):
        parts = [conform_rounds(b) for b in batch.to_batches()]
        return pa.Table.from_batches(parts, schema=_conformed_schema(batch.schema))
    if CARDS not in batch.schema.names:
        raise bad(CARDS, None, "missing")
    column = batch.column(CARDS)
    kind = column.type
    if _is_cards_type(kind):
        return batch
    seat = getattr(kind, "value_type", None)
    inner = getattr(seat, "value_type", None)
    if seat is None or inner is None or not pa.types.is_integer(inner):
        raise bad(CARDS, None, f"must be lists of seats of 13 integer card codes, got {kind}")
    if column.null_count:
        raise bad(CARDS, _first_null(column), "null round (no seats)")
    offsets = np.asarray(column.offsets.to_numpy(zero_copy_only=False), dtype=np.int64)
    offsets = offsets - offsets[0]
    seats = column.flatten()
    if seats.null_count:
        raise bad(CARDS, _row(offsets, _first_null(seats)), "null seat")
    if not pa.types.is_fixed_size_list(seat):
        lengths = np.diff(np.asarray(seats.offsets.to_numpy(zero_copy_only=False), dtype=np.int64))
        wrong = np.flatnonzero(lengths != 13)
        if len(wrong):
            raise bad(
                CARDS, _row(offsets, int(wrong[0])), f"a seat has {int(lengths[wrong[0]])} cards, not 13"
            )
    elif seat.list_size != 13:
        raise bad(CARDS, None, f"a seat has {seat.list_size} cards, not 13")
    values = seats.flatten()
    if values.null_count:
        raise bad(CARDS, _row(offsets, _first_null(values) // 13), "null card")
    codes = values.to_numpy(zero_copy_only=False)
    out_of_range = np.flatnonzero((codes < 0) | (codes > 255))
    if len(out_of_range):
        where = int(out_of_range[0])
        raise bad(CARDS, _row(offsets, where // 13), f"card code {int(codes[where])} is not in 0..255")
    flat = pa.FixedSizeListArray.from_arrays(pa.array(codes.astype(np.uint8)), 13)
    conformed = pa.ListArray.from_arrays(pa.array(offsets.astype(np.int32)), flat)
    return batch.set_column(batch.schema.get_field_index(CARDS), CARDS, conformed)


def _is_cards_type(kind: pa.DataType) -> bool:
    """Whether ``kind`` is the documented cards type (whatever its fields are named, as engines name them
    differently), with 32- or 64-bit offsets."""
    if not (pa.types.is_list(kind) or pa.types.is_large_list(kind)):
        return False
    seat = kind.value_type
    return bool(pa.types.is_fixed_size_list(seat) and seat.list_size == 13 and seat.value_type == pa.uint8())


def _conformed_schema(schema: pa.Schema) -> pa.Schema:
    index = schema.get_field_index(CARDS)
    if index < 0:
        raise bad(CARDS, None, "missing")
    return schema.set(index, pa.field(CARDS, CARDS_TYPE))


def _first_null(array: pa.Array) -> int:
    return int(np.flatnonzero(array.is_null().to_numpy(zero_copy_only=False))[0])


def _row(offsets: np.ndarray, seat: int) -> int:
    return int(np.searchsorted(offsets, seat, side="right") - 1)


def __dir__() -> list[str]:
    return list(__all__)
