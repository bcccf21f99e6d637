"""``chinese-poker suggest``: the best few distinct settings of 13 cards and why (``cp.suggest``), each
measured by simulation on request (``cp.evaluate_settings``: the same deals for every suggestion)."""

from __future__ import annotations

import argparse
from typing import Any

from chinese_poker.advice import SettingValue, evaluate_settings, suggest
from chinese_poker.arrange import STRATEGIES
from chinese_poker.cards import parse_cards
from chinese_poker.cli.common import CliError, dumps, one_line, resolve_rules
from chinese_poker.formats.rounds import rules_reference

__all__ = ["add_parser", "run"]


def add_parser(commands: Any, rules_help: str) -> None:
    """Add the ``suggest`` command to the subparsers ``commands``."""
    command = commands.add_parser(
        "suggest",
        help="the best few distinct settings of 13 cards, and why",
        description="The k best distinct settings of 13 cards under the expected-units model "
        "(docs/ARRANGING.md), best first, each with its expected units and why. With --evaluate N, "
        "each is also played on N simulated deals (the same deals for all) against the field.",
    )
    command.add_argument("cards", nargs="+", help="the 13 cards, in any order (quoted or not)")
    command.add_argument("--rules", help=rules_help + " (default pagat)")
    command.add_argument("-k", type=int, default=3, help="how many settings, 1..100 (default 3)")
    command.add_argument("--opponents", type=int, default=3, help="opponents, 1..3 (default 3)")
    command.add_argument(
        "--evaluate", type=int, default=0, metavar="N", help="also measure each setting on N deals"
    )
    command.add_argument("--seed", type=int, default=0, help="the deals' seed for --evaluate (default 0)")
    command.add_argument(
        "--field",
        choices=STRATEGIES,
        default="expected",
        help="how the simulated opponents arrange (default expected)",
    )
    command.add_argument("--threads", type=int, default=1, help="threads for --evaluate; 0 = every core")
    command.add_argument("--format", choices=("text", "json"), default="text", help="output (default text)")
    command.set_defaults(handler=run)


def _measured_line(value: SettingValue) -> str:
    low, high = value.interval
    return (
        f"   measured: {value.expected_units:+.3f} ({low:+.3f} to {high:+.3f}) over {value.samples} deals; "
        "wins front/middle/back "
        + "/".join(f"{rates.win:.0%}" for rates in value.rows)
        + f", scoops {value.scoop:.0%}"
    )


def run(args: argparse.Namespace) -> int:
    """Print the suggestions (and their measurements) for the cards on the command line."""
    rules = resolve_rules(args.rules)
    if args.evaluate < 0:
        raise CliError(f"--evaluate must be 0 (no simulation) or a number of deals, got {args.evaluate}")
    try:
        cards = parse_cards(" ".join(args.cards), rules.extra_suits, rules.jokers)
        found = suggest(cards, rules, args.k, opponents=args.opponents)
        measured = (
            evaluate_settings(
                [s.hand for s in found],
                rules,
                opponents=args.opponents,
                field=args.field,
                samples=args.evaluate,
                seed=args.seed,
                threads=args.threads,
            )
            if args.evaluate
            else ()
        )
    except (ValueError, TypeError) as error:
        raise CliError(one_line(error)) from None
    if args.format == "json":
        items = []
        for index, s in enumerate(found):
            item = s.to_dict()
            if measured:
                item["measured"] = measured[index].to_dict()
            items.append(item)
        data = {"rules": rules_reference(rules), "opponents": args.opponents, "suggestions": items}
        print(dumps(data, 2))
        return 0
    lines = []
    for index, s in enumerate(found):
        declare = f"; declare {s.declare} instead" if s.declare else ""
        lines.append(f"{s.rank}. {s.hand}   {s.expected_units:+.3f} units v. {args.opponents}{declare}")
        lines.append(f"   {s.why}")
        if measured:
            lines.append(_measured_line(measured[index]))
    print("\n".join(lines))
    return 0


def __dir__() -> list[str]:
    return list(__all__)
