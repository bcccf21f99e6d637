"""chinese_poker: evaluation and settlement for 13-card Chinese Poker (Capsa Susun, Pusoy, Shisanzhang).

The compiled core (``chinese_poker._core``) does every computation; this package gives it a typed,
documented Python face. The public names are imported from their modules when first used, so that
importing the package (and a command-line run, which needs a few of them) stays cheap.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
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

# Where each public name is defined: imported on first use (PEP 562), then kept in the module's namespace.
_WHERE: dict[str, str] = {
    "Comparison": "chinese_poker.advice",
    "RowRates": "chinese_poker.advice",
    "RowReason": "chinese_poker.advice",
    "SettingValue": "chinese_poker.advice",
    "Suggestion": "chinese_poker.advice",
    "evaluate_setting": "chinese_poker.advice",
    "evaluate_settings": "chinese_poker.advice",
    "suggest": "chinese_poker.advice",
    "Arrangement": "chinese_poker.arrange",
    "arrange": "chinese_poker.arrange",
    "arrange_batch": "chinese_poker.arrange",
    "arrangements": "chinese_poker.arrange",
    "format_card": "chinese_poker.cards",
    "format_cards": "chinese_poker.cards",
    "parse_card": "chinese_poker.cards",
    "parse_cards": "chinese_poker.cards",
    "HandCategory": "chinese_poker.evaluation",
    "category": "chinese_poker.evaluation",
    "describe": "chinese_poker.evaluation",
    "evaluate": "chinese_poker.evaluation",
    "evaluate_batch": "chinese_poker.evaluation",
    "tiebreak_vector": "chinese_poker.evaluation",
    "Hand": "chinese_poker.hand",
    "HandFacts": "chinese_poker.hand",
    "detect_natural": "chinese_poker.hand",
    "held_naturals": "chinese_poker.hand",
    "Rules": "chinese_poker.rules",
    "SettleDetail": "chinese_poker.settle",
    "settle": "chinese_poker.settle",
    "settle_batch": "chinese_poker.settle",
    "PairResult": "chinese_poker.settlement",
    "PlayerResult": "chinese_poker.settlement",
    "Settlement": "chinese_poker.settlement",
    "Simulation": "chinese_poker.simulate",
    "Strategy": "chinese_poker.simulate",
    "simulate": "chinese_poker.simulate",
}

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


class _Package(types.ModuleType):
    """The package's module: a submodule named like a public function (``settle``, ``arrange``,
    ``simulate``) does not replace that function when it is imported, so ``chinese_poker.settle`` stays the
    function ``settle`` whatever was imported before."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _WHERE and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'chinese_poker' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return list(__all__)
