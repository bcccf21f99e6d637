"""An engine for ``bench_xcheck.py``: the library under rules given on the command line, behind the
``chinese-poker xcheck`` protocol (JSON Lines on stdin and stdout), answering at most RATE rounds a second.

    python bench/xcheck_engine.py RULES_JSON RATE

It reads whatever lines have arrived, settles the plain rounds of each player count at once
(``settle_net_lines``, the core's JSON Lines path) and the others (declared naturals; a batch holding
stakes, surrenders, a banker, jokers or a refused round) one by one, and
answers them (answers may come in any order), the n-th answer not before n / RATE seconds have passed
since its first line, so that it answers like an engine of that speed.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

from chinese_poker.formats.net_lines import settle_net_lines
from chinese_poker.formats.rounds import parse_round, settle_round
from chinese_poker.rules import Rules


def _one(data: dict[str, Any], rules: Rules) -> bytes:
    data["rules"] = rules.to_dict()
    try:
        answer: dict[str, Any] = {"id": data["id"], "net": list(settle_round(parse_round(data)).net)}
    except ValueError as error:
        answer = {"id": data["id"], "error": str(error)}
    return json.dumps(answer).encode() + b"\n"


def _answers(lines: list[bytes], rules: Rules) -> list[bytes]:
    plain: dict[int, list[tuple[bytes, dict[str, Any]]]] = {}
    out: list[bytes] = []
    for line in lines:
        data: dict[str, Any] = json.loads(line)
        if any("cards" in p for p in data["players"]):
            out.append(_one(data, rules))
        else:
            plain.setdefault(len(data["players"]), []).append((line, data))
    for group in plain.values():
        body = b"\n".join(line for line, _ in group) + b"\n"
        settled = settle_net_lines(body, rules, max_rounds=len(group) + 1)
        if settled is not None:
            out.append(settled[0])
        else:  # stakes, surrenders, a banker, jokers or a refused round: one by one
            out += [_one(data, rules) for _, data in group]
    return out


def main() -> int:
    rules = Rules.from_dict(json.loads(sys.argv[1]))
    rate = float(sys.argv[2])
    answered, start, pending = 0, 0.0, b""
    while True:
        chunk = os.read(0, 1 << 20)
        if not chunk:
            return 0
        if not start:
            start = time.monotonic()
        pending += chunk
        *lines, pending = pending.split(b"\n")
        lines = [line for line in lines if line.strip()]
        if not lines:
            continue
        answers = b"".join(_answers(lines, rules))
        answered += len(lines)
        delay = start + answered / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        sys.stdout.buffer.write(answers)
        sys.stdout.buffer.flush()


if __name__ == "__main__":
    sys.exit(main())
