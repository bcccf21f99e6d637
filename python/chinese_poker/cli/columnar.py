"""Parquet on the command line: ``score FILE.parquet --format parquet -o OUT.parquet`` (rounds settled as
Arrow columns, docs/JSON_FORMAT.md 5) and ``convert`` between JSON Lines and Parquet round files."""

from __future__ import annotations

import argparse
import os
from types import ModuleType
from typing import Any

from chinese_poker._extras import install_hint
from chinese_poker.cli.common import CliError, json_lines_by_name, one_line, resolve_rules

__all__ = ["add_convert_parser", "is_parquet", "run_convert", "score_columnar"]

_PARQUET_SUFFIXES = (".parquet", ".pq")


def is_parquet(name: str | None) -> bool:
    """Whether a file is named as Parquet (``*.parquet`` or ``*.pq``)."""
    return name is not None and name.lower().endswith(_PARQUET_SUFFIXES)


def _arrow() -> ModuleType:
    try:
        import chinese_poker.arrow as arrow  # noqa: PLC0415  (pyarrow is an optional extra)
    except ImportError as error:
        raise CliError(f"{one_line(error)}") from None
    return arrow


def _read_rounds(arrow: ModuleType, name: str) -> Any:
    if name in (None, "-"):
        raise CliError("Parquet and JSON Lines conversion read a named file, not stdin")
    if not os.path.isfile(name):
        raise CliError(f"cannot read {name!r}: no such file")
    try:
        if is_parquet(name):
            return arrow.read_parquet(name)
        return arrow.from_jsonl(name)
    except OSError as error:
        raise CliError(f"cannot read {name!r}: {one_line(error)}") from None
    except ValueError as error:
        raise CliError(f"{name}: {one_line(error)}") from None


def score_columnar(args: argparse.Namespace) -> int:
    """``score`` of a Parquet round file, or of any round file with ``--format parquet``: every round
    settled by ``settle_arrow`` and written to ``--out`` (Parquet, or JSON Lines of each round's ``id``,
    ``rules_digest`` and ``net`` with ``--format jsonl --output net``)."""
    if args.format not in ("parquet", "jsonl") or (args.format == "jsonl" and args.output != "net"):
        raise CliError(
            "a Parquet round file is scored with --format parquet (or --format jsonl --output net); "
            "for full JSON output convert it first: chinese-poker convert FILE.parquet FILE.jsonl"
        )
    for flag in ("explain", "receipts", "keep_going"):
        if getattr(args, flag, False):
            raise CliError(f"--{flag.replace('_', '-')} is not available with Parquet")
    out = getattr(args, "out", None)
    if out is None:
        raise CliError("--format parquet needs -o/--out OUT.parquet (Parquet is not written to stdout)")
    arrow = _arrow()
    table = _read_rounds(arrow, args.file)
    rules = None
    if args.rules is not None:
        rules = resolve_rules(args.rules)
        if "rules" in table.schema.names:
            table = table.drop_columns(["rules"])
    try:
        settled = arrow.settle_arrow(table, rules, detail=args.output == "full")
    except ValueError as error:
        raise CliError(f"{args.file}: {one_line(error)}") from None
    try:
        if args.format == "parquet":
            arrow.write_parquet(settled, out)
        else:
            arrow.to_jsonl(settled.select(["id", "net"]), out)
    except OSError as error:
        raise CliError(f"cannot write {out!r}: {one_line(error)}") from None
    return 0


def add_convert_parser(commands: Any, rules_help: str) -> None:
    """Add the ``convert`` command to the subparsers ``commands``."""
    convert = commands.add_parser(
        "convert",
        help="convert a round file between JSON Lines and Parquet",
        description="Convert a round file between JSON Lines (*.jsonl, *.ndjson) and Parquet (*.parquet, "
        "*.pq), by the files' names; every round is checked as score checks it. Needs the arrow extra: "
        f"{install_hint('arrow')}.",
    )
    convert.add_argument("source", help="the round file to read")
    convert.add_argument("target", help="the file to write (its name says the format)")
    convert.add_argument("--rules", help=rules_help + "; overrides the rounds' own rules")
    convert.set_defaults(handler=run_convert)


def run_convert(args: argparse.Namespace) -> int:
    """Read ``args.source`` and write it as ``args.target`` in the other format."""
    for name in (args.source, args.target):
        if not (is_parquet(name) or json_lines_by_name(name)):
            raise CliError(f"{name!r}: name a .jsonl, .ndjson, .parquet or .pq file")
    arrow = _arrow()
    if args.rules is not None and is_parquet(args.source):
        raise CliError("--rules applies when reading JSON Lines; a Parquet file keeps its rules column")
    if args.rules is not None:
        try:
            table = arrow.from_jsonl(args.source, resolve_rules(args.rules))
        except ValueError as error:
            raise CliError(f"{args.source}: {one_line(error)}") from None
    else:
        table = _read_rounds(arrow, args.source)
    try:
        if is_parquet(args.target):
            arrow.write_parquet(table, args.target)
        else:
            arrow.to_jsonl(table, args.target)
    except OSError as error:
        raise CliError(f"cannot write {args.target!r}: {one_line(error)}") from None
    except ValueError as error:
        raise CliError(f"{args.source}: {one_line(error)}") from None
    return 0


def __dir__() -> list[str]:
    return list(__all__)
