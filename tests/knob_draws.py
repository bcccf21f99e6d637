"""Random rule sets drawn from the knob table, for the fuzz and the property tests alike.

``draw_knobs(choose)`` gives a value for every knob of the table: each plain knob from its kind (an enum's
values, a bool, an int's low end, the next two and its high end), kept at its default a third of the time
so that ordinary tables stay common; the compound knobs from lists of telling values (rank-keyed
royalties, a 0 override, the wheel straight flush, naturals of every kind, rows of unequal base, a horse
card, added suits, jokers). ``choose`` picks one item of a sequence: hypothesis' ``sampled_from`` in the
property tests, a seeded numpy generator in the fuzz. A new plain knob needs nothing here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from chinese_poker.knobs import CHOICES, KNOB_TABLE, NATURAL_NAMES

Choose = Callable[[Sequence[Any]], Any]

#: Royalty tables worth drawing: none, the built-in ones, categories with the royal flush, and rank keys
#: overriding their category (a 0 override included) with the wheel straight flush.
ROYALTY_OPTIONS: tuple[Any, ...] = (
    "pagat",
    "eastern",
    {},
    {
        "front": {"one_pair": 1, "three_of_a_kind": 5},
        "middle": {"straight": 1, "royal_flush": 20},
        "back": {"flush": 2, "full_house": 3, "five_of_a_kind": 7},
    },
    {
        "front": {"high_card@A": 1, "one_pair": 2, "one_pair@2": 0, "one_pair@Q": 7, "three_of_a_kind@A": 9},
        "middle": {"one_pair@A": 3, "two_pair@K": 2, "straight@5": 4, "straight": 1, "flush@A": 5},
        "back": {"straight_flush": 6, "wheel_straight_flush": 2, "full_house@2": 4, "high_card@7": 1},
    },
)

ROW_BASES: tuple[tuple[int, int, int], ...] = ((1, 1, 1), (1, 2, 3), (2, 1, 1), (1, 1, 3))
HORSE_CARDS: tuple[str | None, ...] = (None, "As", "2c", "Th")
EXTRA_SUITS: tuple[str, ...] = ("", "s", "h", "ch", "ds")


def int_options(low: int, high: int) -> tuple[int, ...]:
    """The values an int knob is drawn from: its low end, the next two, and its high end."""
    return tuple(sorted({low, min(low + 1, high), min(low + 2, high), high}))


def draw_knobs(choose: Choose) -> dict[str, Any]:
    """A value for every knob of the knob table (see the module docstring)."""
    knobs: dict[str, Any] = {}
    for knob in KNOB_TABLE:
        if knob.kind in ("flag", "enum"):
            options: Sequence[Any] = knob.values
        elif knob.kind == "bool":
            options = (False, True)
        elif knob.kind == "int":
            assert knob.low is not None
            assert knob.high is not None
            options = int_options(knob.low, knob.high)
        else:
            continue
        knobs[knob.name] = knob.default if choose((0, 1, 2)) == 0 else choose(options)
    knobs["suit_order"] = choose(CHOICES["suit_order"])
    knobs["royalties"] = choose(ROYALTY_OPTIONS)
    knobs["naturals"] = [
        [name, choose((1, 2, 3, 5, 13))] for name in NATURAL_NAMES if choose((False, False, False, True))
    ]
    knobs["row_base"] = choose(ROW_BASES)
    knobs["horse_card"] = choose(HORSE_CARDS)
    knobs["extra_suits"] = choose(EXTRA_SUITS)
    # ace_basis "table" needs four players holding one 52-card deck (RULES.md 11.9), and fantasyland
    # at most three players (RULES.md 4.2): the rules that cannot seat a round are not drawn.
    if knobs["ace_basis"] == "table":
        knobs.update(fantasyland="off", extra_suits="", jokers=0)
    return knobs
