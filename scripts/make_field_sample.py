"""Make the field sample of the "expected" arranging strategy's second stage, one per rule set:
python/chinese_poker/data/field_sample_PRESET.npz.

    python scripts/make_field_sample.py --preset NAME [--settings M] [--seed S] [--threads T] [-o FILE]

M random hands (each dealt from its own full deck) are arranged by the expected-units model alone (the
preset's rules and its shipped field tables, no second stage), and each setting's three row strengths
(wheel "low" encoding, as the field tables have them) are kept together: the settings the field plays,
against which the second stage re-scores the model's best few (docs/ARRANGING.md). Sizes, seed and the
field tables' digest go into the file's metadata.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import chinese_poker as cp
import numpy as np
from chinese_poker.arrange import FIELD_PRESETS, arrange_batch, build_expected_model, field_tables

ROWS = ("front", "middle", "back")
SLICES = {"front": slice(0, 3), "middle": slice(3, 8), "back": slice(8, 13)}
DATA = Path(__file__).resolve().parent.parent / "python" / "chinese_poker" / "data"


def tables_digest(preset: str) -> str:
    """sha-256 of the shipped field tables file the sample's players valued against."""
    return hashlib.sha256((DATA / f"field_rows_{preset}.npz").read_bytes()).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--preset", required=True, choices=FIELD_PRESETS)
    parser.add_argument("--settings", type=int, default=20_000, help="sampled settings (default 20,000)")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "-o", "--output", type=Path, help="default: the package's data/field_sample_PRESET.npz"
    )
    args = parser.parse_args()
    rules = cp.Rules.preset(args.preset)
    model = build_expected_model(field_tables(args.preset), rules)  # the model alone: no second stage
    rng = np.random.default_rng(args.seed)
    hands = np.argsort(rng.random((args.settings, 52)), axis=1)[:, :13].astype(np.uint8)
    start = time.perf_counter()
    parts = np.array_split(hands, args.threads)
    with ThreadPoolExecutor(args.threads) as pool:
        arranged = np.concatenate(list(pool.map(lambda part: arrange_batch(part, rules, model=model), parts)))
    seconds = time.perf_counter() - start
    rows = {
        row: cp.evaluate_batch(np.ascontiguousarray(arranged[:, SLICES[row]])).astype(np.uint32)
        for row in ROWS
    }
    meta = {
        "preset": args.preset,
        "settings": args.settings,
        "seed": args.seed,
        "hands": "numpy default_rng(seed): argsort of 52 uniforms per hand, its first 13 cards",
        "arranged_by": "the expected-units model of the preset's rules and field tables, no second stage",
        "field_tables_sha256": tables_digest(args.preset),
        "encoding": "row strengths, wheel 'low'",
        "seconds": round(seconds, 1),
    }
    output = args.output or DATA / f"field_sample_{args.preset}.npz"
    np.savez_compressed(output, **{f"{row}_strengths": rows[row] for row in ROWS}, meta=json.dumps(meta))
    print(f"{output}: {args.settings:,} settings in {seconds:.1f} s")


if __name__ == "__main__":
    main()
