"""Make the field tables of the "expected" arranging strategy, one per rule set:
python/chinese_poker/data/field_rows_PRESET.npz.

    python scripts/make_field_tables.py --preset NAME [--hands N] [--iterations K] [--duel-deals M]
                                        [--seed S] [--threads T] [-o FILE]

Method (docs/ARRANGING.md), fictitious play under the preset's rules:
1. Field 0 arranges every hand by "strongest". Deal N random hands, arrange them as the field does and
   count each row's strengths: the distribution of the field's front, middle and back rows.
2. Model k is the expected-units model (the preset's rules) on the field tables of iteration k: the
   average of the row distributions of fields 0..k-1, so the field is the mixture of every strategy played
   so far. Field k arranges by model k (under the preset's rules); its rows are counted on N fresh hands.
3. K iterations are run; the tables of model K (fields 0..K-1 averaged) are written. With --resume FILE
   the run goes on from FILE's tables, taken as the average of the F fields it records (its
   "fields_averaged"): model F+j averages them, in their weight F, with the j fields played since; give
   it another --seed than FILE's, so that its hands are fresh. --new-field-weight W counts each field
   played in this run as W fields (default 1, plain fictitious play). For the record, each
   model k >= 2 plays a duplicate duel against model k-1 under the preset: M deals, seats rotated, one
   player by model k against three by model k-1 (mean units per hand and standard error). All sizes,
   seeds and figures go into the file's metadata.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import chinese_poker as cp
import numpy as np
from chinese_poker.arrange import arrange_batch, build_expected_model
from chinese_poker.simulate import Strategy

ROWS = ("front", "middle", "back")
SLICES = {"front": slice(0, 3), "middle": slice(3, 8), "back": slice(8, 13)}
DATA = Path(__file__).resolve().parent.parent / "python" / "chinese_poker" / "data"


def all_classes() -> dict[str, np.ndarray]:
    """Every strength a row can have (wheel "low"): 455 for the front, 7,462 for middle and back."""
    fives = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), 5)), dtype=np.uint8)
    threes = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), 3)), dtype=np.uint8)
    five = np.unique(cp.evaluate_batch(fives.reshape(-1, 5)))
    three = np.unique(cp.evaluate_batch(threes.reshape(-1, 3)))
    assert len(five) == 7462
    assert len(three) == 455
    return {"front": three, "middle": five, "back": five}


def deal_hands(count: int, rng: np.random.Generator) -> np.ndarray:
    return np.argsort(rng.random((count, 52)), axis=1)[:, :13].astype(np.uint8)


def arrange_parallel(hands: np.ndarray, rules: cp.Rules, strategy: str, model, threads: int) -> np.ndarray:
    """arrange_batch over `threads` threads (it releases the GIL)."""
    parts = np.array_split(hands, threads)
    with ThreadPoolExecutor(threads) as pool:
        done = pool.map(
            lambda part: arrange_batch(np.ascontiguousarray(part), rules, strategy, model=model), parts
        )
        return np.concatenate(list(done))


def distribution(settings: np.ndarray, classes: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    tables: dict[str, np.ndarray] = {}
    for row in ROWS:
        strengths = cp.evaluate_batch(np.ascontiguousarray(settings[:, SLICES[row]]))
        index = np.searchsorted(classes[row], strengths)
        assert (classes[row][index] == strengths).all()
        counts = np.bincount(index, minlength=len(classes[row])).astype(np.float64)
        tables[f"{row}_strengths"] = classes[row].astype(np.uint32)
        tables[f"{row}_prob"] = counts / counts.sum()
    return tables


def duel(
    rules: cp.Rules, tables, field_tables, *, deals: int, seed: int, threads: int
) -> tuple[float, float]:
    """Mean units per hand (and its standard error) of one player arranging by "expected" on `tables`
    against three arranging by "expected" on `field_tables` (None: "strongest"), over `deals` deals of
    `seed` played once per seat rotation (cp.simulate: the same deals for every call with that seed)."""
    seat0 = Strategy("expected", field=tables)
    field = Strategy("strongest") if field_tables is None else Strategy("expected", field=field_tables)
    result = cp.simulate(
        rules, [seat0, field, field, field], deals=deals, seed=seed, threads=threads, rotate=True
    )
    summary = result.seats[0]
    return summary.mean_units, (summary.ci95[1] - summary.mean_units) / 1.959963984540054


def average(fields: list[dict[str, np.ndarray]], weights: list[float]) -> dict[str, np.ndarray]:
    """The row distributions of the mixture of the given fields, each in its weight (the number of fields
    it stands for)."""
    tables = dict(fields[0])
    for row in ROWS:
        probs = [field[f"{row}_prob"] for field in fields]
        tables[f"{row}_prob"] = np.average(probs, axis=0, weights=weights)
    return tables


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--preset", default="pagat", help="the rule set played and modelled")
    parser.add_argument("--hands", type=int, default=100_000, help="hands counted per field (N)")
    parser.add_argument("--iterations", type=int, default=10, help="models built (K)")
    parser.add_argument("--duel-deals", type=int, default=2_000, help="rotated deals per record duel (M)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--resume", type=Path, default=None, help="go on from these tables (same preset)")
    parser.add_argument("--new-field-weight", type=float, default=1.0, help="weight of each new field")
    parser.add_argument("-o", "--output", type=Path, default=None)
    args = parser.parse_args()
    output = args.output or DATA / f"field_rows_{args.preset}.npz"

    rng = np.random.default_rng(args.seed)
    classes = all_classes()
    rules = cp.Rules.preset(args.preset)

    started = time.perf_counter()
    resumed = None
    if args.resume is None:
        settings = arrange_parallel(deal_hands(args.hands, rng), rules, "strongest", None, args.threads)
        fields = [distribution(settings, classes)]  # field 0: "strongest"
        weights = [1.0]
    else:
        with np.load(args.resume) as data:
            resumed = json.loads(str(data["meta"]))
            if resumed["preset"] != args.preset:
                raise SystemExit(f"{args.resume} holds tables of {resumed['preset']}, not {args.preset}")
            fields = [{key: data[key] for key in data.files if key != "meta"}]
        weights = [float(resumed["fields_averaged"])]  # the mixture of that many fields
    first = int(weights[0])
    history = []
    previous = None
    for iteration in range(first, first + args.iterations):
        tables = average(fields, weights)
        record: dict = {"iteration": iteration, "weights": list(weights)}
        if previous is not None and args.duel_deals:
            mean, stderr = duel(
                rules, tables, previous, deals=args.duel_deals, seed=args.seed, threads=args.threads
            )
            record["versus_previous_model"] = {"mean": mean, "stderr": stderr}
        record["seconds"] = round(time.perf_counter() - started, 1)
        history.append(record)
        print(json.dumps(record), flush=True)
        previous = tables
        if iteration < first + args.iterations - 1:
            # Field `iteration` arranges by this iteration's model.
            model = build_expected_model(tables, rules)
            settings = arrange_parallel(deal_hands(args.hands, rng), rules, "expected", model, args.threads)
            fields.append(distribution(settings, classes))
            weights.append(args.new_field_weight)

    assert previous is not None
    meta = {
        "method": "scripts/make_field_tables.py (fictitious play); see docs/ARRANGING.md",
        "preset": args.preset,
        "rules": rules.to_dict(),
        "hands_per_field": args.hands,
        "iterations": args.iterations,
        "fields_averaged": round(sum(weights)),
        "new_field_weight": args.new_field_weight,
        "duel_deals": args.duel_deals,
        "seed": args.seed,
        "history": history,
        "resumed_from": resumed,
        "chinese_poker": cp.__version__,
    }
    output.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(output, meta=np.array(json.dumps(meta)), **previous)
    print(f"wrote {output} (model {first + args.iterations - 1}, {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
