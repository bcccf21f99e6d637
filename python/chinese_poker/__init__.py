"""chinese_poker: evaluation and settlement for 13-card Chinese Poker (Capsa Susun, Pusoy, Shisanzhang).

The compiled core (``chinese_poker._core``) does every computation; this package gives it a typed,
documented Python face.
"""

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
from chinese_poker.hand import Hand, detect_natural
from chinese_poker.rules import Rules
from chinese_poker.settle import PairResult, PlayerResult, Settlement, settle, settle_batch

__version__ = "0.1.0"

__all__ = [
    "Arrangement",
    "Hand",
    "HandCategory",
    "PairResult",
    "PlayerResult",
    "Rules",
    "Settlement",
    "__version__",
    "arrange",
    "arrange_batch",
    "arrangements",
    "category",
    "describe",
    "detect_natural",
    "evaluate",
    "evaluate_batch",
    "format_card",
    "format_cards",
    "parse_card",
    "parse_cards",
    "settle",
    "settle_batch",
    "tiebreak_vector",
]
