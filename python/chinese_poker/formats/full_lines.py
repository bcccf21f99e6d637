"""The full output of checked rounds, settled and written by the core (``_core.RoundOutputWriter``).

``FullLines`` gathers rounds already checked by the general reader (``parse_round``'s ``Round``) of any player
count and rules, in order, and writes each batch in one call of the core with the GIL released: the bytes of
``round_output`` (``formats.round_settle``, which stays the reference) dumped by ``cli.common.dumps``, compact
one round a line or indented as the items of a list. A round the core does not settle (a card held twice, a
false declaration, a stake out of range ...) is settled by ``settle_round`` instead, in its place, which gives
its output or its ``RoundError`` exactly as before. A JSON Lines stream is read by the core itself instead
(``formats.full_stream``).
"""

from __future__ import annotations

from collections.abc import Iterator

import chinese_poker._core as _core
from chinese_poker._version import __version__
from chinese_poker.formats.full_stream import dumps_output, output_rules
from chinese_poker.formats.round_parse import Round, RoundError
from chinese_poker.formats.round_settle import round_output, settle_round
from chinese_poker.rules import Rules

__all__ = ["BATCH_ROUNDS", "FullLines", "Written"]

#: Rounds gathered before the core writes them: a few thousand keep the memory flat and the calls few.
BATCH_ROUNDS = 4096

#: What ``FullLines.flush`` yields, in the rounds' order: output text, or a round's ``RoundError`` (with
#: the ``where`` it was added with).
Written = str | RoundError


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
