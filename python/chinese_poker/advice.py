"""Advice on one hand: the best few settings of 13 cards (``suggest``) and what any setting is worth
(``evaluate_setting``).

- ``suggest(cards, rules, k)``: the ``k`` best *distinct* settings under the ``expected`` model of
  ``arrange``, each with its expected units and why (each row's hand, its chances against the field's row,
  its royalty). The first is the setting ``arrange(cards, rules, strategy="expected")`` returns.
- ``evaluate_setting(hand, rules, ...)``: a Monte Carlo estimate of a given setting's units per deal against
  ``opponents`` players of a field, with a 95% interval, each row's win/tie/loss rates and the scoop rates;
  with ``compare_to_best``, the regret against ``suggest``'s first setting on the same deals.

Two settings are *distinct* (docs/ARRANGING.md, "suggest") when some row differs in its category or in the
ranks that name its made hand: the pair's rank, both ranks of two pair and of a full house, the rank of
trips and of quads, the top card of a straight, a straight flush, a flush and of a high-card row. Settings
that differ only in kickers, in the other cards of a flush, or in suits are near-duplicates: only the best
of them is suggested.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from chinese_poker import _core
from chinese_poker._field import field_hands
from chinese_poker._threads import thread_count
from chinese_poker.arrange import STRATEGIES, _expected_model, _thirteen, arrange, arrange_batch
from chinese_poker.cards import CardsLike, format_cards
from chinese_poker.dealing import MAX_SEED
from chinese_poker.evaluation import CATEGORY_SHIFT, HandCategory, category, describe
from chinese_poker.hand import ROW_NAMES, Hand, RulesLike, rules_or_default
from chinese_poker.rules import Rules, core_spec
from chinese_poker.settle import settle_batch

__all__ = [
    "MAX_SAMPLES",
    "Comparison",
    "RowRates",
    "RowReason",
    "SettingLike",
    "SettingValue",
    "Suggestion",
    "distinct_key",
    "evaluate_setting",
    "evaluate_settings",
    "suggest",
]

#: What ``evaluate_setting`` takes as a setting: a ``Hand``, a ``(front, middle, back)`` triple, 13 cards
#: (front 3, middle 5, back 5) or the text ``str(hand)`` gives.
SettingLike = Union[Hand, str, Sequence[Any]]

#: The most samples one ``evaluate_setting`` call deals.
MAX_SAMPLES = 10_000_000
#: The z value of a two-sided 95% normal interval.
_Z95 = 1.959963984540054
#: Deals settled per step: bounds the memory of a large call (about 2 KB per deal); the result does not
#: depend on it, as every figure is built from integer sums.
_CHUNK = 8_192

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


# ----- evaluate_setting -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RowRates:
    """How often one of our rows beat, tied and lost to an opponent's same row, over the pairs (deal,
    opponent) whose rows were compared; the three add up to 1."""

    win: float
    tie: float
    loss: float

    def to_dict(self) -> dict[str, float]:
        """The rates as JSON-ready data."""
        return {"win": self.win, "tie": self.tie, "loss": self.loss}


@dataclass(frozen=True)
class Comparison:
    """Our setting against ``suggest``'s first (the best under the model) on the same deals and the same
    opponents' settings.

    ``hand``: the best suggestion; ``expected_units`` and ``interval``: its units per deal and their 95%
    interval; ``difference``: the mean of (ours - best) per deal, paired, and ``difference_interval`` its
    95% interval; ``regret``: ``-difference``, what the choice cost per deal (negative when ours did
    better on these deals).
    """

    hand: Hand
    expected_units: float
    interval: tuple[float, float]
    difference: float
    difference_interval: tuple[float, float]
    regret: float

    def to_dict(self) -> dict[str, Any]:
        """The comparison as JSON-ready data; ``hand`` as ``str(hand)``."""
        return {
            "hand": str(self.hand),
            "expected_units": self.expected_units,
            "interval": list(self.interval),
            "difference": self.difference,
            "difference_interval": list(self.difference_interval),
            "regret": self.regret,
        }


@dataclass(frozen=True)
class SettingValue:
    """What ``evaluate_setting`` measured for one setting.

    ``hand``; ``foul`` and ``foul_reasons`` (``HandFacts``): a fouled setting is settled as the rules'
    ``foul_policy`` says, so its units show what the foul costs; ``field``, ``opponents``, ``samples``,
    ``seed``, ``start``: what was dealt (deals ``start`` .. ``start + samples - 1`` of ``seed``).

    ``expected_units``: the mean of our net units per deal (against all ``opponents``), ``standard_error``
    and ``interval`` (95%, normal); ``total_units``: their exact integer sum, and
    ``opponents_total_units`` each opponent's (they add up to ``-total_units``: the game is zero-sum).

    ``rows``: front, middle, back ``RowRates`` over the (deal, opponent) pairs whose rows were compared
    (``compared``: the share of all pairs that were, 1.0 unless a natural decided some); the rows are
    compared as laid, also for a fouled setting. ``scoop``, ``scooped``: the share of all pairs in which we
    scooped the opponent, in which the opponent scooped us (as ``SettleDetail.scoop`` counts them).

    ``best``: the ``Comparison`` with ``suggest``'s first setting (``compare_to_best=True``), else ``None``.
    """

    hand: Hand
    foul: bool
    foul_reasons: tuple[str, ...]
    field: str
    opponents: int
    samples: int
    seed: int
    start: int
    expected_units: float
    standard_error: float
    interval: tuple[float, float]
    total_units: int
    opponents_total_units: tuple[int, ...]
    rows: tuple[RowRates, RowRates, RowRates]
    compared: float
    scoop: float
    scooped: float
    best: Comparison | None

    def to_dict(self) -> dict[str, Any]:
        """The measurement as JSON-ready data; ``hand`` as ``str(hand)``."""
        return {
            "hand": str(self.hand),
            "foul": self.foul,
            "foul_reasons": list(self.foul_reasons),
            "field": self.field,
            "opponents": self.opponents,
            "samples": self.samples,
            "seed": self.seed,
            "start": self.start,
            "expected_units": self.expected_units,
            "standard_error": self.standard_error,
            "interval": list(self.interval),
            "total_units": self.total_units,
            "opponents_total_units": list(self.opponents_total_units),
            "rows": {name: rates.to_dict() for name, rates in zip(ROW_NAMES, self.rows)},
            "compared": self.compared,
            "scoop": self.scoop,
            "scooped": self.scooped,
            "best": None if self.best is None else self.best.to_dict(),
        }


def _setting(hand: object) -> Hand:
    """The setting to evaluate as a ``Hand``, checked: three rows of 3, 5 and 5 distinct cards."""
    if isinstance(hand, Hand):
        setting = hand
    elif isinstance(hand, str):
        setting = Hand.parse(hand)
    elif isinstance(hand, (Sequence, np.ndarray)) and not isinstance(hand, (bytes, bytearray)):
        setting = Hand(*hand) if len(hand) == 3 else Hand.from_cards(hand)
    else:
        raise TypeError(
            "evaluate_setting: hand must be a Hand, a (front, middle, back) triple, 13 cards or hand text, "
            f"got {type(hand).__name__}"
        )
    if setting.is_declared:
        raise ValueError("evaluate_setting takes a setting (front, middle, back), not a declared natural")
    return setting


class _Sums:
    """Integer sums over deals, so that the figures do not depend on how the deals are chunked."""

    def __init__(self, opponents: int) -> None:
        self.units = 0
        self.squares = 0
        self.opponents = [0] * opponents
        self.rows = np.zeros((3, 3), dtype=np.int64)  # row x (win, tie, loss)
        self.compared = 0
        self.scoop = 0
        self.scooped = 0
        self.best_units = 0
        self.best_squares = 0
        self.difference = 0
        self.difference_squares = 0

    def add(self, net: npt.NDArray[np.int64], detail: Any, opponents: int) -> None:
        ours = net[:, 0]
        self.units += int(ours.sum())
        self.squares += int((ours * ours).sum())
        for seat in range(opponents):
            self.opponents[seat] += int(net[:, seat + 1].sum())
        # The first `opponents` pairs are (0, 1), (0, 2), ...: ours, from our side.
        known = detail.rows_known[:, :opponents]
        rows = detail.rows[:, :opponents, :][known]  # (pairs compared, 3)
        self.compared += int(known.sum())
        for r in range(3):
            self.rows[r] += (
                int((rows[:, r] > 0).sum()),
                int((rows[:, r] == 0).sum()),
                int((rows[:, r] < 0).sum()),
            )
        scoop = detail.scoop[:, :opponents]
        self.scoop += int((scoop > 0).sum())
        self.scooped += int((scoop < 0).sum())

    def add_best(self, ours: npt.NDArray[np.int64], best: npt.NDArray[np.int64]) -> None:
        difference = ours - best
        self.best_units += int(best.sum())
        self.best_squares += int((best * best).sum())
        self.difference += int(difference.sum())
        self.difference_squares += int((difference * difference).sum())


def _mean_and_interval(total: int, squares: int, n: int) -> tuple[float, float, tuple[float, float]]:
    """Mean, standard error and 95% interval from a sum and a sum of squares of ``n`` values."""
    mean = total / n
    # The sample variance from exact integer sums: n * squares - total**2 is computed in integers.
    variance = (n * squares - total * total) / (n * (n - 1)) if n > 1 else 0.0
    error = math.sqrt(max(variance, 0.0) / n)
    return mean, error, (mean - _Z95 * error, mean + _Z95 * error)


def evaluate_setting(
    hand: SettingLike,
    rules: RulesLike | None = None,
    *,
    opponents: int = 3,
    field: str = "expected",
    samples: int = 10_000,
    seed: int = 0,
    start: int = 0,
    compare_to_best: bool = False,
    threads: int = 1,
) -> SettingValue:
    """Monte Carlo value of one setting of 13 cards against ``opponents`` field players, under ``rules``.

    ``hand``: a ``Hand`` (or a ``(front, middle, back)`` triple, 13 cards front-middle-back, or hand text):
    13 distinct cards in rows of 3, 5 and 5. A fouled setting is accepted and settled as the rules'
    ``foul_policy`` says (``SettingValue.foul`` tells). Each sample deals the other cards to
    ``opponents`` (1 to 3) players, 13 each, from deal ``start + s`` of ``seed`` (``dealing.deal_batch``
    of the rules' pack: its cards in the deal's order, ours taken out), arranges them with
    ``arrange_batch(strategy=field)`` (``field``: ``"expected"``, ``"strongest"`` or any strategy
    ``arrange`` accepts) and settles the round
    with ``settle_batch`` (nobody declares a natural; under ``natural_declaration="auto"`` naturals count
    anyway). ``samples``: 1 to ``MAX_SAMPLES``; ``seed``: 0 to 2**64 - 1; ``start``: the first deal number.
    The result depends on ``seed``, ``start`` and ``samples`` only: the same for any ``threads`` (passed to
    both batch calls; 0: every core) and any chunking (deals ``0..n-1`` and ``n..m-1`` sum to ``0..m-1``).

    ``compare_to_best``: also settle ``suggest(hand.cards, rules, k=1)[0]`` against the same opponents'
    settings, for the paired difference and the regret (``SettingValue.best``).
    """
    (value,) = evaluate_settings(
        [hand],
        rules,
        opponents=opponents,
        field=field,
        samples=samples,
        seed=seed,
        start=start,
        compare_to_best=compare_to_best,
        threads=threads,
    )
    return value


def evaluate_settings(
    hands: Sequence[SettingLike],
    rules: RulesLike | None = None,
    *,
    opponents: int = 3,
    field: str = "expected",
    samples: int = 10_000,
    seed: int = 0,
    start: int = 0,
    compare_to_best: bool = False,
    threads: int = 1,
) -> tuple[SettingValue, ...]:
    """``evaluate_setting`` of several settings of the same 13 cards, on the same deals: the opponents'
    settings, which do not depend on how ours are laid, are arranged once for all (the costly part), so
    the settings' figures are paired. Each value is the one ``evaluate_setting`` gives for that setting
    alone. ``hands``: 1 to 100 settings, each holding the same 13 cards (ValueError otherwise)."""
    if isinstance(hands, (str, bytes, Hand)) or not isinstance(hands, (Sequence, np.ndarray)):
        raise TypeError(
            f"evaluate_settings: hands must be a sequence of settings, got {type(hands).__name__}"
        )
    if not 1 <= len(hands) <= 100:
        raise ValueError(f"evaluate_settings takes 1 to 100 settings, got {len(hands)}")
    settings = [_setting(hand) for hand in hands]
    cards = sorted(settings[0].cards)
    for index, setting in enumerate(settings[1:], start=1):
        if sorted(setting.cards) != cards:
            raise ValueError(
                f"hands[{index}] holds other cards than hands[0]: every setting must hold the same 13"
            )
    rules = rules_or_default(rules)
    opponents = _opponent_count(opponents)
    if not isinstance(field, str) or field not in STRATEGIES:
        raise ValueError(f"field must be one of {', '.join(map(repr, STRATEGIES))}, got {field!r}")
    samples = _whole_number(samples, "samples", 1, MAX_SAMPLES)
    seed = _whole_number(seed, "seed", 0, MAX_SEED)
    start = _whole_number(start, "start", 0, 2**62 - MAX_SAMPLES)
    if not isinstance(compare_to_best, (bool, np.bool_)):
        raise TypeError(f"compare_to_best must be a bool, got {type(compare_to_best).__name__}")
    count = thread_count(threads, "evaluate_setting")
    # The best for each setting's own card order, as suggest gives it for those cards.
    bests = [
        suggest(setting.cards, rules, k=1, opponents=opponents)[0].hand if compare_to_best else None
        for setting in settings
    ]
    sums = [_Sums(opponents) for _ in settings]
    for begin in range(start, start + samples, _CHUNK):
        end = min(begin + _CHUNK, start + samples)
        n = end - begin
        others = field_hands(
            seed, begin, end, cards, rules=rules, opponents=opponents
        )  # the rules' pack less ours
        laid = arrange_batch(others, rules, field, threads=count).reshape(n, opponents, 13)
        rounds = np.empty((n, opponents + 1, 13), dtype=np.uint8)
        rounds[:, 1:, :] = laid
        for setting, best, total in zip(settings, bests, sums):
            rounds[:, 0, :] = setting.cards
            detail = settle_batch(rounds, rules, detail=True, threads=count)
            total.add(detail.net, detail, opponents)
            if best is not None:
                rounds[:, 0, :] = best.cards
                best_net = settle_batch(rounds, rules, threads=count)
                total.add_best(detail.net[:, 0], best_net[:, 0])
    return tuple(
        _value(
            setting,
            rules,
            best,
            total,
            field=field,
            opponents=opponents,
            samples=samples,
            seed=seed,
            start=start,
        )
        for setting, best, total in zip(settings, bests, sums)
    )


def _value(
    setting: Hand,
    rules: Rules,
    best: Hand | None,
    sums: _Sums,
    *,
    field: str,
    opponents: int,
    samples: int,
    seed: int,
    start: int,
) -> SettingValue:
    """The ``SettingValue`` of one setting from its sums over ``samples`` deals."""
    facts = setting.facts(rules)
    mean, error, interval = _mean_and_interval(sums.units, sums.squares, samples)
    comparison = None
    if best is not None:
        best_mean, _, best_interval = _mean_and_interval(sums.best_units, sums.best_squares, samples)
        difference, _, difference_interval = _mean_and_interval(
            sums.difference, sums.difference_squares, samples
        )
        comparison = Comparison(
            hand=best,
            expected_units=best_mean,
            interval=best_interval,
            difference=difference,
            difference_interval=difference_interval,
            regret=0.0 - difference,  # 0.0, not -0.0, for equal settings
        )
    compared = sums.compared
    rates = tuple(
        RowRates(*(float(x) / compared if compared else 0.0 for x in sums.rows[r])) for r in range(3)
    )
    pairs = samples * opponents
    return SettingValue(
        hand=setting,
        foul=facts.foul,
        foul_reasons=facts.foul_reasons,
        field=field,
        opponents=opponents,
        samples=samples,
        seed=seed,
        start=start,
        expected_units=mean,
        standard_error=error,
        interval=interval,
        total_units=sums.units,
        opponents_total_units=tuple(sums.opponents),
        rows=(rates[0], rates[1], rates[2]),
        compared=compared / pairs,
        scoop=sums.scoop / pairs,
        scooped=sums.scooped / pairs,
        best=comparison,
    )


def __dir__() -> list[str]:
    return list(__all__)
