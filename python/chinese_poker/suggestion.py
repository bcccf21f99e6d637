"""``suggest``: the best few distinct settings of 13 cards under the ``expected`` model of ``arrange``.

Each suggestion comes with its expected units and why (each row's hand, its chances against the field's
row, its royalty); the first is the setting ``arrange(cards, rules, strategy="expected")`` returns.

Two settings are *distinct* (docs/ARRANGING.md, "suggest") when some row differs in its category or in the
ranks that name its made hand: the pair's rank, both ranks of two pair and of a full house, the rank of
trips and of quads, the top card of a straight, a straight flush, a flush and of a high-card row. Settings
that differ only in kickers, in the other cards of a flush, or in suits are near-duplicates: only the best
of them is suggested.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

import chinese_poker._core as _core
from chinese_poker.arrange import _expected_model, _thirteen, arrange
from chinese_poker.cards import CardsLike, format_cards
from chinese_poker.evaluation import CATEGORY_SHIFT, HandCategory, category, describe
from chinese_poker.hand import ROW_NAMES, Hand, RulesLike, rules_or_default
from chinese_poker.rules import Rules, core_spec

__all__ = ["RowReason", "Suggestion", "distinct_key", "suggest"]

# How many leading tie-break ranks name a row's made hand, by category (see the module's docstring).
_LEAD_RANKS = np.zeros(16, dtype=np.int64)
_LEAD_RANKS[: len(HandCategory)] = 1
_LEAD_RANKS[[HandCategory.TWO_PAIR, HandCategory.FULL_HOUSE]] = 2


def distinct_key(strengths: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Per setting (``(K, 3)`` row strengths, front, middle, back), the key that ``suggest`` keeps one
    setting of: each row's category and the ranks naming its made hand (its strength without the kickers),
    packed into one int64. Two settings are near-duplicates exactly when their keys are equal."""
    values = np.asarray(strengths, dtype=np.int64)
    if values.ndim != 2 or values.shape[1] != 3:
        raise ValueError(f"strengths must have shape (K, 3), got {values.shape}")
    lead = _LEAD_RANKS[(values >> CATEGORY_SHIFT) & 15]
    # Category (4 bits) and the leading ranks (4 bits each) are the top bits of a strength; a row's key is
    # under 2**12, so three of them fit in 36 bits.
    row_keys = values >> (CATEGORY_SHIFT - 4 * lead)
    packed: npt.NDArray[np.int64] = (row_keys[:, 0] << 24) | (row_keys[:, 1] << 12) | row_keys[:, 2]
    return packed


@dataclass(frozen=True)
class RowReason:
    """One row of a suggested setting and what it is worth against the same row of a field opponent.

    ``row``: ``"front"``, ``"middle"`` or ``"back"``; ``cards``: its card codes; ``strength``, ``category``
    (``HandCategory`` name, lower case) and ``text`` (``describe``); ``win``, ``tie``, ``loss``: the
    chances that it beats, ties and loses to the field's row, as the ``expected`` model counts them (with
    ``suit_tiebreak`` on, equal strengths count half a win and half a loss, so ``tie`` is 0); ``royalty``:
    the royalty units the rules give the row (``Hand.facts``).
    """

    row: str
    cards: tuple[int, ...]
    strength: int
    category: str
    text: str
    win: float
    tie: float
    loss: float
    royalty: int

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON-ready data; ``cards`` as text."""
        return {
            "row": self.row,
            "cards": format_cards(self.cards),
            "strength": self.strength,
            "category": self.category,
            "text": self.text,
            "win": self.win,
            "tie": self.tie,
            "loss": self.loss,
            "royalty": self.royalty,
        }


@dataclass(frozen=True)
class Suggestion:
    """One of ``suggest``'s settings.

    ``rank``: 1 for the best; ``hand``: the legal setting; ``strengths``: front, middle, back;
    ``expected_units``: its expected net units against ``opponents`` opponents under the ``expected``
    model (what ``Arrangement.expected_units`` reports for the setting ``arrange`` chooses); ``rows``: the
    front, middle and back ``RowReason``; ``scoop``: the model's chance that it wins all three rows against
    one opponent (rows taken as independent, as the model takes them); ``declare``: the natural to declare
    instead of playing it, chosen as ``arrange`` chooses (or ``None``); ``why``: one line of text saying
    the above.
    """

    rank: int
    hand: Hand
    strengths: tuple[int, int, int]
    expected_units: float
    rows: tuple[RowReason, RowReason, RowReason]
    scoop: float
    declare: str | None
    why: str

    def to_dict(self) -> dict[str, Any]:
        """The suggestion as JSON-ready data; ``hand`` as ``str(hand)``."""
        return {
            "rank": self.rank,
            "hand": str(self.hand),
            "strengths": list(self.strengths),
            "expected_units": self.expected_units,
            "rows": [row.to_dict() for row in self.rows],
            "scoop": self.scoop,
            "declare": self.declare,
            "why": self.why,
        }


def _whole_number(value: object, name: str, low: int, high: int) -> int:
    """``value`` as an int in ``low..high``: TypeError for a non-integer (or bool), ValueError naming
    ``name`` outside the range."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    number = operator.index(value)
    if not low <= number <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {number}")
    return int(number)


def _opponent_count(opponents: object) -> int:
    if isinstance(opponents, bool) or not isinstance(opponents, (int, np.integer)) or not 1 <= opponents <= 3:
        raise ValueError(f"opponents must be 1, 2 or 3, got {opponents!r}")
    return int(opponents)


def _why(rows: Sequence[RowReason]) -> str:
    parts = [f"{row.row} {row.text.lower()} (wins {row.win:.0%})" for row in rows]
    royalties = [f"{row.row} +{row.royalty}" for row in rows if row.royalty]
    return "; ".join(parts) + "; royalties: " + (", ".join(royalties) if royalties else "none")


def _declare(rules: Rules, cards: Sequence[int], per_opponent: float) -> str | None:
    """The natural ``arrange`` would declare instead of a setting worth ``per_opponent`` units."""
    if not rules.naturals:
        return None
    kind = _core.detect_natural(bytes(cards), core_spec(rules))
    if kind is None:
        return None
    units = dict(rules.naturals)[kind.name]
    return kind.name if rules.natural_declaration == "auto" or units > per_opponent else None


def suggest(
    cards: CardsLike, rules: RulesLike | None = None, k: int = 3, *, opponents: int = 3
) -> tuple[Suggestion, ...]:
    """The ``k`` best distinct legal settings of 13 cards under ``rules`` (default ``pagat``), best first.

    The first suggestion is exactly the setting ``arrange(cards, rules, strategy="expected",
    opponents=opponents)`` returns, with the same expected units: the model's best, or the one of its best
    few that the second stage finds better against the field's own settings (docs/ARRANGING.md). The
    others are every other legal setting valued by the ``expected`` model, ranked by expected units (ties:
    the stronger back, then middle, then front, as ``arrange`` breaks them); of each group of
    near-duplicates (equal ``distinct_key``: the same category and made-hand ranks in every row) only the
    best is kept, and a setting that an earlier suggestion matches or beats in every row is left out too:
    it is never the better choice. Fewer than ``k`` come back when the hand has fewer distinct settings.
    ``k``: 1 to 100; ``opponents``: 1 to 3 (the units are per deal against that many; the ranking does not
    depend on it).
    """
    k = _whole_number(k, "k", 1, 100)
    opponents = _opponent_count(opponents)
    rules = rules_or_default(rules)
    codes = _thirteen(cards, "suggest", rules.extra_suits, rules.jokers)
    best = arrange(list(codes), rules, "expected", opponents=opponents)
    model = _expected_model(rules)
    settings, strengths = _core.legal_arrangements(codes, core_spec(rules), True, False)
    ev, win, loss = _core.expected_rows(strengths, model)
    # Best first: expected units, then the stronger back, middle and front (arrange's tie-break).
    order = np.lexsort((-strengths[:, 0], -strengths[:, 1], -strengths[:, 2], -ev))
    keys = distinct_key(strengths[order])
    _, first = np.unique(keys, return_index=True)
    best_key = distinct_key(np.asarray([best.strengths]))[0]
    chosen: list[int] = []  # indices into the legal settings; arrange's own setting stands for its key
    chosen_strengths: list[npt.NDArray[np.int32]] = [np.asarray(best.strengths, dtype=np.int32)]
    for position in np.sort(first):
        if len(chosen) + 1 >= k:
            break
        index = int(order[position])
        if keys[position] == best_key:
            continue
        candidate = strengths[index]
        if any(bool(np.all(s >= candidate)) for s in chosen_strengths):
            continue
        chosen.append(index)
        chosen_strengths.append(candidate)
    # arrange's setting is a legal one, so its strengths are among the listed settings'.
    best_index = int(np.flatnonzero((strengths == np.asarray(best.strengths, dtype=np.int32)).all(axis=1))[0])
    out = [
        _suggestion(
            1,
            best.hand,
            strengths=best.strengths,
            expected_units=best.expected_units,
            win=win[best_index],
            loss=loss[best_index],
            rules=rules,
            declare=best.declare,
        )
    ]
    for rank, index in enumerate(chosen, start=2):
        row_strengths = (int(strengths[index, 0]), int(strengths[index, 1]), int(strengths[index, 2]))
        hand = Hand.from_cards(settings[index].tolist(), extra_suits=rules.extra_suits, jokers=rules.jokers)
        per_opponent = float(ev[index])
        declare = _declare(rules, hand.cards, per_opponent)
        out.append(
            _suggestion(
                rank,
                hand,
                strengths=row_strengths,
                expected_units=per_opponent * opponents,
                win=win[index],
                loss=loss[index],
                rules=rules,
                declare=declare,
            )
        )
    return tuple(out)


def _suggestion(
    rank: int,
    hand: Hand,
    *,
    strengths: tuple[int, int, int],
    expected_units: float,
    win: npt.NDArray[np.float64],
    loss: npt.NDArray[np.float64],
    rules: Rules,
    declare: str | None,
) -> Suggestion:
    """A suggestion worth ``expected_units`` against its opponents."""
    royalties = hand.facts(rules).royalties
    rows = tuple(
        RowReason(
            row=name,
            cards=codes,
            strength=strength,
            category=category(strength).name.lower(),
            text=describe(strength),
            win=float(win[r]),
            tie=max(0.0, 1.0 - float(win[r]) - float(loss[r])),
            loss=float(loss[r]),
            royalty=int(royalties[r]),
        )
        for r, (name, codes, strength) in enumerate(
            zip(ROW_NAMES, (hand.front or (), hand.middle or (), hand.back or ()), strengths)
        )
    )
    front, middle, back = rows
    return Suggestion(
        rank=rank,
        hand=hand,
        strengths=strengths,
        expected_units=expected_units,
        rows=(front, middle, back),
        scoop=float(win[0] * win[1] * win[2]),
        declare=declare,
        why=_why(rows),
    )


def __dir__() -> list[str]:
    return list(__all__)
