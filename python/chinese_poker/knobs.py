"""Every knob's allowed values and stored form: the vocabulary ``Rules`` validates against.

Every knob is described once, in the core's knob table (``_core.knob_table()``): its kind, allowed values,
default, range, group, section of docs/RULES.md and a one-line description. ``KNOB_TABLE`` holds it as
``KnobInfo`` records, and everything here that lists knobs derives from it: enum-like knobs are strings
checked against ``CHOICES`` (their ``Literal`` types are exported, and a test proves them equal to the
table); counts and multipliers are ints in ``INT_RANGES``; flags are the ``BOOL_KNOBS``; ``DEFAULTS`` are the
stored defaults; ``KNOB_GUIDE`` is the body of ``help(Rules)``. ``royalties``, ``naturals``, ``row_base``,
``horse_card`` and ``extra_suits`` have their own normal forms (``normalize_*``). Every bad value raises
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
from types import MappingProxyType
from typing import Literal

import chinese_poker._core as _core
from chinese_poker._record import record

__all__ = [
    "BOOL_KNOBS",
    "CHOICES",
    "CHOICE_TEXT",
    "DEFAULTS",
    "FRONT_CATEGORIES",
    "INT_RANGES",
    "KNOB_GROUPS",
    "KNOB_GUIDE",
    "KNOB_TABLE",
    "MAX_UNITS",
    "NATURAL_NAMES",
    "RANK_LETTERS",
    "REMOVED_KNOBS",
    "ROWS",
    "ROYALTY_CATEGORIES",
    "AceBasis",
    "Fantasyland",
    "FoulPolicy",
    "FoulVsFoul",
    "HomeRunScope",
    "KnobInfo",
    "MiddleVsBack",
    "NaturalDeclaration",
    "NaturalTiebreak",
    "NaturalUnitsMode",
    "NaturalVsNatural",
    "Naturals",
    "OfcVariant",
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
    "quoted",
    "removed_knob_error",
    "with_knob_guide",
]

#: The allowed values of each enum-like knob, as types (the first one is the default); a test proves each
#: equal to the knob table's values.
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
NaturalVsNatural = Literal["by_kind", "by_units", "net", "push"]
NaturalUnitsMode = Literal["table", "as_home_run"]
FoulVsFoul = Literal["push", "as_laid"]
#: The ``row_base`` knob as stored: units of a won front, middle and back.
RowBase = tuple[int, int, int]
Fantasyland = Literal["off", "standard", "progressive"]
OfcVariant = Literal["classic", "pineapple"]
AceBasis = Literal["pairwise", "table"]
Shooting = Literal["scoop", "no_lost_row"]
HomeRunScope = Literal["own_pairs", "table"]

#: A custom royalty table as stored: ``(row, category, units)`` triples in canonical order.
RoyaltyTable = tuple[tuple[str, str, int], ...]
#: The ``royalties`` knob as stored: a built-in table's name or a custom table.
Royalties = str | RoyaltyTable
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

#: The ranks a ``"category@R"`` key may name, lowest first.
RANK_LETTERS = "23456789TJQKA"

#: The categories a three-card front can hold (RULES.md 2.3: no three-card straights or flushes).
FRONT_CATEGORIES: tuple[str, ...] = ("high_card", "one_pair", "three_of_a_kind")

#: Every natural (13-card special hand) a ``naturals`` list may name (RULES.md 5, RULES.md 10).
NATURAL_NAMES: tuple[str, ...] = (
    "six_pairs", "three_straights", "three_flushes", "dragon", "clean_dragon", "five_pairs_and_trips",
    "four_trips", "all_one_colour", "all_small", "all_big", "three_quads", "three_straight_flushes",
    "twelve_royals",
    "five_consecutive_pairs", "two_trips_three_pairs", "one_red", "one_black", "twelve_royals_ten",
    "twelve_royals_and_one",
    "six_of_a_kind", "seven_of_a_kind", "eight_of_a_kind", "two_fives_and_trips",
)  # fmt: skip

#: Upper bound of every unit count and multiplier [decided: keeps totals far inside the core's integers].
MAX_UNITS = 1000


@record()
class KnobInfo:
    """One row of the knob table: a knob as the core describes it.

    ``kind`` is ``"flag"`` or ``"enum"`` (enum-like: one of ``values``, the first the default),
    ``"bool"``, ``"int"`` (from ``low`` to ``high``) or ``"table"`` (a compound knob with its own normal
    form; ``values``, ``low`` and ``high`` describe its parts where they apply). ``default`` is the
    stored default; ``member`` the core's ``RulesSpec`` member it sets; ``group`` the heading it is listed
    under (``KNOB_GROUPS``); ``section`` the section of docs/RULES.md that defines it.
    """

    name: str
    kind: str
    values: tuple[str, ...]
    default: object
    low: int | None
    high: int | None
    member: str
    group: str
    section: str
    description: str


def _stored_default(record: Mapping[str, object]) -> object:
    # JSON has no tuples: the compound knobs' sequences are stored as tuples.
    value = record["default"]
    return tuple(value) if isinstance(value, list) else value


#: Every knob, in the order of the fields of ``Rules``, as the core's knob table gives it.
KNOB_TABLE: tuple[KnobInfo, ...] = tuple(
    KnobInfo(
        name=str(record["name"]),
        kind=str(record["kind"]),
        values=tuple(record["values"]),
        default=_stored_default(record),
        low=record["low"],
        high=record["high"],
        member=str(record["member"]),
        group=str(record["group"]),
        section=str(record["section"]),
        description=str(record["description"]),
    )
    for record in _core.knob_table()
)

#: The headings of ``KNOB_GUIDE``, by group of the knob table, in the order they are listed.
KNOB_GROUPS: Mapping[str, str] = MappingProxyType({
    "ranking": "Ranking (RULES.md 2)",
    "pair": "Settlement of a pair (RULES.md 3; the step given)",
    "royalties": "Royalties (RULES.md 4)",
    "naturals": "Naturals, 13-card special hands (RULES.md 5 and 10)",
    "real_table": "How a pair is settled at real tables (RULES.md 3.1 and 11)",
    "open_face": "Open-face (RULES.md 4.2)",
    "pack": "The pack (RULES.md 1)",
})  # fmt: skip

#: The allowed values of every enum-like knob (and the suit order), the first being the default.
CHOICES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {knob.name: knob.values for knob in KNOB_TABLE if knob.values}
)

#: How an error names the allowed values of a knob whose list is long (else they are listed).
CHOICE_TEXT: Mapping[str, str] = MappingProxyType({
    "suit_order": "any order of the four suit letters s, h, d, c, highest first, such as 'shdc' or 'scdh'",
})  # fmt: skip

#: The allowed range of every integer knob (low, high).
INT_RANGES: Mapping[str, tuple[int, int]] = MappingProxyType(
    {knob.name: (int(knob.low or 0), int(knob.high or 0)) for knob in KNOB_TABLE if knob.kind == "int"}
)

#: The knobs that are flags.
BOOL_KNOBS: tuple[str, ...] = tuple(knob.name for knob in KNOB_TABLE if knob.kind == "bool")

#: Every knob's default, in its stored form.
DEFAULTS: Mapping[str, object] = MappingProxyType({knob.name: knob.default for knob in KNOB_TABLE})


def _values_text(knob: KnobInfo) -> str:
    if knob.name in CHOICE_TEXT:
        return CHOICE_TEXT[knob.name]
    if knob.values:
        return " | ".join(f'"{value}"' for value in knob.values)
    if knob.kind == "bool":
        return "bool"
    if knob.kind == "int":
        return f"int {knob.low}..{knob.high}"
    return "see RULES.md"


def _guide() -> str:
    lines = ["Each knob: what it does; its values; (default); the section of docs/RULES.md that defines it."]
    for group, heading in KNOB_GROUPS.items():
        lines += ["", f"{heading}:", ""]
        for knob in KNOB_TABLE:
            if knob.group == group:
                default = "none" if knob.default is None else repr(knob.default)
                text = f"- ``{knob.name}``: {knob.description}; {_values_text(knob)}; ({default}); RULES.md "
                lines += _wrapped(text + f"{knob.section}.", width=104, indent="  ")
    return "\n".join(lines) + "\n"


def _wrapped(text: str, width: int, indent: str) -> list[str]:
    # Greedy, at spaces: textwrap's import and its wrapping cost a command's start-up 7 %.
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = indent + word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line]


def with_knob_guide(doc: str) -> str:
    """A class docstring cleaned of its indentation (as Python 3.13 compiles it; older versions keep it)
    with ``KNOB_GUIDE`` in place of ``{knob_guide}``: the text ``help(Rules)`` shows."""
    summary, _, body = doc.partition("\n")
    lines = body.split("\n")
    margin = min((len(line) - len(line.lstrip(" ")) for line in lines if line.strip()), default=0)
    cleaned = "\n".join([summary.strip(), *(line[margin:] if line.strip() else "" for line in lines)])
    return cleaned.strip().replace("{knob_guide}", KNOB_GUIDE)


#: What each knob does, its values, its default and the section of docs/RULES.md that defines it (the
#: body of ``help(Rules)``), made from the knob table.
KNOB_GUIDE = _guide()

#: Knobs that no longer exist, each with what replaces it; naming one is a ``ValueError`` saying so.
REMOVED_KNOBS: Mapping[str, str] = MappingProxyType({
    "front_straight_ace": (
        "it was split into 'three_straights_front_a23' (A-2-3 is a front straight) and "
        "'three_straights_front_qka' (Q-K-A is one); set both to its old value"
    ),
})  # fmt: skip


def removed_knob_error(knob: str) -> ValueError:
    """The error for a knob in ``REMOVED_KNOBS``: that it was removed, and what replaces it."""
    return ValueError(f"rules knob {knob!r} was removed: {REMOVED_KNOBS[knob]}")


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


def __dir__() -> list[str]:
    return list(__all__)
