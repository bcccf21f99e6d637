"""Provably fair dealing and audit speed on one core (docs/FAIR.md): deals per second of
``chinese_poker.fair.deal``, receipts per second of ``Settlement.receipt()``, and audited rounds per second
of ``chinese_poker.audit.audit_record`` (the general path, one parsed line at a time) and of a whole log
file as ``chinese-poker audit`` reads it (``chinese_poker.audit_log``, with its fast path), on the two
kinds of log line.

    python bench/bench_fair.py [--deals N] [--rounds M] [--repeat R] [--baseline DIR]

``--baseline DIR``: the same figures for another tree (e.g. the previous commit, built in DIR:
``git archive HEAD~1 | tar -x -C DIR`` and the README's cmake build there), measured in a child process
in the same run, the two trees in turn twice, printed beside this tree's with their ratio. A tree
without ``audit_log`` audits a log file as its command did: ``stream_rounds`` and ``audit_record`` line
by line.

``deal`` and ``deal_many`` run in the compiled core (its own SHA-256, on the SHA extensions where the
processor has them); the line ``shuffle`` is the same deal in Python on the standard library's ``hmac``
(OpenSSL), for comparison. A 4-seat deal reads 7 HMAC blocks and makes 51 draws. Each rate is the best
of R runs, by wall time and by the process's CPU time (which leaves out other processes' turns on a
shared machine); the ratios are of CPU rates.
"""

from __future__ import annotations

import argparse
import hmac
import io
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from chinese_poker import Rules, arrange
from chinese_poker.audit import audit_record
from chinese_poker.cards import format_card
from chinese_poker.fair import commitment, deal, deal_many, deal_stream, pack, shuffle
from chinese_poker.formats.rounds import parse_round, round_output, settle_round

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


def best_rates(run: Callable[[], object], count: int, repeat: int) -> tuple[float, float]:
    """``count`` over the shortest wall time and over the shortest CPU time of ``repeat`` calls of ``run``."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return count / wall, count / max(cpu, 1e-9)


def audit_file(data: bytes) -> Callable[[], object]:
    """Auditing a JSON Lines log's bytes as the command does (its fast path where the tree has one)."""
    try:
        from chinese_poker.audit_log import audit_log  # noqa: PLC0415 - absent from older trees
    except ImportError:
        from chinese_poker.formats.records import stream_rounds  # noqa: PLC0415

        def general() -> object:
            return [audit_record(r.data, r.where, None) for r in stream_rounds(io.BytesIO(data)).records]

        return general
    return lambda: list(audit_log(io.BytesIO(data), None))


Row = tuple[str, tuple[float, float], str]


def measure(deals: int, rounds: int, repeat: int) -> list[Row]:
    """Every figure of this tree: (what, (wall rate, CPU rate), unit)."""
    rows: list[Row] = []
    rules = Rules()
    key, message = SEED, b"x" * 60
    hmacs = best_rates(lambda: [hmac.digest(key, message, "sha256") for _ in range(deals * 7)], deals, repeat)
    rows.append(("hashlib HMAC-SHA256 alone, 7 blocks a deal", hmacs, "deals/s"))
    few = max(1, deals // 10)
    python = best_rates(lambda: [shuffle(pack(rules), deal_stream(SEED, CLIENTS, n), 52) for n in range(few)],
                        few, repeat)  # fmt: skip
    rows.append(("shuffle + deal_stream (Python), 52 cards, 4 seats", python, "deals/s"))
    for label, table, seats in (
        ("deal, 52 cards, 4 seats", rules, 4),
        ("deal, 52 cards, 2 seats", rules, 2),
        ("deal, 78 cards (2 added suits), 6 seats", Rules().replace(extra_suits="hs"), 6),
        ("deal, 54 cards (2 jokers), 4 seats", Rules().replace(jokers=2), 4),
    ):

        def one_by_one(r: Rules = table, s: int = seats) -> None:
            for n in range(deals):
                deal(SEED, CLIENTS, n, r, s)

        rows.append((label, best_rates(one_by_one, deals, repeat), "deals/s"))
    many = best_rates(lambda: deal_many(SEED, CLIENTS, range(deals * 5), rules, 4), deals * 5, repeat)
    rows.append(("deal_many, 52 cards, 4 seats", many, "deals/s"))

    replays = dealt_rounds(rounds)
    plain = [{k: v for k, v in line.items() if k != "deal"} for line in replays]
    settlements = [settle_round(parse_round(data)) for data in plain]
    receipts = best_rates(lambda: [s.receipt() for s in settlements], rounds, repeat)
    rows.append(("Settlement.receipt()", receipts, "receipts/s"))
    outputs = []
    for data, settlement in zip(plain, settlements):
        out = round_output(parse_round(data), settlement)
        out["receipt"] = settlement.receipt()
        outputs.append(json.loads(json.dumps(out)))
    audited = best_rates(lambda: [audit_record(line, "line", None) for line in outputs], rounds, repeat)
    rows.append(("audit_record, score --receipts lines (4 seats)", audited, "rounds/s"))
    replayed = best_rates(lambda: [audit_record(line, "line", None) for line in replays], rounds, repeat)
    rows.append(("audit_record, compact replay lines (4 seats)", replayed, "rounds/s"))
    assert all(not audit_record(line, "line", None) for line in replays[:50] + outputs[:50])
    for label, lines in (("score --receipts", outputs), ("compact replay", replays)):
        data = ("\n".join(json.dumps(line) for line in lines) + "\n").encode("ascii")
        many_lines = data * 5
        run = audit_file(many_lines)
        assert not any(run())  # type: ignore[call-overload]
        rows.append((f"audit a log file, {label} lines", best_rates(run, rounds * 5, repeat), "rounds/s"))
    return rows


def best_rows(kept: list[Row], new: list[Row]) -> list[Row]:
    """``new``, each row's rates the better of it and the same row of ``kept`` (by CPU rate)."""
    earlier = {label: rates for label, rates, _ in kept}
    return [
        (label, max(rates, earlier.get(label, rates), key=lambda r: r[1]), unit) for label, rates, unit in new
    ]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--baseline", help="a built tree to measure beside this one (its python/ is imported)"
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # the child's answer
    args = parser.parse_args()
    sizes = ["--deals", str(args.deals), "--rounds", str(args.rounds), "--repeat", str(args.repeat)]
    if args.json:
        print(json.dumps(measure(args.deals, args.rounds, args.repeat)))
        return
    before: dict[str, float] = {}

    def baseline() -> None:
        env = {**os.environ, "PYTHONPATH": str(Path(args.baseline) / "python")}
        child = [sys.executable, __file__, *sizes, "--json"]
        answer = subprocess.run(child, env=env, capture_output=True, text=True, check=True).stdout
        for label, rates, _ in json.loads(answer.splitlines()[-1]):
            before[label] = max(before.get(label, 0.0), rates[1])

    # With a baseline, the two trees are measured in turn twice (baseline, this, baseline, this), each
    # keeping its best, so that a change in the machine's load during the run favours neither and each
    # has as many chances at a quiet moment.
    rows = []
    for _ in range(2 if args.baseline else 1):
        if args.baseline:
            baseline()
        rows = best_rows(rows, measure(args.deals, args.rounds, args.repeat))

    machine = platform.processor() or platform.machine()
    print(
        f"chinese_poker.fair on {machine}, Python {platform.python_version()}, load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'what':<52} {'wall rate':>11} {'cpu rate':>11} {'baseline':>11} {'ratio':>6}  unit")
    for label, (wall, cpu), unit in rows:
        old = before.get(label)
        tail = f" {old:>11,.0f} {cpu / old:>5.1f}x" if old else f" {'':>11} {'':>6}"
        print(f"{label:<52} {wall:>11,.0f} {cpu:>11,.0f}{tail}  {unit}")
    print("targets: 200,000 deals/s and 100,000 audited rounds/s on one core")


if __name__ == "__main__":
    main()
