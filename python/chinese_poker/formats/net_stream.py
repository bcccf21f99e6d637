"""The net output of a JSON Lines stream of any rounds, settled by the core chunk by chunk.

``net_stream`` reads the stream in chunks of whole lines (``formats.core_stream``), and for each chunk the
core (``_core.NetChunkWriter``, the GIL released) reads every round it can take (any player count, a
round's own ``rules``, stakes, surrender, banker, bets and fantasyland, the jokers and added suits of the
rules' pack; docs/JSON_FORMAT.md), settles them in groups of one player count and one rules and writes their
net lines: the bytes that ``round_net_output`` written by ``cli.common.dumps`` gives. A round the core does
not take (any bad round among them) is handed back, in its place, as the ``RawRound`` the general reader
gives for its line, and the caller settles it by its general path, which gives its answer or names its
error.

Each distinct ``rules`` value of a chunk is resolved once, by the general rules reader
(``rules_from_value``), and remembered for the whole stream; a value it refuses sends its rounds to the
general path, which reports it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO

import chinese_poker._core as _core
import chinese_poker._jsontext as jsontext
from chinese_poker.formats.core_stream import CoreLines, core_stream
from chinese_poker.formats.records import RawRound
from chinese_poker.formats.round_common import MAX_PLAYERS, rules_from_value
from chinese_poker.rules import Rules, core_spec

__all__ = ["net_stream", "resolved_rules"]


def resolved_rules(value: bytes) -> Rules | None:
    """The rules a round's ``"rules"`` value (its JSON bytes) names, as the general reader reads them;
    ``None`` when it refuses them (the general path then reports the round)."""
    try:
        return rules_from_value(jsontext.loads(value.decode("utf-8")))
    except (ValueError, TypeError, RecursionError):
        return None


def _spec(value: bytes) -> _core.RulesSpec | None:
    rules = resolved_rules(value)
    return None if rules is None else core_spec(rules)


def net_stream(
    stream: IO[bytes],
    rules: Rules | None = None,
    *,
    threads: int = 1,
    max_players: int = MAX_PLAYERS,
    chunk_bytes: int | None = None,
    ascii_only: bool = False,
    head: bytes = b"",
) -> Iterator[CoreLines | RawRound]:
    """The net output of the JSON Lines ``stream`` (after ``head``, bytes already read from it), in input
    order: ``CoreLines`` for runs of rounds the core settled, and each other round as its ``RawRound`` for
    the caller's general path. ``rules``: what every round is settled by (as ``score --rules``), else each
    round's own, else ``pagat``; ``max_players``: the most players a round may have (a round with more is
    the general path's); ``threads``: the core's threads (0: every core; the bytes do not depend on it);
    ``chunk_bytes``: how much is read at a time (default ``core_stream.CHUNK_BYTES``); ``ascii_only``: the
    lines must be ASCII (``dumps(..., ascii_only=True)`` for a stream that cannot write UTF-8), so a round
    whose id is not is left to the general path."""
    fallback = core_spec(rules if rules is not None else Rules.preset())
    writer = _core.NetChunkWriter(
        lambda values: [_spec(value) for value in values],
        fallback,
        max_players,
        rules is None,
        ascii_only,
        threads,
    )
    settle_chunk = writer.write
    return core_stream(stream, settle_chunk, chunk_bytes=chunk_bytes, head=head)


def __dir__() -> list[str]:
    return list(__all__)
