"""The net output of a JSON Lines stream of any rounds, settled by the core chunk by chunk.

``net_stream`` reads the stream in chunks of whole lines (memory stays flat however long the stream), and
for each chunk the core (``_core.settle_net_chunk``, the GIL released) reads every round it can take (any
player count, a round's own ``rules``, stakes, surrender, banker, bets and fantasyland; docs/JSON_FORMAT.md),
settles them in groups of one player count and one rules and writes their net lines: the bytes that
``round_net_output`` written by ``cli.common.dumps`` gives. A round the core does not take (any bad round
among them) is handed back, in its place, as the ``RawRound`` the general reader gives for its line, and
the caller settles it by its general path, which gives its answer or names its error.

Each distinct ``rules`` value of a chunk is resolved once, by the general rules reader
(``rules_from_value``), and remembered for the whole stream; a value it refuses sends its rounds to the
general path, which reports it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

import chinese_poker._core as _core
import chinese_poker._jsontext as jsontext
from chinese_poker.formats.records import RawRound, json_line_round
from chinese_poker.formats.round_parse import MAX_PLAYERS, rules_from_value
from chinese_poker.rules import Rules, core_spec

__all__ = ["CHUNK_BYTES", "NetLines", "net_stream"]

#: How much of the stream is read at a time (then cut after its last line feed).
CHUNK_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class NetLines:
    """The net lines of ``rounds`` consecutive rounds the core settled, ready to write (UTF-8)."""

    lines: bytes
    rounds: int


class _RulesCache:
    """Each distinct ``rules`` value (its bytes) resolved once for the whole stream."""

    def __init__(self) -> None:
        self._known: dict[bytes, _core.RulesSpec | None] = {}

    def resolve(self, values: list[bytes]) -> list[_core.RulesSpec | None]:
        answer: list[_core.RulesSpec | None] = []
        for value in values:
            if value not in self._known:
                self._known[value] = _resolved(value)
            answer.append(self._known[value])
        return answer


def _resolved(value: bytes) -> _core.RulesSpec | None:
    try:
        rules = rules_from_value(jsontext.loads(value.decode("utf-8")))
    except (ValueError, TypeError, RecursionError):  # the general path reports it
        return None
    return core_spec(rules)


def _chunks(stream: IO[bytes], size: int) -> Iterator[tuple[int, bytes]]:
    """The stream as chunks of whole lines (the last may lack its line feed), each with its byte offset
    in the stream; a leading byte order mark is skipped (and counted in the offsets)."""
    offset = 0
    carry = b""
    first = True
    while True:
        block = stream.read(max(size, len(jsontext.BOM)) if first else size)
        if not block:
            if carry:
                yield offset, carry
            return
        if first:
            first = False
            if block.startswith(jsontext.BOM):
                block = block[len(jsontext.BOM) :]
                offset = len(jsontext.BOM)
        data = carry + block if carry else block
        cut = data.rfind(b"\n")
        if cut < 0:
            carry = data
            continue
        yield offset, data[: cut + 1]
        offset += cut + 1
        carry = data[cut + 1 :]


def net_stream(
    stream: IO[bytes],
    rules: Rules | None = None,
    *,
    threads: int = 1,
    max_players: int = MAX_PLAYERS,
    chunk_bytes: int | None = None,
    ascii_only: bool = False,
) -> Iterator[NetLines | RawRound]:
    """The net output of the JSON Lines ``stream``, in input order: ``NetLines`` for runs of rounds the
    core settled, and each other round as its ``RawRound`` for the caller's general path. ``rules``: what
    every round is settled by (as ``score --rules``), else each round's own, else ``pagat``;
    ``max_players``: the most players a round may have (a round with more is the general path's); ``threads``:
    the core's threads (0: every core; the bytes do not depend on it); ``chunk_bytes``: how much is read at a
    time (default ``CHUNK_BYTES``); ``ascii_only``: the lines must be ASCII (``dumps(..., ascii_only=True)``
    for a stream that cannot write UTF-8), so a round whose id is not is left to the general path."""
    cache = _RulesCache()
    fallback = core_spec(rules if rules is not None else Rules.preset())
    position = 1  # of the next round in the stream
    line_number = 1  # of the next line
    for offset, chunk in _chunks(stream, chunk_bytes or CHUNK_BYTES):
        lines, ends, left = _core.settle_net_chunk(
            chunk, position, max_players, rules is None, cache.resolve, fallback, threads, ascii_only
        )
        count = len(ends)
        done = 0  # rounds of the chunk given out
        written = 0  # bytes of `lines` given out
        for index, line, begin, end in left:
            if index > done:
                upto = int(ends[index - 1])
                yield NetLines(lines[written:upto], index - done)
                written = upto
            yield json_line_round(position + index, line_number + line, offset + begin, chunk[begin:end])
            done = index + 1
        if count > done:
            yield NetLines(lines[written:], count - done)
        position += count
        line_number += chunk.count(b"\n")


def __dir__() -> list[str]:
    return list(__all__)
