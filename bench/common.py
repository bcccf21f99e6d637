"""Helpers shared by the benchmark scripts (run them from the repository root: python bench/NAME.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np


def load_arrays(path: str | Path) -> dict[str, Any]:
    """The arrays of an .npz of field tables or a field sample, its ``meta`` left out."""
    with np.load(path) as data:
        return {key: data[key] for key in data.files if key != "meta"}


def best_time(run: Callable[[], object], repeat: int) -> float:
    """The shortest wall time, in seconds, of `repeat` calls of `run`."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def random_deals(count: int, players: int, rng: np.random.Generator) -> np.ndarray:
    """`count` random deals as a C-contiguous (count, players, 13) uint8 array (52 shuffled cards, 13 each,
    in the order front 3, middle 5, back 5)."""
    deals = np.empty((count, players, 13), dtype=np.uint8)
    for start in range(0, count, 20_000):
        stop = min(count, start + 20_000)
        deck = rng.random((stop - start, 52)).argsort(axis=1)[:, : 13 * players]
        deals[start:stop] = deck.reshape(stop - start, players, 13)
    return deals
