"""The dealer: hands dealt from a deck shuffled by a ``random.Random`` (the CLI's ``deal`` and the
conformance vectors deal the same way, so a seed means the same cards in both)."""

from __future__ import annotations

import random

__all__ = ["deal_hands"]

_DECK_SIZE = 52


def deal_hands(rng: random.Random, players: int) -> list[list[int]]:
    """``players`` hands of 13 card codes from one shuffle of the 52-card deck by ``rng``."""
    if not 1 <= players <= 4:
        raise ValueError(f"a 52-card deck deals 1 to 4 hands of 13, got {players}")
    deck = list(range(_DECK_SIZE))
    rng.shuffle(deck)
    return [deck[13 * index : 13 * index + 13] for index in range(players)]


def __dir__() -> list[str]:
    return list(__all__)
