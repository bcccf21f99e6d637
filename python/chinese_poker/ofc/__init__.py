"""Open-Face Chinese Poker play (docs/OFC.md): the exact fantasyland setting (``fantasyland``, and its
batch form) and the game state (``new_game``, ``GameState``, ``Action``) with legal actions, dealt
reproducibly from a seed.
"""

from __future__ import annotations

from chinese_poker.ofc.fantasyland import (
    STAY_SAMPLE_HANDS,
    Setting,
    fantasyland,
    fantasyland_batch,
    stay_value_of,
)
from chinese_poker.ofc.state import ROWS, Action, GameState, action, new_game

__all__ = [
    "ROWS",
    "STAY_SAMPLE_HANDS",
    "Action",
    "GameState",
    "Setting",
    "action",
    "fantasyland",
    "fantasyland_batch",
    "new_game",
    "stay_value_of",
]


def __dir__() -> list[str]:
    return sorted(__all__)
