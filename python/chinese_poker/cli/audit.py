"""``chinese-poker audit``: re-settle every round of a log and report each receipt, net or deal that does
not match (``chinese_poker.audit``)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from chinese_poker.audit_log import audit_log
from chinese_poker.cli.common import PROG, CliError, json_lines_by_name, one_line, open_input, safe_text
from chinese_poker.formats.rounds import RoundError
from chinese_poker.receipts import read_key_file

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    """Add the ``audit`` command to the subparsers ``commands``."""
    audit = commands.add_parser(
        "audit",
        help="re-settle a log of rounds and check their receipts, nets and deals",
        description="Re-settle every round of a log (output rounds of score --receipts, or input rounds "
        "with receipt, net, players' dealt cards or the deal's seeds) and print one line per mismatch, "
        "naming the round and the field. Exit code 0 when everything matches, 1 when something does not, "
        "2 on input that cannot be read.",
    )
    audit.add_argument("log", help="the log: JSON Lines (or a JSON list) of rounds; '-': stdin")
    audit.add_argument(
        "--key-file",
        help="the receipts' HMAC key (the file's bytes less one trailing newline): each receipt's "
        "hmac_sha256 is checked too",
    )
    audit.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Audit ``args.log``; the exit code: 0 all match, 1 a mismatch, 2 a line that cannot be read."""
    key = None
    if args.key_file is not None:
        try:
            key = read_key_file(args.key_file)
        except ValueError as error:
            raise CliError(one_line(error)) from None
    stream, source = open_input(args.log)
    rounds = bad = mismatching = 0
    try:
        try:
            for found in audit_log(stream, key, json_lines=json_lines_by_name(source)):
                rounds += 1
                if isinstance(found, RoundError):
                    bad += 1
                    print(f"{PROG}: error: {safe_text(source)}: {one_line(found)}", file=sys.stderr)
                    continue
                if found:
                    mismatching += 1
                for mismatch in found:
                    print(safe_text(str(mismatch)))
        except OSError as error:
            raise CliError(f"cannot read {source!r}: {one_line(error)}") from None
    finally:
        if args.log != "-":
            stream.close()
    if rounds == 0:
        raise CliError(f"{source}: no rounds")
    summary = f"{PROG} audit: {rounds} round(s), {rounds - bad - mismatching} match, {mismatching} mismatch"
    print(summary + (f", {bad} cannot be read" if bad else ""), file=sys.stderr)
    if bad:
        return 2
    return 1 if mismatching else 0


def __dir__() -> list[str]:
    return list(__all__)
