"""Arranging 13 cards into a legal setting (front 3, middle 5, back 5).

Two strategies:

- ``"strongest"``: the strongest back, then the strongest middle, then the strongest front (the baseline).
- ``"expected"`` (default): the setting with the greatest expected units against a field of opponents under
  the given rules. Each of our rows is valued against the distribution of the field's rows of that kind
  (one table per rule set in ``FIELD_PRESETS``, shipped as ``data/field_rows_PRESET.npz`` and made by
  ``scripts/make_field_tables.py`` by simulation with this library; the rules' own preset's table, else the
  nearest by ``field_distance``; see ``docs/ARRANGING.md``): the chance it wins, ties and loses, the
  royalties it earns, the royalties the opponent's row earns when it wins. The pair-level terms (overall
  unit, scoop bonus, scoop multiplier) take the three rows' results as independent. The expectation is per
  opponent, so the choice does not depend on how many opponents there are; ``expected_units`` reports it
  for ``opponents`` of them. Where the rules pay for rows won together (``uses_second_stage``), a second
  stage then re-scores the model's ``SECOND_STAGE_TOP`` best distinct settings against a stored sample of
  the field's own settings (``field_sample``), each opponent's three rows together, and plays the best.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Literal, overload

import numpy as np

import chinese_poker._core as _core
from chinese_poker._threads import thread_count
from chinese_poker.cards import CardsLike
from chinese_poker.hand import Hand, RulesLike, rules_or_default
from chinese_poker.knobs import ROWS
from chinese_poker.rules import Rules, core_spec

__all__ = [
    "DEFAULT_STRATEGY",
    "FIELD_PRESETS",
    "SECOND_STAGE_TOP",
    "STRATEGIES",
    "Arrangement",
    "arrange",
    "arrange_batch",
    "arrangements",
    "field_distance",
    "field_preset",
    "field_sample",
    "field_tables",
    "strongest_codes",
    "uses_second_stage",
]

#: The arrangement strategies ``arrange`` and ``arrange_batch`` know.
STRATEGIES = ("expected", "strongest")
DEFAULT_STRATEGY = "expected"

#: The rule sets that have field tables of their own, made under their scoring (docs/ARRANGING.md).
FIELD_PRESETS = ("pagat", "wikipedia-2-4", "wikipedia-1-6", "shisanzhang-hk")

#: How many of the model's best distinct settings the second stage re-scores against the field sample.
SECOND_STAGE_TOP = 3


@dataclass(frozen=True)
class Arrangement:
    """A chosen setting.

    ``hand``: the legal ``Hand``; ``strengths``: its front, middle and back strengths; ``expected_units``:
    the expected net units of playing it against ``opponents`` opponents under the expected-units model;
    ``declare``: the natural to declare instead of playing the setting (or ``None``): chosen when the rules
    pay more for it than the expected units of playing; under ``natural_declaration="auto"`` the natural
    held, which counts anyway; ``strategy``: the strategy that chose it.
    """

    hand: Hand
    strengths: tuple[int, int, int]
    expected_units: float
    declare: str | None
    strategy: str


def _thirteen(cards13: CardsLike, function: str, extra_suits: str = "", jokers: int = 0) -> bytes:
    """The 13 codes as the core takes them; a card of a suit in ``extra_suits`` (the rules' added suits)
    may appear twice."""
    try:
        codes = _core.parse_cards(cards13, extra_suits, jokers)  # unprefixed: the message is this function's
    except TypeError as error:
        raise TypeError(f"{function}: {error}") from None
    if len(codes) != 13:
        raise ValueError(f"arranging takes 13 cards, got {len(codes)}")
    return bytes(codes)


def _check_strategy(strategy: str) -> None:
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(map(repr, STRATEGIES))}, got {strategy!r}")


def _shipped(kind: str, preset: str) -> dict[str, Any]:
    """The arrays and the metadata of the package's ``data/{kind}_{preset}.npz``."""
    if preset not in FIELD_PRESETS:
        raise ValueError(
            f"no field tables for {preset!r}; they exist for {', '.join(map(repr, FIELD_PRESETS))}"
        )
    with resources.files("chinese_poker.data").joinpath(f"{kind}_{preset}.npz").open("rb") as handle:
        data = np.load(handle)
        arrays: dict[str, Any] = {key: data[key] for key in data.files if key != "meta"}
        arrays["meta"] = json.loads(str(data["meta"]))
    return arrays


@lru_cache(maxsize=len(FIELD_PRESETS))
def field_tables(preset: str = "pagat") -> dict[str, Any]:
    """The shipped distribution of the field's rows under ``preset`` (one of ``FIELD_PRESETS``): per row,
    every strength (``wheel="low"`` encoding) and its probability, plus ``meta`` (how the tables were made:
    preset, sizes, seed, figures)."""
    return _shipped("field_rows", preset)


@lru_cache(maxsize=len(FIELD_PRESETS))
def field_sample(preset: str = "pagat") -> dict[str, Any]:
    """The shipped sample of the field's settings under ``preset`` (one of ``FIELD_PRESETS``), which the
    second stage re-scores against: ``front_strengths``, ``middle_strengths``, ``back_strengths`` (uint32,
    ``wheel="low"`` encoding; entry j of each is one setting's row), plus ``meta`` (how it was made:
    ``scripts/make_field_sample.py``, its size and seed)."""
    return _shipped("field_sample", preset)


def _royalty_units(rules: Rules) -> dict[tuple[str, str], int]:
    table = rules.resolved()["royalties"]
    return {(row, key): units for row in ROWS for key, units in table.get(row, {}).items() if units}


def _scoring_features(rules: Rules) -> tuple[float, ...]:
    """The scoring knobs that shape the best setting, each in units a pair of players exchanges."""
    overall = float(rules.overall_unit)
    bonus = float(rules.scoop_bonus)
    return (
        overall,
        bonus,
        (rules.scoop_multiplier - 1) * (3 + overall + bonus),  # what a multiplied scoop adds
        float(rules.home_run_multiplier - 1),
        0.5 * (rules.suit_tiebreak != "off"),
        0.5 * (rules.wheel != "low"),
        0.5 * (rules.royalty_mode != "replace"),
        0.5 * (rules.royalty_condition != "win_row"),
    )


def field_distance(rules: RulesLike, preset: str) -> float:
    """How far ``rules``' scoring is from ``preset``'s (docs/ARRANGING.md, "Which table"): the sum of the
    absolute differences of the overall unit, the scoop bonus, the units a scoop multiplier adds
    (``(M - 1)(3 + overall unit + scoop bonus)``) and the home run multiplier minus one; 0.5 for each of
    ``suit_tiebreak``, ``wheel``, ``royalty_mode`` and ``royalty_condition`` that differs (off/low/replace/
    win_row against any other); plus the royalty tables' differences, summed over every row and hand,
    divided by 8. Knobs that do not change what a setting scores (fouls, naturals, surrender) count 0."""
    ours = rules_or_default(rules)
    theirs = Rules.preset(preset)
    distance = sum(abs(a - b) for a, b in zip(_scoring_features(ours), _scoring_features(theirs)))
    a, b = _royalty_units(ours), _royalty_units(theirs)
    distance += sum(abs(a.get(key, 0) - b.get(key, 0)) for key in a.keys() | b.keys()) / 8
    return distance


def field_preset(rules: RulesLike) -> str:
    """The preset whose field tables the ``"expected"`` strategy uses for ``rules``: the rules' own when they
    equal one of ``FIELD_PRESETS``, else the nearest by ``field_distance`` (ties: the first in
    ``FIELD_PRESETS``)."""
    resolved = rules_or_default(rules)
    for preset in FIELD_PRESETS:
        if resolved == Rules.preset(preset):
            return preset
    return min(FIELD_PRESETS, key=lambda preset: field_distance(resolved, preset))


def uses_second_stage(rules: RulesLike) -> bool:
    """Whether ``"expected"`` re-scores its best few settings against the field sample under ``rules``: when
    they pay for rows won together (an overall unit, a scoop bonus or a scoop multiplier), which the
    model's rows taken one by one cannot see. Rules that score each row alone (pagat) play the model's best:
    there the stage only swaps the tables' row distributions for the sample's, which gained against the
    field the sample is of and lost against another (docs/ARRANGING.md)."""
    resolved = rules_or_default(rules)
    return resolved.overall_unit != 0 or resolved.scoop_bonus != 0 or resolved.scoop_multiplier != 1


@lru_cache(maxsize=64)
def _expected_model(rules: Rules) -> _core.ExpectedModel:
    """The core's expected-units model for ``rules`` with the field tables of the preset ``field_preset``
    picks for them and, where ``uses_second_stage``, its field sample; built once per rules."""
    preset = field_preset(rules)
    sample = field_sample(preset) if uses_second_stage(rules) else None
    return build_expected_model(field_tables(preset), rules, sample=sample)


def build_expected_model(
    tables: dict[str, Any],
    rules: Rules,
    *,
    sample: dict[str, Any] | None = None,
    top: int = SECOND_STAGE_TOP,
) -> _core.ExpectedModel:
    """The core's expected-units model from field tables (as ``field_tables`` gives them) and rules; the core
    builds it (win and loss chances per row class, royalties, pair terms) and checks the tables. With
    ``sample`` (as ``field_sample`` gives it) the model has the second stage: its ``top`` (2 to 8) best
    distinct settings re-scored against the sample; without, the model's own best is played."""
    strengths = [np.ascontiguousarray(tables[f"{row}_strengths"], dtype=np.uint32) for row in ROWS]
    prob = [np.ascontiguousarray(tables[f"{row}_prob"], dtype=np.float64) for row in ROWS]
    if sample is None:
        return _core.ExpectedModel(strengths, prob, core_spec(rules))
    if isinstance(top, bool) or not isinstance(top, int) or not 2 <= top <= 8:
        raise ValueError(f"top must be an integer in 2..8, got {top!r}")
    rows = [np.ascontiguousarray(sample[f"{row}_strengths"], dtype=np.uint32) for row in ROWS]
    return _core.ExpectedModel(strengths, prob, core_spec(rules), rows, top)


@overload
def arrangements(
    cards13: CardsLike,
    rules: Rules | None = None,
    *,
    drop_dominated: bool = False,
    with_strengths: Literal[False] = False,
) -> np.ndarray: ...


@overload
def arrangements(
    cards13: CardsLike,
    rules: Rules | None = None,
    *,
    drop_dominated: bool = False,
    with_strengths: Literal[True],
) -> tuple[np.ndarray, np.ndarray]: ...


@overload
def arrangements(
    cards13: CardsLike,
    rules: Rules | None = None,
    *,
    drop_dominated: bool = False,
    with_strengths: bool,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]: ...


def arrangements(
    cards13: CardsLike,
    rules: Rules | None = None,
    *,
    drop_dominated: bool = False,
    with_strengths: bool = False,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Every legal setting of 13 cards under ``rules``, those with identical row strengths collapsed to one
    (the one whose card codes, front to back, come first).

    Returns a ``(K, 13)`` uint8 array of settings (front 3, middle 5, back 5 card codes), strongest back
    first; with ``with_strengths``, also the ``(K, 3)`` int32 array of the rows' strengths. With
    ``drop_dominated``, a setting that another legal one matches or beats in all three rows is left out (the
    Pareto front remains).
    """
    resolved = rules_or_default(rules)
    spec = core_spec(resolved)
    settings, strengths = _core.legal_arrangements(
        _thirteen(cards13, "arrangements", resolved.extra_suits, resolved.jokers), spec, True, drop_dominated
    )
    return (settings, strengths) if with_strengths else settings


def arrange(
    cards13: CardsLike,
    rules: RulesLike | None = None,
    strategy: str = DEFAULT_STRATEGY,
    *,
    opponents: int = 3,
) -> Arrangement:
    """Choose a legal setting for 13 cards under ``rules`` (default ``pagat``) by ``strategy``.

    ``"expected"`` maximises expected net units against a field of opponents; ``"strongest"`` takes the
    strongest back, then middle, then front. See the module's docstring for the model. One core call.
    """
    _check_strategy(strategy)
    if isinstance(opponents, bool) or not isinstance(opponents, int) or not 1 <= opponents <= 3:
        raise ValueError(f"opponents must be 1, 2 or 3, got {opponents!r}")
    rules = rules_or_default(rules)
    result = _core.arrange_hand(
        _thirteen(cards13, "arrange", rules.extra_suits, rules.jokers),
        core_spec(rules),
        _expected_model(rules),
        strategy == "expected",
    )
    per_opponent = result.expected_units
    declare = None
    if result.natural_index >= 0:
        natural, units = rules.naturals[result.natural_index]
        # Under "auto" the natural counts anyway; a declaration is worth it when it pays more than playing.
        if rules.natural_declaration == "auto" or units > per_opponent:
            declare = natural
    front, middle, back = result.strengths
    return Arrangement(
        hand=Hand.from_cards(result.cards, extra_suits=rules.extra_suits, jokers=rules.jokers),
        strengths=(front, middle, back),
        expected_units=per_opponent * opponents,
        declare=declare,
        strategy=strategy,
    )


def strongest_codes(cards13: Sequence[int], rules: Rules) -> tuple[int, ...]:
    """The 13 card codes (front 3, middle 5, back 5) of ``arrange``'s ``"strongest"`` setting of 13 valid
    codes under ``rules``, without the ``Arrangement`` around them: for generators that set many hands."""
    result = _core.arrange_hand(bytes(cards13), core_spec(rules), _expected_model(rules), False)
    return tuple(result.cards)


def arrange_batch(
    hands: np.ndarray,
    rules: Rules | None = None,
    strategy: str = DEFAULT_STRATEGY,
    *,
    model: _core.ExpectedModel | None = None,
    threads: int = 1,
) -> np.ndarray:
    """Arrange N hands at once in C++ with the GIL released.

    ``hands``: a C-contiguous uint8 array of shape (N, 13). Returns (N, 13) uint8 settings (front 3, middle
    5, back 5), each a legal setting of its hand's cards. A bad card raises ValueError naming the hand (the
    lowest bad one). ``model`` replaces the shipped expected-units model (``build_expected_model``; used to
    make the tables). ``threads``: how many threads share the hands (1, the default: the calling thread
    only; 0: every core this process may use); the settings are the same for any count.
    """
    _check_strategy(strategy)
    count = thread_count(threads, "arrange_batch")
    rules = rules_or_default(rules)
    if strategy == "expected" and model is None:
        model = _expected_model(rules)
    elif strategy == "strongest":
        model = None
    if not isinstance(hands, np.ndarray):
        raise TypeError(
            f"arrange_batch: hands must be a numpy array of uint8 card codes, got {type(hands).__name__}"
        )
    settings, _ = _core.arrange_batch(hands, core_spec(rules), model, count)
    return settings


def __dir__() -> list[str]:
    return list(__all__)
