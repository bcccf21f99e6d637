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
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from chinese_poker._field import field_hands
from chinese_poker._threads import thread_count
from chinese_poker.arrange import STRATEGIES, arrange_batch
from chinese_poker.dealing import MAX_SEED
from chinese_poker.hand import Hand, RulesLike, rules_or_default
from chinese_poker.rules import Rules
from chinese_poker.setting_value import Comparison, RowRates, SettingValue
from chinese_poker.settle import settle_batch
from chinese_poker.suggestion import (
    RowReason,
    Suggestion,
    _opponent_count,
    _whole_number,
    distinct_key,
    suggest,
)

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
SettingLike = Hand | str | Sequence[Any]

#: The most samples one ``evaluate_setting`` call deals.
MAX_SAMPLES = 10_000_000
#: The z value of a two-sided 95% normal interval.
_Z95 = 1.959963984540054
#: Deals settled per step: bounds the memory of a large call (about 2 KB per deal); the result does not
#: depend on it, as every figure is built from integer sums.
_CHUNK = 8_192


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
