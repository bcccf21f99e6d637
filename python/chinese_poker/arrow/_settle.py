"""Settling and arranging round batches: rounds grouped by rules and player count, each group one call of
the batch kernels (GIL released), the results laid back in the input's order."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt
import pyarrow as pa

import chinese_poker._core as _core
from chinese_poker._threads import thread_count
from chinese_poker.arrange import DEFAULT_STRATEGY, arrange_batch
from chinese_poker.arrow._columns import (
    CARDS,
    RoundCards,
    bad,
    banker_column,
    read_cards,
    seat_flags,
    seat_ints,
    stakes_column,
)
from chinese_poker.arrow._rules_column import default_rules, rules_per_row
from chinese_poker.formats.round_parse import rules_digest
from chinese_poker.hand import RulesLike, rules_or_default
from chinese_poker.rules import Rules, core_spec
from chinese_poker.settle import settle_batch

__all__ = ["Batch", "arrange_arrow", "settle_arrow"]

Batch: TypeAlias = pa.RecordBatch | pa.Table

#: The per-pair detail columns (``SettleDetail`` fields, one value per pair) and per-seat ones.
_PAIR_FIELDS = (
    "rows", "rows_known", "decided_by", "scoop", "subtotal", "stake", "home_run", "units", "foul",
    "natural", "royalties", "bet",
)  # fmt: skip
_SEAT_FIELDS = ("fantasyland_cards", "player_foul", "player_natural", "player_home_run")


@dataclass(frozen=True)
class _Group:
    """The rounds of one rules and one player count: their rows (``None``: every row of the batch, laid
    contiguously) and their first seats."""

    rules: Rules
    players: int
    rows: npt.NDArray[np.int64] | None
    starts: npt.NDArray[np.int64]


def _groups(cards: RoundCards, rules_index: npt.NDArray[np.int64], rules: list[Rules]) -> Iterator[_Group]:
    starts = cards.offsets[:-1]
    if len(starts) and len(rules) == 1 and cards.players.min() == cards.players.max():
        yield _Group(rules[0], int(cards.players[0]), None, starts)  # the common case: one group
        return
    keys = rules_index * 8 + cards.players
    distinct = np.flatnonzero(np.bincount(keys)) if len(keys) else keys
    if not len(distinct):  # an empty batch: one empty group gives the output its types
        yield _Group(rules[0], 2, None, starts)
        return
    if len(distinct) == 1:
        yield _Group(rules[int(distinct[0]) // 8], int(distinct[0]) % 8, None, starts)
        return
    for key in distinct:
        rows = np.flatnonzero(keys == key)
        yield _Group(rules[int(key) // 8], int(key) % 8, rows, starts[rows])


def _as_items(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """A C-contiguous array (N, ...) as N opaque items: numpy gathers and scatters whole items of one 1-D
    array several times faster than rows of a 2-D one."""
    values = np.ascontiguousarray(values)
    if values.ndim == 1:
        return values
    item = np.dtype((np.void, values.itemsize * int(np.prod(values.shape[1:]))))
    if not len(values):
        return np.empty(0, dtype=item)
    return values.reshape(len(values), -1).view(item).reshape(-1)


def _gather(values: npt.NDArray[Any], group: _Group, width: int) -> npt.NDArray[Any]:
    """The group's rows of per-seat ``values`` (``width`` values a round from each first seat) as
    (rounds, width, ...); a view when the group is the whole batch."""
    if group.rows is None:
        return values.reshape(len(group.starts), width, *values.shape[1:])
    index = (group.starts[:, None] + np.arange(width)).reshape(-1)
    taken = np.take(_as_items(values), index)
    return taken.view(values.dtype).reshape(len(group.starts), width, *values.shape[1:])


def _located(error: _core.InputError, group: _Group) -> ValueError:
    """The core's error (round k of the group) naming the batch's column and row instead."""
    local = error.item
    row = local if group.rows is None or local is None else int(group.rows[local])
    kind = str(error.kind or "")
    column = next(
        (
            name
            for part, name in (
                ("stake", "stakes"), ("surrender", "surrender"), ("bet", "bets"), ("banker", "banker"),
                ("fantasyland", "fantasyland"), ("declar", "declared"),
            )
            if part in kind
        ),
        CARDS,
    )  # fmt: skip
    message = re.sub(r"^round \d+(, |: )?", "", str(error))
    located = _core.InputError(f"column {column!r}, row {row}: {message}")
    for name in ("kind", "player", "other", "position", "card"):
        setattr(located, name, getattr(error, name))
    located.item = row
    return located


def _list_array(
    offsets: npt.NDArray[np.int64], values: npt.NDArray[Any], large: bool, same: pa.Array | None = None
) -> pa.Array:
    """A list array of ``values`` (K, ...) with these offsets (``same``: the same offsets as an Arrow array
    already, used as they are); trailing axes become fixed-size lists."""
    flat: pa.Array = pa.array(values.reshape(-1))
    for size in reversed(values.shape[1:]):
        flat = pa.FixedSizeListArray.from_arrays(flat, int(size))
    kind = pa.LargeListArray if large else pa.ListArray
    bounds = same if same is not None else pa.array(offsets, pa.int64() if large else pa.int32())
    return kind.from_arrays(bounds, flat)


def _scatter(
    parts: list[tuple[_Group, npt.NDArray[Any]]],
    offsets: npt.NDArray[np.int64],
    large: bool,
    same: pa.Array | None = None,
) -> pa.Array:
    """One list column from each group's (rounds, K, ...) result, round r's values at
    ``offsets[r]:offsets[r + 1]`` (``same``: these offsets as an Arrow array)."""
    first = parts[0][1]
    if len(parts) == 1 and parts[0][0].rows is None:
        return _list_array(offsets, first.reshape(-1, *first.shape[2:]), large, same)
    out = np.zeros((int(offsets[-1]), *first.shape[2:]), dtype=first.dtype)
    items = _as_items(out)
    for group, values in parts:
        assert group.rows is not None
        width = values.shape[1]
        index = (offsets[group.rows][:, None] + np.arange(width)).reshape(-1)
        items[index] = _as_items(values.reshape(-1, *values.shape[2:]))
    return _list_array(offsets, out, large, same)


def _settle_one(
    batch: pa.RecordBatch, default: Rules, detail: bool, threads: int, first: int, *, gather: str = "core"
) -> pa.RecordBatch:
    cards = read_cards(batch)
    rules_index, rules = rules_per_row(batch, default)
    declared = seat_flags(batch, "declared", cards)
    surrender = seat_flags(batch, "surrender", cards)
    fantasyland = seat_flags(batch, "fantasyland", cards)
    bets = seat_ints(batch, "bets", cards, 1)
    stakes = stakes_column(batch, cards)
    banker = banker_column(batch)
    if bets is not None and banker is None:
        raise bad("bets", None, "given without a 'banker' column: bets are read in banker rounds only")
    if gather == "core" and not detail and batch.num_rows:
        # One C++ pass groups the rounds, gathers each group's cards and inputs from the Arrow buffers and
        # writes the nets back in the input's order (the GIL released throughout).
        specs = [core_spec(r) for r in rules]
        index = rules_index if len(rules) > 1 else None
        whole = _Group(rules[0], 0, None, cards.offsets[:-1])
        try:
            net = _core.settle_seats(
                cards.codes,
                cards.offsets,
                index,
                specs,
                threads,
                stakes=stakes,
                declared=declared,
                surrender=surrender,
                banker=banker,
                bets=bets,
                fantasyland=fantasyland,
            )
        except _core.InputError as error:
            raise _located(error, whole) from None
        return _output(
            batch,
            cards,
            rules_index=rules_index,
            rules=rules,
            results=[(whole, net.reshape(1, -1))],
            detail=False,
            first=first,
        )
    square_starts = np.zeros(0, dtype=np.int64)
    if stakes is not None:
        squares = cards.players * cards.players
        square_starts = np.concatenate(([0], np.cumsum(squares)))[:-1].astype(np.int64)
    results: list[tuple[_Group, Any]] = []
    for group in _groups(cards, rules_index, rules):
        width = group.players
        rounds = _gather(cards.codes, group, width)
        stakes_of_group = None
        if stakes is not None:
            firsts = square_starts if group.rows is None else square_starts[group.rows]
            square = _Group(group.rules, width * width, group.rows, firsts)
            stakes_of_group = _gather(stakes, square, width * width).reshape(-1, width, width)
        arguments: dict[str, Any] = {
            "declared": None if declared is None else _gather(declared, group, width),
            "surrender": None if surrender is None else _gather(surrender, group, width),
            "fantasyland": None if fantasyland is None else _gather(fantasyland, group, width),
            "bets": None if bets is None else _gather(bets, group, width),
            "stakes": stakes_of_group,
            "banker": None if banker is None else (banker if group.rows is None else banker[group.rows]),
        }
        arguments = {k: None if v is None else np.ascontiguousarray(v) for k, v in arguments.items()}
        try:
            if detail:
                results.append(
                    (group, settle_batch(rounds, group.rules, detail=True, threads=threads, **arguments))
                )
            else:
                results.append((group, settle_batch(rounds, group.rules, threads=threads, **arguments)))
        except _core.InputError as error:
            raise _located(error, group) from None
    return _output(
        batch, cards, rules_index=rules_index, rules=rules, results=results, detail=detail, first=first
    )


def _output(
    batch: pa.RecordBatch,
    cards: RoundCards,
    *,
    rules_index: npt.NDArray[np.int64],
    rules: list[Rules],
    results: list[tuple[_Group, Any]],
    detail: bool,
    first: int,
) -> pa.RecordBatch:
    if "id" in batch.schema.names:
        ids = batch.column("id")
    else:
        ids = pa.array(np.arange(first + 1, first + batch.num_rows + 1, dtype=np.int64))
    # One rules: zeros that are never written (no pass over the rows).
    index = np.zeros(len(rules_index), np.int32) if len(rules) == 1 else rules_index.astype(np.int32)
    digests = pa.DictionaryArray.from_arrays(pa.array(index), pa.array([rules_digest(r) for r in rules]))
    # The cards column's own offsets serve the per-seat columns when they start at 0 (an unsliced column).
    seat_offsets = batch.column(CARDS).offsets
    same = seat_offsets if len(seat_offsets) and seat_offsets[0].as_py() == 0 else None
    nets = [(g, r.net if detail else r) for g, r in results]
    columns: dict[str, pa.Array] = {
        "id": ids,
        "rules_digest": digests,
        "net": _scatter(nets, cards.offsets, cards.large, same),
    }
    if detail:
        pairs = cards.players * (cards.players - 1) // 2
        pair_offsets = np.concatenate(([0], np.cumsum(pairs))).astype(np.int64)
        for name in _PAIR_FIELDS:
            parts = [(g, np.asarray(getattr(r, name))) for g, r in results]
            columns[f"pair_{name}"] = _scatter(parts, pair_offsets, cards.large)
        for name in _SEAT_FIELDS:
            parts = [(g, np.asarray(getattr(r, name))) for g, r in results]
            columns[name] = _scatter(parts, cards.offsets, cards.large, same)
    return pa.RecordBatch.from_pydict(columns)


def _batches(batch: Batch, what: str) -> list[pa.RecordBatch]:
    if isinstance(batch, pa.RecordBatch):
        return [batch]
    if isinstance(batch, pa.Table):
        return batch.to_batches() or [pa.RecordBatch.from_pylist([], schema=batch.schema)]
    raise TypeError(f"{what}: expected a pyarrow RecordBatch or Table of rounds, got {type(batch).__name__}")


def settle_arrow(
    batch: Batch, rules: RulesLike | None = None, *, detail: bool = False, threads: int = 1
) -> Batch:
    """Net units of every round of an Arrow batch of rounds (docs/JSON_FORMAT.md 5): a RecordBatch (a Table
    for a Table) with ``id``, ``rules_digest`` and ``net`` (per round a list of each seat's units), and with
    ``detail=True`` every pair's detail as ``settle_batch(detail=True)`` gives it. ``rules``: the rules of
    rounds without a ``rules`` value (default ``pagat``), also what a digest in that column may name.
    Rounds are grouped by rules and player count and each group settled by the batch kernel, its cards and
    input columns read from the Arrow buffers (one C++ pass, the GIL released; with ``detail=True`` one
    ``settle_batch`` call a group); the results are in the input's order. A bad column, value or round
    raises ValueError naming the column and the row."""
    default = default_rules() if rules is None else rules_or_default(rules)
    threads = thread_count(threads, "settle_arrow")
    out: list[pa.RecordBatch] = []
    first = 0
    for part in _batches(batch, "settle_arrow"):
        out.append(_settle_one(part, default, detail, threads, first))
        first += part.num_rows
    if isinstance(batch, pa.RecordBatch):
        return out[0]
    return pa.Table.from_batches(out)


def arrange_arrow(
    batch: Batch, rules: RulesLike | None = None, strategy: str = DEFAULT_STRATEGY, *, threads: int = 1
) -> Batch:
    """The batch with each seat's 13 cards (in any order) replaced by ``strategy``'s setting of them, front
    3, middle 5, back 5: ready for ``settle_arrow``. Other columns are kept as they are."""
    default = rules_or_default(rules)
    out: list[pa.RecordBatch] = []
    for part in _batches(batch, "arrange_arrow"):
        cards = read_cards(part)
        rules_index, resolved = rules_per_row(part, default)
        settings = np.empty_like(cards.codes)
        for group in _groups(cards, rules_index, resolved):
            hands = _gather(cards.codes, group, group.players).reshape(-1, 13)
            try:
                arranged = arrange_batch(np.ascontiguousarray(hands), group.rules, strategy, threads=threads)
            except _core.InputError as error:
                local = error.item if error.item is None else error.item // group.players
                raise _located_hand(error, group, local) from None
            if group.rows is None:
                settings[:] = arranged
            else:
                settings[group.starts[:, None] + np.arange(group.players)] = arranged.reshape(
                    -1, group.players, 13
                )
        column = _list_array(cards.offsets, settings, cards.large)
        out.append(part.set_column(part.schema.get_field_index(CARDS), CARDS, column))
    if isinstance(batch, pa.RecordBatch):
        return out[0]
    return pa.Table.from_batches(out)


def _located_hand(error: _core.InputError, group: _Group, local: int | None) -> ValueError:
    row = local if group.rows is None or local is None else int(group.rows[local])
    message = re.sub(r"^hand \d+(, )?", "", str(error))
    return ValueError(f"column {CARDS!r}, row {row}: {message}")


def __dir__() -> list[str]:
    return list(__all__)
