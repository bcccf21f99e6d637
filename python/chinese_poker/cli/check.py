"""``chinese-poker check``: is a setting legal (and why not), and which natural do its 13 cards hold."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from chinese_poker.checking import check_hand
from chinese_poker.cli.common import CliError, dumps, json_lines_by_name, one_line, read_text, resolve_rules
from chinese_poker.formats.records import read_rounds
from chinese_poker.formats.rounds import RoundError, parse_round
from chinese_poker.hand import Hand
from chinese_poker.rules import Rules

__all__ = ["add_parser", "run"]


def add_parser(commands: Any, rules_help: str) -> None:
    """Add the ``check`` command to the subparsers ``commands``."""
    check = commands.add_parser(
        "check",
        help="is a setting legal, and which natural do its cards hold",
        description="Check a setting: 13 cards front 3, middle 5, back 5 (or "
        "'front / middle / back'), or a round file (every player, each round under its own "
        "rules unless --rules is given). Exit code 1 when a setting is a foul.",
    )
    check.add_argument(
        "cards", nargs="+", help="the cards (quoted or not), or a round file, or '-' for stdin"
    )
    check.add_argument(
        "--rules", help=rules_help + " (default pagat; for a round file, each round's own rules)"
    )
    check.set_defaults(handler=run)


#: File name endings that make a lone argument a round file, not cards.
_ROUND_FILE_SUFFIXES = (".json", ".jsonl", ".ndjson")


def _looks_like_path(text: str) -> bool:
    """Whether a lone argument names a file: a round file's ending, or a path separator and no spaces (a
    setting written ``"front / middle / back"`` has spaces)."""
    if text.lower().endswith(_ROUND_FILE_SUFFIXES):
        return True
    separators = {os.sep, "/"} | ({os.altsep} if os.altsep else set())
    return any(sep in text for sep in separators) and not any(c.isspace() for c in text)


def run(args: argparse.Namespace) -> int:
    """Check the setting given on the command line, or every player of a round file."""
    rules = resolve_rules(args.rules)
    given = args.cards
    if len(given) == 1 and (given[0] == "-" or Path(given[0]).is_file()):
        return _check_file(given[0], None if args.rules is None else rules)
    try:
        hand = Hand.parse(" ".join(given), extra_suits=rules.extra_suits, jokers=rules.jokers)
    except ValueError as error:
        if len(given) == 1 and _looks_like_path(given[0]):
            raise CliError(f"file {given[0]!r} not found") from None
        raise CliError(one_line(error)) from None
    verdict = check_hand(hand, rules)
    print("\n".join(verdict.lines))
    return 1 if verdict.foul else 0


def _check_file(path: str, rules: Rules | None) -> int:
    """Check every player of every round: by the round's own rules, or by ``rules`` (``--rules``) when
    given; a round without rules is checked under the default, as ``score`` settles it."""
    text, source = read_text(path)
    _, raws = read_rounds(text, json_lines=json_lines_by_name(source))
    if not raws:
        raise CliError(f"{source}: no rounds")
    any_foul = False
    blocks = []
    for raw in raws:
        if raw.error is not None:
            raise CliError(f"{source}: {raw.where}: {raw.error}")
        try:
            rnd = parse_round(
                raw.data,
                position=raw.position,
                where=raw.where,
                rules=rules,
                override_rules=rules is not None,
            )
        except RoundError as error:
            raise CliError(f"{source}: {error}") from None
        for name, hand in zip(rnd.names, rnd.hands):
            verdict = check_hand(hand, rnd.rules)
            any_foul = any_foul or verdict.foul
            lines = [f"round {dumps(rnd.id)}, {name}:"] + ["  " + line for line in verdict.lines]
            blocks.append("\n".join(lines))
    print("\n\n".join(blocks))
    return 1 if any_foul else 0


def __dir__() -> list[str]:
    return list(__all__)
