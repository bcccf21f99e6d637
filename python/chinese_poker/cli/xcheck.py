"""``chinese-poker xcheck``: cross-check another engine, driven over JSON Lines; fit its rules (``--fit``)
and shrink every disagreement to a minimal round (docs/CROSSCHECK.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from chinese_poker.cli.common import CliError, dumps, resolve_rules
from chinese_poker.cli.progress import progress_for

__all__ = ["add_parser", "run"]


def add_parser(commands: Any, rules_help: str, progress_help: str) -> None:
    """Add the ``xcheck`` command to the subparsers ``commands``."""
    xcheck = commands.add_parser(
        "xcheck",
        help="cross-check another engine: fit its rules, shrink every disagreement",
        description="Start ENGINE once and send it rounds as JSON Lines on its stdin (docs/JSON_FORMAT.md "
        "input, without rules), reading one answer line per round from its stdout (at least "
        '{"id": ..., "net": [...]}). Targeted rounds for every knob, then random rounds; with --fit the '
        "rules the engine plays are inferred and printed as a rules file. Each class of remaining "
        "disagreements is shrunk to a minimal round. With --url, the same lines go to an HTTP endpoint. "
        "Exit code 0 only when nothing disagrees, 1 when "
        "something does, 2 on bad input or an engine that breaks the protocol.",
    )
    target = xcheck.add_mutually_exclusive_group(required=True)
    target.add_argument("--engine", metavar="COMMAND", help="the engine's command line")
    target.add_argument(
        "--url",
        metavar="URL",
        help="an HTTP endpoint instead: each batch of rounds is POSTed as a JSON Lines body, answered by "
        "one answer line per round",
    )
    mode = xcheck.add_mutually_exclusive_group()
    mode.add_argument("--fit", action="store_true", help="infer the engine's rules (default: check --rules)")
    mode.add_argument("--rules", help=f"the rules the engine should play: {rules_help} (default pagat)")
    xcheck.add_argument(
        "--probe",
        metavar="INPUTS",
        default="",
        help="send rounds with these too, comma-separated: stakes, surrender, banker (with bets), jokers, "
        "or all (default none: an engine may not read them)",
    )
    xcheck.add_argument("--seed", type=int, default=1, help="seed of the rounds (default 1)")
    xcheck.add_argument(
        "--budget", type=int, default=3000, help="most rounds sent to the engine (default 3000)"
    )
    xcheck.add_argument(
        "--timeout", type=float, default=10.0, help="seconds to wait for an answer (default 10)"
    )
    xcheck.add_argument("--json", metavar="REPORT", help="write the whole report as JSON to this file")
    xcheck.add_argument(
        "--rules-out", metavar="FILE", help="write the rules (fitted or checked) to FILE (.toml/.json)"
    )
    xcheck.add_argument("--progress", choices=("auto", "always", "never"), default="auto", help=progress_help)
    xcheck.add_argument("--quiet", action="store_true", help="print only the summary line")
    xcheck.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Cross-check the engine; the exit code is 0 only when nothing disagrees."""
    # Imported here so that other commands start without loading the cross-check machinery.
    from chinese_poker.xcheck.engine import Engine, EngineError  # noqa: PLC0415
    from chinese_poker.xcheck.probes import parse_probes  # noqa: PLC0415
    from chinese_poker.xcheck.remote import HttpEngine  # noqa: PLC0415
    from chinese_poker.xcheck.run import report_text, run_xcheck  # noqa: PLC0415

    if args.budget < 1:
        raise CliError(f"--budget must be at least 1, got {args.budget}")
    if not args.timeout > 0:
        raise CliError(f"--timeout must be positive, got {args.timeout}")
    try:
        probes = parse_probes(args.probe)
    except ValueError as error:
        raise CliError(str(error)) from None
    rules = None if args.fit else resolve_rules(args.rules)
    bar = progress_for(args.progress, args.budget, "xcheck", unit="rounds")

    def log(text: str) -> None:
        if not args.quiet:
            bar.clear()
            sys.stderr.write(f"xcheck: {text}\n")

    engine: Engine | HttpEngine
    try:
        engine = (
            HttpEngine(args.url, timeout=args.timeout)
            if args.url is not None
            else Engine(args.engine, timeout=args.timeout)
        )
    except EngineError as error:
        raise CliError(str(error)) from None
    try:
        report = run_xcheck(
            engine.ask,
            rules=rules,
            seed=args.seed,
            budget=args.budget,
            log=log,
            progress=bar.update,
            probes=probes,
        )
    finally:
        engine.close()
        bar.close()
    report["engine"] = args.engine if args.url is None else args.url
    report["engine_stderr"] = engine.stderr
    if args.json:
        Path(args.json).write_text(dumps(report, indent=2) + "\n", encoding="utf-8")
    if args.rules_out:
        path = Path(args.rules_out)
        text = (
            report["rules_file"]
            if path.suffix.lower() != ".json"
            else dumps(report["rules"], indent=2) + "\n"
        )
        path.write_text(text, encoding="utf-8")
    if args.quiet:
        print(f"{report['disagreements']} of {report['rounds']} rounds disagree")
    else:
        sys.stdout.write(report_text(report))
    if report["error"]:
        raise CliError(report["error"])
    return 0 if report["disagreements"] == 0 else 1


def __dir__() -> list[str]:
    return list(__all__)
