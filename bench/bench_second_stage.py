"""Would a second stage pay? The best few settings of the expected-units model re-scored against a stored
sample of the field's own settings, and the best of them played instead of the model's first choice.

    python bench/bench_second_stage.py [--rules R] [--deals N] [--top K] [--field M] [--seed S]

The field: M random hands arranged by `expected` under the rules, kept as their three row strengths (the
rows of one opponent together, so the re-scoring sees what the model's independent rows cannot: that a
strong back leaves weaker cards for the front). The second stage values each of the K settings `suggest`
ranks first by its exact units against every sampled opponent (rows won and lost, the overall unit and
the scoop bonus of the rules) and keeps the best. Card removal is not modelled: the sample is of hands
dealt from a full deck.

Measured as a paired difference: N random 4-player deals, every seat arranged by `expected`; for each seat
whose second-stage setting differs, the deal is settled again with that seat's setting swapped in, and the
change in that seat's units (against the same three opponents) is recorded. Printed: the mean change per
hand with its 95% interval (mean +- 1.96 standard errors), how many hands changed, and the cost per hand.
Rules without royalties, naturals or the suit tie-break only (the re-scoring compares strengths).
"""

from __future__ import annotations

import argparse
import time

import chinese_poker as cp
import numpy as np
from chinese_poker.arrange import arrange_batch
from common import random_deals


def row_strengths(arranged: np.ndarray) -> np.ndarray:
    """(N, 13) arranged hands (front 3, middle 5, back 5) -> (N, 3) int64 row strengths."""
    rows = [arranged[:, :3], arranged[:, 3:8], arranged[:, 8:]]
    return np.stack([cp.evaluate_batch(np.ascontiguousarray(r)) for r in rows], axis=1).astype(np.int64)


def units_against(setting: np.ndarray, field: np.ndarray, rules: cp.Rules) -> float:
    """Mean units of one setting's strengths (3,) against every sampled opponent (M, 3)."""
    won = (setting[None, :] > field).sum(axis=1)
    lost = (setting[None, :] < field).sum(axis=1)
    overall = (won >= 2).astype(np.int64) - (lost >= 2)
    scoop = (won == 3).astype(np.int64) - (lost == 3)
    return float((won - lost + rules.overall_unit * overall + rules.scoop_bonus * scoop).mean())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rules", default="wikipedia-2-4")
    parser.add_argument("--deals", type=int, default=2_500)
    parser.add_argument("--top", type=int, default=4, help="settings re-scored per hand")
    parser.add_argument("--field", type=int, default=20_000, help="sampled field settings")
    parser.add_argument("--seed", type=int, default=123)
    args = parser.parse_args()
    rules = cp.Rules.preset(args.rules)
    if rules.royalties or rules.naturals or rules.suit_tiebreak != "off":
        raise SystemExit(
            f"{args.rules}: royalties, naturals or the suit tie-break; this bench compares strengths only"
        )
    rng = np.random.default_rng(args.seed)
    field_hands = random_deals(args.field // 4 + 1, 4, rng).reshape(-1, 13)[: args.field]
    field = row_strengths(arrange_batch(field_hands, rules, "expected"))

    deals = random_deals(args.deals, 4, rng)
    first = arrange_batch(deals.reshape(-1, 13), rules, "expected").reshape(deals.shape)
    second = first.copy()
    start = time.perf_counter()
    changed = 0
    for d in range(args.deals):
        for seat in range(4):
            suggestions = cp.suggest([int(c) for c in deals[d, seat]], rules, k=args.top)
            values = [units_against(np.array(s.strengths, dtype=np.int64), field, rules) for s in suggestions]
            pick = suggestions[int(np.argmax(values))]
            if pick.rank != 1:
                second[d, seat] = pick.hand.codes()
                changed += 1
    per_hand_ms = 1e3 * (time.perf_counter() - start) / (4 * args.deals)

    change = np.zeros((args.deals, 4))
    for seat in range(4):
        moved = np.nonzero((first[:, seat] != second[:, seat]).any(axis=1))[0]
        if len(moved) == 0:
            continue
        before = np.ascontiguousarray(first[moved])
        after = before.copy()
        after[:, seat] = second[moved, seat]
        change[moved, seat] = cp.settle_batch(after, rules)[:, seat] - cp.settle_batch(before, rules)[:, seat]
    per_hand = change.reshape(-1)
    half = 1.96 * per_hand.std(ddof=1) / np.sqrt(len(per_hand))
    print(
        f"{args.rules}: {args.deals:,} deals ({len(per_hand):,} hands), top {args.top}, field {args.field:,}"
    )
    print(f"{'hands changed':<34}{changed:>10,} ({changed / len(per_hand):.1%})")
    mean = per_hand.mean()
    interval = f"(95% {mean - half:+.4f} to {mean + half:+.4f})"
    print(f"{'units per hand, second stage':<34}{mean:>+10.4f} {interval}")
    print(f"{'cost per hand (suggest + stage)':<34}{per_hand_ms:>10.2f} ms")


if __name__ == "__main__":
    main()
