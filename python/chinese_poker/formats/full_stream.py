"""The full output of a JSON Lines stream, read, settled and written by the core a chunk at a time
(``_core.FullChunkWriter`` over ``formats.core_stream``): every round the core takes is written there, and
every other round is handed back, in its place, for the general path, whose output and errors are the same.
The bytes are those of ``round_output`` (``formats.round_settle``, which stays the reference) dumped by
``cli.common.dumps``, compact one round a line or indented as the items of a list.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import IO

import chinese_poker._core as _core
from chinese_poker._version import __version__
from chinese_poker.formats.core_stream import CoreLines, core_stream
from chinese_poker.formats.net_stream import resolved_rules
from chinese_poker.formats.records import RawRound
from chinese_poker.formats.round_common import MAX_PLAYERS, rules_digest, uses_settlement_knobs
from chinese_poker.rules import Rules, core_spec

__all__ = ["FULL_CHUNK_BYTES", "THREAD_CHUNK_BYTES", "dumps_output", "full_stream", "output_rules"]

#: How much of a JSON Lines stream ``full_stream`` reads at a time on one thread: the full output is about
#: 17 times its input, so 64 KB read is about a megabyte written, however long the stream, which stays in
#: the caches (a quarter of a megabyte took an eighth more CPU time, a megabyte a fifth more).
FULL_CHUNK_BYTES = 64 * 1024

#: What each further thread adds to a chunk: the core gives a thread 512 rounds at a time (about 170 KB of
#: JSON Lines), so that every thread of a chunk has some.
THREAD_CHUNK_BYTES = 256 * 1024


def dumps_output(data: object, *, ascii_only: bool, indented: bool) -> str:
    """JSON text as ``cli.common.dumps`` writes it: compact, or indented by 2 (as json.dumps writes it)."""
    from chinese_poker.cli.common import safe_text  # noqa: PLC0415 - the command line imports this module

    if indented:
        return safe_text(json.dumps(data, indent=2, ensure_ascii=ascii_only))
    return safe_text(json.dumps(data, ensure_ascii=ascii_only, separators=(",", ":")))


def output_rules(rules: Rules, *, ascii_only: bool, indented: bool) -> _core.OutputRules:
    """What ``rules`` put into each of their rounds' full output, for the core's writer: the JSON text of the
    round's ``"rules"`` value (its preset name, else every knob) as the output's dump settings write it,
    the digest, and which optional fields players and pairs carry."""
    value = dumps_output(rules.name or rules.to_dict(), ascii_only=ascii_only, indented=indented)
    if indented:
        value = value.replace("\n", "\n    ")  # a member of a round that is an item of a list
    return _core.OutputRules(
        core_spec(rules),
        value,
        rules_digest(rules),
        rules.fantasyland != "off",
        rules.ace_basis == "table",
        bool(rules.jokers),
        uses_settlement_knobs(rules),
    )


def full_stream(
    stream: IO[bytes],
    rules: Rules | None = None,
    *,
    ascii_only: bool = False,
    indented: bool = False,
    threads: int = 1,
    max_players: int = MAX_PLAYERS,
    chunk_bytes: int | None = None,
    head: bytes = b"",
) -> Iterator[CoreLines | RawRound]:
    """The full output of the JSON Lines ``stream`` (after ``head``, bytes already read from it), in input
    order: ``CoreLines`` for runs of rounds the core settled and wrote, and each other round as its
    ``RawRound`` for the caller's general path (whose output and errors are the same). ``rules``: what
    every round is settled by (as ``score --rules``), else each round's own, else ``pagat``;
    ``ascii_only`` and ``indented`` as for ``FullLines``; ``threads``: the core's threads (0: every core;
    the bytes do not depend on it); ``max_players`` as for ``net_stream``; ``chunk_bytes``: how much is
    read at a time (default ``FULL_CHUNK_BYTES`` on one thread, ``THREAD_CHUNK_BYTES`` a thread on more)."""

    def resolve(value: bytes) -> _core.OutputRules | None:
        named = resolved_rules(value)
        return None if named is None else output_rules(named, ascii_only=ascii_only, indented=indented)

    fallback = output_rules(
        rules if rules is not None else Rules.preset(), ascii_only=ascii_only, indented=indented
    )
    writer = _core.FullChunkWriter(
        lambda values: [resolve(value) for value in values],
        fallback,
        __version__,
        ascii_only,
        indented,
        max_players,
        rules is None,
        threads,
    )
    write_chunk = writer.write
    if chunk_bytes is None:
        cores = threads or os.cpu_count() or 1
        chunk_bytes = FULL_CHUNK_BYTES if cores == 1 else cores * THREAD_CHUNK_BYTES
    return core_stream(stream, write_chunk, chunk_bytes=chunk_bytes, head=head)


def __dir__() -> list[str]:
    return list(__all__)
