"""JSON Lines read, settled and written by the core a chunk at a time: the reading that the net output
(``formats.net_stream``) and the full output (``formats.full_stream``) share.

The stream is read in chunks of whole lines (memory stays flat however long the stream), and each chunk goes
to one call of the core (the GIL released), which reads every round it can take, settles it and writes its
output. A round the core does not take (any bad round among them) is handed back, in its place, as the
``RawRound`` the general reader gives for its line, and the caller settles it by its general path, which
gives its answer or names its error.

A stream is read with ``readinto1`` (or ``read1``) where it has one: a pipe then gives its lines as they
come, so a writer that waits for each round's answer before sending the next one gets it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import IO

import chinese_poker._jsontext as jsontext
from chinese_poker._record import record
from chinese_poker.formats.records import RawRound, json_line_round

__all__ = ["CHUNK_BYTES", "ChunkAnswer", "CoreLines", "core_stream"]

#: How much of the stream is read at a time (then cut after its last line feed): a megabyte stays in the
#: caches, where 4 MB took a twentieth more CPU time for the net output.
CHUNK_BYTES = 1024 * 1024

#: What the core answers for a chunk: its output, where each round's output ends (native unsigned 64-bit
#: integers), the rounds it left as (round index, 0-based line in the chunk, first byte, end byte), and the
#: chunk's line feeds.
ChunkAnswer = tuple[bytes, bytes, list[tuple[int, int, int, int]], int]


@record()
class CoreLines:
    """The output of ``rounds`` consecutive rounds the core settled, ready to write (UTF-8)."""

    lines: bytes
    rounds: int


def _chunks(stream: IO[bytes], size: int, head: bytes) -> Iterator[tuple[int, bytes | memoryview]]:
    """``head`` then the stream, as chunks of whole lines (the last may lack its line feed), each with its
    byte offset; a leading byte order mark is skipped (and counted in the offsets). A stream that reads into
    a buffer gives each chunk as a view of one bytearray kept for the whole stream, valid until the next
    chunk is asked for: no chunk is allocated, copied or cut out of a larger one."""
    read_into = getattr(stream, "readinto1", None) or getattr(stream, "readinto", None)
    if read_into is None:
        yield from _read_chunks(stream, size, head)
        return
    buffer = bytearray(max(size, 2 * len(head), 2 * len(jsontext.BOM)))
    view = memoryview(buffer)
    buffer[: len(head)] = head
    filled = len(head)
    offset = 0
    bom_checked = False
    unread = filled > 0  # bytes in the buffer not looked at yet: the head's
    while True:
        if not unread:
            if filled == len(buffer):  # a line longer than the buffer: room for the rest of it
                buffer = buffer + bytes(len(buffer))
                view = memoryview(buffer)
            got = read_into(view[filled:])
            if not got:
                break
            filled += got
        unread = False
        if not bom_checked:
            if filled < len(jsontext.BOM) and jsontext.BOM.startswith(buffer[:filled]):
                continue  # a pipe may give the byte order mark a byte at a time
            bom_checked = True
            if buffer.startswith(jsontext.BOM):
                filled -= len(jsontext.BOM)
                buffer[:filled] = buffer[len(jsontext.BOM) : len(jsontext.BOM) + filled]
                offset = len(jsontext.BOM)
        cut = buffer.rfind(b"\n", 0, filled)
        if cut < 0:
            continue
        yield offset, view[: cut + 1]
        offset += cut + 1
        rest = filled - cut - 1
        buffer[:rest] = buffer[cut + 1 : filled]  # the start of the next line
        filled = rest
    if filled:
        yield offset, bytes(view[:filled])


def _read_chunks(stream: IO[bytes], size: int, head: bytes) -> Iterator[tuple[int, bytes]]:
    """``_chunks`` of a stream that can only ``read``: each chunk a new bytes object."""
    read = getattr(stream, "read1", stream.read)
    block = head or read(size)
    while block and len(block) < len(jsontext.BOM) and jsontext.BOM.startswith(block):
        more = read(size)  # a pipe may give the byte order mark a byte at a time
        if not more:
            break
        block += more
    offset = 0
    if block.startswith(jsontext.BOM):
        block = block[len(jsontext.BOM) :] or read(size)
        offset = len(jsontext.BOM)
    carry = b""
    while block:
        data = carry + block if carry else block
        cut = data.rfind(b"\n")
        if cut < 0:
            carry = data
        else:
            yield offset, data[: cut + 1]
            offset += cut + 1
            carry = data[cut + 1 :]
        block = read(size)
    if carry:
        yield offset, carry


def core_stream(
    stream: IO[bytes],
    settle_chunk: Callable[[bytes | memoryview, int], ChunkAnswer],
    *,
    chunk_bytes: int | None = None,
    head: bytes = b"",
) -> Iterator[CoreLines | RawRound]:
    """The output of the JSON Lines ``stream`` (after ``head``, bytes already read from it), in input
    order: ``CoreLines`` for runs of rounds the core settled, and each other round as its ``RawRound``.
    ``settle_chunk(chunk, first_position)`` is the core's call for one chunk of whole lines whose first
    round is the stream's round ``first_position`` (1-based); ``chunk_bytes``: how much is read at a time
    (default ``CHUNK_BYTES``)."""
    position = 1  # of the next round in the stream
    line_number = 1  # of the next line
    for offset, chunk in _chunks(stream, chunk_bytes or CHUNK_BYTES, head):
        lines, end_bytes, left, line_feeds = settle_chunk(chunk, position)
        ends = memoryview(end_bytes).cast("Q")
        count = len(ends)
        done = 0  # rounds of the chunk given out
        written = 0  # bytes of `lines` given out
        for index, line, begin, end in left:
            if index > done:
                upto = ends[index - 1]
                yield CoreLines(lines[written:upto], index - done)
                written = upto
            text = bytes(chunk[begin:end])
            yield json_line_round(position + index, line_number + line, offset + begin, text)
            done = index + 1
        if count > done:
            yield CoreLines(lines[written:], count - done)
        position += count
        line_number += line_feeds


def __dir__() -> list[str]:
    return list(__all__)
