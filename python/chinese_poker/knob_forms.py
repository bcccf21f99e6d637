"""The normal forms of the compound knobs: royalty tables, natural lists, row bases, the horse card and the
pack's added suits.

Each ``normalize_*`` takes any accepted input form of its knob and returns the stored form ``Rules`` keeps
(see ``chinese_poker.knobs`` for the forms); a bad value raises ``ValueError`` naming the knob and listing
what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from chinese_poker.cards import format_card, parse_card
from chinese_poker.knobs import (
    FRONT_CATEGORIES,
    NATURAL_NAMES,
    RANK_LETTERS,
    ROWS,
    ROYALTY_CATEGORIES,
    Naturals,
    RowBase,
    Royalties,
    RoyaltyTable,
    check_units,
    knob_error,
    quoted,
)

__all__ = [
    "ROYALTY_TABLES",
    "normalize_extra_suits",
    "normalize_horse_card",
    "normalize_naturals",
    "normalize_row_base",
    "normalize_royalties",
    "rank_key_span",
    "read_only_table",
]

#: The category keys (the ones a rank key ``"category@R"`` may name): all but the two straight flush keys.
_RANKED_CATEGORIES: tuple[str, ...] = ROYALTY_CATEGORIES[:10]

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


_CATEGORY_ORDER = {name: index for index, name in enumerate(ROYALTY_CATEGORIES)}
_ROW_ORDER = {name: index for index, name in enumerate(ROWS)}


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


def __dir__() -> list[str]:
    return list(__all__)
