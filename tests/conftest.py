"""Shared fixtures: every five-card and three-card hand as uint8 card-code arrays, and Hypothesis profiles."""

from __future__ import annotations

import itertools
import os
from math import comb

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

N_FIVE = comb(52, 5)  # 2,598,960
N_THREE = comb(52, 3)  # 22,100

# "ci" (chosen when the CI environment variable is set): reproducible runs, no flaky deadlines.
settings.register_profile(
    "ci", derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def all_hands(size: int) -> np.ndarray:
    """Every ``size``-card hand, in lexicographic order, as a C-contiguous (N, size) uint8 array."""
    count = comb(52, size)
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), size)),
        dtype=np.uint8,
        count=size * count,
    )
    return flat.reshape(count, size)


@pytest.fixture(scope="session")
def five_card_hands() -> np.ndarray:
    hands = all_hands(5)
    hands.setflags(write=False)
    return hands


@pytest.fixture(scope="session")
def three_card_hands() -> np.ndarray:
    hands = all_hands(3)
    hands.setflags(write=False)
    return hands
