"""``chinese-poker deal``: deal a random round, arrange each hand, settle it and print it."""

from __future__ import annotations

import argparse
import random
from typing import Any

from chinese_poker._render import sorted_text
from chinese_poker.arrange import arrange
from chinese_poker.cli.common import CliError, dumps, resolve_rules
from chinese_poker.cli.round_table import format_round_table
from chinese_poker.dealing import deal_hands
from chinese_poker.formats.rounds import parse_round, round_input, round_output, rules_reference, settle_round
from chinese_poker.hand import ROW_NAMES
from chinese_poker.rules import Rules

__all__ = ["SEAT_NAMES", "add_parser", "deal_round", "run"]

#: The names of the dealt seats, in order.
SEAT_NAMES = ("North", "East", "South", "West", "Fifth", "Sixth")


def add_parser(commands: Any, rules_help: str) -> None:
    """Add the ``deal`` command to the subparsers ``commands``."""
    deal = commands.add_parser(
        "deal",
        help="deal, arrange and settle a random round",
        description="Deal a random round, arrange each hand with arrange's default "
        "strategy, settle it and print it.",
    )
    deal.add_argument(
        "--players", type=int, default=4, help="2 to 4, one more per suit the rules add (default 4)"
    )
    deal.add_argument("--seed", type=int, help="shuffle seed, 0 or more (default: random, printed)")
    deal.add_argument("--rules", help=rules_help + " (default pagat)")
    deal.add_argument(
        "--format",
        choices=("table", "json", "input"),
        default="table",
        help="table (default), json (the output round, with engine and rules_digest) or input "
        "(the round as score reads it)",
    )
    deal.add_argument("--explain", action="store_true", help="add the unit-by-unit explanation")
    deal.set_defaults(handler=run)


def deal_round(rules: Rules, players: int, seed: int) -> dict[str, Any]:
    """A random round as an input object: ``players`` hands dealt from the rules' pack (the 52 cards, the
    added suits' cards again, the jokers) shuffled by ``seed``, each arranged by ``arrange``'s default
    strategy; a natural is declared when ``arrange`` says to. ``seed`` is 0 or more (``random.Random`` would
    deal the same round for ``-n`` as for ``n``)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be an integer 0 or more, got {seed!r}")
    entries = []
    pack = deal_hands(random.Random(seed), players, rules.extra_suits, rules.jokers)
    for name, cards in zip(SEAT_NAMES, pack):
        arrangement = arrange(cards, rules)
        if rules.natural_declaration == "must_declare" and arrangement.declare:
            entries.append({"name": name, "cards": sorted_text(cards), "declare_natural": True})
            continue
        hand = arrangement.hand
        entry: dict[str, Any] = {"name": name}
        for row, codes in zip(ROW_NAMES, (hand.front, hand.middle, hand.back)):
            entry[row] = sorted_text(codes or ())
        entries.append(entry)
    return {"id": f"deal-{seed}", "rules": rules_reference(rules), "players": entries}


def run(args: argparse.Namespace) -> int:
    """Deal, arrange, settle and print one round."""
    rules = resolve_rules(args.rules)
    most = 4 + len(rules.extra_suits)
    if not 2 <= args.players <= most:
        raise CliError(f"--players must be 2 to {most} under these rules, got {args.players}")
    if args.seed is not None and args.seed < 0:
        # random.Random seeds with abs(n): -1 would silently deal the round of 1.
        raise CliError(f"--seed must be 0 or more, got {args.seed}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    data = deal_round(rules, args.players, seed)
    rnd = parse_round(data, rules=rules, override_rules=True)
    if args.format == "input":
        print(dumps(round_input(rnd), indent=2))
        return 0
    out = round_output(rnd, settle_round(rnd), explain=args.explain)
    if args.format == "json":
        print(dumps(out, indent=2))
    else:
        print(f"Seed {seed} (repeat with --seed {seed})")
        print(format_round_table(out))
    return 0


def __dir__() -> list[str]:
    return list(__all__)
