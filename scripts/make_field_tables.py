"""Make the field tables of the "expected" arranging strategy: python/chinese_poker/data/field_rows.npz.

    python scripts/make_field_tables.py [--hands N] [--duel-deals M] [--max-iterations K] [--seed S]

Method (docs/ARRANGING.md), fictitious play:
1. Field 0 arranges every hand by "strongest". Deal N random hands, arrange them as the field does and
   count each row's strengths: the distribution of the field's front, middle and back rows.
2. Model k is the expected-units model (pagat rules) on the field tables of iteration k: the average of
   the row distributions of fields 0..k-1, so the field is the mixture of every strategy played so far.
   Field k arranges by model k; its rows are counted on N fresh hands.
3. Iteration k (k >= 2) is kept only if it still improves: over M deals (the same deals every iteration),
   one player arranging by model k against three arranging by model k-1 must win on average by more than
   twice the standard error (pagat). Iterating stops at the first that does not (or after K); the tables
   of the last kept iteration are written. Each duel is a chinese_poker.simulate run on --seed's deals.
4. For the record, every iteration is also scored by the strategy's acceptance test: one player by model
   k against three playing "strongest", under pagat and under wikipedia-1-6 (mean units per deal). All
   figures go into the file's metadata.
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
OUTPUT = Path(__file__).resolve().parent.parent / "python" / "chinese_poker" / "data" / "field_rows.npz"


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
    """Mean units per hand (and its standard error) of seat 0 arranging by "expected" on `tables` against
    three seats arranging by "expected" on `field_tables` (None: "strongest"), over `deals` deals of
    `seed` (cp.simulate: the same deals for every call with that seed)."""
    seat0 = Strategy("expected", field=tables)
    field = Strategy("strongest") if field_tables is None else Strategy("expected", field=field_tables)
    result = cp.simulate(rules, [seat0, field, field, field], deals=deals, seed=seed, threads=threads)
    summary = result.seats[0]
    return summary.mean_units, (summary.ci95[1] - summary.mean_units) / 1.959963984540054


def average(fields: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The row distributions of the mixture of the given fields, in equal parts."""
    tables = dict(fields[0])
    for row in ROWS:
        tables[f"{row}_prob"] = np.mean([field[f"{row}_prob"] for field in fields], axis=0)
    return tables


def mean_beats(score: dict) -> bool:
    return score["mean"] > 2 * score["stderr"]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=200_000, help="hands counted per field (N)")
    parser.add_argument("--duel-deals", type=int, default=20_000, help="deals scoring each iteration (M)")
    parser.add_argument("--max-iterations", type=int, default=20)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT)
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    classes = all_classes()
    duel_seed = args.seed
    presets = {name: cp.Rules.preset(name) for name in ("pagat", "wikipedia-1-6")}
    pagat = presets["pagat"]

    started = time.perf_counter()
    settings = arrange_parallel(deal_hands(args.hands, rng), pagat, "strongest", None, args.threads)
    fields = [distribution(settings, classes)]  # field 0: "strongest"
    history = []
    kept = None  # (iteration, tables, model under pagat)
    for iteration in range(1, args.max_iterations + 1):
        tables = average(fields)
        model = build_expected_model(tables, pagat)
        record: dict = {"iteration": iteration, "tables": f"average of fields 0..{iteration - 1}"}
        if kept is not None:
            mean, stderr = duel(
                pagat, tables, kept[1], deals=args.duel_deals, seed=duel_seed, threads=args.threads
            )
            record["versus_previous_model"] = {"mean": mean, "stderr": stderr}
        record["versus_strongest"] = {}
        for name, rules in presets.items():
            mean, stderr = duel(
                rules, tables, None, deals=args.duel_deals, seed=duel_seed, threads=args.threads
            )
            record["versus_strongest"][name] = {"mean": mean, "stderr": stderr}
        record["seconds"] = round(time.perf_counter() - started, 1)
        history.append(record)
        print(json.dumps(record), flush=True)
        if kept is not None and not mean_beats(record["versus_previous_model"]):
            break
        kept = (iteration, tables, model)
        if iteration < args.max_iterations:
            # Field `iteration` arranges by this iteration's model.
            settings = arrange_parallel(deal_hands(args.hands, rng), pagat, "expected", model, args.threads)
            fields.append(distribution(settings, classes))

    assert kept is not None
    chosen, chosen_tables, _ = kept
    meta = {
        "method": "scripts/make_field_tables.py (fictitious play); see docs/ARRANGING.md",
        "hands_per_field": args.hands,
        "duel_deals": args.duel_deals,
        "seed": args.seed,
        "chosen_iteration": chosen,
        "history": history,
        "chinese_poker": cp.__version__,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.output, meta=np.array(json.dumps(meta)), **chosen_tables)
    print(f"wrote {args.output} (iteration {chosen})")


if __name__ == "__main__":
    main()
