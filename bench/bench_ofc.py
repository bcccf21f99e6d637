"""Exact fantasyland solver speed on one core (docs/OFC.md): hands per second of
``chinese_poker.ofc.fantasyland_batch`` at 14, 15, 16 and 17 cards under the ``ofc`` preset.

    python bench/bench_ofc.py [--hands N] [--repeat R]

Each rate is the best of R runs, by wall time and by the process's CPU time (which leaves out other
processes' turns on a shared machine). The table compares it with the targets (1,500 hands/s at 14 cards,
150 at 17) and with the published rates of a public Rust fantasyland solver (148.7, 31.4, 7.6 and 1.5
hands/s at 14 to 17 cards).
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np
from chinese_poker.ofc import fantasyland_batch, stay_value_of

PUBLISHED = {14: 148.7, 15: 31.4, 16: 7.6, 17: 1.5}
TARGET = {14: 1500.0, 17: 150.0}


def rates(hands: np.ndarray, stay: float, repeat: int) -> tuple[float, float]:
    """Best (wall, CPU) hands per second of solving `hands` on one thread."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        fantasyland_batch(hands, "ofc", stay, threads=1)
        wall = min(wall, time.perf_counter() - w0)
        cpu = min(cpu, time.process_time() - c0)
    return len(hands) / wall, len(hands) / max(cpu, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    stay = stay_value_of("ofc")
    rng = np.random.default_rng(2024)
    machine = platform.processor() or platform.machine()
    print(f"# {machine}, load {os.getloadavg()[0]:.2f}, stay value {stay:.3f}")
    columns = ("cards", "hands", "wall/s", "cpu/s", "target", "x target", "x public")
    print(" ".join(f"{c:>{w}}" for c, w in zip(columns, (5, 6, 9, 9, 7, 9, 9))))
    for count in (14, 15, 16, 17):
        hands = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :count].astype(np.uint8)
        wall, cpu = rates(hands, stay, args.repeat)
        target = TARGET.get(count)
        versus = f"{cpu / target:9.2f}" if target else f"{'-':>9}"
        print(
            f"{count:5d} {args.hands:6d} {wall:9.1f} {cpu:9.1f} {target or '-':>7} {versus} "
            f"{cpu / PUBLISHED[count]:9.1f}"
        )


if __name__ == "__main__":
    main()
