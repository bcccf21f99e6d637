"""The full output of rounds, settled and written by the core.

``full_stream`` reads a JSON Lines stream a chunk at a time (``formats.core_stream``): the core
(``_core.write_full_chunk``, the GIL released) reads every round it can take, settles it and writes its full
output, and hands back every other round for the general path. ``FullLines`` gathers rounds already checked
by the general reader (``parse_round``'s ``Round``) of any player count and rules, in order, and writes each
batch in one call of the core (``_core.RoundOutputWriter``). Both give the bytes of ``round_output``
(``formats.round_settle``, which stays the reference) dumped by ``cli.common.dumps``, compact one round a
line or indented as the items of a list. A round the core does not settle (a card held twice, a false
declaration, a stake out of range ...) goes to ``settle_round`` instead, in its place, which gives its output
or its ``RoundError`` exactly as before.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO

import chinese_poker._core as _core
from chinese_poker._version import __version__
from chinese_poker.formats.core_stream import CoreLines, core_stream
from chinese_poker.formats.net_stream import resolved_rules
from chinese_poker.formats.records import RawRound
from chinese_poker.formats.round_parse import MAX_PLAYERS, Round, RoundError, rules_digest
from chinese_poker.formats.round_settle import round_output, settle_round
from chinese_poker.rules import Rules, core_spec
from chinese_poker.settlement import uses_settlement_knobs

__all__ = [
    "BATCH_ROUNDS",
    "FULL_CHUNK_BYTES",
    "FullLines",
    "Written",
    "dumps_output",
    "full_stream",
    "output_rules",
]

#: Rounds gathered before the core writes them: a few thousand keep the memory flat and the calls few.
BATCH_ROUNDS = 4096

#: How much of a JSON Lines stream ``full_stream`` reads at a time: the full output is about 17 times its
#: input, so a quarter of a megabyte read is about 4 MB written, however long the stream.
FULL_CHUNK_BYTES = 256 * 1024

#: What ``FullLines.flush`` yields, in the rounds' order: output text, or a round's ``RoundError`` (with
#: the ``where`` it was added with).
Written = str | RoundError


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
    read at a time (default ``FULL_CHUNK_BYTES``)."""

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
    return core_stream(stream, write_chunk, chunk_bytes=chunk_bytes or FULL_CHUNK_BYTES, head=head)


class FullLines:
    """The full output of rounds, gathered with ``add`` and written by ``flush``.

    ``ascii_only``: every non-ASCII character escaped. ``indented``: each round an item of a JSON list
    dumped with indent 2, written as ``",\\n  "`` and the round (the caller writes the brackets and drops
    the first comma); else each round compact on its own line."""

    def __init__(self, *, ascii_only: bool = False, indented: bool = False) -> None:
        self._ascii_only = ascii_only
        self._indented = indented
        self._writer = _core.RoundOutputWriter(__version__, ascii_only, indented)
        # Keyed by the name too: equal rules under two preset names write different "rules" values.
        self._rules: dict[tuple[str | None, Rules], int] = {}
        self._rounds: list[tuple[Round, str]] = []

    def __len__(self) -> int:
        return len(self._rounds)

    def _rules_index(self, rules: Rules) -> int:
        key = (rules.name, rules)
        index = self._rules.get(key)
        if index is None:
            index = self._writer.add_rules(
                output_rules(rules, ascii_only=self._ascii_only, indented=self._indented)
            )
            self._rules[key] = index
        return index

    def add(self, rnd: Round, where: str = "") -> None:
        """Gather a checked round; ``where`` names it in an error (default: its id)."""
        hands = rnd.hands
        self._writer.add_round(
            self._rules_index(rnd.rules),
            rnd.id,
            rnd.names,
            b"".join([bytes(hand.cards) for hand in hands]),
            bytes([hand.is_declared for hand in hands]),
            rnd.surrender,
            rnd.fantasyland,
            rnd.stakes,
            rnd.banker,
            rnd.bets,
        )
        self._rounds.append((rnd, where))

    def flush(self) -> Iterator[Written]:
        """Settle and write every gathered round, in order: runs of output text, and the ``RoundError`` of
        each round that does not settle; then forget them."""
        start = 0
        try:
            while start < len(self._rounds):
                text, stop = self._writer.write(start)
                if text:
                    yield text.decode("utf-8")
                if stop >= len(self._rounds):
                    break
                yield self._general(*self._rounds[stop])
                start = stop + 1
        finally:
            self._writer.clear()
            self._rounds.clear()

    def _general(self, rnd: Round, where: str) -> Written:
        """A round the core did not settle, settled and written by the general path."""
        try:
            settlement = settle_round(rnd, where)
        except RoundError as error:
            return error
        text = dumps_output(
            round_output(rnd, settlement), ascii_only=self._ascii_only, indented=self._indented
        )
        return ",\n  " + text.replace("\n", "\n  ") if self._indented else text + "\n"


def __dir__() -> list[str]:
    return list(__all__)
