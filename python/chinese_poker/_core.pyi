"""Type stubs of the compiled core (private: use the chinese_poker package)."""

from collections.abc import Iterable, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

Wheel = Literal["low", "second"]

def parse_card(token: str) -> int: ...
def format_card(card: int) -> str: ...
def evaluate(cards: str | Iterable[str | int], wheel: Wheel = "low") -> int: ...
def evaluate_batch(cards: npt.NDArray[np.uint8], wheel: Wheel = "low") -> npt.NDArray[np.int32]: ...

class RulesSpec:
    """Every knob as plain values, converted once from ``Rules.resolved()``; opaque to Python."""

    def __init__(self, resolved: dict[str, Any]) -> None: ...

def player_facts(cards: npt.NDArray[np.uint8], declared: bool, rules: RulesSpec) -> dict[str, Any]: ...
def settle_round(
    cards: npt.NDArray[np.uint8],
    declared: list[bool],
    surrendered: list[bool],
    stakes: npt.NDArray[np.int64] | None,
    rules: RulesSpec,
) -> dict[str, Any]: ...
def settle_batch(rounds: npt.NDArray[np.uint8], rules: RulesSpec) -> npt.NDArray[np.int64]: ...
def legal_arrangements(
    cards: npt.NDArray[np.uint8], rules: RulesSpec, distinct_strengths: bool, drop_dominated: bool
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32]]: ...
def strongest_arrangement(cards: npt.NDArray[np.uint8], rules: RulesSpec) -> npt.NDArray[np.uint8]: ...

class ExpectedModel:
    """Per-row value tables and pair terms of the expected-units strategy (opaque)."""

    def __init__(
        self,
        rows: Sequence[Sequence[Sequence[float]]],
        wheel: Wheel,
        overall_unit: float,
        scoop_bonus: float,
        scoop_multiplier: float,
        royalties_in_multiplier: bool,
    ) -> None: ...

def expected_units(strengths: Sequence[int], model: ExpectedModel) -> float: ...
def arrange_batch(
    hands: npt.NDArray[np.uint8], rules: RulesSpec, model: ExpectedModel | None
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]: ...
