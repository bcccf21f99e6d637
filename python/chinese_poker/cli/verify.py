"""``chinese-poker verify``: compare another implementation's output with the expected, field by field."""

from __future__ import annotations

import argparse
from typing import Any

from chinese_poker.cli.common import CliError, read_text
from chinese_poker.formats.verify import OutputFileError, compare_outputs, load_outputs

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Add the ``verify`` command to the subparsers ``commands``."""
    verify = commands.add_parser(
        "verify",
        help="compare another implementation's output with the expected",
        description="Compare ACTUAL (another implementation's output) with EXPECTED "
        "(a vectors file or score output), field by field; print every "
        "disagreement; exit code 1 if any. Each output's engine is not compared, its "
        "rules_digest only when both sides have one. An EXPECTED with no rounds, or with "
        "rounds that hold no results (a rounds file), is an error (exit code 2).",
    )
    verify.add_argument(
        "expected", help="expected output: a vectors file or score --format json/jsonl output"
    )
    verify.add_argument("actual", help="actual output to check (same format)")
    verify.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="FIELD",
        help="skip a field by name (repeatable, or comma-separated), e.g. --ignore text,category",
    )
    verify.add_argument(
        "--strict",
        action="store_true",
        help="a field missing from ACTUAL is a disagreement (default: only required fields)",
    )
    verify.add_argument("--max", type=int, help="print at most this many disagreements")
    verify.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Compare ACTUAL (another implementation's output) with EXPECTED, field by field."""
    if args.expected == "-" and args.actual == "-":
        raise CliError("only one of EXPECTED and ACTUAL can be read from stdin")
    texts = {}
    expected_source = ""
    for role, path in (("expected", args.expected), ("actual", args.actual)):
        text, source = read_text(path)
        try:
            texts[role] = load_outputs(text, source)
        except OutputFileError as error:
            raise CliError(str(error)) from None
        if role == "expected":
            expected_source = source
        if role == "expected" and not texts[role]:
            # Agreeing on nothing proves nothing: an empty EXPECTED is an error, not "all 0 rounds agree".
            raise CliError(f"{source}: no expected rounds, nothing to compare")
    ignore = {field.strip() for item in args.ignore for field in item.split(",") if field.strip()}
    try:
        found = compare_outputs(texts["expected"], texts["actual"], ignore=ignore, strict=args.strict)
    except OutputFileError as error:
        raise CliError(f"{expected_source}: {error}") from None
    rounds = len(texts["expected"])
    if not found:
        print(f"OK: all {rounds} rounds agree")
        return 0
    shown = found if args.max is None else found[: args.max]
    for disagreement in shown:
        print(disagreement)
    if len(shown) < len(found):
        print(f"... and {len(found) - len(shown)} more")
    bad_rounds = len({repr(d.round_id) for d in found})
    print(f"FAILED: {len(found)} disagreements in {bad_rounds} of {rounds} rounds")
    return 1


def __dir__() -> list[str]:
    return list(__all__)
