"""The net output of a JSON Lines body of the common shape, settled at once by the core.

``settle_net_lines`` reads every round of the body, settles it and writes its net output line in C++ (the
GIL released): the bytes are those of ``round_net_output`` written by ``cli.common.dumps``, one line per
round, in order. It reads only the common shape of rounds (an optional ``id`` and players with ``front``,
``middle`` and ``back`` and an optional ``name``, every round with as many players; docs/SERVICE.md); for
any other body, for rules with added suits or jokers, and for any bad round it answers ``None``, and the
caller takes the general path (``parse_round``, ``settle_round``, ``round_net_output``), which gives every
answer and names every error.
The command line (``score --output net``) and the service (``output=net``) read through
``formats.net_stream`` instead, which takes every round of the format and leaves the rest round by round.
"""

from __future__ import annotations

import chinese_poker._core as _core
from chinese_poker.formats.round_parse import MAX_PLAYERS
from chinese_poker.hand import RulesLike, rules_or_default
from chinese_poker.rules import core_spec

__all__ = ["settle_net_lines"]


def settle_net_lines(
    body: bytes,
    rules: RulesLike | None = None,
    *,
    max_rounds: int,
    max_players: int = MAX_PLAYERS,
    threads: int = 1,
) -> tuple[bytes, bool] | None:
    """The net output lines of the JSON Lines ``body`` and whether it holds more than ``max_rounds``
    rounds (then the lines are those of the rounds before the limit, every one of them good), or ``None``
    when the body is not of the common shape or holds a bad round. ``rules``: what every round is settled
    by (``None``: ``pagat``); ``max_players``: the most players a round may have; ``threads``: the core's
    threads (0: every core)."""
    return _core.settle_net_lines(body, core_spec(rules_or_default(rules)), max_rounds, max_players, threads)


def __dir__() -> list[str]:
    return list(__all__)
