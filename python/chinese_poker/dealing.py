"""The dealers.

- ``deal_hands``: hands dealt from a deck shuffled by a ``random.Random`` (the CLI's ``deal`` and the
  conformance vectors deal the same way, so a seed means the same cards in both).
- ``deal_batch``: many deals at once from a counter-based generator. Deal number ``d`` of seed ``s`` is a
  function of ``(s, d)`` alone, so any range of deals can be made anywhere (another thread, process or
  machine) and a simulation gives the same result for any chunking.
"""

from __future__ import annotations

import operator
import random
from typing import SupportsIndex

import numpy as np
import numpy.typing as npt

__all__ = ["MAX_SEED", "deal_batch", "deal_hands"]

_DECK_SIZE = 52
#: Seeds are the unsigned 64-bit integers.
MAX_SEED = 2**64 - 1

# SplitMix64's constants (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
# its finalizer turns consecutive counters into independent-looking 64-bit words.
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_CARD_STEP = np.uint64(0xD1B54A32D192ED03)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def deal_hands(rng: random.Random, players: int, extra_suits: str = "", jokers: int = 0) -> list[list[int]]:
    """``players`` hands of 13 card codes from one shuffle of the 52-card deck by ``rng``; with
    ``extra_suits`` (the rules knob: suits added to the pack, e.g. ``"s"``) from the larger pack, whose cards
    of those suits come twice (after the 52, in code order, before the shuffle), and with ``jokers`` (the
    rules knob) the jokers X1 (52) and X2 (53) after them."""
    most = 4 + len(extra_suits)
    if not 1 <= players <= most:
        raise ValueError(f"a pack of {13 * most} cards deals 1 to {most} hands of 13, got {players}")
    deck = list(range(_DECK_SIZE)) + [c for c in range(_DECK_SIZE) if "cdhs"[c % 4] in extra_suits]
    deck += [_DECK_SIZE + k for k in range(jokers)]
    rng.shuffle(deck)
    return [deck[13 * index : 13 * index + 13] for index in range(players)]


def _mix(words: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    words = (words ^ (words >> np.uint64(30))) * _MIX1
    words = (words ^ (words >> np.uint64(27))) * _MIX2
    return words ^ (words >> np.uint64(31))


def _whole(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool):
        raise TypeError(f"deal_batch: {name} must be an int, got bool")
    if not isinstance(value, SupportsIndex):
        raise TypeError(f"deal_batch: {name} must be an int, got {type(value).__name__}")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"deal_batch: {name} must be an int, got {type(value).__name__}") from None
    if not low <= number <= high:
        raise ValueError(f"deal_batch: {name} must be in {low}..{high}, got {number}")
    return int(number)


def deal_batch(
    seed: int, start: int, stop: int, players: int = 4, *, extra_suits: str = "", jokers: int = 0
) -> npt.NDArray[np.uint8]:
    """Deals ``start`` to ``stop - 1`` of ``seed``: a C-contiguous uint8 array (stop - start, players, 13).

    Each deal is one uniformly random order of the 52 cards (the order of 52 keys, each a SplitMix64 hash
    of the seed, the deal number and the card), of which the players take 13 cards each in turn. The cards
    of deal ``d`` depend on ``seed`` and ``d`` only. ``seed`` is 0..2**64-1; ``players`` 1..4, one more per
    suit in ``extra_suits``. With ``extra_suits`` and ``jokers`` (the rules knobs) the pack is the 52 cards,
    then the added suits' cards again (in code order), then the jokers X1, X2: the keys of its first 52 are
    those of the 52-card deck, so a deal of the plain deck is the same with every version.
    """
    seed = _whole(seed, "seed", 0, MAX_SEED)
    start = _whole(start, "start", 0, 2**62)
    stop = _whole(stop, "stop", start, 2**62)
    players = _whole(players, "players", 1, 4 + len(extra_suits))
    jokers = _whole(jokers, "jokers", 0, 2)
    pack = np.array(
        [*range(_DECK_SIZE), *(c for c in range(_DECK_SIZE) if "cdhs"[c % 4] in extra_suits)]
        + [_DECK_SIZE + k for k in range(jokers)],
        dtype=np.uint8,
    )
    deals = np.arange(start, stop, dtype=np.uint64)[:, None]
    cards = np.arange(len(pack), dtype=np.uint64)[None, :]
    with np.errstate(over="ignore"):  # every product and sum here is meant modulo 2**64
        per_deal = _mix(np.uint64(seed) ^ _mix((deals + np.uint64(1)) * _GOLDEN))
        keys = _mix(per_deal + (cards + np.uint64(1)) * _CARD_STEP)
    # A stable sort, so even a (2**-58-likely) repeated key gives the same order on every machine.
    order = np.argsort(keys, axis=1, kind="stable")[:, : 13 * players]
    return np.ascontiguousarray(pack[order].reshape(stop - start, players, 13))


def __dir__() -> list[str]:
    return list(__all__)
