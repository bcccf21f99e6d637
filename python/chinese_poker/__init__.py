"""chinese_poker: evaluation and settlement for 13-card Chinese Poker (Capsa Susun, Pusoy, Shisanzhang).

The compiled core (``chinese_poker._core``) does every computation; this package gives it a typed,
documented Python face.
"""

try:
    import chinese_poker._core as _core  # noqa: F401 - the compiled core, checked first for a clear message
except ImportError as error:  # pragma: no cover - only without a built extension
    raise ImportError(
        f"chinese_poker's compiled core is missing or does not match this Python ({error}); reinstall the "
        "package: pip install . from a checkout (it builds the core), or pip install --force-reinstall "
        "chinese-poker once the package is published"
    ) from error

from chinese_poker._core import InputError
from chinese_poker._version import __version__
from chinese_poker.advice import (
    Comparison,
    RowRates,
    RowReason,
    SettingValue,
    Suggestion,
    evaluate_setting,
    evaluate_settings,
    suggest,
)
from chinese_poker.arrange import Arrangement, arrange, arrange_batch, arrangements
from chinese_poker.cards import format_card, format_cards, parse_card, parse_cards
from chinese_poker.evaluation import (
    HandCategory,
    category,
    describe,
    evaluate,
    evaluate_batch,
    tiebreak_vector,
)
from chinese_poker.hand import Hand, HandFacts, detect_natural, held_naturals
from chinese_poker.rules import Rules
from chinese_poker.settle import SettleDetail, settle, settle_batch
from chinese_poker.settlement import PairResult, PlayerResult, Settlement
from chinese_poker.simulate import Simulation, Strategy, simulate

__all__ = [
    "Arrangement",
    "Comparison",
    "Hand",
    "HandCategory",
    "HandFacts",
    "InputError",
    "PairResult",
    "PlayerResult",
    "RowRates",
    "RowReason",
    "Rules",
    "SettingValue",
    "SettleDetail",
    "Settlement",
    "Simulation",
    "Strategy",
    "Suggestion",
    "__version__",
    "arrange",
    "arrange_batch",
    "arrangements",
    "category",
    "describe",
    "detect_natural",
    "evaluate",
    "evaluate_batch",
    "evaluate_setting",
    "evaluate_settings",
    "format_card",
    "format_cards",
    "held_naturals",
    "parse_card",
    "parse_cards",
    "settle",
    "settle_batch",
    "simulate",
    "suggest",
    "tiebreak_vector",
]


def __dir__() -> list[str]:
    return list(__all__)
