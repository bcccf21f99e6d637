"""The ``chinese-poker`` command (also ``python -m chinese_poker``): one module per command.

Commands: ``score`` (settle rounds from a JSON round file), ``deal`` (deal, arrange and settle a random
round), ``check`` (is a setting legal, and which natural do the 13 cards hold), ``suggest`` (the best few
distinct settings of 13 cards and why), ``rules`` (list presets or
print one as TOML), ``simulate`` (play many random deals, a strategy per seat), ``vectors`` (write
conformance vectors), ``verify`` (compare another implementation's output with the expected output),
``serve`` (the HTTP JSON scoring service, an optional extra), ``audit`` (re-settle a log of rounds and
check its receipts, nets and deals), ``xcheck`` (drive another engine over JSON Lines, fit its rules and
shrink every disagreement to a minimal round), ``ofc`` (open-face play: ``ofc fantasyland``, the best
fantasyland setting) and ``convert`` (round files between JSON Lines and Parquet). The JSON round format
is described in docs/JSON_FORMAT.md.

Exit codes: 0 success; 1 ``verify`` or ``xcheck`` found disagreements, ``check`` found a foul or ``audit``
a mismatch; 2 bad input (malformed JSON, a bad or duplicate card, a wrong row size, an unknown preset, ...)
or an engine that breaks the ``xcheck`` protocol, reported as one line on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from chinese_poker._version import __version__
from chinese_poker.cli.common import PROG, CliError, one_line
from chinese_poker.formats.records import OutputFileError
from chinese_poker.formats.round_common import RoundError
from chinese_poker.presets import PRESET_NAMES

__all__ = ["COMMANDS", "build_parser", "main"]

#: Each command in the order ``--help`` lists them: its name, the module of this package that adds its
#: arguments and runs it, that module's function adding them, and the shared help texts it takes ("rules",
#: "progress"). A run imports only its own command's module, so that it starts fast.
COMMANDS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("score", "score", "add_parser", ("rules", "progress")),
    ("convert", "columnar", "add_convert_parser", ("rules",)),
    ("deal", "deal", "add_parser", ("rules",)),
    ("check", "check", "add_parser", ("rules",)),
    ("suggest", "suggest", "add_parser", ("rules",)),
    ("rules", "rules", "add_parser", ()),
    ("vectors", "vectors", "add_parser", ("rules", "progress")),
    ("simulate", "simulate", "add_parser", ("rules", "progress")),
    ("verify", "verify", "add_parser", ()),
    ("serve", "serve", "add_parser", ()),
    ("audit", "audit", "add_parser", ()),
    ("xcheck", "xcheck", "add_parser", ("rules", "progress")),
    ("ofc", "ofc", "add_parser", ("rules",)),
)


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help layout, measuring the terminal as shutil.get_terminal_size does (the COLUMNS
    variable, else standard output's terminal, else 80 columns) without importing shutil, which with the
    compression modules it imports is about 3 % of a command's start-up: argparse makes a formatter for
    every argument added."""

    def __init__(
        self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None
    ) -> None:
        if width is None:
            width = _terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _terminal_columns() -> int:
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose help layout is ``_HelpFormatter`` unless a command asks for another; its
    subparsers are made of the same class."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``chinese-poker`` command: every command's, or only ``command``'s (what
    a run of it needs)."""
    parser = _Parser(
        prog=PROG,
        description="Evaluate and settle 13-card Chinese Poker rounds (Capsa Susun, Pusoy, Shisanzhang).",
        epilog="Exit codes: 0 ok; 1 verify found differences, check found a foul or audit a mismatch; "
        "2 bad input. "
        "The JSON round format: docs/JSON_FORMAT.md; every output carries the engine that made it "
        "and the rules_digest of its rules.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    helps = {
        "rules": f"a preset ({', '.join(PRESET_NAMES)}) or a .toml/.json rules file",
        "progress": "progress bar on stderr: auto (only on a terminal, the default), always or never",
    }
    for name, module, adder, shared in COMMANDS:
        if command in (None, name):
            add = getattr(importlib.import_module(f"chinese_poker.cli.{module}"), adder)
            add(commands, *(helps[key] for key in shared))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    named = arguments[0] if arguments and any(arguments[0] == name for name, *_ in COMMANDS) else None
    parser = build_parser(named)
    args = parser.parse_args(arguments)
    if getattr(args, "handler", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.handler(args))
    except (CliError, RoundError, OutputFileError) as error:
        sys.stderr.write(f"{PROG}: error: {one_line(error)}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. piped into head): stop quietly.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return 0


def __dir__() -> list[str]:
    return list(__all__)
