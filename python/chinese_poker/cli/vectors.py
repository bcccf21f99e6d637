"""``chinese-poker vectors``: write conformance vectors (edge cases and random rounds, expected output)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from chinese_poker.cli.common import CliError, one_line, resolve_rules
from chinese_poker.cli.progress import OutputWriter, progress_for
from chinese_poker.formats.vector_lines import vector_texts
from chinese_poker.formats.vectors import edge_cases, generate_cases

__all__ = ["add_parser", "run"]


def add_parser(commands: Any, rules_help: str, progress_help: str) -> None:
    """Add the ``vectors`` command to the subparsers ``commands``."""
    vectors = commands.add_parser(
        "vectors",
        help="write conformance vectors",
        description="Write conformance vectors: the edge cases (RULES.md E1-E4, "
        "ties, wheels, fouls, naturals, royalties, stakes, a home run), "
        "then COUNT random rounds, each with its expected output; the "
        "same rules, count and seed give the same file.",
    )
    vectors.add_argument("--rules", default="pagat", help=rules_help + " (default pagat)")
    vectors.add_argument(
        "--count", type=int, default=100, help="random rounds after the edge cases (default 100)"
    )
    vectors.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    vectors.add_argument("-o", "--output", help="output file (default: stdout)")
    vectors.add_argument(
        "--format",
        choices=("jsonl", "json"),
        default="jsonl",
        help="jsonl (default: one vector per line) or json (a list)",
    )
    vectors.add_argument("--no-edge-cases", action="store_true", help="random rounds only")
    vectors.add_argument(
        "--progress", choices=("auto", "always", "never"), default="auto", help=progress_help
    )
    vectors.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Write conformance vectors (edge cases and random rounds with their expected output)."""
    rules = resolve_rules(args.rules)
    if args.count < 0:
        raise CliError(f"--count must be 0 or more, got {args.count}")
    total = args.count + (0 if args.no_edge_cases else len(edge_cases(rules)))
    progress = progress_for(args.progress, total, "vectors")
    stream: IO[str]
    close: Callable[[], None] = lambda: None  # noqa: E731
    if args.output in (None, "-"):
        stream = sys.stdout
    else:
        try:
            stream = Path(args.output).open("w", encoding="utf-8")  # noqa: SIM115
        except OSError as error:
            raise CliError(f"cannot write {args.output!r}: {one_line(error)}") from None
        close = stream.close
    writer = OutputWriter(progress, stream)
    indented = args.format == "json"
    try:
        cases = generate_cases(rules, args.count, args.seed, edges=not args.no_edge_cases)
        made = 0
        for text in vector_texts(cases, indented=indented):
            if indented:
                writer.write(("[\n  " if made == 0 else ",\n  ") + text)
            else:
                writer.write(text + "\n")
            made += 1
            progress.update(made)
        if indented:
            writer.write("\n]\n" if made else "[]\n")
    finally:
        progress.close()
        close()
    return 0


def __dir__() -> list[str]:
    return list(__all__)
