"""The independent pure-Python reference implementation of chinese-poker's rules.

Written from RULES.md and docs/RULES.md alone, sharing no logic with the C++ core, so that the two can
be checked against each other. Plain and slow on purpose; no numpy. It imports nothing of the package
outside ``reference/``: card text is read by ``reference.cards``, its own parser, and the presets are
data written here from docs/RULES.md section 6 (``PRESETS``).

Public names:

- ``evaluate(cards, wheel="low")``: strength of a 3- or 5-card row (RULES.md 8).
- ``compare_rows(a, b, rules)``: +1 / 0 / -1, with the optional suit tie-break (RULES.md 12).
- ``is_foul(front, middle, back, rules)`` and ``royalties(front, middle, back, rules)`` (RULES.md 9).
- ``detect_natural(cards13, rules)`` and ``natural_key(kind, cards13, rules)`` (RULES.md 10).
- ``settle(players, rules, stakes=None, surrender=None)``: a round's breakdown (RULES.md 11).
- ``resolve_rules(preset_or_dict, **overrides)``: the resolved rules dict of a preset (RULES.md 6).
- ``legal_settings(cards13, rules)``, ``pareto_front(triples)``, ``strongest(cards13, rules)``: arranging
  by brute force over every split.
- ``best_setting(cards, rules, stay_value)``: the best fantasyland setting of 14 to 17 cards by brute
  force over every 13-card setting (RULES.md 4.3).
"""

from chinese_poker.reference.arrange import legal_settings, pareto_front, strongest
from chinese_poker.reference.evaluate import CATEGORY_NAMES, DEFAULT_RULES, compare_rows, evaluate
from chinese_poker.reference.fantasyland import best_setting
from chinese_poker.reference.naturals import NATURAL_KINDS, detect_natural, natural_key
from chinese_poker.reference.settle import PRESETS, ROYALTY_TABLES, is_foul, resolve_rules, royalties, settle

__all__ = [
    "CATEGORY_NAMES",
    "DEFAULT_RULES",
    "NATURAL_KINDS",
    "PRESETS",
    "ROYALTY_TABLES",
    "best_setting",
    "compare_rows",
    "detect_natural",
    "evaluate",
    "is_foul",
    "legal_settings",
    "natural_key",
    "pareto_front",
    "resolve_rules",
    "royalties",
    "settle",
    "strongest",
]


def __dir__() -> list[str]:
    return list(__all__)
