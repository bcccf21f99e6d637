"""``chinese-poker ofc``: open-face play. ``ofc fantasyland CARDS``: the exact best setting of a fantasyland
hand of 14 to 17 cards (``chinese_poker.ofc.fantasyland``)."""

from __future__ import annotations

import argparse
from typing import Any

from chinese_poker.cli.common import CliError, dumps, one_line, resolve_rules
from chinese_poker.ofc.fantasyland import fantasyland, stay_value_of

__all__ = ["add_parser", "run_fantasyland"]


def add_parser(commands: Any, rules_help: str) -> None:
    """Add the ``ofc`` command and its subcommands to the subparsers ``commands``."""
    command = commands.add_parser(
        "ofc",
        help="open-face play: the best fantasyland setting",
        description="Open-Face Chinese Poker play (docs/OFC.md).",
    )
    subcommands = command.add_subparsers(dest="ofc_command", metavar="SUBCOMMAND")
    solve = subcommands.add_parser(
        "fantasyland",
        help="the exact best setting of a fantasyland hand of 14 to 17 cards",
        description="The legal setting of 13 of the cards with the greatest royalties plus the stay value "
        "when the board stays in fantasyland; ties go to the stronger back, middle, front (RULES.md 4.3).",
    )
    solve.add_argument("cards", nargs="+", help="the 14 to 17 cards (quoted or not)")
    solve.add_argument("--rules", help=rules_help + " (default ofc)")
    solve.add_argument(
        "--stay-value",
        type=float,
        default=None,
        help="units that staying in fantasyland is worth (default: the mean royalty of a fantasyland hand)",
    )
    solve.add_argument("--format", choices=("text", "json"), default="text", help="output (default text)")
    solve.set_defaults(handler=run_fantasyland)
    command.set_defaults(handler=_needs_subcommand)


def _needs_subcommand(_args: argparse.Namespace) -> int:
    raise CliError("ofc needs a subcommand: fantasyland")


def run_fantasyland(args: argparse.Namespace) -> int:
    """Print the best setting of the cards on the command line."""
    rules = resolve_rules(args.rules or "ofc")
    try:
        stay = stay_value_of(rules) if args.stay_value is None else args.stay_value
        best = fantasyland(" ".join(args.cards), rules, stay)
    except (ValueError, TypeError) as error:
        raise CliError(one_line(error)) from None
    if args.format == "json":
        print(dumps({"stay_value": stay, **best.to_dict()}))
        return 0
    for name, row, royalty in zip(
        ("front", "middle", "back"), (best.front, best.middle, best.back), best.royalties
    ):
        print(f"{name:<7} {' '.join(row):<15} royalty {royalty}")
    print(f"discard {' '.join(best.discards)}")
    stays = f", stays in fantasyland (+{stay:g})" if best.stays else ""
    print(f"royalties {best.royalty}{stays}: value {best.value:g}")
    return 0
