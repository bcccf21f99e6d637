"""``chinese-poker simulate``: play many random deals with a strategy per seat; print a table, write JSON."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from chinese_poker.arrange import STRATEGIES
from chinese_poker.cli.common import CliError, dumps, resolve_rules
from chinese_poker.cli.progress import progress_for
from chinese_poker.simulate import DEFAULT_CHUNK, simulate

__all__ = ["add_parser", "run"]


def add_parser(commands: Any, rules_help: str, progress_help: str) -> None:
    """Add the ``simulate`` command to the subparsers ``commands``."""
    command = commands.add_parser(
        "simulate",
        help="play many random deals, a strategy per seat, and print each seat's mean units",
        description="Deal, arrange and settle random deals (the same deals for a seed whatever the chunk "
        "size or thread count) and print per seat the mean units per hand with a 95% interval, the share "
        "of hands won, the scoop and foul rates, home runs and naturals.",
    )
    command.add_argument("--rules", help=rules_help + " (default pagat)")
    command.add_argument(
        "--strategies",
        default="expected,expected,expected,expected",
        help=f"one per seat, comma-separated, 2 to 4 (one more per added suit) of {', '.join(STRATEGIES)} "
        "(default: 4 x expected)",
    )
    command.add_argument("--deals", type=int, default=10_000, help="deals to play (default 10000)")
    command.add_argument("--seed", type=int, default=0, help="seed of the deals, 0 to 2**64-1 (default 0)")
    command.add_argument(
        "--chunk", type=int, default=DEFAULT_CHUNK, help=f"deals per chunk (default {DEFAULT_CHUNK})"
    )
    command.add_argument(
        "--threads", type=int, default=1, help="chunks played at once; 0 = every core (default 1)"
    )
    command.add_argument(
        "--rotate", action="store_true", help="play every deal from every seat (duplicate style)"
    )
    command.add_argument("--json", metavar="FILE", help="also write the result as JSON to FILE")
    command.add_argument(
        "--progress", choices=("auto", "always", "never"), default="auto", help=progress_help
    )
    command.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the simulation, print its table and write the JSON file if asked."""
    rules = resolve_rules(args.rules)
    strategies = [name.strip() for name in args.strategies.split(",")]
    unknown = [name for name in strategies if name not in STRATEGIES]
    if unknown:
        raise CliError(f"--strategies: unknown strategy {unknown[0]!r}; expected {', '.join(STRATEGIES)}")
    most = 4 + len(rules.extra_suits)  # one more seat per added suit (RULES.md 1.1)
    if not 2 <= len(strategies) <= most:
        raise CliError(f"--strategies: 2 to {most} seats, got {len(strategies)}")
    for name, value, low in (
        ("--deals", args.deals, 0),
        ("--seed", args.seed, 0),
        ("--chunk", args.chunk, 1),
    ):
        if value < low:
            raise CliError(f"{name} must be {low} or more, got {value}")
    if args.seed > 2**64 - 1:
        raise CliError(f"--seed must be at most 2**64-1, got {args.seed}")
    if args.threads < 0:
        raise CliError(f"--threads must be 0 (every core) or more, got {args.threads}")
    progress = progress_for(args.progress, args.deals, "simulate", unit="deals")
    try:
        result = simulate(
            rules,
            strategies,
            args.deals,
            args.seed,
            chunk=args.chunk,
            threads=args.threads,
            rotate=args.rotate,
            progress=lambda done, _total: progress.update(done),
        )
    except ValueError as error:
        raise CliError(str(error)) from None
    finally:
        progress.close()
    rotated = ", seats rotated" if args.rotate else ""
    print(f"{args.deals} deals, seed {args.seed}, rules {args.rules or 'pagat'}{rotated}")
    print(result.table())
    if args.json:
        try:
            Path(args.json).write_text(dumps(result.to_dict(), indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            raise CliError(f"--json: cannot write {args.json}: {error.strerror}") from None
    return 0


def __dir__() -> list[str]:
    return list(__all__)
