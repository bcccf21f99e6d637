"""The rules of a game: every knob of RULES.md as one frozen, validated value, ``Rules``.

``Rules()`` is the default game (the ``pagat`` preset); ``Rules.preset(name)`` gives any preset of RULES.md
section 6 (loaded from the TOML files in ``chinese_poker/presets``); ``rules.replace(**knobs)`` changes
knobs; ``Rules.from_dict`` / ``to_dict``, ``from_json`` / ``to_json``, ``from_toml`` / ``to_toml`` and
``load`` / ``save`` convert to and from data. ``rules.resolved()`` is the plain dict of SETTLEMENT.md
section 6 that the C++ core and the pure-Python reference consume.

Stored forms (all immutable, so a ``Rules`` is hashable):

- enum-like knobs are strings, checked against the values RULES.md allows (``CHOICES``);
- counts and multipliers are ``int`` (``bool`` is not accepted as an int), flags are ``bool``;
- ``royalties`` is either the name of a built-in table (``"pagat"``, ``"eastern"``; see
  ``ROYALTY_TABLES``) or a tuple of ``(row, category, units)`` triples, rows front → middle → back and
  categories weakest first, zero entries dropped. A table equal to a built-in one is stored as its name,
  and an empty table as ``()``, so equal tables compare equal whatever form they were given in. Input may
  also be a mapping ``{row: {category: units}}`` or any sequence of such triples.
- ``naturals`` is a tuple of ``(name, units)`` pairs, lowest kind first. Input may also be a list of
  ``[name, units]`` pairs, a list of one-entry mappings ``{name: units}``, or one ordered mapping.

Every bad value raises ``ValueError`` naming the knob and listing what is allowed.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, Union, get_args

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.9/3.10 only
    import tomli as tomllib

__all__ = [
    "CHOICES",
    "DEFAULT_PRESET",
    "FRONT_CATEGORIES",
    "KNOBS",
    "MAX_UNITS",
    "NATURAL_NAMES",
    "PRESET_NAMES",
    "ROWS",
    "ROYALTY_CATEGORIES",
    "ROYALTY_TABLES",
    "Rules",
]

#: The allowed values of each enum-like knob, as types (the first one is the default).
Wheel = Literal["low", "second"]
SuitTiebreak = Literal["off", "highest_card"]
SuitOrder = Literal["shdc", "shcd"]
MiddleVsBack = Literal["non_strict", "strict"]
OverallBasis = Literal["two_rows", "total"]
RoyaltyMode = Literal["replace", "add"]
RoyaltyCondition = Literal["win_row", "always"]
FoulPolicy = Literal["lose_all_rows", "as_scooped"]
NaturalDeclaration = Literal["must_declare", "auto"]
NaturalTiebreak = Literal["full", "top_pair_only"]

#: A custom royalty table as stored: ``(row, category, units)`` triples in canonical order.
RoyaltyTable = tuple[tuple[str, str, int], ...]
#: The ``royalties`` knob as stored: a built-in table's name or a custom table.
Royalties = Union[str, RoyaltyTable]
#: The ``naturals`` knob as stored: ``(name, units)`` pairs, lowest kind first.
Naturals = tuple[tuple[str, int], ...]

#: The three rows of a setting, in the order they are listed everywhere.
ROWS: tuple[str, ...] = ("front", "middle", "back")

#: Royalty table keys: the lower-case ``HandCategory`` names, weakest first, plus ``royal_flush``.
ROYALTY_CATEGORIES: tuple[str, ...] = (
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
    "four_of_a_kind", "straight_flush", "royal_flush",
)  # fmt: skip

#: The categories a three-card front can hold (RULES.md 2.3: no three-card straights or flushes).
FRONT_CATEGORIES: tuple[str, ...] = ("high_card", "one_pair", "three_of_a_kind")

#: Every natural (13-card special hand) a ``naturals`` list may name (RULES.md 5, SETTLEMENT.md 3).
NATURAL_NAMES: tuple[str, ...] = (
    "six_pairs", "three_straights", "three_flushes", "dragon", "clean_dragon", "five_pairs_and_trips",
    "four_trips", "all_one_colour", "all_small", "all_big", "three_quads", "three_straight_flushes",
    "twelve_royals",
)  # fmt: skip

#: Upper bound of every unit count and multiplier [decided: keeps totals far inside the core's integers].
MAX_UNITS = 1000

#: The presets of RULES.md section 6, in its order; one TOML file each in ``chinese_poker/presets``.
PRESET_NAMES: tuple[str, ...] = (
    "pagat", "pagat-bonus", "wikipedia-2-4", "wikipedia-1-6", "shisanzhang-hk", "shisanshui-app",
    "capsa-susun", "pusoy",
)  # fmt: skip

#: The preset ``Rules()`` equals.
DEFAULT_PRESET = "pagat"


def _read_only_table(table: dict[str, dict[str, int]]) -> Mapping[str, Mapping[str, int]]:
    return MappingProxyType({row: MappingProxyType(dict(table.get(row, {}))) for row in ROWS})


#: The built-in royalty tables of RULES.md section 4 (units a won row is worth in ``replace`` mode).
ROYALTY_TABLES: Mapping[str, Mapping[str, Mapping[str, int]]] = MappingProxyType({
    "pagat": _read_only_table({
        "front": {"three_of_a_kind": 3},
        "middle": {"full_house": 2, "four_of_a_kind": 4, "straight_flush": 5},
        "back": {"four_of_a_kind": 4, "straight_flush": 5},
    }),
    "eastern": _read_only_table({
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
})  # fmt: skip

_INT_RANGES: Mapping[str, tuple[int, int]] = MappingProxyType({
    "overall_unit": (0, MAX_UNITS),
    "scoop_bonus": (0, MAX_UNITS),
    "scoop_multiplier": (1, MAX_UNITS),
    "home_run_multiplier": (1, MAX_UNITS),
    "home_run_min_opponents": (1, 3),
    "surrender_units": (0, MAX_UNITS),
})  # fmt: skip

_BOOL_KNOBS: tuple[str, ...] = (
    "royalties_in_multiplier", "royalty_cancel", "foul_pays_royalties", "quads_as_two_pairs",
    "trips_as_pair_plus_single", "front_straight_ace",
)  # fmt: skip

# Keys a rules document may carry besides the knobs: the base preset and free-text documentation.
_PRESET_KEY = "preset"
_METADATA_KEYS: tuple[str, ...] = ("source", "description")

_CATEGORY_ORDER = {name: index for index, name in enumerate(ROYALTY_CATEGORIES)}
_ROW_ORDER = {name: index for index, name in enumerate(ROWS)}


def _knob_error(knob: str, problem: str, allowed: str) -> ValueError:
    return ValueError(f"rules knob {knob!r}: {problem}; allowed: {allowed}")


def _quoted(values: tuple[str, ...] | list[str]) -> str:
    return ", ".join(repr(value) for value in values)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_units(knob: str, what: str, value: object, low: int, high: int = MAX_UNITS) -> int:
    if not _is_int(value):
        raise _knob_error(
            knob,
            f"{what} must be an int, got {value!r} ({type(value).__name__})",
            f"an int from {low} to {high}",
        )
    if not low <= value <= high:  # type: ignore[operator]
        raise _knob_error(knob, f"{what} {value!r} is out of range", f"an int from {low} to {high}")
    return value  # type: ignore[return-value]


_TABLE_FORM = "'pagat', 'eastern', or a table {front|middle|back: {category: units}}"


def _royalty_entry(row: object, category: object, units: object) -> tuple[str, str, int]:
    if row not in ROWS:
        raise _knob_error("royalties", f"unknown row {row!r}", f"rows {_quoted(ROWS)}")
    if category not in ROYALTY_CATEGORIES:
        raise _knob_error(
            "royalties",
            f"unknown category {category!r} in row {row!r}",
            f"categories {_quoted(ROYALTY_CATEGORIES)}",
        )
    if row == "front" and category not in FRONT_CATEGORIES:
        raise _knob_error(
            "royalties",
            f"a front (3 cards) cannot hold {category!r}",
            f"front categories {_quoted(FRONT_CATEGORIES)}",
        )
    units = _check_units("royalties", f"units of {row} {category}", units, 0)
    return row, category, units  # type: ignore[return-value]


def _normalize_royalties(value: object) -> Royalties:
    """The stored form of a ``royalties`` value (see the module docstring)."""
    if isinstance(value, str):
        if value in ROYALTY_TABLES:
            return value
        raise _knob_error("royalties", f"unknown table name {value!r}", _TABLE_FORM)
    entries: list[tuple[str, str, int]] = []
    if isinstance(value, Mapping):
        for row, categories in value.items():
            if row not in ROWS:
                raise _knob_error("royalties", f"unknown row {row!r}", f"rows {_quoted(ROWS)}")
            if not isinstance(categories, Mapping):
                problem = f"row {row!r} must map categories to units, got {categories!r}"
                raise _knob_error("royalties", problem, _TABLE_FORM)
            entries.extend(_royalty_entry(row, category, units) for category, units in categories.items())
    elif isinstance(value, (list, tuple)):
        for item in value:
            if not isinstance(item, (list, tuple)) or len(item) != 3:
                raise _knob_error(
                    "royalties", f"a table entry must be (row, category, units), got {item!r}", _TABLE_FORM
                )
            entries.append(_royalty_entry(*item))
    else:
        raise _knob_error("royalties", f"got {value!r} ({type(value).__name__})", _TABLE_FORM)
    seen: set[tuple[str, str]] = set()
    for row, category, _ in entries:
        if (row, category) in seen:
            raise _knob_error("royalties", f"{row} {category} is listed twice", "each row and category once")
        seen.add((row, category))
    table = tuple(
        sorted(
            (entry for entry in entries if entry[2] != 0),
            key=lambda entry: (_ROW_ORDER[entry[0]], _CATEGORY_ORDER[entry[1]]),
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


def _normalize_naturals(value: object) -> Naturals:
    """The stored form of a ``naturals`` value (see the module docstring)."""
    form = "a list of [name, units] pairs, lowest first, with names " + _quoted(NATURAL_NAMES)
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
                raise _knob_error("naturals", f"an entry must be [name, units], got {item!r}", form)
    else:
        raise _knob_error("naturals", f"got {value!r} ({type(value).__name__})", form)
    naturals: list[tuple[str, int]] = []
    for name, units in items:
        if name not in NATURAL_NAMES:
            raise _knob_error("naturals", f"unknown natural {name!r}", f"names {_quoted(NATURAL_NAMES)}")
        if any(name == seen for seen, _ in naturals):
            raise _knob_error("naturals", f"{name!r} is listed twice", "each natural at most once")
        naturals.append((name, _check_units("naturals", f"units of {name}", units, 1)))  # type: ignore[arg-type]
    return tuple(naturals)


@dataclass(frozen=True, repr=False)
class Rules:
    """Every knob of RULES.md (sections 2-6), immutable and validated; ``Rules()`` is the ``pagat`` preset.

    Ranking: ``wheel`` ("low" | "second"), ``suit_tiebreak`` ("off" | "highest_card"), ``suit_order``
    ("shdc" | "shcd"), ``middle_vs_back`` ("non_strict" | "strict").
    Settlement: ``overall_unit`` (int >= 0), ``overall_basis`` ("two_rows" | "total"), ``scoop_bonus``
    (int >= 0), ``scoop_multiplier`` (int >= 1), ``royalties_in_multiplier`` (bool),
    ``home_run_multiplier`` (int >= 1), ``home_run_min_opponents`` (1..3), ``foul_policy``
    ("lose_all_rows" | "as_scooped"), ``foul_pays_royalties`` (bool), ``surrender_units`` (int >= 0).
    Royalties: ``royalties`` (a built-in table name or a table, see the module docstring), ``royalty_mode``
    ("replace" | "add"), ``royalty_condition`` ("win_row" | "always"), ``royalty_cancel`` (bool).
    Naturals: ``naturals`` ((name, units) pairs, lowest first), ``natural_declaration``
    ("must_declare" | "auto"), ``natural_tiebreak`` ("full" | "top_pair_only"), ``quads_as_two_pairs``,
    ``trips_as_pair_plus_single``, ``front_straight_ace`` (bools).

    ``name`` is metadata, not a knob: the preset these rules were loaded as (``Rules.preset``, or
    ``from_dict`` with a ``"preset"`` key and no change), else ``None``. It takes no part in equality or
    hashing, and ``replace`` keeps it only when no knob changes.
    """

    wheel: Wheel = "low"
    suit_tiebreak: SuitTiebreak = "off"
    suit_order: SuitOrder = "shdc"
    middle_vs_back: MiddleVsBack = "non_strict"
    overall_unit: int = 0
    overall_basis: OverallBasis = "two_rows"
    scoop_bonus: int = 0
    scoop_multiplier: int = 1
    royalties_in_multiplier: bool = False
    home_run_multiplier: int = 1
    home_run_min_opponents: int = 3
    royalties: Royalties = ()
    royalty_mode: RoyaltyMode = "replace"
    royalty_condition: RoyaltyCondition = "win_row"
    royalty_cancel: bool = False
    foul_policy: FoulPolicy = "lose_all_rows"
    foul_pays_royalties: bool = True
    naturals: Naturals = ()
    natural_declaration: NaturalDeclaration = "must_declare"
    natural_tiebreak: NaturalTiebreak = "full"
    quads_as_two_pairs: bool = True
    trips_as_pair_plus_single: bool = True
    front_straight_ace: bool = True
    surrender_units: int = 0
    name: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        """Validate every knob and store ``royalties`` and ``naturals`` in their immutable forms."""
        for knob, allowed in CHOICES.items():
            value = getattr(self, knob)
            if not isinstance(value, str) or value not in allowed:
                raise _knob_error(knob, f"got {value!r}", _quoted(allowed))
        for knob, (low, high) in _INT_RANGES.items():
            _check_units(knob, "the value", getattr(self, knob), low, high)
        for knob in _BOOL_KNOBS:
            value = getattr(self, knob)
            if not isinstance(value, bool):
                raise _knob_error(knob, f"got {value!r} ({type(value).__name__})", "true, false")
        object.__setattr__(self, "royalties", _normalize_royalties(self.royalties))
        object.__setattr__(self, "naturals", _normalize_naturals(self.naturals))
        if self.name is not None and self.name not in PRESET_NAMES:
            presets = _quoted(PRESET_NAMES)
            raise ValueError(f"rules name {self.name!r} is not a preset; allowed: None, {presets}")

    def __repr__(self) -> str:
        """``Rules(...)`` with the name and the knobs that differ from the defaults."""
        parts = [f"name={self.name!r}"] if self.name is not None else []
        parts += [
            f"{knob}={getattr(self, knob)!r}" for knob in KNOBS if getattr(self, knob) != _DEFAULTS[knob]
        ]
        return f"Rules({', '.join(parts)})"

    # ----- presets -------------------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str = DEFAULT_PRESET) -> Rules:
        """The preset ``name`` of RULES.md section 6 (see ``Rules.presets()``), loaded from its TOML file."""
        return _preset(name)

    @staticmethod
    def presets() -> tuple[str, ...]:
        """The names of all presets, in RULES.md order; the first, ``"pagat"``, is the default."""
        return PRESET_NAMES

    @staticmethod
    def preset_source(name: str) -> str:
        """Where preset ``name`` comes from, as RULES.md section 6 gives it (its TOML file's ``source``)."""
        return str(_preset_document(name).get("source", ""))

    @staticmethod
    def preset_description(name: str) -> str:
        """A one-line description of preset ``name`` (its TOML file's ``description``)."""
        return str(_preset_document(name).get("description", ""))

    # ----- changing knobs ------------------------------------------------------------------------------

    def replace(self, **knobs: Any) -> Rules:
        """A copy with the given knobs changed (validated); e.g. ``rules.replace(royalties="pagat")``."""
        for key in knobs:
            if key not in _KNOB_SET:
                raise _unknown_key(key, KNOBS)
        changed = dataclasses.replace(self, **knobs)
        if changed == self:
            return changed
        return dataclasses.replace(changed, name=None) if changed.name is not None else changed

    # ----- data ----------------------------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a mapping of knob values; a ``"preset"`` key names the base (else the defaults).

        Keys ``"source"`` and ``"description"`` (strings) are documentation and are ignored, so a preset
        file is itself a valid rules document. Any other unknown key is a ``ValueError``.
        """
        return _from_dict(data, ())

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict: ``"preset"`` (when ``name`` is set) then every knob; ``from_dict`` reverses it.

        ``royalties`` is a table name, ``{}``, or ``{row: {category: units}}`` with the non-empty rows;
        ``naturals`` a list of ``[name, units]`` pairs.
        """
        data: dict[str, Any] = {} if self.name is None else {_PRESET_KEY: self.name}
        for knob in KNOBS:
            value = getattr(self, knob)
            if knob == "royalties" and not isinstance(value, str):
                table: dict[str, dict[str, int]] = {}
                for row, category, units in value:
                    table.setdefault(row, {})[category] = units
                value = table
            elif knob == "naturals":
                value = [[natural, units] for natural, units in value]
            data[knob] = value
        return data

    def resolved(self) -> dict[str, Any]:
        """The resolved rules dict of SETTLEMENT.md section 6, for the C++ core and the reference.

        Every knob by name (no ``"preset"``); ``royalties`` always the full table
        ``{"front": {...}, "middle": {...}, "back": {...}}`` (built-in names expanded); ``naturals`` a
        list of ``[name, units]``, lowest first. A fresh dict each call.
        """
        data = self.to_dict()
        data.pop(_PRESET_KEY, None)
        data["royalties"] = {row: dict(categories) for row, categories in self.royalty_table.items()}
        return data

    @property
    def royalty_table(self) -> Mapping[str, Mapping[str, int]]:
        """The royalty table as a read-only ``{row: {category: units}}`` mapping with all three rows."""
        if isinstance(self.royalties, str):
            return ROYALTY_TABLES[self.royalties]
        table: dict[str, dict[str, int]] = {}
        for row, category, units in self.royalties:
            table.setdefault(row, {})[category] = units
        return _read_only_table(table)

    @classmethod
    def from_json(cls, text: str) -> Rules:
        """Rules from JSON text holding one object (as ``from_dict``); malformed text is a ``ValueError``."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"rules JSON must be an object, got {type(data).__name__}")
        return cls.from_dict(data)

    def to_json(self, indent: int | None = 2) -> str:
        """The ``to_dict`` form as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_toml(cls, text: str) -> Rules:
        """Rules from TOML text (as ``from_dict``); malformed text is a ``ValueError``."""
        return cls.from_dict(tomllib.loads(text))

    def to_toml(self) -> str:
        """The ``to_dict`` form as TOML text: one ``key = value`` line per knob."""
        lines = ["# chinese-poker rules: every knob of RULES.md (see chinese_poker.rules)"]
        lines += [f"{_toml_key(key)} = {_toml_value(value)}" for key, value in self.to_dict().items()]
        return "\n".join(lines) + "\n"

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Rules:
        """Rules from a ``.json`` or ``.toml`` file (UTF-8), chosen by the file's extension."""
        suffix = _suffix(path)
        text = Path(path).read_text(encoding="utf-8")
        return cls.from_json(text) if suffix == ".json" else cls.from_toml(text)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write these rules to a ``.json`` or ``.toml`` file (UTF-8), chosen by the file's extension."""
        suffix = _suffix(path)
        text = self.to_json() + "\n" if suffix == ".json" else self.to_toml()
        Path(path).write_text(text, encoding="utf-8")


#: Every knob of RULES.md, in field order (``name`` is metadata, not a knob).
KNOBS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules) if f.name != "name")
_KNOB_SET = frozenset(KNOBS)
_DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {f.name: f.default for f in dataclasses.fields(Rules) if f.name != "name"}
)


def _unknown_key(key: object, known: tuple[str, ...]) -> ValueError:
    close = difflib.get_close_matches(str(key), known, n=1) if isinstance(key, str) else []
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return ValueError(f"unknown rules knob {key!r}{hint}; known: {_quoted(known)}")


def _suffix(path: str | os.PathLike[str]) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in (".json", ".toml"):
        raise ValueError(f"a rules file must end in .json or .toml, got {os.fspath(path)!r}")
    return suffix


def _from_dict(data: object, loading: tuple[str, ...]) -> Rules:
    if not isinstance(data, Mapping):
        raise ValueError(f"rules data must be a mapping of knobs, got {type(data).__name__}")
    base_name: str | None = None
    overrides: dict[str, Any] = {}
    for key, value in data.items():
        if key == _PRESET_KEY:
            if value is not None and value not in PRESET_NAMES:
                allowed = _quoted(PRESET_NAMES)
                raise ValueError(f"rules key 'preset': unknown preset {value!r}; allowed: {allowed}")
            base_name = value
        elif key in _METADATA_KEYS:
            if not isinstance(value, str):
                raise ValueError(f"rules key {key!r} is documentation and must be a string, got {value!r}")
        elif key in _KNOB_SET:
            overrides[key] = value
        else:
            raise _unknown_key(key, (_PRESET_KEY, *KNOBS, *_METADATA_KEYS))
    base = Rules() if base_name is None else _preset(base_name, loading or None)
    return base.replace(**overrides)


def _preset_document(name: str) -> Mapping[str, Any]:
    """The parsed TOML file of preset ``name`` (cached; not to be mutated)."""
    if name not in PRESET_NAMES:
        raise ValueError(f"unknown preset {name!r}; allowed: {_quoted(PRESET_NAMES)}")
    return _read_preset_file(name)


@cache
def _read_preset_file(name: str) -> Mapping[str, Any]:
    text = resources.files("chinese_poker.presets").joinpath(f"{name}.toml").read_text(encoding="utf-8")
    return MappingProxyType(tomllib.loads(text))


@cache
def _cached_preset(name: str) -> Rules:
    return _preset(name, ())


def _preset(name: str, loading: tuple[str, ...] | None = None) -> Rules:
    if loading is None:
        if not isinstance(name, str) or name not in PRESET_NAMES:
            raise ValueError(f"unknown preset {name!r}; allowed: {_quoted(PRESET_NAMES)}")
        return _cached_preset(name)
    if name in loading:
        raise ValueError(f"preset {name!r} is based on itself: {' -> '.join((*loading, name))}")
    try:
        rules = _from_dict(_preset_document(name), (*loading, name))
    except ValueError as error:
        raise ValueError(f"preset {name!r}: {error}") from error
    return dataclasses.replace(rules, name=name)


# ----- a TOML emitter for the flat rules document --------------------------------------------------------

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _toml_string(text: str) -> str:
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _toml_string(key)


def _toml_value(value: object) -> str:
    """One TOML value: bool, int, string, array, or inline table (all the rules document needs)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")
