"""Write tests/data/fair-vectors.json: the test vectors of the provably fair deal (docs/FAIR.md).

Each vector gives the inputs of ``chinese_poker.fair.deal`` (seeds as hex, the nonce as a decimal string
so that every JSON reader keeps all 64 bits, the pack's ``extra_suits`` and ``jokers``, the seats), the
``commitment`` and the ``deal`` (card codes per seat) and its text. Run from the repository root:

    PYTHONPATH=python python scripts/make_fair_vectors.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from chinese_poker.cards import format_card
from chinese_poker.fair import commitment, deal
from chinese_poker.rules import Rules

SEED = bytes(range(32))
#: A nonce whose stream (with SEED, the client seeds alice and bob, the 80-card pack) rejects a word.
REJECTED_NONCE: int | None = 4686072
VECTORS = [
    # name, server seed, client seeds, nonce, extra suits, jokers, seats
    ("four seats, one deck", SEED, [b"alice", b"bob"], 0, "", 0, 4),
    ("the next nonce", SEED, [b"alice", b"bob"], 1, "", 0, 4),
    ("two seats", SEED, [b"alice", b"bob"], 7, "", 0, 2),
    ("three seats, one client seed", bytes(16), [b"\x00"], 12345, "", 0, 3),
    ("the largest nonce", bytes([0xFF]) * 64, [b"x" * 64] * 16, 2**64 - 1, "", 0, 4),
    ("two jokers", SEED, [b"carol"], 42, "", 2, 4),
    ("one added suit, five seats", SEED, [b"p1", b"p2", b"p3", b"p4", b"p5"], 3, "s", 0, 5),
    ("two added suits, six seats", SEED, [bytes.fromhex("deadbeef")], 99, "hs", 0, 6),
    ("added suits and jokers", SEED, [b"dave"], 2**40, "sh", 2, 6),
    # A deal whose stream holds a rejected word (found by search): the draw takes the next word.
    ("a rejected word", SEED, [b"alice", b"bob"], REJECTED_NONCE, "sh", 2, 6),
]


def _one_line(match: re.Match[str]) -> str:
    return "[" + ", ".join(code.strip() for code in match.group(1).split(",")) + "]"


def main() -> None:
    """Write the vectors file."""
    out = []
    for name, server, clients, nonce, extra, jokers, seats in VECTORS:
        if nonce is None:
            continue
        rules = Rules().replace(extra_suits=extra, jokers=jokers)
        cards = deal(server, clients, nonce, rules, seats)
        out.append(
            {
                "name": name,
                "server_seed": server.hex(),
                "client_seeds": [seed.hex() for seed in clients],
                "nonce": str(nonce),
                "extra_suits": extra,
                "jokers": jokers,
                "players": seats,
                "commitment": commitment(server),
                "deal": [[int(c) for c in seat] for seat in cards],
                "deal_text": [" ".join(format_card(int(c)) for c in seat) for seat in cards],
            }
        )
    text = json.dumps(out, indent=1, ensure_ascii=True) + "\n"
    # Each list of codes on one line.
    text = re.sub(r"\[\s*([\d,\s]+?)\s*\]", _one_line, text)
    Path("tests/data/fair-vectors.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
