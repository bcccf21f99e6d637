"""``chinese-poker score``: settle every round of a round file and print the results."""

from __future__ import annotations

import argparse
import io
import os
import stat
import sys
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING, Any, cast

from chinese_poker.cli.columnar import is_parquet, score_columnar
from chinese_poker.cli.common import (
    PROG,
    CliError,
    dumps,
    json_lines_by_name,
    one_line,
    open_input,
    resolve_rules,
    safe_text,
)
from chinese_poker.cli.progress import OutputWriter, Progress, progress_for, writes_utf8
from chinese_poker.formats.core_stream import CoreLines
from chinese_poker.formats.full_stream import full_stream
from chinese_poker.formats.net_stream import net_stream
from chinese_poker.formats.records import RawRound, count_json_lines, split_stream, stream_rounds
from chinese_poker.formats.round_common import OUTPUT_SHAPES, RoundError
from chinese_poker.rules import Rules

if TYPE_CHECKING:
    from chinese_poker.formats.round_parse import Round
    from chinese_poker.settlement import Settlement

# The general path's modules (the round reader, settlement, the table, the receipts) are imported where a
# round first needs them: a file the core reads whole never does, and starts a third faster.

__all__ = ["add_parser", "run", "settle_record"]


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
        choices=("table", "json", "jsonl", "parquet"),
        default="table",
        help="table (default), json (a list of output rounds), jsonl (one per line) or parquet "
        "(Arrow columns, written to -o; docs/JSON_FORMAT.md 5)",
    )
    score.add_argument(
        "-o",
        "--out",
        help="output file (default: stdout); with --format parquet the Parquet file to write (required)",
    )
    score.add_argument(
        "--output",
        choices=OUTPUT_SHAPES,
        default="full",
        help="with --format json or jsonl: full (default) output rounds, or net: only each round's id and "
        "net units",
    )
    score.add_argument("--explain", action="store_true", help="add the unit-by-unit explanation")
    score.add_argument(
        "--threads",
        type=int,
        default=1,
        help="with --format json or jsonl on JSON Lines: the core settles and writes on this many threads "
        "(0: every core); the output is the same for every count (default 1)",
    )
    score.add_argument(
        "--keep-going",
        action="store_true",
        help="report bad rounds on stderr and settle the rest (exit code 2 if any was bad)",
    )
    score.add_argument("--progress", choices=("auto", "always", "never"), default="auto", help=progress_help)
    score.add_argument(
        "--receipts",
        action="store_true",
        help="add each round's receipt (canonical inputs, rules digest, engine, nets and pairs, SHA-256; "
        "docs/FAIR.md): the log that chinese-poker audit checks",
    )
    score.add_argument(
        "--receipt-key-file",
        help="with --receipts: sign each receipt with an HMAC-SHA256 under this file's key (its bytes less "
        "one trailing newline, at least 16)",
    )
    score.set_defaults(handler=run)


def _printable(value: Any) -> Any:
    """``value`` with every string writable (``safe_text``), before the table lays it out."""
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, dict):
        return {key: _printable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_printable(item) for item in value]
    return value


def settle_record(raw: RawRound, rules: Rules | None) -> tuple[Round, Settlement]:
    """Check and settle one raw round (``rules``, when given, override the round's own, as ``--rules``
    does); every problem is a ``RoundError`` naming it. The HTTP service settles through this too."""
    from chinese_poker.formats.round_settle import settle_round  # noqa: PLC0415 - the general path

    rnd = check_record(raw, rules)
    return rnd, settle_round(rnd, raw.where)


def check_record(raw: RawRound, rules: Rules | None) -> Round:
    """Check one raw round as ``settle_record`` does, without settling it."""
    if raw.error is not None:
        raise RoundError(raw.error, raw.where)
    try:
        from chinese_poker.formats.round_parse import parse_round  # noqa: PLC0415 - the general path

        return parse_round(
            raw.data, position=raw.position, where=raw.where, rules=rules, override_rules=rules is not None
        )
    except RecursionError:  # a value nested too deeply to be named in a message
        raise RoundError("a value is nested too deeply", raw.where) from None


def run(args: argparse.Namespace, *, fast: bool = True) -> int:
    """Settle the rounds of ``args.file`` as they are read (JSON Lines is streamed: output is written round
    by round, memory stays flat); exit code 0, or 2 when a round could not be settled. JSON Lines with
    ``--format json|jsonl`` are read, settled and written by the core chunk by chunk
    (``formats.net_stream``, ``formats.full_stream``), every round it does not take by the
    general path in its place (``fast=False``: every round by the general path, which tests compare it
    with); the explanation and the receipts are the general path's."""
    if args.format == "parquet" or is_parquet(args.file):
        return score_columnar(args)
    if args.output == "net" and args.format == "table":
        raise CliError("--output net needs --format json or jsonl")
    if args.output == "net" and args.explain:
        raise CliError("--explain needs --output full: the net output has no explanation")
    receipts = getattr(args, "receipts", False)
    if receipts and args.output == "net":
        raise CliError("--receipts needs --output full: the net output has no receipt")
    if receipts and args.format == "table":
        raise CliError("--receipts needs --format json or jsonl: the table has no receipt")
    if getattr(args, "receipt_key_file", None) is not None:
        if not receipts:
            raise CliError("--receipt-key-file needs --receipts")
        try:
            from chinese_poker.receipts import read_key_file  # noqa: PLC0415 - only with receipts

            args.receipt_key = read_key_file(args.receipt_key_file)
        except ValueError as error:
            raise CliError(one_line(error)) from None
    if getattr(args, "threads", 1) < 0:
        raise CliError(f"--threads must be 0 (every core) or more, got {args.threads}")
    rules = resolve_rules(args.rules) if args.rules is not None else None
    stream, source = open_input(args.file)
    target = open_output(getattr(args, "out", None))
    try:
        return _score(args, rules, stream, safe_text(source), target, fast=fast)
    finally:
        if args.file not in (None, "-"):
            stream.close()
        if target is not sys.stdout:
            target.close()


def open_output(path: str | None) -> IO[str]:
    """Where the output goes: ``path`` (``None`` or ``"-"``: stdout) opened for writing UTF-8."""
    if path in (None, "-"):
        return sys.stdout
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as error:
        raise CliError(f"cannot write {path!r}: {one_line(error)}") from None


def _score(
    args: argparse.Namespace,
    rules: Rules | None,
    stream: IO[bytes],
    source: str,
    target: IO[str],
    *,
    fast: bool = True,
) -> int:
    records: Iterable[RawRound | CoreLines]
    total: int | None = None
    ascii_only = not writes_utf8(target)
    indented = args.format == "json"
    # The core reads, settles and writes JSON Lines itself, but for the explanation, the receipts and a JSON
    # list of net lines, which the general path writes.
    in_core = fast and not args.explain and not receipts(args) and (args.output == "full" or not indented)
    in_core = in_core and args.format in ("json", "jsonl")
    try:
        head, document = (
            split_stream(stream, json_lines=json_lines_by_name(source)) if in_core else (b"", None)
        )
        if in_core and document is None:
            threads = getattr(args, "threads", 1)
            if args.output == "net":
                records = net_stream(stream, rules, threads=threads, ascii_only=ascii_only, head=head)
            else:
                records = full_stream(
                    stream, rules, ascii_only=ascii_only, indented=indented, threads=threads, head=head
                )
        else:
            read = document or stream_rounds(stream, json_lines=json_lines_by_name(source))
            records, total = read.records, read.total
    except OSError as error:
        raise CliError(f"cannot read {source!r}: {one_line(error)}") from None
    if total is None and args.progress != "never" and args.file not in (None, "-"):
        total = count_json_lines(args.file)  # a file can be read twice: a bar with a percentage
    progress = progress_for(args.progress, total, "settling", unit="rounds")
    writer = OutputWriter(progress, target)
    if in_core and document is not None and args.output == "full":
        raws = cast("Iterable[RawRound]", records)  # a whole document: no CoreLines
        return _score_full(args, rules, raws, writer, progress, source, ascii_only)
    # A pipe's reader may wait for each round's answer before it sends the next: each answer flushed.
    interactive = not _regular_file(stream)
    parts: list[
        bytes
    ] = []  # a JSON list's items (UTF-8), each as ",\n  " and the item indented for its place
    bad = 0
    count = 0
    try:
        for raw in records:
            if isinstance(raw, CoreLines):  # rounds the core settled
                count += raw.rounds
                _put(raw.lines, indented, parts, writer, interactive)
                progress.update(count)
                continue
            count += 1
            try:
                rnd, settlement = settle_record(raw, rules)
            except RoundError as error:
                report_bad_round(error, args, progress, source)
                bad += 1
                progress.update(count)
                continue
            from chinese_poker.formats.round_settle import (  # noqa: PLC0415 - the general path
                round_net_output,
                round_output,
            )

            if args.output == "net":
                out = round_net_output(rnd, settlement)
            else:
                out = round_output(rnd, settlement, explain=args.explain)
                if getattr(args, "receipts", False):
                    out["receipt"] = settlement.receipt(getattr(args, "receipt_key", None))
            if indented:
                parts.append((",\n  " + dumps(out, 2, ascii_only=ascii_only).replace("\n", "\n  ")).encode())
            elif args.format == "jsonl":
                _put(
                    (dumps(out, ascii_only=ascii_only) + "\n").encode(), indented, parts, writer, interactive
                )
            else:
                from chinese_poker.cli.round_table import format_round_table  # noqa: PLC0415 - the table only

                writer.write(("" if count - bad == 1 else "\n") + format_round_table(_printable(out)) + "\n")
            progress.update(count)
    except OSError as error:
        raise CliError(f"cannot read {source!r}: {one_line(error)}") from None
    finally:
        progress.close()
    if count == 0:
        raise CliError(f"{source}: no rounds")
    if indented:
        _write_json_list(writer, parts)
    if bad:
        print(f"{PROG}: {bad} of {count} rounds could not be settled", file=sys.stderr)
        return 2
    return 0


def _put(data: bytes, indented: bool, parts: list[bytes], writer: OutputWriter, interactive: bool) -> None:
    """Output (UTF-8): kept as items of a JSON list written at the end, or written now (and flushed for an
    interactive reader)."""
    if indented:
        parts.append(data)
        return
    writer.write_utf8(data)
    if interactive:
        writer.stream.flush()


def _write_json_list(writer: OutputWriter, parts: list[bytes]) -> None:
    """The items of a JSON list (each ",\n  " and the item) written as ``dumps(items, 2)`` writes the list,
    a part at a time (no copy of the whole)."""
    if not parts:
        writer.write_utf8(b"[]\n")
        return
    writer.write_utf8(b"[" + parts[0][1:])
    for part in parts[1:]:
        writer.write_utf8(part)
    writer.write_utf8(b"\n]\n")


def report_bad_round(error: RoundError, args: argparse.Namespace, progress: Progress, source: str) -> None:
    """A round that could not be settled: the command's error without ``--keep-going``, else its line on
    stderr (the progress bar cleared first)."""
    message = f"{source}: {one_line(error)}"
    if not args.keep_going:
        raise CliError(message) from None
    progress.clear()
    print(f"{PROG}: error: {message}", file=sys.stderr)


def _regular_file(stream: IO[bytes]) -> bool:
    """Whether ``stream`` reads a regular file (not a pipe, a terminal or a socket)."""
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, io.UnsupportedOperation):
        return False


def receipts(args: argparse.Namespace) -> bool:
    """Whether ``args`` ask for receipts."""
    return bool(getattr(args, "receipts", False))


def _score_full(  # noqa: PLR0917 - the state of _score, passed on as it is
    args: argparse.Namespace,
    rules: Rules | None,
    records: Iterable[RawRound],
    writer: OutputWriter,
    progress: Progress,
    source: str,
    ascii_only: bool,
) -> int:
    """The full output of every round of a whole document, checked by the general reader and settled and
    written by the core ``BATCH_ROUNDS`` rounds at a time (``formats.full_lines.FullLines``): the bytes,
    errors and exit code of the round-by-round loop of ``_score``."""
    from chinese_poker.formats.full_lines import BATCH_ROUNDS, FullLines  # noqa: PLC0415 - a whole document

    indented = args.format == "json"
    lines = FullLines(ascii_only=ascii_only, indented=indented)
    parts: list[bytes] = []
    bad = 0
    count = 0

    def report(error: RoundError) -> None:
        nonlocal bad
        report_bad_round(error, args, progress, source)
        bad += 1

    def emit() -> None:
        for item in lines.flush():
            if isinstance(item, RoundError):
                report(item)
            elif indented:
                parts.append(item.encode())
            else:
                writer.write(item)

    try:
        for raw in records:
            count += 1
            try:
                rnd = check_record(raw, rules)
            except RoundError as error:
                emit()
                report(error)
                progress.update(count)
                continue
            lines.add(rnd, raw.where)
            if len(lines) >= BATCH_ROUNDS:
                emit()
            progress.update(count)  # rounds read: their output follows a batch at a time
        emit()
    except OSError as error:
        raise CliError(f"cannot read {source!r}: {one_line(error)}") from None
    finally:
        progress.close()
    if count == 0:
        raise CliError(f"{source}: no rounds")
    if indented:
        _write_json_list(writer, parts)
    if bad:
        print(f"{PROG}: {bad} of {count} rounds could not be settled", file=sys.stderr)
        return 2
    return 0


def __dir__() -> list[str]:
    return list(__all__)
