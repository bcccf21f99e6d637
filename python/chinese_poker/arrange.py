"""Arranging 13 cards into a legal setting (front 3, middle 5, back 5).

Two strategies:

- ``"strongest"``: the strongest back, then the strongest middle, then the strongest front (the baseline).
- ``"expected"`` (default): the setting with the greatest expected units against a field of opponents under
  the given rules. Each of our rows is valued against the distribution of the field's rows of that kind
  (shipped in ``data/field_rows.npz``, made by ``scripts/make_field_tables.py`` by simulation with this
  library; see ``docs/ARRANGING.md``): the chance it wins, ties and loses, the royalties it earns, the
  royalties the opponent's row earns when it wins. The pair-level terms (overall unit, scoop bonus, scoop
  multiplier) take the three rows' results as independent. The expectation is per opponent, so the choice
  does not depend on how many opponents there are; ``expected_units`` reports it for ``opponents`` of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from chinese_poker import _core
from chinese_poker.cards import CardsLike, parse_cards
from chinese_poker.evaluation import CATEGORY_SHIFT, HandCategory
from chinese_poker.hand import Hand, _rules_or_default, detect_natural, rules_spec
from chinese_poker.knobs import ROWS
from chinese_poker.rules import Rules

__all__ = [
    "DEFAULT_STRATEGY",
    "STRATEGIES",
    "Arrangement",
    "arrange",
    "arrange_batch",
    "arrangements",
    "build_expected_model",
    "field_tables",
]

#: The arrangement strategies ``arrange`` and ``arrange_batch`` know.
STRATEGIES = ("expected", "strongest")
DEFAULT_STRATEGY = "expected"

_FIELD_FILE = "field_rows.npz"
_WHEEL_LOW = (5, 4, 3, 2, 1)
_WHEEL_SECOND = (14, 5, 4, 3, 2)


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


def _thirteen(cards13: CardsLike) -> np.ndarray:
    codes = parse_cards(cards13)
    if len(codes) != 13:
        raise ValueError(f"arranging takes 13 cards, got {len(codes)}")
    return np.asarray(codes, dtype=np.uint8)


def _check_strategy(strategy: str) -> None:
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(map(repr, STRATEGIES))}, got {strategy!r}")


@lru_cache(maxsize=1)
def field_tables() -> dict[str, Any]:
    """The shipped distribution of the field's rows: per row, every strength (``wheel="low"`` encoding) and
    its probability, plus ``meta`` (how the tables were made)."""
    with resources.files("chinese_poker.data").joinpath(_FIELD_FILE).open("rb") as handle:
        data = np.load(handle)
        tables: dict[str, Any] = {key: data[key] for key in data.files if key != "meta"}
        tables["meta"] = json.loads(str(data["meta"]))
    return tables


def _rewheel(strengths: np.ndarray) -> np.ndarray:
    """Strengths as ``wheel="second"`` encodes them: the wheel's vector becomes 14,5,4,3,2."""
    out = strengths.astype(np.int64).copy()
    low = sum(v << (16 - 4 * k) for k, v in enumerate(_WHEEL_LOW))
    second = sum(v << (16 - 4 * k) for k, v in enumerate(_WHEEL_SECOND))
    mask = (1 << CATEGORY_SHIFT) - 1
    is_wheel = (out & mask) == low
    out[is_wheel] = (out[is_wheel] & ~mask) | second
    return out


def _royalty_of(strengths: np.ndarray, table: dict[str, int]) -> np.ndarray:
    """Royalty units of each strength under one row's table (royal_flush looked up before straight_flush)."""
    categories = strengths >> CATEGORY_SHIFT
    values = np.zeros(len(strengths), dtype=np.float64)
    for category in HandCategory:
        values[categories == category] = table.get(category.name.lower(), 0)
    if "royal_flush" in table:
        royal = (categories == HandCategory.STRAIGHT_FLUSH) & (((strengths >> 12) & 0xFF) == 0xED)
        values[royal] = table["royal_flush"]
    return values


@lru_cache(maxsize=64)
def _expected_model(rules: Rules) -> _core.ExpectedModel:
    """The core's expected-units model for ``rules`` and the shipped field tables, built once per rules."""
    return build_expected_model(field_tables(), rules)


def build_expected_model(tables: dict[str, Any], rules: Rules) -> _core.ExpectedModel:
    """The core's expected-units model from field tables (as ``field_tables`` gives them) and rules."""
    royalty_table = rules.royalty_table
    split_ties = rules.suit_tiebreak != "off"  # equal strengths are then decided by suits, about evenly
    rows = []
    for row in ROWS:
        strengths = tables[f"{row}_strengths"].astype(np.int64)
        if rules.wheel == "second":
            strengths = _rewheel(strengths)
        order = np.argsort(strengths)
        strengths = strengths[order]
        prob = tables[f"{row}_prob"][order]
        below = np.cumsum(prob) - prob
        above = 1.0 - below - prob
        win = below + (prob / 2 if split_ties else 0)
        loss = above + (prob / 2 if split_ties else 0)
        royalty = _royalty_of(strengths, dict(royalty_table[row]))
        if rules.royalty_condition == "always":
            # Every holder collects its royalty from the opponent whatever the result.
            always = royalty - float(np.dot(prob, royalty))
            extra_win = np.zeros_like(royalty)
            extra_loss = np.zeros_like(royalty)
        else:
            always = np.zeros_like(royalty)
            if rules.royalty_mode == "replace":  # a won row is worth the royalty instead of 1
                extra_win = np.where(royalty > 0, royalty - 1, 0.0)
            else:
                extra_win = royalty
            weighted = prob * extra_win
            extra_loss = weighted[::-1].cumsum()[::-1] - weighted + (weighted / 2 if split_ties else 0)
        rows.append((strengths.astype(np.uint32).tolist(), win.tolist(), loss.tolist(), extra_win.tolist(),
                     extra_loss.tolist(), always.tolist()))
    return _core.ExpectedModel(rows, rules.wheel, float(rules.overall_unit), float(rules.scoop_bonus),
                               float(rules.scoop_multiplier), bool(rules.royalties_in_multiplier))


def arrangements(
    cards13: CardsLike,
    rules: Rules | None = None,
    *,
    drop_dominated: bool = False,
    with_strengths: bool = False,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Every legal setting of 13 cards under ``rules``, those with identical row strengths collapsed to one.

    Returns a ``(K, 13)`` uint8 array of settings (front 3, middle 5, back 5 card codes), strongest back
    first; with ``with_strengths``, also the ``(K, 3)`` int32 array of the rows' strengths. With
    ``drop_dominated``, a setting that another legal one matches or beats in all three rows is left out (the
    Pareto front remains).
    """
    spec = rules_spec(_rules_or_default(rules))
    settings, strengths = _core.legal_arrangements(_thirteen(cards13), spec, True, drop_dominated)
    return (settings, strengths) if with_strengths else settings


def _declare(cards: np.ndarray, rules: Rules, expected_per_opponent: float) -> str | None:
    if not rules.naturals:
        return None
    natural = detect_natural(cards, rules)
    if natural is None or rules.natural_declaration == "auto":
        return natural
    units = dict(rules.naturals)[natural]
    return natural if units > expected_per_opponent else None


def arrange(
    cards13: CardsLike, rules: Rules | None = None, strategy: str = DEFAULT_STRATEGY, *, opponents: int = 3
) -> Arrangement:
    """Choose a legal setting for 13 cards under ``rules`` (default ``pagat``) by ``strategy``.

    ``"expected"`` maximises expected net units against a field of opponents; ``"strongest"`` takes the
    strongest back, then middle, then front. See the module's docstring for the model.
    """
    _check_strategy(strategy)
    if isinstance(opponents, bool) or not isinstance(opponents, int) or not 1 <= opponents <= 3:
        raise ValueError(f"opponents must be 1, 2 or 3, got {opponents!r}")
    rules = _rules_or_default(rules)
    cards = _thirteen(cards13)
    model = _expected_model(rules)
    setting, ev = _core.arrange_batch(cards.reshape(1, 13), rules_spec(rules),
                                      model if strategy == "expected" else None)
    hand = Hand.from_cards(setting[0])
    strengths = tuple(int(s) for s in hand.facts(rules)["strengths"])
    per_opponent = float(ev[0]) if strategy == "expected" else _core.expected_units(list(strengths), model)
    return Arrangement(
        hand=hand, strengths=(strengths[0], strengths[1], strengths[2]),
        expected_units=per_opponent * opponents, declare=_declare(cards, rules, per_opponent),
        strategy=strategy,
    )


def arrange_batch(
    hands: np.ndarray,
    rules: Rules | None = None,
    strategy: str = DEFAULT_STRATEGY,
    *,
    model: _core.ExpectedModel | None = None,
) -> np.ndarray:
    """Arrange N hands at once in C++ with the GIL released.

    ``hands``: a C-contiguous uint8 array of shape (N, 13). Returns (N, 13) uint8 settings (front 3, middle
    5, back 5), each a legal setting of its hand's cards. A bad card raises ValueError naming the hand.
    ``model`` replaces the shipped expected-units model (``build_expected_model``; used to make the tables).
    """
    _check_strategy(strategy)
    rules = _rules_or_default(rules)
    if strategy == "expected" and model is None:
        model = _expected_model(rules)
    elif strategy == "strongest":
        model = None
    settings, _ = _core.arrange_batch(hands, rules_spec(rules), model)
    return settings
