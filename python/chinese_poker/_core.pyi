"""Type stubs of the compiled core (private: use the chinese_poker package)."""

from collections.abc import Iterable
from typing import Literal

import numpy as np
import numpy.typing as npt

Wheel = Literal["low", "second"]

def parse_card(token: str) -> int: ...
def format_card(card: int) -> str: ...
def evaluate(cards: str | Iterable[str | int], wheel: Wheel = "low") -> int: ...
def evaluate_batch(cards: npt.NDArray[np.uint8], wheel: Wheel = "low") -> npt.NDArray[np.int32]: ...
