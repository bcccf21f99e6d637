"""Every knob's allowed values and stored form: the vocabulary ``Rules`` validates against.

Enum-like knobs are strings checked against ``CHOICES`` (their ``Literal`` types are exported); counts and
multipliers are ints in ``INT_RANGES``; flags are the ``BOOL_KNOBS``; ``royalties`` and ``naturals`` have
their own normal forms (``normalize_royalties``, ``normalize_naturals``). Every bad value raises
``ValueError`` naming the knob and listing what is allowed.

Stored forms (all immutable, so a ``Rules`` is hashable):

- enum-like knobs are strings, checked against the values RULES.md allows (``CHOICES``);
- counts and multipliers are ``int`` (``bool`` is not accepted as an int), flags are ``bool``;
- ``royalties`` is either the name of a built-in table (``"pagat"``, ``"eastern"``; see
  ``ROYALTY_TABLES``) or a tuple of ``(row, key, units)`` triples, rows front → middle → back and keys
  weakest category first (a category's rank keys ``"category@R"`` right after it, lowest rank first),
  entries that change nothing dropped (a 0 entry, unless it overrides a non-zero one: a rank key its
  category, ``royal_flush`` and ``wheel_straight_flush`` the straight flush). A table equal to a
  built-in one is stored as its name, and an empty table as ``()``, so equal tables compare equal
  whatever form they were given in. Input may also be a mapping ``{row: {key: units}}`` or any
  sequence of such triples.
- ``naturals`` is a tuple of ``(name, units)`` pairs, lowest kind first. Input may also be a list of
  ``[name, units]`` pairs, a list of one-entry mappings ``{name: units}``, or one ordered mapping.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Literal, Union, get_args

from chinese_poker.cards import format_card, parse_card

__all__ = [
    "BOOL_KNOBS",
    "CHOICES",
    "CHOICE_TEXT",
    "FRONT_CATEGORIES",
    "INT_RANGES",
    "KNOB_GUIDE",
    "MAX_UNITS",
    "NATURAL_NAMES",
    "RANK_LETTERS",
    "REMOVED_KNOBS",
    "ROWS",
    "ROYALTY_CATEGORIES",
    "ROYALTY_TABLES",
    "AceBasis",
    "Fantasyland",
    "FoulPolicy",
    "FoulVsFoul",
    "HomeRunScope",
    "MiddleVsBack",
    "NaturalDeclaration",
    "NaturalTiebreak",
    "NaturalUnitsMode",
    "NaturalVsNatural",
    "Naturals",
    "OverallBasis",
    "RowBase",
    "Royalties",
    "RoyaltyCondition",
    "RoyaltyMode",
    "RoyaltyTable",
    "Shooting",
    "SuitOrder",
    "SuitTiebreak",
    "Wheel",
    "check_units",
    "knob_error",
    "normalize_extra_suits",
    "normalize_horse_card",
    "normalize_naturals",
    "normalize_row_base",
    "normalize_royalties",
    "quoted",
    "rank_key_span",
    "read_only_table",
    "removed_knob_error",
]

#: The allowed values of each enum-like knob, as types (the first one is the default).
Wheel = Literal["low", "second"]
SuitTiebreak = Literal["off", "highest_card", "by_card"]
#: Any order of the four suit letters, highest first (itertools.permutations order of "shdc").
SuitOrder = Literal[
    "shdc", "shcd", "sdhc", "sdch", "schd", "scdh", "hsdc", "hscd", "hdsc", "hdcs", "hcsd", "hcds",
    "dshc", "dsch", "dhsc", "dhcs", "dcsh", "dchs", "cshd", "csdh", "chsd", "chds", "cdsh", "cdhs",
]  # fmt: skip
MiddleVsBack = Literal["non_strict", "strict"]
OverallBasis = Literal["two_rows", "total"]
RoyaltyMode = Literal["replace", "add"]
RoyaltyCondition = Literal["win_row", "always"]
FoulPolicy = Literal["lose_all_rows", "as_scooped", "as_laid"]
NaturalDeclaration = Literal["must_declare", "auto"]
NaturalTiebreak = Literal["full", "top_pair_only", "none"]
# settlement group (issue #10)
NaturalVsNatural = Literal["by_kind", "by_units", "net", "push"]
NaturalUnitsMode = Literal["table", "as_home_run"]
FoulVsFoul = Literal["push", "as_laid"]
#: The ``row_base`` knob as stored: units of a won front, middle and back.
RowBase = tuple[int, int, int]
# ofc group
Fantasyland = Literal["off", "standard", "progressive"]
# presets group
AceBasis = Literal["pairwise", "table"]
Shooting = Literal["scoop", "no_lost_row"]
HomeRunScope = Literal["own_pairs", "table"]

#: A custom royalty table as stored: ``(row, category, units)`` triples in canonical order.
RoyaltyTable = tuple[tuple[str, str, int], ...]
#: The ``royalties`` knob as stored: a built-in table's name or a custom table.
Royalties = Union[str, RoyaltyTable]
#: The ``naturals`` knob as stored: ``(name, units)`` pairs, lowest kind first.
Naturals = tuple[tuple[str, int], ...]

#: The three rows of a setting, in the order they are listed everywhere.
ROWS: tuple[str, ...] = ("front", "middle", "back")

#: Royalty table keys without a rank: the lower-case ``HandCategory`` names, weakest first, then
#: ``royal_flush`` and ``wheel_straight_flush``. A category may also be keyed at a rank, ``"one_pair@6"``.
ROYALTY_CATEGORIES: tuple[str, ...] = (
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
    "four_of_a_kind", "straight_flush", "five_of_a_kind", "royal_flush", "wheel_straight_flush",
)  # fmt: skip
#: The category keys (the ones a rank key ``"category@R"`` may name): all but the two straight flush keys.
_RANKED_CATEGORIES: tuple[str, ...] = ROYALTY_CATEGORIES[:10]

#: The ranks a ``"category@R"`` key may name, lowest first.
RANK_LETTERS = "23456789TJQKA"

# The deciding ranks (RULES.md 4.1) each category's rows can have: (lowest, highest) rank letters.
_FIVE_CARD_SPANS: Mapping[str, tuple[str, str]] = MappingProxyType({
    "high_card": ("7", "A"), "one_pair": ("2", "A"), "two_pair": ("3", "A"),
    "three_of_a_kind": ("2", "A"), "straight": ("5", "A"), "flush": ("7", "A"), "full_house": ("2", "A"),
    "four_of_a_kind": ("2", "A"), "straight_flush": ("6", "K"), "five_of_a_kind": ("2", "A"),
})  # fmt: skip
_FRONT_SPANS: Mapping[str, tuple[str, str]] = MappingProxyType({
    "high_card": ("4", "A"), "one_pair": ("2", "A"), "three_of_a_kind": ("2", "A"),
})  # fmt: skip


def rank_key_span(row: str, category: str) -> tuple[str, str] | None:
    """The lowest and highest rank ``R`` of a ``"category@R"`` key in ``row``; None when none can occur."""
    return (_FRONT_SPANS if row == "front" else _FIVE_CARD_SPANS).get(category)


#: The categories a three-card front can hold (RULES.md 2.3: no three-card straights or flushes).
FRONT_CATEGORIES: tuple[str, ...] = ("high_card", "one_pair", "three_of_a_kind")

#: Every natural (13-card special hand) a ``naturals`` list may name (RULES.md 5, RULES.md None10).
NATURAL_NAMES: tuple[str, ...] = (
    "six_pairs", "three_straights", "three_flushes", "dragon", "clean_dragon", "five_pairs_and_trips",
    "four_trips", "all_one_colour", "all_small", "all_big", "three_quads", "three_straight_flushes",
    "twelve_royals",
    # naturals group (issue #10): the kinds of real tables
    "five_consecutive_pairs", "two_trips_three_pairs", "one_red", "one_black", "twelve_royals_ten",
    "twelve_royals_and_one",
    # deck group (issue #15): kinds only a pack with added suits holds
    "six_of_a_kind", "seven_of_a_kind", "eight_of_a_kind", "two_fives_and_trips",
)  # fmt: skip

#: Upper bound of every unit count and multiplier [decided: keeps totals far inside the core's integers].
MAX_UNITS = 1000


def read_only_table(table: dict[str, dict[str, int]]) -> Mapping[str, Mapping[str, int]]:
    """A royalty table ``{row: {category: units}}`` as read-only mappings, every row present."""
    return MappingProxyType({row: MappingProxyType(dict(table.get(row, {}))) for row in ROWS})


#: The built-in royalty tables of RULES.md section 4 (units a won row is worth in ``replace`` mode).
ROYALTY_TABLES: Mapping[str, Mapping[str, Mapping[str, int]]] = MappingProxyType({
    "pagat": read_only_table({
        "front": {"three_of_a_kind": 3},
        "middle": {"full_house": 2, "four_of_a_kind": 4, "straight_flush": 5},
        "back": {"four_of_a_kind": 4, "straight_flush": 5},
    }),
    "eastern": read_only_table({
        "front": {"three_of_a_kind": 3},
        "middle": {"full_house": 2, "four_of_a_kind": 8, "straight_flush": 10},
        "back": {"four_of_a_kind": 4, "straight_flush": 5},
    }),
})  # fmt: skip

#: The allowed values of every enum-like knob, the first being the default.
CHOICES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "wheel": get_args(Wheel),
    "suit_tiebreak": get_args(SuitTiebreak),
    "suit_order": get_args(SuitOrder),
    "middle_vs_back": get_args(MiddleVsBack),
    "overall_basis": get_args(OverallBasis),
    "royalty_mode": get_args(RoyaltyMode),
    "royalty_condition": get_args(RoyaltyCondition),
    "foul_policy": get_args(FoulPolicy),
    "natural_declaration": get_args(NaturalDeclaration),
    "natural_tiebreak": get_args(NaturalTiebreak),
    # settlement group (issue #10)
    "natural_vs_natural": get_args(NaturalVsNatural),
    "natural_units_mode": get_args(NaturalUnitsMode),
    "foul_vs_foul": get_args(FoulVsFoul),
    # ofc group
    "fantasyland": get_args(Fantasyland),
    # presets group
    "ace_basis": get_args(AceBasis),
    "shooting": get_args(Shooting),
    "home_run_scope": get_args(HomeRunScope),
})  # fmt: skip

#: How an error names the allowed values of a knob whose list is long (else they are listed).
CHOICE_TEXT: Mapping[str, str] = MappingProxyType({
    "suit_order": "any order of the four suit letters s, h, d, c, highest first, such as 'shdc' or 'scdh'",
})  # fmt: skip

#: The allowed range of every integer knob (low, high).
INT_RANGES: Mapping[str, tuple[int, int]] = MappingProxyType({
    "overall_unit": (0, MAX_UNITS),
    "scoop_bonus": (0, MAX_UNITS),
    "scoop_multiplier": (1, MAX_UNITS),
    "home_run_multiplier": (1, MAX_UNITS),
    "home_run_min_opponents": (1, 3),
    "surrender_units": (0, MAX_UNITS),
    # settlement group (issue #10)
    "ace_units": (0, MAX_UNITS),
    "pair_cap": (0, MAX_UNITS),
    "home_run_cap": (0, MAX_UNITS),
    "home_run_bonus": (0, MAX_UNITS),
    "false_declaration_units": (0, MAX_UNITS),
    "horse_multiplier": (1, MAX_UNITS),
    # deck group (issue #15)
    "jokers": (0, 2),
})  # fmt: skip

#: The knobs that are flags.
BOOL_KNOBS: tuple[str, ...] = (
    "royalties_in_multiplier", "royalty_cancel", "foul_pays_royalties", "quads_as_two_pairs",
    "trips_as_pair_plus_single",
    # naturals group (issue #10)
    "three_straights_front_a23", "three_straights_front_qka", "three_straights_wheel",
    "three_flushes_distinct_suits", "quads_as_trips",
    # settlement group (issue #10)
    "home_run_counts_naturals", "natural_settles_table",
)  # fmt: skip

#: Knobs that no longer exist, each with what replaces it; naming one is a ``ValueError`` saying so.
REMOVED_KNOBS: Mapping[str, str] = MappingProxyType({
    # naturals group (issue #10)
    "front_straight_ace": (
        "it was split into 'three_straights_front_a23' (A-2-3 is a front straight) and "
        "'three_straights_front_qka' (Q-K-A is one); set both to its old value"
    ),
})  # fmt: skip


def removed_knob_error(knob: str) -> ValueError:
    """The error for a knob in ``REMOVED_KNOBS``: that it was removed, and what replaces it."""
    return ValueError(f"rules knob {knob!r} was removed: {REMOVED_KNOBS[knob]}")


_CATEGORY_ORDER = {name: index for index, name in enumerate(ROYALTY_CATEGORIES)}
_ROW_ORDER = {name: index for index, name in enumerate(ROWS)}


def knob_error(knob: str, problem: str, allowed: str) -> ValueError:
    """The error for a bad value of ``knob``: what is wrong and what is allowed."""
    return ValueError(f"rules knob {knob!r}: {problem}; allowed: {allowed}")


def quoted(values: tuple[str, ...] | list[str]) -> str:
    """Values as a readable list of quoted strings."""
    return ", ".join(repr(value) for value in values)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_units(knob: str, what: str, value: object, low: int, high: int = MAX_UNITS) -> int:
    """``value`` when it is an int (not a bool) in ``low..high``, else ``knob_error``."""
    if not _is_int(value):
        raise knob_error(
            knob,
            f"{what} must be an int, got {value!r} ({type(value).__name__})",
            f"an int from {low} to {high}",
        )
    if not low <= value <= high:  # type: ignore[operator]
        raise knob_error(knob, f"{what} {value!r} is out of range", f"an int from {low} to {high}")
    return value  # type: ignore[return-value]


_TABLE_FORM = "'pagat', 'eastern', or a table {front|middle|back: {key: units}}"


def _rank_key_problem(row: str, key: str, category: str, rank: str) -> ValueError | None:
    """The error for rank key ``key`` (``category@rank``) in ``row``, or None when it can occur there."""
    if category not in _RANKED_CATEGORIES:
        categories = quoted(list(_RANKED_CATEGORIES))
        return knob_error(
            "royalties", f"unknown category {category!r} in key {key!r} in row {row!r}", categories
        )
    if rank not in RANK_LETTERS:
        return knob_error(
            "royalties", f"unknown rank {rank!r} in key {key!r} in row {row!r}", "ranks 2-9 T J Q K A"
        )
    span = rank_key_span(row, category)
    if span is None:
        keys = ", ".join(f"{c}@{low}..{c}@{high}" for c, (low, high) in _FRONT_SPANS.items())
        return knob_error("royalties", f"a front (3 cards) cannot hold {key!r}", f"front rank keys {keys}")
    low, high = span
    if RANK_LETTERS.index(low) <= RANK_LETTERS.index(rank) <= RANK_LETTERS.index(high):
        return None
    allowed = f"{category}@{low} to {category}@{high} in the {row}"
    if category == "straight_flush" and rank in "5A":
        allowed += f"; the {'wheel' if rank == '5' else 'ace-high'} straight flush is keyed "
        allowed += "'wheel_straight_flush'" if rank == "5" else "'royal_flush'"
    return knob_error("royalties", f"{key!r} cannot occur in the {row}", allowed)


def _royalty_entry(row: object, key: object, units: object) -> tuple[str, str, int]:
    if row not in ROWS:
        raise knob_error("royalties", f"unknown row {row!r}", f"rows {quoted(ROWS)}")
    if isinstance(key, str) and "@" in key:
        category, _, rank = key.partition("@")
        problem = _rank_key_problem(row, key, category, rank)
        if problem is not None:
            raise problem
    elif key not in ROYALTY_CATEGORIES:
        raise knob_error(
            "royalties",
            f"unknown category {key!r} in row {row!r}",
            f"categories {quoted(ROYALTY_CATEGORIES)}, or a category at a rank such as 'one_pair@6'",
        )
    elif row == "front" and key not in FRONT_CATEGORIES:
        raise knob_error(
            "royalties",
            f"a front (3 cards) cannot hold {key!r}",
            f"front categories {quoted(FRONT_CATEGORIES)}",
        )
    units = check_units("royalties", f"units of {row} {key}", units, 0)
    return row, key, units


def _key_order(key: str) -> tuple[int, int]:
    category, _, rank = key.partition("@")
    return _CATEGORY_ORDER[category], RANK_LETTERS.index(rank) + 1 if rank else 0


def _fallback(key: str, units: Mapping[str, int]) -> int:
    """What a row would be worth if entry ``key`` were not listed (RULES.md 4.1)."""
    if "@" in key:
        return units.get(key.partition("@")[0], 0)
    if key in ("royal_flush", "wheel_straight_flush"):
        return units.get("straight_flush", 0)
    return 0


def normalize_royalties(value: object) -> Royalties:
    """The stored form of a ``royalties`` value (see the module docstring)."""
    if isinstance(value, str):
        if value in ROYALTY_TABLES:
            return value
        raise knob_error("royalties", f"unknown table name {value!r}", _TABLE_FORM)
    entries: list[tuple[str, str, int]] = []
    if isinstance(value, Mapping):
        for row, categories in value.items():
            if row not in ROWS:
                raise knob_error("royalties", f"unknown row {row!r}", f"rows {quoted(ROWS)}")
            if not isinstance(categories, Mapping):
                problem = f"row {row!r} must map categories to units, got {categories!r}"
                raise knob_error("royalties", problem, _TABLE_FORM)
            entries.extend(_royalty_entry(row, category, units) for category, units in categories.items())
    elif isinstance(value, (list, tuple)):
        for item in value:
            if not isinstance(item, (list, tuple)) or len(item) != 3:
                raise knob_error(
                    "royalties", f"a table entry must be (row, category, units), got {item!r}", _TABLE_FORM
                )
            entries.append(_royalty_entry(*item))
    else:
        raise knob_error("royalties", f"got {value!r} ({type(value).__name__})", _TABLE_FORM)
    seen: set[tuple[str, str]] = set()
    for row, category, _ in entries:
        if (row, category) in seen:
            raise knob_error("royalties", f"{row} {category} is listed twice", "each row and key once")
        seen.add((row, category))
    by_row: dict[str, dict[str, int]] = {}
    for row, key, units in entries:
        by_row.setdefault(row, {})[key] = units
    table = tuple(
        sorted(
            (entry for entry in entries if entry[2] != 0 or _fallback(entry[1], by_row[entry[0]]) != 0),
            key=lambda entry: (_ROW_ORDER[entry[0]], *_key_order(entry[1])),
        )
    )
    for name in ROYALTY_TABLES:
        if table == _table_entries(name):
            return name
    return table


@cache
def _table_entries(name: str) -> RoyaltyTable:
    table = ROYALTY_TABLES[name]
    return tuple(
        (row, category, table[row][category])
        for row in ROWS
        for category in ROYALTY_CATEGORIES
        if category in table[row]
    )


def normalize_naturals(value: object) -> Naturals:
    """The stored form of a ``naturals`` value (see the module docstring)."""
    form = "a list of [name, units] pairs, lowest first, with names " + quoted(NATURAL_NAMES)
    items: list[tuple[object, object]] = []
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, Mapping) and len(item) == 1:
                items.append(next(iter(item.items())))
            elif isinstance(item, (list, tuple)) and len(item) == 2:
                items.append((item[0], item[1]))
            else:
                raise knob_error("naturals", f"an entry must be [name, units], got {item!r}", form)
    else:
        raise knob_error("naturals", f"got {value!r} ({type(value).__name__})", form)
    naturals: list[tuple[str, int]] = []
    for name, units in items:
        if name not in NATURAL_NAMES:
            raise knob_error("naturals", f"unknown natural {name!r}", f"names {quoted(NATURAL_NAMES)}")
        if any(name == seen for seen, _ in naturals):
            raise knob_error("naturals", f"{name!r} is listed twice", "each natural at most once")
        naturals.append((name, check_units("naturals", f"units of {name}", units, 1)))
    return tuple(naturals)


# ----- settlement group (issue #10) ----------------------------------------------------------------------

_ROW_BASE_FORM = "three ints (front, middle, back) or {front:, middle:, back:}, each an int from 1 to 1000"


def normalize_row_base(value: object) -> RowBase:
    """The stored form of ``row_base``: a tuple (front, middle, back) of ints 1..1000, from a sequence of
    three ints or a mapping with exactly the keys front, middle and back."""
    if isinstance(value, Mapping):
        if set(value) != set(ROWS):
            problem = f"a mapping needs exactly the keys front, middle, back, got {value!r}"
            raise knob_error("row_base", problem, _ROW_BASE_FORM)
        items = [value[row] for row in ROWS]
    elif isinstance(value, (list, tuple)) and len(value) == 3:
        items = list(value)
    else:
        raise knob_error("row_base", f"got {value!r}", _ROW_BASE_FORM)
    front, middle, back = (
        check_units("row_base", f"units of the {row}", v, 1) for row, v in zip(ROWS, items)
    )
    return front, middle, back


def normalize_horse_card(value: object) -> str | None:
    """The stored form of ``horse_card``: ``None`` or one card's canonical text (``"As"``; any text or code
    ``chinese_poker.cards.parse_card`` reads is accepted)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise knob_error(
            "horse_card", f"got {value!r} ({type(value).__name__})", "a card such as 'As', or none"
        )
    try:
        code = parse_card(value)
    except (ValueError, TypeError) as error:
        raise knob_error("horse_card", str(error), "a card such as 'As', or none") from None
    # The horse card is one of the 52 cards: a joker stands for another card, and the core's horse is a
    # card code 0..51, so a joker (with or without jokers in the pack) can never be it.
    if code >= 52:
        raise knob_error(
            "horse_card",
            f"{value!r} is a joker, which cannot be the horse card",
            "one of the 52 cards, or none",
        )
    return format_card(code)


# ----- deck group (issue #15) ------------------------------------------------------------------------------

_SUIT_LETTERS = "cdhs"
_EXTRA_SUITS_FORM = (
    "'' (one 52-card deck), or one or two different suit letters of c, d, h, s, such as 's' or 'sh'"
)


def normalize_extra_suits(value: object) -> str:
    """The stored form of ``extra_suits``: the added suits' letters in the order c, d, h, s (``"sh"`` is
    stored as ``"hs"``), at most two, each once; ``""`` for a single 52-card deck."""
    if not isinstance(value, str):
        raise knob_error("extra_suits", f"got {value!r} ({type(value).__name__})", _EXTRA_SUITS_FORM)
    for letter in value:
        if letter not in _SUIT_LETTERS:
            raise knob_error(
                "extra_suits", f"{letter!r} in {value!r} is not a suit letter", _EXTRA_SUITS_FORM
            )
    if len(set(value)) != len(value):
        raise knob_error("extra_suits", f"{value!r} names a suit twice", _EXTRA_SUITS_FORM)
    if len(value) > 2:
        raise knob_error(
            "extra_suits", f"{value!r} adds {len(value)} suits, more than two", _EXTRA_SUITS_FORM
        )
    return "".join(letter for letter in _SUIT_LETTERS if letter in value)


#: What each knob does, its values, its default and the section of docs/RULES.md that defines it; the
#: body of ``help(Rules)``.
KNOB_GUIDE = """\
Each knob: what it does; its values; (default); the section of docs/RULES.md that defines it.

Ranking:

- ``wheel``: where A-2-3-4-5 ranks among straights; "low" (lowest) | "second" (below A-high only);
  ("low"); RULES.md 2.2.
- ``suit_tiebreak``: whether suits break a tie between rows of equal rank; "off" | "highest_card"
  (the most important group's cards first) | "by_card" (the highest card first); ("off"); RULES.md 2.4.
- ``suit_order``: the suit ranking that tie-break uses, highest first; any order of the letters s, h,
  d, c, e.g. "shdc" | "shcd" | "scdh"; ("shdc"); 2.4.
- ``middle_vs_back``: whether a middle equal to the back is legal; "non_strict" (legal) | "strict"
  (a foul); ("non_strict"); RULES.md 2.5.

Settlement of a pair (RULES.md 3, the step given):

- ``overall_unit``: extra units for winning the pair overall; int 0..1000; (0 = none); step 5.
- ``overall_basis``: who wins overall; "two_rows" (two rows or more) | "total" (ahead on the total);
  ("two_rows"); step 5.
- ``scoop_bonus``: extra units for winning all three rows; int 0..1000; (0); step 6.
- ``scoop_multiplier``: what a scoop multiplies the pair's result by ("shooting"); int 1..1000; (1);
  step 6.
- ``royalties_in_multiplier``: whether that multiplier applies to royalties too; bool; (false); step 6.
- ``home_run_multiplier``: a further multiplier for scooping every opponent; int 1..1000; (1 = none);
  RULES.md 3, home run.
- ``home_run_min_opponents``: how many opponents a home run needs; 1..3; (3); RULES.md 3, home run.
- ``foul_policy``: what a fouled hand pays a legal one; "lose_all_rows" (three rows) | "as_scooped"
  (as if scooped, bonuses included) | "as_laid" (nothing: rows compared as laid); ("lose_all_rows");
  step 3.
- ``foul_pays_royalties``: whether the legal player's royalties are paid by a fouled one; bool; (true);
  step 3.
- ``surrender_units``: what a surrendering player pays each opponent; int 0..1000; (0 = no surrender);
  step 2.

Royalties (RULES.md 4):

- ``royalties``: the bonus units of special rows; "pagat" | "eastern" (built-in tables) or a table
  ``{row: {key: units}}``, a key a category, "royal_flush", "wheel_straight_flush" or a category at a
  rank, "one_pair@6" (see the module docstring); (empty: none).
- ``royalty_mode``: a won royalty row pays the table value "replace" (instead of 1) | "add" (on top);
  ("replace").
- ``royalty_condition``: who collects a royalty; "win_row" (the row's winner) | "always" (every
  holder); ("win_row").
- ``royalty_cancel``: when both hold royalty hands in a row, the winner gets the plain unit only;
  bool; (false).

Naturals, 13-card special hands (RULES.md 5):

- ``naturals``: the naturals that count and their units; (name, units) pairs, lowest kind first;
  (empty: none).
- ``natural_declaration``: "must_declare" (counts only when declared) | "auto" (counts whenever held);
  ("must_declare").
- ``natural_tiebreak``: how two naturals of one kind compare; "full" | "top_pair_only" (six pairs by
  the top pair alone) | "none" (two of one kind always tie); ("full").
- ``quads_as_two_pairs``: four of a kind counts as two pairs for six pairs; bool; (true).
- ``trips_as_pair_plus_single``: three of a kind counts as a pair and an odd card for six pairs; bool;
  (true).
- ``three_straights_front_a23``: A-2-3 is a front straight for three straights (and three straight
  flushes); bool; (true); RULES.md 10.
- ``three_straights_front_qka``: Q-K-A is a front straight for them; bool; (true); RULES.md 10.
- ``three_straights_wheel``: A-2-3-4-5 is a middle or back straight for them; bool; (true); RULES.md 10.
- ``three_flushes_distinct_suits``: three flushes (and three straight flushes) need three different
  suits; bool; (false); RULES.md 10.
- ``quads_as_trips``: a four of a kind counts as trips for four trips and two trips three pairs; bool;
  (true); RULES.md 10.

How a pair is settled, the real-table knobs (RULES.md 3 and 11):

- ``row_base``: units of a won front, middle and back; three ints 1..1000; ((1, 1, 1)); 11.5.
- ``ace_units``: Chi A, a side payment of ace_units x (aces_i - aces_j) per pair; int 0..1000; (0); 11.8.
- ``pair_cap``: largest abs(units) of a pair decided by rows or a foul, after shooting; int 0..1000;
  (0 = off); 11.9.
- ``home_run_cap``: largest abs(units) of a home-run pair, after the home run; int 0..1000; (0 = off); 11.9.
- ``home_run_bonus``: units added per opponent for a home run; int 0..1000; (0); 11.9.
- ``home_run_counts_naturals``: a natural win counts as a scoop for the home run; bool; (false); 11.9.
- ``natural_vs_natural``: how two naturals pay each other; "by_kind" | "by_units" | "net" | "push";
  ("by_kind"); 11.1.
- ``natural_settles_table``: a natural (or a false declaration) anywhere settles every pair by
  declarations only; bool; (false); 11.1.
- ``natural_units_mode``: "table" (the listed units) | "as_home_run" (what a sweep of the table pays);
  ("table"); 11.1.
- ``false_declaration_units``: what declaring a natural one does not hold pays each opponent; int
  0..1000; (0 = an error); 11.0.
- ``horse_card``: a card ("As") whose holder has every pair multiplied; a card or none; (none); 11.9.
- ``horse_multiplier``: what the horse card multiplies its holder's pairs by; int 1..1000; (2); 11.9.
- ``foul_vs_foul``: two fouled hands "push" (pay nothing) | "as_laid" (compare rows as laid);
  ("push"); 11.3.

Open-face (RULES.md 4.2):

- ``fantasyland``: who is dealt a fantasyland hand next; "off" | "standard" (queens or better in
  front: 14 cards) | "progressive" (QQ 14, KK 15, AA 16, trips 17); ("off"). Needs 2 or 3 players.

The last knobs of the named real-table presets (RULES.md 3.1 and 11):

- ``ace_basis``: how ace_units is counted; "pairwise" (ace_units x (aces_i - aces_j) per pair) |
  "table" (each player ace_units x (aces - 1), apart from the pairs; 4 players only); ("pairwise"); 11.9.
- ``shooting``: which pairs the scoop multiplier applies to; "scoop" (all three rows won) |
  "no_lost_row" (a winner who lost no row, ties allowed); ("scoop"); 11.7.
- ``home_run_scope``: which pairs a home run multiplies; "own_pairs" (the home-run player's) | "table"
  (every pair of the round; home_run_bonus and home_run_cap stay on the home-run player's pairs);
  ("own_pairs"); 11.9.

The pack (RULES.md 1):

- ``extra_suits``: the suits whose 13 cards are in the pack once more; "" (one 52-card deck) | one or
  two suit letters, "s", "sh"; (""). A round has up to 4 players plus one per added suit (5 need one,
  6 need two), and a card of an added suit may be held twice at the table, even by one player.
- ``jokers``: the jokers in the pack, X1 and X2 (codes 52, 53), each standing for the card that makes its
  row strongest; 0 | 1 | 2; (0); 1.2.
"""


def __dir__() -> list[str]:
    return list(__all__)
