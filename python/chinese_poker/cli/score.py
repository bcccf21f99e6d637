"""``chinese-poker score``: settle every round of a round file and print the results."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from chinese_poker.cli.common import PROG, CliError, dumps, json_lines_by_name, read_text, resolve_rules
from chinese_poker.cli.progress import OutputWriter, progress_for
from chinese_poker.cli.round_table import format_round_table
from chinese_poker.formats.records import read_rounds
from chinese_poker.formats.rounds import iter_settled, round_output

__all__ = ["add_parser", "run"]


def add_parser(commands: Any, rules_help: str, progress_help: str) -> None:
    """Add the ``score`` command to the subparsers ``commands``."""
    score = commands.add_parser(
        "score",
        help="settle the rounds of a JSON round file",
        description="Settle the rounds of a JSON round file (one round, a list, or "
        "JSON Lines) and print the results.",
    )
    score.add_argument("file", nargs="?", default="-", help="round file (default or '-': stdin)")
    score.add_argument(
        "--rules",
        help=rules_help + "; overrides the rounds' own rules (default: each round's rules, else pagat)",
    )
    score.add_argument(
        "--format",
        choices=("table", "json", "jsonl"),
        default="table",
        help="table (default), json (a list of output rounds) or jsonl (one per line)",
    )
    score.add_argument("--explain", action="store_true", help="add the unit-by-unit explanation")
    score.add_argument(
        "--keep-going",
        action="store_true",
        help="report bad rounds on stderr and settle the rest (exit code 2 if any was bad)",
    )
    score.add_argument("--progress", choices=("auto", "always", "never"), default="auto", help=progress_help)
    score.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Settle the rounds of ``args.file``; exit code 0, or 2 when a round could not be settled."""
    rules = resolve_rules(args.rules) if args.rules is not None else None
    text, source = read_text(args.file)
    _, raws = read_rounds(text, json_lines=json_lines_by_name(source))
    if not raws:
        raise CliError(f"{source}: no rounds")
    progress = progress_for(args.progress, len(raws), "settling")
    writer = OutputWriter(progress)
    outputs: list[dict[str, Any]] = []
    bad = 0
    first = True
    try:
        for count, (_, rnd, settlement, error) in enumerate(
            iter_settled(raws, rules, override_rules=rules is not None), start=1
        ):
            if error is not None:
                message = f"{source}: {error}"
                if not args.keep_going:
                    raise CliError(message)
                progress.clear()
                print(f"{PROG}: error: {message}", file=sys.stderr)
                bad += 1
                progress.update(count)
                continue
            assert rnd is not None
            assert settlement is not None
            out = round_output(rnd, settlement, explain=args.explain)
            if args.format == "json":
                outputs.append(out)
            elif args.format == "jsonl":
                writer.write(dumps(out) + "\n")
            else:
                writer.write(("" if first else "\n") + format_round_table(out) + "\n")
            first = False
            progress.update(count)
    finally:
        progress.close()
    if args.format == "json":
        sys.stdout.write(dumps(outputs, indent=2) + "\n")
    if bad:
        print(f"{PROG}: {bad} of {len(raws)} rounds could not be settled", file=sys.stderr)
        return 2
    return 0


def __dir__() -> list[str]:
    return list(__all__)
