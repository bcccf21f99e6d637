"""Hand strength: categories and readable descriptions of the integers that ``evaluate`` returns.

A strength is ``category << 20 | v1 << 16 | v2 << 12 | v3 << 8 | v4 << 4 | v5``: the category (0 high card ..
8 straight flush) then the tie-break vector of RULES.md section 2, ranks valued 2 (deuce) .. 14 (ace),
padded with zeros. Straights carry their five ranks descending; the wheel is ``[5,4,3,2,1]`` under
``wheel="low"`` and ``[14,5,4,3,2]`` under ``wheel="second"``. A three-card front is thus worth less than
every five-card hand that starts with the same cards, as the foul rule requires, and every hand other than a
wheel has the same strength under both wheel rules.
"""

from __future__ import annotations

import numbers
from enum import IntEnum
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

import chinese_poker._core as _core
from chinese_poker._threads import thread_count

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "HandCategory",
    "category",
    "describe",
    "evaluate",
    "evaluate_batch",
    "tiebreak_vector",
]

CATEGORY_SHIFT = 20


class HandCategory(IntEnum):
    """Poker hand categories, weakest first; ``category(strength)`` gives one."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    #: Five cards of one rank: only a pack with added suits (``extra_suits``) holds one.
    FIVE_OF_A_KIND = 9


_NAMES = {
    2: ("deuce", "deuces"), 3: ("three", "threes"), 4: ("four", "fours"), 5: ("five", "fives"),
    6: ("six", "sixes"), 7: ("seven", "sevens"), 8: ("eight", "eights"), 9: ("nine", "nines"),
    10: ("ten", "tens"), 11: ("jack", "jacks"), 12: ("queen", "queens"), 13: ("king", "kings"),
    14: ("ace", "aces"),
}  # fmt: skip


def _named(function: str, error: TypeError) -> TypeError:
    """The core's TypeError naming the public function: its own argument-count messages already start with
    ``function(``; every other gets the name in front."""
    message = str(error)
    return TypeError(message if message.startswith(f"{function}(") else f"{function}: {message}")


#: The strength of one 3- or 5-card row: the core's raw call (its docstring says how), for speed, since a
#: Python wrapper would double its cost; its TypeErrors already name ``evaluate``.
evaluate = _core.evaluate


def evaluate_batch(
    cards: npt.NDArray[np.uint8],
    wheel: str = "low",
    *,
    threads: int = 1,
    extra_suits: str = "",
    jokers: int = 0,
) -> npt.NDArray[np.int32]:
    """Strengths of many rows at once, in C++ with the GIL released: ``cards`` is a C-contiguous uint8 array
    (N, 5) or (N, 3) of card codes, ``wheel`` as for ``evaluate``; returns an int32 array (N,).

    ``extra_suits``: the suits added to the pack (the rules knob of that name, e.g. ``"s"``), whose cards
    may appear twice in a row (a copy is the same code): five of a kind, a flush holding a pair.
    ``jokers`` (the rules knob, 0..2): a row may hold the jokers X1 (52) and X2 (53), and is worth its best
    substitution (RULES.md 1.2).

    ``threads``: how many threads share the rows (1, the default: the calling thread only; 0: every core
    this process may use). The strengths are the same for any count, and a bad row raises the error of the
    lowest bad row."""
    count = thread_count(threads, "evaluate_batch")
    try:
        return _core.evaluate_batch(cards, wheel, count, extra_suits, jokers)
    except TypeError as error:
        raise _named("evaluate_batch", error) from None


def pack_strengths(
    width: int = 5, wheel: str = "low", *, extra_suits: str = "", jokers: int = 0
) -> frozenset[int]:
    """Every strength a row of ``width`` (3 or 5) cards of a pack can have under ``wheel``: the pack of the
    rules knobs ``extra_suits`` and ``jokers``. The core derives them by evaluating one row for each rank
    multiset the pack deals in one suit and spread over several, with 0 .. ``jokers`` jokers; one deck
    gives the 7462 five-card and 455 three-card classes."""
    return frozenset(int(s) for s in _core.pack_strengths(width, wheel, extra_suits, jokers))


@lru_cache(maxsize=1)
def _all_strengths() -> frozenset[int]:
    """Every strength some 3- or 5-card row of some pack has (any added suits, any jokers the rules allow,
    under either wheel rule): the core's union of ``pack_strengths``, built once."""
    return frozenset(
        int(s) for width in (3, 5) for wheel in ("low", "second") for s in _core.row_strengths(width, wheel)
    )


def _check_strength(strength: Any) -> int:
    # A plain int first: the common case, and far cheaper than the abstract-class test below.
    if type(strength) is int and strength in _all_strengths():
        return strength
    # numpy integers (what evaluate_batch returns) are accepted as well as int; bool is not.
    if isinstance(strength, bool) or not isinstance(strength, numbers.Integral):
        raise TypeError(f"a strength is an int, got {type(strength).__name__}")
    value = int(strength)
    if value not in _all_strengths():
        raise ValueError(f"{value} is not the strength of any 3- or 5-card hand")
    return value


def category(strength: int) -> HandCategory:
    """The category of a strength returned by ``evaluate``."""
    return HandCategory(_check_strength(strength) >> CATEGORY_SHIFT)


def tiebreak_vector(strength: int) -> tuple[int, ...]:
    """The tie-break vector of a strength (ranks 2..14, padding dropped), e.g. ``(13, 8)`` for kings full."""
    value = _check_strength(strength)
    values = [(value >> shift) & 15 for shift in (16, 12, 8, 4, 0)]
    while values and values[-1] == 0:
        values.pop()
    return tuple(values)


def _is_wheel(vector: tuple[int, ...]) -> bool:
    return vector in ((5, 4, 3, 2, 1), (14, 5, 4, 3, 2))


def _singular(value: int) -> str:
    return _NAMES[value][0]


def _plural(value: int) -> str:
    return _NAMES[value][1]


def _kickers(values: tuple[int, ...]) -> str:
    if not values:
        return ""
    word = "kicker" if len(values) == 1 else "kickers"
    return ", " + "-".join(_singular(v) for v in values) + " " + word


def describe(strength: int) -> str:
    """Readable text of a strength.

    For example ``"Full house, kings over eights"`` or ``"Pair of queens, ace kicker"``.
    """
    return _description(_check_strength(strength))


# Every settlement's output names each row's strength: the texts of the (about 16,000) valid strengths are
# made once each.
@cache
def _description(strength: int) -> str:
    cat = category(strength)
    v = tiebreak_vector(strength)
    if cat in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        name = "Straight" if cat == HandCategory.STRAIGHT else "Straight flush"
        if _is_wheel(v):
            return f"{name}, five high (wheel)"
        if cat == HandCategory.STRAIGHT_FLUSH and v[0] == 14:
            return "Royal flush"
        return f"{name}, {_singular(v[0])} high"
    if cat == HandCategory.FIVE_OF_A_KIND:
        return f"Five of a kind, {_plural(v[0])}"
    if cat == HandCategory.FOUR_OF_A_KIND:
        return f"Four of a kind, {_plural(v[0])}{_kickers(v[1:])}"
    if cat == HandCategory.FULL_HOUSE:
        return f"Full house, {_plural(v[0])} over {_plural(v[1])}"
    if cat == HandCategory.FLUSH:
        return "Flush, " + "-".join(_singular(x) for x in v)
    if cat == HandCategory.THREE_OF_A_KIND:
        return f"Three of a kind, {_plural(v[0])}{_kickers(v[1:])}"
    if cat == HandCategory.TWO_PAIR:
        return f"Two pair, {_plural(v[0])} and {_plural(v[1])}{_kickers(v[2:])}"
    if cat == HandCategory.ONE_PAIR:
        return f"Pair of {_plural(v[0])}{_kickers(v[1:])}"
    return f"{_singular(v[0]).capitalize()} high" + (
        ", " + "-".join(_singular(x) for x in v[1:]) if len(v) > 1 else ""
    )


def __dir__() -> list[str]:
    return list(__all__)
