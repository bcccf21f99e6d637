"""The opponents' cards of a Monte Carlo evaluation: each deal of the rules' pack with our 13 cards taken out.

The pack is the rules' (``dealing.deal_batch`` with its ``extra_suits`` and ``jokers``): our cards may be
jokers (codes 52, 53) or a card of an added suit held twice, so they are taken out by count, not by a
52-slot mask. With one 52-card deck this is the 52 cards in the deal's order with ours skipped.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from chinese_poker.dealing import deal_batch
from chinese_poker.rules import Rules

#: Codes 0..53: the 52 cards and the jokers X1, X2.
_CODES = 54


def field_hands(
    seed: int, begin: int, end: int, ours: Sequence[int], *, rules: Rules, opponents: int
) -> npt.NDArray[np.uint8]:
    """The hands of ``opponents`` players (13 cards each) in deals ``begin .. end - 1`` of ``seed``: the
    deal's cards in order, each of our cards taken out once per copy we hold (the earliest copies), the
    first ``13 * opponents`` of the rest; a C-contiguous uint8 array (deals * opponents, 13)."""
    players = 4 + len(rules.extra_suits)  # the most a deal holds: 13 * players of the pack's cards
    deck = deal_batch(
        seed, begin, end, players=players, extra_suits=rules.extra_suits, jokers=rules.jokers
    ).reshape(end - begin, 13 * players)
    held = np.bincount(np.asarray(ours, dtype=np.intp), minlength=_CODES)
    # Which copy of its code each card of a deal is (0 the first): a stable sort by code lists each code's
    # copies in deal order, and a copy's rank is its place after the first of its code.
    codes = deck.astype(np.intp)
    order = np.argsort(codes, axis=1, kind="stable")
    by_code = np.take_along_axis(codes, order, axis=1)
    places = np.arange(deck.shape[1])
    first = np.maximum.accumulate(np.where(np.diff(by_code, axis=1, prepend=-1) != 0, places, 0), axis=1)
    copy = np.empty_like(order)
    np.put_along_axis(copy, order, places - first, axis=1)
    keep = copy >= held[codes]
    # Each deal keeps at least 13 * (players - 1) >= 39 cards (ours are 13): the first 13 * opponents.
    keep &= np.cumsum(keep, axis=1) <= 13 * opponents
    return np.ascontiguousarray(deck[keep].reshape((end - begin) * opponents, 13))
