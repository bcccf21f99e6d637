"""The ``threads=`` argument every batch call takes."""

from __future__ import annotations

import numbers
import os
from typing import Any

#: The most threads one batch call starts (the core's cap).
MAX_THREADS = 256


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform tells it), at least 1."""
    count = getattr(os, "process_cpu_count", None)  # Python 3.13+: honours the affinity mask
    if count is not None:
        return max(1, min(count() or 1, MAX_THREADS))
    if hasattr(os, "sched_getaffinity"):
        return max(1, min(len(os.sched_getaffinity(0)), MAX_THREADS))
    return max(1, min(os.cpu_count() or 1, MAX_THREADS))


def thread_count(threads: Any, function: str) -> int:
    """``threads`` checked (an int, 0 for every available core, else 1..MAX_THREADS) and 0 resolved."""
    # numpy's integers are Integral (numpy registers them), its bool is not.
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral):
        raise TypeError(f"{function}: threads must be an int, got {type(threads).__name__}")
    threads = int(threads)
    if not 0 <= threads <= MAX_THREADS:
        raise ValueError(
            f"threads must be 0 (every available core) or a count 1..{MAX_THREADS}, got {threads}"
        )
    return available_cores() if threads == 0 else threads
