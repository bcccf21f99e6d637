"""Duplicate matches against another arranger, run as a program: the shipped "expected" strategy against
any arranger that reads hands and writes settings.

    python bench/bench_peer_arranger.py --peer "COMMAND" [--deals N] [--seed S] [--presets P,P,...]
                                        [--threads T] [--tables FILE] [--peer-cache FILE]

The peer is a command (run with the shell) that reads hands from its standard input, one per line: 13
card codes of this library (0-51, ``cards.parse_cards`` gives them) separated by spaces, and writes one
line per hand: the same 13 codes arranged front 3, middle 5, back 5. Every answer is checked: the same
cards, legal under the preset (a fouled setting is refused, not settled).

Each match is 4 players: every deal is played four times, once with each seat's hand arranged by
"expected" and the other three by the peer (the same settings of the peer in every rotation), so each hand
of a deal is played once by "expected" and three times by the peer and the luck of the cards cancels.
Printed per preset: "expected"'s mean net units per hand against its three opponents together, the 95%
interval (1.96 standard errors of the per-deal sums over the rotations), the same per opponent, and both
arrangers' time per hand (the peer's includes its process's reading and writing). ``--tables FILE``
plays "expected" on the field tables in FILE, the model alone (bench/data/field_rows_baseline.npz: the
strategy as it was before the tables were made per rule set), instead of the shipped strategy.
``--peer-cache FILE`` keeps the peer's settings of these deals in FILE (an .npz naming the deals and the
seed) and reads them from there when they match, so that several matches share one run of the peer.
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import time
from pathlib import Path

import chinese_poker as cp
import numpy as np
from chinese_poker.arrange import arrange_batch, build_expected_model
from common import load_arrays, random_deals

PRESETS = ("wikipedia-2-4", "pagat", "wikipedia-1-6", "shisanzhang-hk")


def peer_settings(command: str, hands: np.ndarray) -> tuple[np.ndarray, float]:
    """The peer's settings of ``hands`` ((N, 13) uint8) and the seconds it took."""
    text = "\n".join(" ".join(str(int(c)) for c in hand) for hand in hands) + "\n"
    start = time.perf_counter()
    done = subprocess.run(command, shell=True, input=text, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"the peer exited with {done.returncode}: {done.stderr.strip()[:500]}")
    lines = done.stdout.split("\n")
    rows = [line.split() for line in lines if line.strip()]
    if len(rows) != len(hands):
        raise SystemExit(f"the peer wrote {len(rows)} settings for {len(hands)} hands")
    try:
        settings = np.array([[int(c) for c in row] for row in rows], dtype=np.int64)
    except ValueError as error:
        raise SystemExit(f"the peer wrote something other than card codes: {error}") from None
    if settings.shape != hands.shape or settings.min() < 0 or settings.max() > 51:
        raise SystemExit("the peer's settings are not 13 card codes 0-51 each")
    if not np.array_equal(np.sort(settings, axis=1), np.sort(hands.astype(np.int64), axis=1)):
        bad = int(np.flatnonzero((np.sort(settings, axis=1) != np.sort(hands, axis=1)).any(axis=1))[0])
        raise SystemExit(f"hand {bad}: the peer's setting does not hold the hand's 13 cards")
    return settings.astype(np.uint8), seconds


def check_legal(settings: np.ndarray, rules: cp.Rules) -> None:
    """SystemExit naming the first fouled setting."""
    front = cp.evaluate_batch(np.ascontiguousarray(settings[:, :3]))
    middle = cp.evaluate_batch(np.ascontiguousarray(settings[:, 3:8]))
    back = cp.evaluate_batch(np.ascontiguousarray(settings[:, 8:]))
    strict = rules.middle_vs_back == "strict"
    fouled = (front >= middle) | ((middle >= back) if strict else (middle > back))
    if fouled.any():
        raise SystemExit(f"hand {int(np.flatnonzero(fouled)[0])}: the peer's setting is fouled")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--peer", required=True, help="the peer's command (reads hands, writes settings)")
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--tables", default=None, help="field tables to play 'expected' on (model alone)")
    parser.add_argument("--peer-cache", default=None, help="an .npz keeping the peer's settings")
    args = parser.parse_args()
    deals = random_deals(args.deals, 4, np.random.default_rng(args.seed))
    hands = np.ascontiguousarray(deals.reshape(-1, 13))
    peer = None
    if args.peer_cache and Path(args.peer_cache).is_file():
        with np.load(args.peer_cache) as cached:
            if np.array_equal(cached["hands"], hands) and str(cached["peer"]) == args.peer:
                peer, peer_seconds = cached["settings"], float(cached["seconds"])
    if peer is None:
        peer, peer_seconds = peer_settings(args.peer, hands)
        if args.peer_cache:
            np.savez(args.peer_cache, hands=hands, peer=args.peer, settings=peer, seconds=peer_seconds)
    peer = peer.reshape(deals.shape)
    tables = load_arrays(args.tables) if args.tables else None
    print(
        f"Duplicate matches, 1 'expected' v. 3 of the peer, every seat once: {args.deals:,} deals x 4 "
        f"rotations, seed {args.seed}; chinese_poker {cp.__version__}, {platform.machine()}"
    )
    print(f"peer: {args.peer}: {1e3 * peer_seconds / len(hands):.3f} ms a hand (its process, one call)")
    print(f"expected: {'the model alone on ' + args.tables if args.tables else 'the shipped strategy'}")
    header = f"{'preset':<16} {'units/hand':>10}  {'95% interval':<20} {'per opponent':>12}  {'ms/hand':>8}"
    print(header)
    print("-" * len(header))
    for preset in args.presets.split(","):
        rules = cp.Rules.preset(preset)
        check_legal(peer.reshape(-1, 13), rules)
        start = time.perf_counter()
        model = build_expected_model(tables, rules) if tables is not None else None
        ours = arrange_batch(hands, rules, model=model, threads=args.threads).reshape(deals.shape)
        our_ms = 1e3 * (time.perf_counter() - start) * args.threads / len(hands)
        per_deal = np.zeros(args.deals)
        for seat in range(4):
            played = peer.copy()
            played[:, seat] = ours[:, seat]
            per_deal += cp.settle_batch(np.ascontiguousarray(played), rules, threads=args.threads)[:, seat]
        mean = per_deal.mean() / 4
        half = 1.96 * per_deal.std(ddof=1) / np.sqrt(args.deals) / 4
        print(
            f"{preset:<16} {mean:>+10.4f}  [{mean - half:+.4f}, {mean + half:+.4f}]   "
            f"{mean / 3:>+12.4f}  {our_ms:>8.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
