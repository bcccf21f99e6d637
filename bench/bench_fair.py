"""Provably fair dealing and audit speed on one core (docs/FAIR.md): deals per second of
``chinese_poker.fair.deal``, receipts per second of ``Settlement.receipt()``, and audited rounds per second
of ``chinese_poker.audit.audit_record`` on the two kinds of log line.

    python bench/bench_fair.py [--deals N] [--rounds M] [--repeat R]

The deal is pure Python on top of the standard library's HMAC-SHA256 (OpenSSL): a 4-seat deal reads 7
HMAC blocks and makes 51 draws, so the HMAC calls alone bound it; the line ``HMAC-SHA256 blocks`` shows
that bound. Each rate is the best of R runs.
"""

from __future__ import annotations

import argparse
import hmac
import json
import platform

from chinese_poker import Rules, arrange
from chinese_poker.audit import audit_record
from chinese_poker.cards import format_card
from chinese_poker.fair import commitment, deal
from chinese_poker.formats.rounds import parse_round, round_output, settle_round
from common import best_time

SEED = bytes(range(32))
CLIENTS = [b"alice", b"bob", b"carol", b"dave"]


def dealt_rounds(count: int) -> list[dict[str, object]]:
    """``count`` compact-replay log lines: 4 seats dealt by the seeds, each arranged."""
    lines = []
    for nonce in range(count):
        cards = deal(SEED, CLIENTS, nonce, "pagat", 4)
        players = []
        for seat in range(4):
            hand = arrange([int(c) for c in cards[seat]], "pagat").hand
            settings = (("front", hand.front), ("middle", hand.middle), ("back", hand.back))
            rows = {name: " ".join(format_card(c) for c in codes or ()) for name, codes in settings}
            players.append({"name": f"P{seat + 1}", **rows})
        data = {"id": nonce, "rules": "pagat", "players": players}
        seeds = {"commitment": commitment(SEED), "server_seed": SEED.hex(),
                 "client_seeds": [c.hex() for c in CLIENTS], "nonce": nonce}  # fmt: skip
        lines.append({**data, "deal": seeds})
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    rows: list[tuple[str, float, str]] = []
    key, message = SEED, b"x" * 60
    seconds = best_time(
        lambda: [hmac.digest(key, message, "sha256") for _ in range(args.deals * 7)], args.repeat
    )
    rows.append(("HMAC-SHA256 blocks alone, 7 per 4-seat deal", args.deals / seconds, "deals/s"))

    for label, rules, seats in (
        ("deal, 52 cards, 4 seats", Rules(), 4),
        ("deal, 52 cards, 2 seats", Rules(), 2),
        ("deal, 78 cards (2 added suits), 6 seats", Rules().replace(extra_suits="hs"), 6),
        ("deal, 54 cards (2 jokers), 4 seats", Rules().replace(jokers=2), 4),
    ):

        def deals(r: Rules = rules, s: int = seats) -> None:
            for n in range(args.deals):
                deal(SEED, CLIENTS, n, r, s)

        seconds = best_time(deals, args.repeat)
        rows.append((label, args.deals / seconds, "deals/s"))

    replays = dealt_rounds(args.rounds)
    rounds = [{k: v for k, v in line.items() if k != "deal"} for line in replays]
    settlements = [settle_round(parse_round(data)) for data in rounds]
    seconds = best_time(lambda: [s.receipt() for s in settlements], args.repeat)
    rows.append(("Settlement.receipt()", len(settlements) / seconds, "receipts/s"))
    outputs = []
    for data, settlement in zip(rounds, settlements):
        out = round_output(parse_round(data), settlement)
        out["receipt"] = settlement.receipt()
        outputs.append(json.loads(json.dumps(out)))
    seconds = best_time(lambda: [audit_record(line, "line", None) for line in outputs], args.repeat)
    rows.append(("audit, score --receipts lines (4 seats)", len(outputs) / seconds, "rounds/s"))
    seconds = best_time(lambda: [audit_record(line, "line", None) for line in replays], args.repeat)
    rows.append(("audit, compact replay lines (re-deal, 4 seats)", len(replays) / seconds, "rounds/s"))
    assert all(not audit_record(line, "line", None) for line in replays[:50] + outputs[:50])

    machine = platform.processor() or platform.machine()
    print(f"chinese_poker.fair on {machine}, Python {platform.python_version()}")
    print(f"{'what':<50} {'rate':>12}  unit")
    for label, rate, unit in rows:
        print(f"{label:<50} {rate:>12,.0f}  {unit}")
    print("targets: 200,000 deals/s and 100,000 audited rounds/s on one core")


if __name__ == "__main__":
    main()
