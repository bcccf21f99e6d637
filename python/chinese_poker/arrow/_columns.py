"""Reading the columns of a round batch (docs/JSON_FORMAT.md 5) as numpy, zero-copy where Arrow's layout
allows, every type, width and null checked and named by column and row."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pyarrow as pa

__all__ = [
    "CARDS",
    "RoundCards",
    "bad",
    "banker_column",
    "read_cards",
    "seat_flags",
    "seat_ints",
    "stakes_column",
]

#: The column of the cards: per round a list of seats, each 13 card codes front 3, middle 5, back 5.
CARDS = "cards"
CARDS_TYPE = pa.list_(pa.list_(pa.uint8(), 13))


def bad(column: str, row: int | None, message: str) -> ValueError:
    """The ValueError of a bad column: ``column 'cards', row 7: ...``."""
    where = f"column {column!r}" if row is None else f"column {column!r}, row {row}"
    return ValueError(f"{where}: {message}")


def _is_list(kind: pa.DataType) -> bool:
    return bool(pa.types.is_list(kind) or pa.types.is_large_list(kind))


def _first_null(array: pa.Array) -> int:
    """The index of the first null of ``array`` (which has one)."""
    return int(np.flatnonzero(array.is_null().to_numpy(zero_copy_only=False))[0])


def _offsets(array: pa.Array) -> npt.NDArray[np.int64]:
    """The list offsets of ``array`` rebased to start at 0 (the first seat of its first row)."""
    offsets = np.asarray(array.offsets.to_numpy(zero_copy_only=False), dtype=np.int64)
    return offsets - offsets[0] if offsets[0] else offsets


@dataclass(frozen=True)
class RoundCards:
    """The cards column as numpy: ``codes`` (S, 13) uint8 (S seats in all, a view of the Arrow buffer),
    ``offsets`` (R + 1,) int64: round r's seats are ``codes[offsets[r]:offsets[r + 1]]``, ``players`` (R,)
    their count, and ``large`` whether the column had 64-bit offsets."""

    codes: npt.NDArray[np.uint8]
    offsets: npt.NDArray[np.int64]
    players: npt.NDArray[np.int64]
    large: bool


def read_cards(batch: pa.RecordBatch) -> RoundCards:
    """The ``cards`` column of ``batch``, checked: a list (or large list) per round of 2 to 6 seats, each a
    ``fixed_size_list<uint8>[13]``, no null anywhere."""
    if CARDS not in batch.schema.names:
        raise bad(CARDS, None, f"missing (the batch has {', '.join(batch.schema.names) or 'no columns'})")
    column = batch.column(CARDS)
    kind = column.type
    seat = kind.value_type if _is_list(kind) else None
    if (
        seat is None
        or not pa.types.is_fixed_size_list(seat)
        or seat.list_size != 13
        or seat.value_type != pa.uint8()
    ):
        raise bad(
            CARDS,
            None,
            f"must be list<fixed_size_list<uint8>[13]> (per round, per seat 13 card codes), got {kind}; "
            "chinese_poker.arrow.conform_rounds converts other integer layouts, every value checked",
        )
    if column.null_count:
        raise bad(CARDS, _first_null(column), "null round (no seats)")
    offsets = _offsets(column)
    players = np.diff(offsets)
    # Two reductions over the counts; the first bad row is looked for only when there is one.
    if len(players) and (players.min() < 2 or players.max() > 6):
        row = int(np.flatnonzero((players < 2) | (players > 6))[0])
        raise bad(CARDS, row, f"a round has 2 to 6 seats, got {int(players[row])}")
    seats = column.flatten()
    if seats.null_count:
        raise bad(CARDS, _row_of_seat(offsets, _first_null(seats)), "null seat (no cards)")
    values = seats.flatten()
    if values.null_count:
        seat_index = _first_null(values) // 13
        raise bad(CARDS, _row_of_seat(offsets, seat_index), "null card")
    codes = values.to_numpy(zero_copy_only=True).reshape(-1, 13)
    return RoundCards(codes, offsets, players, pa.types.is_large_list(kind))


def _row_of_seat(offsets: npt.NDArray[np.int64], seat: int) -> int:
    return int(np.searchsorted(offsets, seat, side="right") - 1)


def _list_column(
    batch: pa.RecordBatch, name: str, cards: RoundCards, element: str
) -> tuple[pa.Array, npt.NDArray[np.bool_]] | None:
    """An optional per-seat list column: its flattened values (one per seat, aligned with the cards' seats;
    a null round's seats hold the type's zero) and which rounds are null; ``None`` when absent."""
    if name not in batch.schema.names:
        return None
    column = batch.column(name)
    if not _is_list(column.type):
        raise bad(name, None, f"must be a list of {element} per round (one per seat), got {column.type}")
    null_rounds = column.is_null().to_numpy(zero_copy_only=False)
    lengths = np.diff(_offsets(column))
    wrong = np.flatnonzero(~null_rounds & (lengths != cards.players))
    if len(wrong):
        row = int(wrong[0])
        raise bad(name, row, f"{int(lengths[row])} values for {int(cards.players[row])} seats")
    values = column.flatten()
    if values.null_count:
        raise bad(name, _row_of_seat(_offsets(column), _first_null(values)), f"null {element} in the list")
    return values, null_rounds


def _aligned(
    values: npt.NDArray[np.generic], null_rounds: npt.NDArray[np.bool_], cards: RoundCards, fill: object
) -> npt.NDArray[np.generic]:
    """Per-seat values aligned with the cards' seats: a null round's seats get ``fill``."""
    if not null_rounds.any():
        return values
    out = np.full(len(cards.codes), fill, dtype=values.dtype)
    present = np.repeat(~null_rounds, cards.players)
    out[present] = values
    return out


def seat_flags(batch: pa.RecordBatch, name: str, cards: RoundCards) -> npt.NDArray[np.bool_] | None:
    """A per-seat bool column (``declared``, ``surrender``, ``fantasyland``) as (S,) bool; null round: all
    false."""
    read = _list_column(batch, name, cards, "bool")
    if read is None:
        return None
    values, null_rounds = read
    if values.type != pa.bool_():
        raise bad(name, None, f"must be list<bool>, got {batch.column(name).type}")
    flags = values.to_numpy(zero_copy_only=False).astype(np.bool_)
    return _aligned(flags, null_rounds, cards, False).astype(np.bool_, copy=False)


def _integers(values: pa.Array, name: str, whole: pa.DataType) -> npt.NDArray[np.int64]:
    if not pa.types.is_integer(values.type):
        raise bad(name, None, f"must hold integers, got {whole}")
    numbers = values.to_numpy(zero_copy_only=False)
    if numbers.dtype == np.uint64 and len(numbers) and int(numbers.max()) > np.iinfo(np.int64).max:
        raise bad(name, None, f"{int(numbers.max())} does not fit an int64")
    return np.asarray(numbers, dtype=np.int64)


def seat_ints(batch: pa.RecordBatch, name: str, cards: RoundCards, fill: int) -> npt.NDArray[np.int64] | None:
    """A per-seat integer column (``bets``) as (S,) int64; a null round: all ``fill``."""
    read = _list_column(batch, name, cards, "integer")
    if read is None:
        return None
    values, null_rounds = read
    numbers = _integers(values, name, batch.column(name).type)
    return _aligned(numbers, null_rounds, cards, fill).astype(np.int64)


def stakes_column(batch: pa.RecordBatch, cards: RoundCards) -> npt.NDArray[np.int64] | None:
    """The ``stakes`` column (per round a list of P lists of P integers) as (S * ..., ) int64: round r's
    P x P matrix row-major at ``squares[r]``; a null round: all 1."""
    read = _list_column(batch, "stakes", cards, "list of integers")
    if read is None:
        return None
    rows_of_seats, null_rounds = read
    kind = batch.column("stakes").type
    if not _is_list(rows_of_seats.type):
        raise bad("stakes", None, f"must be list<list<int64>> (a P x P matrix per round), got {kind}")
    seat_players = np.repeat(np.where(null_rounds, 0, cards.players), np.where(null_rounds, 0, cards.players))
    lengths = np.diff(_offsets(rows_of_seats))
    wrong = np.flatnonzero(lengths != seat_players)
    if len(wrong):
        present_offsets = np.concatenate(([0], np.cumsum(np.where(null_rounds, 0, cards.players)))).astype(
            np.int64
        )
        row = _row_of_seat(present_offsets, int(wrong[0]))
        raise bad(
            "stakes",
            row,
            f"a row of the matrix has {int(lengths[wrong[0]])} values, not {cards.players[row]}",
        )
    values = rows_of_seats.flatten()
    if values.null_count:
        raise bad("stakes", None, "null stake in a matrix")
    numbers = _integers(values, "stakes", kind)
    squares = cards.players * cards.players
    if not null_rounds.any():
        return numbers
    out = np.ones(int(squares.sum()), dtype=np.int64)
    out[np.repeat(~null_rounds, squares)] = numbers
    return out


def banker_column(batch: pa.RecordBatch) -> npt.NDArray[np.int64] | None:
    """The ``banker`` column (the banker's seat, null: no banker) as (R,) int64, -1 for no banker."""
    if "banker" not in batch.schema.names:
        return None
    column = batch.column("banker")
    if not pa.types.is_integer(column.type):
        raise bad("banker", None, f"must be an integer seat (null: no banker), got {column.type}")
    given = ~column.is_null().to_numpy(zero_copy_only=False)
    seats = np.where(given, _integers(column.fill_null(0), "banker", column.type), -1)
    negative = np.flatnonzero(given & (seats < 0))
    if len(negative):
        raise bad("banker", int(negative[0]), f"seat {int(seats[negative[0]])} is not a seat")
    return seats


def __dir__() -> list[str]:
    return list(__all__)
