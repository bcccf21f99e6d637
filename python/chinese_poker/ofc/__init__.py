"""Open-Face Chinese Poker play: the exact fantasyland setting (``fantasyland``), batch form included.

See docs/OFC.md for the rules of play (RULES.md 4.2 and 4.3) and the solver's method.
"""

from __future__ import annotations

from chinese_poker.ofc.fantasyland import (
    STAY_SAMPLE_HANDS,
    Setting,
    fantasyland,
    fantasyland_batch,
    stay_value_of,
)

__all__ = ["STAY_SAMPLE_HANDS", "Setting", "fantasyland", "fantasyland_batch", "stay_value_of"]


def __dir__() -> list[str]:
    return sorted(__all__)
