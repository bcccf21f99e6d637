"""Open-Face Chinese Poker play (docs/OFC.md): the exact fantasyland setting (``fantasyland``, and its
batch form), the game state (``new_game``, ``GameState``, ``Action``) with legal actions, dealt
reproducibly from a seed, a position from what a seat sees (``position``), placement advice
(``advise``) and the greedy baseline (``greedy``).
"""

from __future__ import annotations

from chinese_poker.ofc.advise import FANTASYLAND_POOL, Option, advise, fantasyland_value, greedy
from chinese_poker.ofc.fantasyland import (
    STAY_SAMPLE_HANDS,
    Setting,
    fantasyland,
    fantasyland_batch,
    stay_value_of,
)
from chinese_poker.ofc.play import MatchResult, PolicyResult, advisor, play
from chinese_poker.ofc.position import position
from chinese_poker.ofc.state import ROWS, Action, GameState, action, new_game

__all__ = [
    "FANTASYLAND_POOL",
    "ROWS",
    "STAY_SAMPLE_HANDS",
    "Action",
    "GameState",
    "MatchResult",
    "Option",
    "PolicyResult",
    "Setting",
    "action",
    "advise",
    "advisor",
    "fantasyland",
    "fantasyland_batch",
    "fantasyland_value",
    "greedy",
    "new_game",
    "play",
    "position",
    "stay_value_of",
]


def __dir__() -> list[str]:
    return sorted(__all__)
