"""The rules of a game: every knob of RULES.md as one frozen, validated value, ``Rules``.

``Rules()`` is the default game (the ``pagat`` preset); ``Rules.preset(name)`` gives any preset of RULES.md
section 6 (loaded from the TOML files in ``chinese_poker/presets``); ``rules.replace(**knobs)`` changes
knobs; ``Rules.from_dict`` / ``to_dict``, ``from_json`` / ``to_json``, ``from_toml`` / ``to_toml`` and
``load`` / ``save`` convert to and from data. ``rules.resolved()`` is the plain dict of RULES.md
section 6 that the C++ core and the pure-Python reference consume.

The stored form of each knob is described in ``chinese_poker.knobs``. Every bad value raises
``ValueError`` naming the knob and listing what is allowed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import cache, wraps
from types import MappingProxyType
from typing import Any

import chinese_poker.rules_text as rules_text
from chinese_poker._record import field_names, record
from chinese_poker._record import replace as record_replace
from chinese_poker._suggest import did_you_mean
from chinese_poker.knob_forms import (
    ROYALTY_TABLES,
    normalize_extra_suits,
    normalize_horse_card,
    normalize_naturals,
    normalize_row_base,
    normalize_royalties,
    read_only_table,
)
from chinese_poker.knobs import (
    BOOL_KNOBS,
    CHOICE_TEXT,
    CHOICES,
    INT_RANGES,
    REMOVED_KNOBS,
    AceBasis,
    Fantasyland,
    FoulPolicy,
    FoulVsFoul,
    HomeRunScope,
    MiddleVsBack,
    NaturalDeclaration,
    Naturals,
    NaturalTiebreak,
    NaturalUnitsMode,
    NaturalVsNatural,
    OfcVariant,
    OverallBasis,
    RowBase,
    Royalties,
    RoyaltyCondition,
    RoyaltyMode,
    Shooting,
    SuitOrder,
    SuitTiebreak,
    Wheel,
    check_units,
    knob_error,
    quoted,
    removed_knob_error,
    with_knob_guide,
)
from chinese_poker.presets import DEFAULT_PRESET, PRESET_NAMES, check_preset_name, preset_document
from chinese_poker.rules_spec import SPEC_CACHE, core_spec

__all__ = ["KNOBS", "Rules", "core_spec"]

# Keys a rules document may carry besides the knobs: the base preset and free-text documentation.
_PRESET_KEY = "preset"
_METADATA_KEYS: tuple[str, ...] = ("source", "description")


@record(kw_only=True, uncompared=("name",))
class Rules:
    """Every knob of RULES.md (sections 2-6), immutable and validated; ``Rules()`` is the ``pagat`` preset.

    {knob_guide}

    Knobs are keywords only: ``Rules("pagat")`` is a ``TypeError`` pointing at ``Rules.preset("pagat")``.
    ``Rules(**knobs)`` with a name that is no knob is a ``TypeError`` suggesting the closest knob; a bad
    value is a ``ValueError`` naming the knob and listing what is allowed.

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
    surrender_units: int = 0
    three_straights_front_a23: bool = True
    three_straights_front_qka: bool = True
    three_straights_wheel: bool = True
    three_flushes_distinct_suits: bool = False
    quads_as_trips: bool = True
    row_base: RowBase = (1, 1, 1)
    ace_units: int = 0
    pair_cap: int = 0
    home_run_cap: int = 0
    home_run_bonus: int = 0
    home_run_counts_naturals: bool = False
    foul_counts_for_home_run: bool = False
    natural_vs_natural: NaturalVsNatural = "by_kind"
    natural_settles_table: bool = False
    natural_units_mode: NaturalUnitsMode = "table"
    false_declaration_units: int = 0
    horse_card: str | None = None
    horse_multiplier: int = 2
    foul_vs_foul: FoulVsFoul = "push"
    fantasyland: Fantasyland = "off"
    ace_basis: AceBasis = "pairwise"
    shooting: Shooting = "scoop"
    home_run_scope: HomeRunScope = "own_pairs"
    extra_suits: str = ""
    jokers: int = 0
    ofc_variant: OfcVariant = "classic"
    name: str | None = None

    def __post_init__(self) -> None:
        """Validate every knob and store ``royalties`` and ``naturals`` in their immutable forms."""
        for knob, allowed in CHOICES.items():
            value = getattr(self, knob)
            if not isinstance(value, str) or value not in allowed:
                raise knob_error(knob, f"got {value!r}", CHOICE_TEXT.get(knob) or quoted(allowed))
        for knob, (low, high) in INT_RANGES.items():
            check_units(knob, "the value", getattr(self, knob), low, high)
        for knob in BOOL_KNOBS:
            value = getattr(self, knob)
            if not isinstance(value, bool):
                raise knob_error(knob, f"got {value!r} ({type(value).__name__})", "true, false")
        object.__setattr__(self, "royalties", normalize_royalties(self.royalties))
        object.__setattr__(self, "naturals", normalize_naturals(self.naturals))
        object.__setattr__(self, "row_base", normalize_row_base(self.row_base))
        object.__setattr__(self, "horse_card", normalize_horse_card(self.horse_card))
        object.__setattr__(self, "extra_suits", normalize_extra_suits(self.extra_suits))
        if self.name is not None and self.name not in PRESET_NAMES:
            presets = quoted(PRESET_NAMES)
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
        return str(preset_document(name).get("source", ""))

    @staticmethod
    def preset_description(name: str) -> str:
        """A one-line description of preset ``name`` (its TOML file's ``description``)."""
        return str(preset_document(name).get("description", ""))

    # ----- changing knobs ------------------------------------------------------------------------------

    def replace(self, **knobs: Any) -> Rules:
        """A copy with the given knobs changed (validated); e.g. ``rules.replace(royalties="pagat")``."""
        for key in knobs:
            if key in REMOVED_KNOBS:
                raise removed_knob_error(key)
            if key not in _KNOB_SET:
                raise _unknown_key(key, KNOBS)
        changed = record_replace(self, **knobs)
        if changed == self:
            return changed
        return record_replace(changed, name=None) if changed.name is not None else changed

    __replace__ = replace  # copy.replace(rules, **knobs)

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
            elif knob == "row_base":
                value = list(value)
            data[knob] = value
        return data

    def __getstate__(self) -> dict[str, Any]:
        """Pickle the knobs only: the cached core form and hash (per process) are rebuilt where used."""
        return {key: value for key, value in self.__dict__.items() if key not in (SPEC_CACHE, "_hash")}

    def __hash__(self) -> int:
        """The knobs' hash (not ``name``'s), computed once: every cache keyed by rules hashes them."""
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, knob) for knob in KNOBS))
            object.__setattr__(self, "_hash", cached)
        return cached

    def resolved(self) -> dict[str, Any]:
        """The resolved rules dict of RULES.md section 13, for the C++ core and the reference.

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
        return read_only_table(table)

    @classmethod
    def from_json(cls, text: str) -> Rules:
        """Rules from JSON text holding one object (as ``from_dict``); malformed text is a ``ValueError``."""
        return cls.from_dict(rules_text.json_document(text))

    def to_json(self, indent: int | None = 2) -> str:
        """The ``to_dict`` form as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_toml(cls, text: str) -> Rules:
        """Rules from TOML text (as ``from_dict``); malformed text is a ``ValueError``."""
        return cls.from_dict(rules_text.toml_document(text))

    def to_toml(self) -> str:
        """The ``to_dict`` form as TOML text: one ``key = value`` line per knob."""
        return rules_text.toml_text(self.to_dict())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Rules:
        """Rules from a ``.json`` or ``.toml`` file (UTF-8, a byte order mark allowed), chosen by the file's
        extension."""
        return cls.from_dict(rules_text.read_document(path))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write these rules to a ``.json`` or ``.toml`` file (UTF-8), chosen by the file's extension."""
        text = self.to_json() + "\n" if rules_text.file_suffix(path) == ".json" else self.to_toml()
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)


#: Every knob of RULES.md, in field order (``name`` is metadata, not a knob).
KNOBS: tuple[str, ...] = tuple(name for name in field_names(Rules) if name != "name")
_KNOB_SET = frozenset(KNOBS)
_DEFAULTS: Mapping[str, Any] = MappingProxyType({knob: getattr(Rules, knob) for knob in KNOBS})
_FIELD_NAMES: tuple[str, ...] = (*KNOBS, "name")
_record_init = Rules.__init__


@wraps(_record_init)
def _init_with_suggestion(self: Rules, *args: Any, **knobs: Any) -> None:
    # The generated __init__ names an unknown keyword but suggests nothing; a misspelt knob is the usual
    # cause, so name the closest knob as from_dict and replace do.
    if args:
        # A positional value would silently become the first knob (wheel): Rules("pagat") reads as
        # wheel="pagat". Knobs are keywords only; a preset is loaded by name with Rules.preset.
        first = args[0]
        named = isinstance(first, str) and first in PRESET_NAMES
        hint = f"Rules.preset({first!r})" if named else "Rules.preset(name)"
        raise TypeError(
            f"Rules() takes knobs by keyword only (such as Rules(scoop_bonus=3)); got {len(args)} "
            f"positional argument{'s' if len(args) > 1 else ''}, {first!r} first; to load a preset use {hint}"
        )
    for key in knobs:
        if key in REMOVED_KNOBS:
            raise removed_knob_error(key)
        if key not in _FIELD_NAMES:
            raise TypeError(
                f"Rules() got an unknown knob {key!r}{did_you_mean(key, KNOBS)}; known: {quoted(KNOBS)}"
            )
    _record_init(self, **knobs)


# Assigned after the class is built so that type checkers still see the generated keyword signature.
setattr(Rules, "__init__", _init_with_suggestion)  # noqa: B010


def _unknown_key(key: object, known: tuple[str, ...]) -> ValueError:
    return ValueError(f"unknown rules knob {key!r}{did_you_mean(key, known)}; known: {quoted(known)}")


def _from_dict(data: object, loading: tuple[str, ...]) -> Rules:
    if not isinstance(data, Mapping):
        raise ValueError(f"rules data must be a mapping of knobs, got {type(data).__name__}")
    base_name: str | None = None
    overrides: dict[str, Any] = {}
    for key, value in data.items():
        if key == _PRESET_KEY:
            if value is not None:
                try:
                    check_preset_name(value)
                except ValueError as error:
                    raise ValueError(f"rules key 'preset': {error}") from None
            base_name = value
        elif key in _METADATA_KEYS:
            if not isinstance(value, str):
                raise ValueError(f"rules key {key!r} is documentation and must be a string, got {value!r}")
        elif key in _KNOB_SET:
            overrides[key] = value
        elif key in REMOVED_KNOBS:
            raise removed_knob_error(key)
        else:
            raise _unknown_key(key, (_PRESET_KEY, *KNOBS, *_METADATA_KEYS))
    base = Rules() if base_name is None else _preset(base_name, loading or None)
    return base.replace(**overrides)


@cache
def _cached_preset(name: str) -> Rules:
    return _preset(name, ())


def _preset(name: str, loading: tuple[str, ...] | None = None) -> Rules:
    if loading is None:
        return _cached_preset(check_preset_name(name))
    if name in loading:
        raise ValueError(f"preset {name!r} is based on itself: {' -> '.join((*loading, name))}")
    try:
        rules = _from_dict(preset_document(name), (*loading, name))
    except ValueError as error:
        raise ValueError(f"preset {name!r}: {error}") from error
    return record_replace(rules, name=name)


# The per-knob guide lives with the knobs' vocabulary (knobs.KNOB_GUIDE); help(Rules) shows it in place.
Rules.__doc__ = with_knob_guide(Rules.__doc__ or "")


def __dir__() -> list[str]:
    return list(__all__)
