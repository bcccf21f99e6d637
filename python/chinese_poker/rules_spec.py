"""The core's form of a ``Rules``: ``core_spec`` fills one ``_core.RulesSpec`` per ``Rules`` and caches it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import chinese_poker._core as _core
from chinese_poker.cards import parse_card
from chinese_poker.knobs import KNOB_TABLE, RANK_LETTERS, ROWS

if TYPE_CHECKING:
    from chinese_poker.rules import Rules

__all__ = ["SPEC_CACHE", "core_spec"]

#: The attribute a ``Rules`` keeps its core form under (dropped when pickled, rebuilt where used).
SPEC_CACHE = "_core_spec"


def core_spec(rules: Rules) -> _core.RulesSpec:
    """The core's typed form of ``rules``, built once per ``Rules``, cached on it.

    The one place where knob values cross into the core: every plain knob of the knob table is set by
    name as it is stored (an enum-like knob as its value's name); the compound knobs become lists of typed
    entries. The core checks every value.
    """
    cached = rules.__dict__.get(SPEC_CACHE)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    spec = _core.RulesSpec()
    for knob in _PLAIN_KNOBS:
        setattr(spec, knob, getattr(rules, knob))
    table = rules.royalty_table
    spec.royalties = [
        (row_index, _core.RoyaltyCategory[key], units)
        for row_index, row in enumerate(ROWS)
        for key, units in table[row].items()
        if "@" not in key
    ]
    # The rank keys "category@R" travel as (row, category, rank value 2..14, units).
    spec.rank_royalties = [
        (row_index, _core.RoyaltyCategory[key.partition("@")[0]], RANK_LETTERS.index(key[-1]) + 2, units)
        for row_index, row in enumerate(ROWS)
        for key, units in table[row].items()
        if "@" in key
    ]
    spec.naturals = [(_core.NaturalKind[name], units) for name, units in rules.naturals]
    spec.suit_order = rules.suit_order
    spec.row_base = rules.row_base
    spec.horse_card = None if rules.horse_card is None else parse_card(rules.horse_card)
    spec.extra_suits = rules.extra_suits
    object.__setattr__(rules, SPEC_CACHE, spec)
    return spec


#: The knobs whose value the core takes as it is stored: all but the compound ("table") knobs.
_PLAIN_KNOBS: tuple[str, ...] = tuple(knob.name for knob in KNOB_TABLE if knob.kind != "table")


def __dir__() -> list[str]:
    return list(__all__)
