"""Pure-Python reference: presets, fouls, royalties and the settlement of a round.

Written from RULES.md sections 2.5, 3, 4 and 6 and RULES.md sections 2, 4 and 6 only. Each step of
RULES.md section 11 is one block of ``_settle_pair``, in the same order.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from chinese_poker.reference.cards import CardsInput, format_card
from chinese_poker.reference.evaluate import (
    DEFAULT_RULES,
    SUBSTITUTED,
    card_codes,
    category_name,
    compare_rows,
    copies_in_pack,
    evaluate,
    knob,
    substitute,
    tiebreak_vector,
)
from chinese_poker.reference.naturals import detect_natural, natural_key, natural_list

__all__ = [
    "PRESETS",
    "ROWS",
    "ROYALTY_TABLES",
    "fantasyland_cards",
    "is_foul",
    "resolve_rules",
    "royalties",
    "settle",
]

ROWS = ("front", "middle", "back")

#: The built-in royalty tables of RULES.md section 4 (units a won row is worth in ``replace`` mode).
ROYALTY_TABLES: dict[str, dict[str, dict[str, int]]] = {
    "pagat": {
        "front": {"three_of_a_kind": 3},
        "middle": {"full_house": 2, "four_of_a_kind": 4, "straight_flush": 5},
        "back": {"four_of_a_kind": 4, "straight_flush": 5},
    },
    "eastern": {
        "front": {"three_of_a_kind": 3},
        "middle": {"full_house": 2, "four_of_a_kind": 8, "straight_flush": 10},
        "back": {"four_of_a_kind": 4, "straight_flush": 5},
    },
}

_PAGAT_NATURALS = [["six_pairs", 3], ["three_straights", 3], ["three_flushes", 3], ["dragon", 13]]
_HK_NATURALS = [
    ["three_straights", 3],
    ["three_flushes", 3],
    ["six_pairs", 3],
    ["all_small", 3],
    ["all_big", 3],
    ["dragon", 13],
]
_HK_KNOBS: dict[str, Any] = {
    "royalties": "eastern",
    "scoop_multiplier": 2,
    "royalties_in_multiplier": True,
    "home_run_multiplier": 2,
    "foul_policy": "as_scooped",
    "naturals": _HK_NATURALS,
}

#: The presets of RULES.md section 6: the knobs each sets (all others keep their defaults).
PRESETS: dict[str, dict[str, Any]] = {
    "pagat": {},
    "pagat-bonus": {"royalties": "pagat", "naturals": _PAGAT_NATURALS},
    "wikipedia-2-4": {"overall_unit": 1, "overall_basis": "two_rows", "foul_policy": "as_scooped"},
    "wikipedia-1-6": {"scoop_bonus": 3, "foul_policy": "as_scooped"},
    "shisanzhang-hk": dict(_HK_KNOBS),
    "shisanshui-app": {**_HK_KNOBS, "wheel": "second", "natural_declaration": "auto"},
    "capsa-susun": {
        "suit_tiebreak": "highest_card",
        "suit_order": "shcd",
        "royalties": "eastern",
        "scoop_multiplier": 2,
        "royalties_in_multiplier": True,
        "foul_policy": "as_scooped",
        "naturals": _PAGAT_NATURALS,
    },
    "pusoy": {},
    "ofc": {
        "scoop_bonus": 3,
        "royalty_mode": "add",
        "royalty_condition": "always",
        "foul_policy": "as_scooped",
        "foul_pays_royalties": True,
        "fantasyland": "standard",
        "royalties": {
            # A pair of sixes pays 1, each rank up 1 more (aces 9); trips of deuces 10 (aces 22).
            "front": {
                **{f"one_pair@{rank}": units for units, rank in enumerate("6789TJQKA", start=1)},
                **{f"three_of_a_kind@{rank}": units for units, rank in enumerate("23456789TJQKA", start=10)},
            },
            "middle": {
                "three_of_a_kind": 2,
                "straight": 4,
                "flush": 8,
                "full_house": 12,
                "four_of_a_kind": 20,
                "straight_flush": 30,
                "royal_flush": 50,
            },
            "back": {
                "straight": 2,
                "flush": 4,
                "full_house": 6,
                "four_of_a_kind": 10,
                "straight_flush": 15,
                "royal_flush": 25,
            },
        },
    },
}

# The real tables, each from its public source (RULES.md section 6).
PRESETS["maubinh"] = {
    "wheel": "second",
    "scoop_multiplier": 2,
    "royalties_in_multiplier": True,
    "home_run_multiplier": 2,
    "home_run_min_opponents": 1,
    "foul_policy": "as_scooped",
    "foul_vs_foul": "as_laid",
    "ace_units": 1,
    "ace_basis": "table",
    "natural_vs_natural": "net",
    "natural_tiebreak": "none",
    "natural_settles_table": True,
    "false_declaration_units": 6,
    "quads_as_two_pairs": False,
    "trips_as_pair_plus_single": False,
    "three_straights_front_a23": False,
    "three_straights_wheel": False,
    "naturals": [
        ["three_straights", 6],
        ["three_flushes", 6],
        ["five_consecutive_pairs", 6],
        ["six_pairs", 6],
        ["five_pairs_and_trips", 6],
        ["dragon", 12],
        ["clean_dragon", 24],
    ],
    "royalties": {
        "front": {"three_of_a_kind": 3, "three_of_a_kind@A": 12},
        "middle": {
            "full_house": 2,
            "four_of_a_kind": 8,
            "four_of_a_kind@A": 32,
            "straight_flush": 10,
            "royal_flush": 20,
            "wheel_straight_flush": 14,
        },
        "back": {
            "four_of_a_kind": 4,
            "four_of_a_kind@A": 16,
            "straight_flush": 5,
            "royal_flush": 10,
            "wheel_straight_flush": 7,
        },
    },
}
PRESETS["shisanshui-rtxux"] = {
    "wheel": "second",
    "shooting": "no_lost_row",
    "scoop_multiplier": 2,
    "royalties_in_multiplier": True,
    "home_run_multiplier": 2,
    "home_run_min_opponents": 3,
    "home_run_counts_naturals": True,
    "natural_declaration": "auto",
    "natural_tiebreak": "none",
    "quads_as_two_pairs": False,
    "trips_as_pair_plus_single": False,
    "quads_as_trips": False,
    "three_flushes_distinct_suits": True,
    "naturals": [
        ["three_flushes", 3],
        ["three_straights", 3],
        ["six_pairs", 4],
        ["five_pairs_and_trips", 5],
        ["four_trips", 6],
        ["two_trips_three_pairs", 8],
        ["all_one_colour", 10],
        ["all_small", 12],
        ["all_big", 15],
        ["three_quads", 20],
        ["three_straight_flushes", 22],
        ["twelve_royals", 24],
        ["dragon", 26],
        ["clean_dragon", 52],
    ],
    "royalties": {
        "middle": {"full_house": 2, "four_of_a_kind": 8, "straight_flush": 10},
        "back": {"four_of_a_kind": 4, "straight_flush": 5},
    },
}
PRESETS["shisanshui-luosong"] = {
    "suit_tiebreak": "highest_card",
    "scoop_multiplier": 2,
    "royalties_in_multiplier": True,
    "home_run_multiplier": 2,
    "home_run_min_opponents": 2,
    "pair_cap": 12,
    "home_run_cap": 24,
    "horse_card": "Ah",
    "horse_multiplier": 2,
    "foul_policy": "as_scooped",
    "naturals": [["dragon", 26]],
    "royalties": "eastern",
}
PRESETS["shisanshui-puxian"] = {
    "wheel": "second",
    "scoop_multiplier": 2,
    "royalties_in_multiplier": True,
    "home_run_multiplier": 2,
    "home_run_min_opponents": 2,
    "home_run_scope": "table",
    "horse_card": "8h",
    "horse_multiplier": 2,
    "natural_vs_natural": "by_units",
    "naturals": [
        ["all_one_colour", 6],
        ["three_flushes", 6],
        ["three_straights", 6],
        ["six_pairs", 6],
        ["five_pairs_and_trips", 6],
        ["all_small", 6],
        ["all_big", 6],
        ["three_straight_flushes", 26],
        ["twelve_royals_and_one", 26],
        ["three_quads", 52],
        ["four_trips", 52],
        ["dragon", 52],
        ["clean_dragon", 104],
    ],
    "royalties": "eastern",
}
# The same server's 莆仙 rules with clubs and hearts added (加二色)
PRESETS["shisanshui-puxian-six"] = {
    **PRESETS["shisanshui-puxian"],
    "extra_suits": "ch",
    "naturals": [
        ["all_one_colour", 6],
        ["three_flushes", 6],
        ["three_straights", 6],
        ["six_pairs", 6],
        ["five_pairs_and_trips", 6],
        ["all_small", 6],
        ["all_big", 6],
        ["six_of_a_kind", 20],
        ["three_straight_flushes", 26],
        ["twelve_royals_and_one", 26],
        ["two_fives_and_trips", 26],
        ["seven_of_a_kind", 40],
        ["three_quads", 52],
        ["four_trips", 52],
        ["dragon", 52],
        ["eight_of_a_kind", 80],
        ["clean_dragon", 104],
    ],
    "royalties": {
        "front": {"three_of_a_kind": 3},
        "middle": {"full_house": 2, "four_of_a_kind": 8, "straight_flush": 10, "five_of_a_kind": 20},
        "back": {"four_of_a_kind": 4, "straight_flush": 5, "five_of_a_kind": 10},
    },
}
# The same rules with two jokers (鬼牌) and one 52-card deck
PRESETS["shisanshui-puxian-ghost"] = {**PRESETS["shisanshui-puxian-six"], "extra_suits": "", "jokers": 2}

_CHOICES: dict[str, tuple[str, ...]] = {
    "wheel": ("low", "second"),
    "suit_tiebreak": ("off", "highest_card", "by_card"),
    "middle_vs_back": ("non_strict", "strict"),
    "overall_basis": ("two_rows", "total"),
    "royalty_mode": ("replace", "add"),
    "royalty_condition": ("win_row", "always"),
    "foul_policy": ("lose_all_rows", "as_scooped", "as_laid"),
    "natural_declaration": ("must_declare", "auto"),
    "natural_tiebreak": ("full", "top_pair_only", "none"),
    "natural_vs_natural": ("by_kind", "by_units", "net", "push"),
    "natural_units_mode": ("table", "as_home_run"),
    "foul_vs_foul": ("push", "as_laid"),
    "fantasyland": ("off", "standard", "progressive"),
    "ofc_variant": ("classic", "pineapple"),
    "ace_basis": ("pairwise", "table"),
    "shooting": ("scoop", "no_lost_row"),
    "home_run_scope": ("own_pairs", "table"),
}
_BOOLS = (
    "royalties_in_multiplier",
    "royalty_cancel",
    "foul_pays_royalties",
    "quads_as_two_pairs",
    "trips_as_pair_plus_single",
    "three_straights_front_a23",
    "three_straights_front_qka",
    "three_straights_wheel",
    "three_flushes_distinct_suits",
    "quads_as_trips",
    "home_run_counts_naturals",
    "foul_counts_for_home_run",
    "natural_settles_table",
)
_INTS = (
    "overall_unit",
    "scoop_bonus",
    "scoop_multiplier",
    "home_run_multiplier",
    "home_run_min_opponents",
    "surrender_units",
    "ace_units",
    "pair_cap",
    "home_run_cap",
    "home_run_bonus",
    "false_declaration_units",
    "horse_multiplier",
)


def _royalty_table(value: Any) -> dict[str, dict[str, int]]:
    """A royalty table with all three rows, from a table name or a (possibly partial) mapping."""
    if isinstance(value, str):
        if value not in ROYALTY_TABLES:
            raise ValueError(f"unknown royalty table {value!r}; known: {', '.join(ROYALTY_TABLES)}")
        return copy.deepcopy(ROYALTY_TABLES[value])
    if not isinstance(value, Mapping):
        raise ValueError(f"royalties must be a table name or a mapping, got {value!r}")
    table: dict[str, dict[str, int]] = {row: {} for row in ROWS}
    for row, entries in value.items():
        if row not in table:
            raise ValueError(f"royalty table row must be front, middle or back, got {row!r}")
        table[row] = {str(key): int(units) for key, units in entries.items()}
    return table


def _natural_pairs(value: Any) -> list[list[Any]]:
    """``naturals`` as a list of [name, units], accepting [name, units] pairs or {name: units} entries."""
    if isinstance(value, Mapping):
        value = list(value.items())
    pairs: list[list[Any]] = []
    for entry in value:
        if isinstance(entry, Mapping):
            if len(entry) != 1:
                raise ValueError(f"a naturals entry maps one name to its units, got {entry!r}")
            ((name, units),) = entry.items()
        else:
            name, units = entry
        pairs.append([str(name), int(units)])
    return pairs


def resolve_rules(preset_or_dict: str | Mapping[str, Any] = "pagat", **overrides: Any) -> dict[str, Any]:
    """The resolved rules dict (RULES.md section 13) of a preset or a knob mapping, with overrides.

    Args:
        preset_or_dict: a preset name of RULES.md section 6 (``"pagat"``, ``"pagat-bonus"``,
            ``"wikipedia-2-4"``, ``"wikipedia-1-6"``, ``"shisanzhang-hk"``, ``"shisanshui-app"``,
            ``"capsa-susun"``, ``"pusoy"``), or a mapping of knobs. A mapping may name a base preset under
            the key ``"preset"``; knobs it leaves out take their defaults (or the base preset's).
        **overrides: knob values applied last, e.g. ``resolve_rules("pagat", scoop_bonus=3)``.

    Returns:
        A dict with every knob by name; ``royalties`` expanded to a full ``{front, middle, back}`` table and
        ``naturals`` a list of ``[name, units]`` pairs, lowest first.

    Raises:
        ValueError: on an unknown preset, knob, or knob value.
    """
    if isinstance(preset_or_dict, str):
        base_name, knobs = preset_or_dict, {}
    else:
        knobs = dict(preset_or_dict)
        base_name = knobs.pop("preset", None)
    rules: dict[str, Any] = copy.deepcopy(DEFAULT_RULES)
    if base_name is not None:
        if base_name not in PRESETS:
            raise ValueError(f"unknown preset {base_name!r}; known: {', '.join(PRESETS)}")
        rules.update(copy.deepcopy(PRESETS[base_name]))
    for name, value in {**knobs, **overrides}.items():
        if name not in DEFAULT_RULES:
            raise ValueError(f"unknown rules knob {name!r}")
        rules[name] = copy.deepcopy(value)
    rules["royalties"] = _royalty_table(rules["royalties"])
    rules["naturals"] = _natural_pairs(rules["naturals"])
    natural_list(rules)  # checks the kind names
    for name, choices in _CHOICES.items():
        if rules[name] not in choices:
            raise ValueError(f"{name} must be one of {choices}, got {rules[name]!r}")
    pack = rules["extra_suits"]
    if not isinstance(pack, str) or len(set(pack)) != len(pack) or len(pack) > 2 or set(pack) - set("cdhs"):
        raise ValueError(f"extra_suits must be at most two different suit letters, got {pack!r}")
    if isinstance(rules["jokers"], bool) or rules["jokers"] not in (0, 1, 2):
        raise ValueError(f"jokers must be 0, 1 or 2, got {rules['jokers']!r}")
    if sorted(str(rules["suit_order"])) != sorted("cdhs") or len(rules["suit_order"]) != 4:
        raise ValueError(
            f"suit_order must be an order of the letters s, h, d, c, got {rules['suit_order']!r}"
        )
    for name in _BOOLS:
        if not isinstance(rules[name], bool):
            raise ValueError(f"{name} must be true or false, got {rules[name]!r}")
    for name in _INTS:
        value = rules[name]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    base = rules["row_base"]
    if isinstance(base, Mapping):
        base = [base.get(row) for row in ROWS]
    base = list(base)
    if len(base) != 3 or any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in base):
        raise ValueError(f"row_base must be three positive integers, got {rules['row_base']!r}")
    rules["row_base"] = base
    if rules["horse_card"] is not None:
        rules["horse_card"] = format_card(card_codes([rules["horse_card"]], counts=(1,))[0])
    return rules


def _substituted(
    front: CardsInput, middle: CardsInput, back: CardsInput, rules: Mapping[str, Any]
) -> tuple[tuple[int, ...], ...]:
    """The three rows, checked, each joker replaced by its row's card (RULES.md 1.2)."""
    pack = knob(rules, "extra_suits")
    jokers = knob(rules, "jokers")
    rows = (
        card_codes(front, counts=(3,), extra_suits=pack, jokers=jokers),
        card_codes(middle, counts=(5,), extra_suits=pack, jokers=jokers),
        card_codes(back, counts=(5,), extra_suits=pack, jokers=jokers),
    )
    return tuple(substitute(row, rules) for row in rows)


def is_foul(front: CardsInput, middle: CardsInput, back: CardsInput, rules: Mapping[str, Any]) -> bool:
    """Whether a setting is foul (RULES.md 9): legal only when back >= middle >= front by strength.

    Under ``middle_vs_back="strict"`` an equal middle and back is a foul. Suits never matter here, even with
    ``suit_tiebreak`` on. A front never equals a middle (the encoding puts a front below every five-card row
    that starts with the same tie-break values).
    """
    wheel = knob(rules, "wheel")
    f, m, b = (evaluate(row, wheel, SUBSTITUTED) for row in _substituted(front, middle, back, rules))
    if f > m:
        return True
    if m > b:
        return True
    return m == b and knob(rules, "middle_vs_back") == "strict"


_RANKS = "23456789TJQKA"


def _deciding_rank(cards: Sequence[int], strength: int) -> int:
    """The rank a "category@R" key names (RULES.md 4.1): the straight's top card (the 5 in a wheel, under
    either wheel knob), else the first value of the tie-break vector."""
    if category_name(strength) in ("straight", "straight_flush"):
        ranks = {card // 4 + 2 for card in cards}
        return 5 if ranks == {14, 2, 3, 4, 5} else max(ranks)
    return tiebreak_vector(strength)[0]


def _royalty_of_row(
    row: str, cards: Sequence[int], strength: int, table: Mapping[str, Mapping[str, int]]
) -> int:
    entries = table.get(row, {})
    name = category_name(strength)
    rank = _deciding_rank(cards, strength)
    if name == "straight_flush":
        if rank == 14 and "royal_flush" in entries:
            return int(entries["royal_flush"])
        if rank == 5 and "wheel_straight_flush" in entries:
            return int(entries["wheel_straight_flush"])
    keyed = f"{name}@{_RANKS[rank - 2]}"
    if keyed in entries:
        return int(entries[keyed])
    return int(entries.get(name, 0))


def royalties(
    front: CardsInput, middle: CardsInput, back: CardsInput, rules: Mapping[str, Any]
) -> tuple[int, int, int]:
    """The royalty table values (front, middle, back) of a setting's three rows (RULES.md 9).

    Each row looks up ``rules["royalties"][row]``: a straight flush first ``royal_flush`` (A-high) or
    ``wheel_straight_flush`` (A-2-3-4-5) when listed, then every row its category at its deciding rank
    (``"one_pair@6"``), then its category name; 0 when none is listed. The value is reported whether or
    not the setting is foul.
    """
    wheel = knob(rules, "wheel")
    table = knob(rules, "royalties")
    if isinstance(table, str):
        table = _royalty_table(table)
    rows = _substituted(front, middle, back, rules)
    values = [
        _royalty_of_row(name, cards, evaluate(cards, wheel, SUBSTITUTED), table)
        for name, cards in zip(ROWS, rows)
    ]
    return values[0], values[1], values[2]


def fantasyland_cards(
    front: CardsInput, middle: CardsInput, back: CardsInput, rules: Mapping[str, Any], in_fantasyland: bool
) -> int:
    """Cards dealt next hand in fantasyland to a player with this legal setting (RULES.md 4.2), 0 if none.

    A player who played this hand in fantasyland stays with 14 cards when it has trips in front, a full
    house or better in the middle, or four of a kind or better in the back. Any other player enters with
    a pair of queens or better in front: 14 cards under ``"standard"``; under ``"progressive"`` queens 14,
    kings 15, aces 16 and trips 17.
    """
    mode = knob(rules, "fantasyland")
    if mode == "off":
        return 0
    wheel = knob(rules, "wheel")
    f, m, b = (evaluate(row, wheel, SUBSTITUTED) for row in _substituted(front, middle, back, rules))
    top = category_name(f)
    if in_fantasyland:
        stays = (
            top == "three_of_a_kind"
            or category_name(m) in ("full_house", "four_of_a_kind", "straight_flush")
            or category_name(b) in ("four_of_a_kind", "straight_flush")
        )
        return 14 if stays else 0
    if top == "three_of_a_kind":
        return 17 if mode == "progressive" else 14
    pair = tiebreak_vector(f)[0]
    if top != "one_pair" or pair < 12:
        return 0
    return {12: 14, 13: 15, 14: 16}[pair] if mode == "progressive" else 14


class _Player:
    """One seat at the table, with everything RULES.md section 9 computes before any pair."""

    def __init__(self, index: int, spec: Mapping[str, Any], rules: Mapping[str, Any]) -> None:
        self.index = index
        who = f"player {index}"
        if not isinstance(spec, Mapping):
            raise ValueError(f"{who}: expected a dict with front/middle/back or declared")
        has_setting = any(row in spec for row in ROWS)
        if "declared" in spec and has_setting:
            raise ValueError(f"{who}: give either a setting (front, middle, back) or declared, not both")
        self.declared = "declared" in spec
        self.rows: tuple[tuple[int, ...], ...] | None
        pack = knob(rules, "extra_suits")
        jokers = knob(rules, "jokers")
        try:
            if self.declared:
                self.cards = card_codes(spec["declared"], counts=(13,), extra_suits=pack, jokers=jokers)
                self.rows = None
            else:
                missing = [row for row in ROWS if row not in spec]
                if missing:
                    raise ValueError(f"missing {', '.join(missing)}")
                self.rows = (
                    card_codes(spec["front"], counts=(3,), extra_suits=pack, jokers=jokers),
                    card_codes(spec["middle"], counts=(5,), extra_suits=pack, jokers=jokers),
                    card_codes(spec["back"], counts=(5,), extra_suits=pack, jokers=jokers),
                )
                self.cards = self.rows[0] + self.rows[1] + self.rows[2]
                # Across the rows as within one: no card more often than the pack holds it (RULES.md 1).
                card_codes(self.cards, counts=(13,), extra_suits=pack, jokers=jokers)
                if not pack and len(set(self.cards)) != 13:
                    raise ValueError("a card appears in two rows")
        except (ValueError, TypeError) as error:
            raise ValueError(f"{who}: {error}") from None

        if self.rows is None:
            self.foul = False
            self.royalties = (0, 0, 0)
        else:
            self.foul = is_foul(self.rows[0], self.rows[1], self.rows[2], rules)
            self.royalties = royalties(self.rows[0], self.rows[1], self.rows[2], rules)

        listed = natural_list(rules)
        self.natural: str | None = None
        if knob(rules, "natural_declaration") == "auto" or self.declared:
            self.natural = detect_natural(self.cards, rules)
        # A false declaration: with false_declaration_units > 0 it is paid for, otherwise refused.
        self.false_declaration = (
            self.declared and self.natural is None and int(knob(rules, "false_declaration_units")) > 0
        )
        if self.declared and self.natural is None and not self.false_declaration:
            if not listed:
                raise ValueError(f"{who} declared a natural but the rules list no naturals")
            raise ValueError(f"{who} declared a natural but holds none of the listed kinds")
        self.natural_rank = -1
        self.natural_units = 0
        for position, (name, units) in enumerate(listed):
            if name == self.natural:
                self.natural_rank, self.natural_units = position, units
        self.natural_key = natural_key(self.natural, self.cards, rules) if self.natural else ()
        # RULES.md 11: the aces held (ace_units) and whether the horse card is among the 13 cards.
        self.aces = sum(1 for card in self.cards if card // 4 == 12)
        horse = knob(rules, "horse_card")
        self.horse = horse is not None and card_codes([horse], counts=(1,))[0] in self.cards


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _won_row_value(own_royalty: int, mode: str, base: int = 1) -> int:
    """Worth of a won row against an opponent with no royalty (RULES.md 11.5); ``base`` is the row's
    ``row_base``."""
    if mode == "add":
        return base + own_royalty
    return own_royalty if own_royalty > 0 else base


def _row_value(result: int, r_i: int, r_j: int, rules: Mapping[str, Any], base: int = 1) -> int:
    """Value of one row from i's side (RULES.md 11.5), given the result, both royalties and the row's
    ``row_base`` (what the row pays plainly)."""
    mode = knob(rules, "royalty_mode")
    if knob(rules, "royalty_cancel") and r_i > 0 and r_j > 0:
        return result * base
    if knob(rules, "royalty_condition") == "win_row":
        if result > 0:
            return _won_row_value(r_i, mode, base)
        if result < 0:
            return -_won_row_value(r_j, mode, base)
        return 0
    # royalty_condition == "always": every holder collects its royalty, row won or not.
    value = r_i - r_j
    if mode == "add":
        return value + result * base
    if result > 0 and r_i == 0:
        value += base
    elif result < 0 and r_j == 0:
        value -= base
    return value


def _empty_pair(a: _Player, b: _Player, stake: int, surrendered: Sequence[bool]) -> dict[str, Any]:
    return {
        "i": a.index,
        "j": b.index,
        "decided_by": "rows",
        "rows": None,
        "foul": [a.foul, b.foul],
        "natural": [a.natural, b.natural],
        "royalties": [list(a.royalties), list(b.royalties)],
        "surrendered": [bool(surrendered[a.index]), bool(surrendered[b.index])],
        "natural_units": 0,
        "surrender_units": 0,
        "row_units": 0,
        "royalty_units": 0,
        "overall_units": 0,
        "scoop": 0,
        "scoop_bonus_units": 0,
        "multiplier": 1,
        "subtotal": 0,
        "stake": stake,
        "home_run": 1,
        "units": 0,
        "false_declaration_units": 0,
        "ace_units": 0,
        "capped": False,
        "home_run_bonus_units": 0,
        "home_run_capped": False,
        "horse": 1,
        "bet": 1,
    }


def _natural_pays(player: _Player, rules: Mapping[str, Any]) -> int:
    """What a player's natural collects (RULES.md 11.1): its listed units, or under
    ``natural_units_mode="as_home_run"`` what a plain sweep of the table pays."""
    if knob(rules, "natural_units_mode") == "as_home_run":
        sweep = sum(int(base) for base in knob(rules, "row_base"))
        return sweep * int(knob(rules, "scoop_multiplier")) * int(knob(rules, "home_run_multiplier"))
    return player.natural_units


def _natural_units(a: _Player, b: _Player, rules: Mapping[str, Any]) -> int:
    """Natural units of a pair from a's view (RULES.md 11.1); 0 when neither holds one."""
    if a.natural is None and b.natural is None:
        return 0
    if b.natural is None:
        return _natural_pays(a, rules)
    if a.natural is None:
        return -_natural_pays(b, rules)
    pays_a, pays_b = _natural_pays(a, rules), _natural_pays(b, rules)
    mode = knob(rules, "natural_vs_natural")
    if mode == "push":
        return 0
    if mode == "net":
        return pays_a - pays_b
    if mode == "by_units":
        if pays_a == pays_b:
            return 0
        return pays_a if pays_a > pays_b else -pays_b
    # by_kind: the later kind in the list wins; one kind goes by the tie-break key.
    if a.natural_rank != b.natural_rank:
        return pays_a if a.natural_rank > b.natural_rank else -pays_b
    if a.natural_key != b.natural_key:
        return pays_a if a.natural_key > b.natural_key else -pays_b
    return 0


def _clamp(value: int, cap: int) -> int:
    return max(-cap, min(cap, value))


def _settle_pair(
    a: _Player,
    b: _Player,
    rules: Mapping[str, Any],
    stake: int,
    surrendered: Sequence[bool],
    *,
    table: Mapping[str, bool],
) -> dict[str, Any]:
    """The breakdown of one pair (a = i, b = j, i < j), from i's view, up to the amount before the home run
    (``pair["subtotal"]``, ``pair["capped"]``; the rest is filled in by ``settle``)."""
    pair = _empty_pair(a, b, stake, surrendered)
    if a.rows is not None and b.rows is not None:
        pair["rows"] = [compare_rows(x, y, rules) for x, y in zip(a.rows, b.rows)]
    settles_table = bool(knob(rules, "natural_settles_table"))

    # 0. A false declaration: the false declarer pays each opponent; with natural_settles_table it ends the
    # round, and the other pairs pay nothing.
    if a.false_declaration or b.false_declaration or (settles_table and table["false_declaration"]):
        pair["decided_by"] = "false_declaration"
        price = int(knob(rules, "false_declaration_units"))
        units = 0
        if a.false_declaration and not b.false_declaration:
            units = -price
        elif b.false_declaration and not a.false_declaration:
            units = price
        pair["false_declaration_units"] = units
        pair["subtotal"] = units
        return pair

    # 1. Naturals (with natural_settles_table: every pair of a round in which someone holds one).
    if a.natural is not None or b.natural is not None or (settles_table and table["natural"]):
        pair["decided_by"] = "natural"
        units = _natural_units(a, b, rules)
        pair["natural_units"] = units
        pair["subtotal"] = units
        return pair

    # Under foul_policy="as_laid" a foul changes nothing; under foul_vs_foul="as_laid" two fouled hands
    # compare their rows as laid.
    foul_a, foul_b = a.foul, b.foul
    if knob(rules, "foul_policy") == "as_laid" or (
        knob(rules, "foul_vs_foul") == "as_laid" and foul_a and foul_b
    ):
        foul_a = foul_b = False

    # 2. Surrender.
    s_a, s_b = pair["surrendered"]
    if s_a or s_b:
        pair["decided_by"] = "surrender"
        units = 0
        price = int(knob(rules, "surrender_units"))
        if s_a and not s_b and not foul_b:
            units = -price
        elif s_b and not s_a and not foul_a:
            units = price
        pair["surrender_units"] = units
        pair["subtotal"] = units
        return pair

    # 3. Fouls, and 4. rows. Chi A is paid in every pair that gets this far, two fouled hands included
    # (under ace_basis="pairwise"; "table" counts it per player in ``settle``).
    if knob(rules, "ace_basis") == "pairwise":
        pair["ace_units"] = int(knob(rules, "ace_units")) * (a.aces - b.aces)
    mode = knob(rules, "royalty_mode")
    as_scooped = knob(rules, "foul_policy") == "as_scooped"
    bases = [int(v) for v in knob(rules, "row_base")]
    if foul_a and foul_b:
        pair["decided_by"] = "foul"
        return pair
    if foul_a or foul_b:
        pair["decided_by"] = "foul"
        legal, sign = (b, -1) if foul_a else (a, 1)
        results = [sign] * 3
        if knob(rules, "foul_pays_royalties"):
            values = [sign * _won_row_value(r, mode, base) for r, base in zip(legal.royalties, bases)]
        else:
            values = [sign * base for base in bases]
        counts_as_scoop = as_scooped
    else:
        assert pair["rows"] is not None
        results = list(pair["rows"])
        values = [
            _row_value(result, r_a, r_b, rules, base)
            for result, r_a, r_b, base in zip(results, a.royalties, b.royalties, bases)
        ]
        counts_as_scoop = True

    # 5. Row value.
    row_units = sum(result * base for result, base in zip(results, bases))
    royalty_units = sum(values) - row_units
    pair["row_units"] = row_units
    pair["royalty_units"] = royalty_units

    # 6. Overall unit.
    overall = int(knob(rules, "overall_unit"))
    overall_units = 0
    if overall > 0 and counts_as_scoop:
        if knob(rules, "overall_basis") == "two_rows":
            if results.count(1) >= 2:
                overall_units = overall
            elif results.count(-1) >= 2:
                overall_units = -overall
        else:
            overall_units = overall * _sign(row_units + royalty_units)
    pair["overall_units"] = overall_units

    # 7. Scoop.
    scoop = 0
    if counts_as_scoop:
        if results == [1, 1, 1]:
            scoop = 1
        elif results == [-1, -1, -1]:
            scoop = -1
    # Shooting: the multiplier needs a scoop, or under shooting="no_lost_row" a side that won a row and
    # lost none (ties allowed).
    shot = scoop != 0
    if counts_as_scoop and knob(rules, "shooting") == "no_lost_row":
        shot = (1 in results) != (-1 in results)
    multiplier = int(knob(rules, "scoop_multiplier")) if shot else 1
    pair["scoop"] = scoop
    pair["scoop_bonus_units"] = scoop * int(knob(rules, "scoop_bonus"))
    pair["multiplier"] = multiplier

    # 8. Subtotal, and the pair cap (pairs decided by rows or a foul only).
    royalty_factor = multiplier if knob(rules, "royalties_in_multiplier") else 1
    subtotal = (
        multiplier * (row_units + overall_units + pair["scoop_bonus_units"]) + royalty_factor * royalty_units
    )
    pair["subtotal"] = subtotal
    cap = int(knob(rules, "pair_cap"))
    pair["capped"] = cap > 0 and abs(subtotal) > cap
    return pair


def _check_stakes(stakes: Any, count: int) -> list[list[int]]:
    if stakes is None:
        return [[1] * count for _ in range(count)]
    matrix = [list(row) for row in stakes]
    if len(matrix) != count or any(len(row) != count for row in matrix):
        raise ValueError(f"stakes must be a {count} x {count} matrix")
    for i in range(count):
        for j in range(count):
            value = matrix[i][j]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"stakes[{i}][{j}] (players {i} and {j}) must be a non-negative int")
            if value != matrix[j][i]:
                raise ValueError(f"stakes must be symmetric: stakes[{i}][{j}] != stakes[{j}][{i}]")
    return matrix


def _check_surrender(surrender: Any, count: int, rules: Mapping[str, Any]) -> list[bool]:
    if surrender is None:
        return [False] * count
    flags = [bool(flag) for flag in surrender]
    if len(flags) != count:
        raise ValueError(f"surrender must give one flag per player ({count}), got {len(flags)}")
    for index, flag in enumerate(flags):
        if flag and int(knob(rules, "surrender_units")) == 0:
            raise ValueError(f"player {index} surrendered but surrender_units is 0 (surrender is off)")
    return flags


def _check_banker(banker: Any, bets: Any, count: int) -> list[int]:
    """The bets of a banker round (all 1 when not given); checks the banker seat and every bet."""
    if banker is None:
        if bets is not None:
            raise ValueError("bets are given but the round names no banker")
        return [1] * count
    if isinstance(banker, bool) or not isinstance(banker, int) or not 0 <= banker < count:
        raise ValueError(f"banker must be a seat 0..{count - 1}, got {banker!r}")
    if bets is None:
        return [1] * count
    values = list(bets)
    if len(values) != count:
        raise ValueError(f"bets must give one bet per player ({count}), got {len(values)}")
    for index, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000:
            raise ValueError(f"bets[{index}] (player {index}) must be an int from 1 to 1000, got {value!r}")
    return values


def _is_shot(pair: Mapping[str, Any], player: int, rules: Mapping[str, Any]) -> bool:
    """Whether the pair counts for ``player``'s home run: a scoop on its side, with
    ``home_run_counts_naturals`` a natural win, or with ``foul_counts_for_home_run`` a win because the
    other hand fouled."""
    side = 1 if pair["i"] == player else -1
    if pair["scoop"] == side:
        return True
    natural_win = pair["decided_by"] == "natural" and _sign(pair["natural_units"]) == side
    if knob(rules, "home_run_counts_naturals") and natural_win:
        return True
    # A pair decided by one foul: the other side fouled (the player's own is False, the opponent's True).
    own, other = pair["foul"] if side == 1 else pair["foul"][::-1]
    foul_win = pair["decided_by"] == "foul" and other and not own
    return bool(knob(rules, "foul_counts_for_home_run")) and foul_win


def settle(
    players: Sequence[Mapping[str, Any]],
    rules: Mapping[str, Any] | str,
    stakes: Sequence[Sequence[int]] | None = None,
    surrender: Sequence[bool] | None = None,
    *,
    banker: int | None = None,
    bets: Sequence[int] | None = None,
    fantasyland: Sequence[bool] | None = None,
) -> dict[str, Any]:
    """Settle one round (RULES.md section 11): every pair of players, then the home run.

    Args:
        players: 2 to 4 dicts, each ``{"front": [3 cards], "middle": [5], "back": [5]}`` or
            ``{"declared": [13 cards]}`` (a declared natural). Cards are codes 0..51 or card text.
        rules: the resolved rules dict of RULES.md section 13 (see ``resolve_rules``), or a preset name.
        stakes: optional P x P symmetric matrix of non-negative ints; pair (i, j) is multiplied by
            ``stakes[i][j]`` (default 1).
        surrender: optional list of P flags; a flag needs ``surrender_units > 0``.
        banker: optional seat of the banker: then only the pairs with the banker are settled.
        bets: optional list of P ints 1..1000 (banker rounds only): each pair with the banker is
            multiplied by the other player's bet.
        fantasyland: optional list of P flags, whether each player played this hand in fantasyland; a
            flag needs ``fantasyland`` other than ``"off"``, and then a table has at most 3 players.

    Returns:
        ``{"net": [units per player], "pairs": [breakdown per pair (0,1), (0,2), ..., (P-2,P-1)],
        "home_run": [bool per player], "fantasyland_cards": [int per player], "ace_units": [int per
        player]}`` (``ace_units``: each player's Chi A under ``ace_basis="table"``, else 0). Each pair's
        ``units`` are from player i's view; ``net`` (pairs plus ``ace_units``) sums to 0.

    Raises:
        ValueError: on a bad player count, bad or repeated cards (naming the player), a declared player
            without a natural, bad stakes, a surrender flag while surrender is off, a bad banker or bets.
    """
    if isinstance(rules, str):
        rules = resolve_rules(rules)
    count = len(players)
    # RULES.md 1: one 52-card deck seats 2 to 4; each added suit seats one more.
    pack = knob(rules, "extra_suits")
    if not 2 <= count <= 4 + len(pack):
        raise ValueError(f"a table has 2 to {4 + len(pack)} players with extra_suits {pack!r}, got {count}")
    if knob(rules, "fantasyland") != "off" and count > 3:
        raise ValueError(f"with fantasyland on a table has 2 or 3 players, got {count}")
    table_aces = knob(rules, "ace_basis") == "table"
    if table_aces and (count != 4 or banker is not None or pack or knob(rules, "jokers")):
        raise ValueError(
            f"ace_basis 'table' needs 4 players, no banker and one 52-card deck, got {count} players"
        )
    seats = [_Player(index, spec, rules) for index, spec in enumerate(players)]
    owner: dict[int, list[int]] = {}
    for seat in seats:
        for card in seat.cards:
            holders = owner.setdefault(card, [])
            # A joker (52, 53) is one card of the pack (RULES.md 1.2).
            if len(holders) >= (1 if card >= 52 else copies_in_pack(card, pack)):
                held = " and ".join(f"player {p}" for p in [*holders, seat.index])
                raise ValueError(
                    f"card {format_card(card)} is held by {held}: more copies than the pack holds"
                )
            holders.append(seat.index)
    matrix = _check_stakes(stakes, count)
    flags = _check_surrender(surrender, count, rules)
    bet_of = _check_banker(banker, bets, count)
    table = {
        "natural": any(seat.natural is not None for seat in seats),
        "false_declaration": any(seat.false_declaration for seat in seats),
    }
    in_fantasyland = [False] * count if fantasyland is None else [bool(flag) for flag in fantasyland]
    if len(in_fantasyland) != count:
        raise ValueError(f"fantasyland must give one flag per player ({count}), got {len(in_fantasyland)}")
    if any(in_fantasyland) and knob(rules, "fantasyland") == "off":
        raise ValueError(f"player {in_fantasyland.index(True)} played in fantasyland but fantasyland is off")
    cards_next = [
        0
        if seat.rows is None or seat.foul or flags[seat.index]
        else fantasyland_cards(seat.rows[0], seat.rows[1], seat.rows[2], rules, in_fantasyland[seat.index])
        for seat in seats
    ]

    pairs = []
    for i in range(count):
        for j in range(i + 1, count):
            if banker is not None and banker not in (i, j):
                continue  # a banker round settles the banker's pairs only
            pair = _settle_pair(seats[i], seats[j], rules, matrix[i][j], flags, table=table)
            if banker is not None:
                pair["bet"] = bet_of[j if i == banker else i]
            if knob(rules, "horse_card") is not None and seats[i].horse != seats[j].horse:
                pair["horse"] = int(knob(rules, "horse_multiplier"))
            pairs.append(pair)

    # The amount after pair_cap, for each pair (the cap applies to pairs decided by rows or a foul).
    cap = int(knob(rules, "pair_cap"))
    amount = []
    for pair in pairs:
        value = pair["subtotal"]
        if cap > 0 and pair["decided_by"] in ("rows", "foul"):
            value = _clamp(value, cap)
        amount.append(value)

    # Home run: a player who scoops every opponent, with at least home_run_min_opponents of them (in a
    # banker round only the banker can): x home_run_multiplier, + home_run_bonus, then home_run_cap. Under
    # home_run_scope="table" every other pair is multiplied too, without the bonus or the cap.
    home_run = [False] * count
    multiplier = int(knob(rules, "home_run_multiplier"))
    bonus = int(knob(rules, "home_run_bonus"))
    hr_cap = int(knob(rules, "home_run_cap"))
    if (multiplier != 1 or bonus > 0) and count - 1 >= int(knob(rules, "home_run_min_opponents")):
        for p in range(count):
            if banker is not None and p != banker:
                continue
            mine = [k for k, pair in enumerate(pairs) if p in (pair["i"], pair["j"])]
            if all(_is_shot(pairs[k], p, rules) for k in mine):
                home_run[p] = True
                for k in mine:
                    pair = pairs[k]
                    side = 1 if pair["i"] == p else -1
                    pair["home_run"] = multiplier
                    pair["home_run_bonus_units"] = side * bonus
                    value = amount[k] * multiplier + side * bonus
                    if hr_cap > 0 and abs(value) > hr_cap:
                        pair["home_run_capped"] = True
                        value = _clamp(value, hr_cap)
                    amount[k] = value
                if knob(rules, "home_run_scope") == "table":
                    for k, pair in enumerate(pairs):
                        if k not in mine:
                            pair["home_run"] = multiplier
                            amount[k] *= multiplier

    # Under ace_basis="table" each player's Chi A stands apart from the pairs: aces - 1 each, none in a
    # round that declarations settle (natural_settles_table with a natural or a false declaration).
    settled_by_declarations = bool(knob(rules, "natural_settles_table")) and (
        table["natural"] or table["false_declaration"]
    )
    ace_part = [0] * count
    if table_aces and not settled_by_declarations:
        ace_part = [int(knob(rules, "ace_units")) * (seat.aces - 1) for seat in seats]

    # Chi A is a side payment: added after the caps and the home run, then horse, bet and stake multiply.
    net = list(ace_part)
    for pair, value in zip(pairs, amount):
        pair["units"] = (value + pair["ace_units"]) * pair["horse"] * pair["bet"] * pair["stake"]
        net[pair["i"]] += pair["units"]
        net[pair["j"]] -= pair["units"]
    return {
        "net": net,
        "pairs": pairs,
        "home_run": home_run,
        "fantasyland_cards": cards_next,
        "ace_units": ace_part,
    }


def __dir__() -> list[str]:
    return list(__all__)
