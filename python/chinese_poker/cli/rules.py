"""``chinese-poker rules``: list the presets, or print one preset's (or rules file's) every knob."""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import Any

from chinese_poker.cli.common import resolve_rules
from chinese_poker.knobs import KNOB_TABLE
from chinese_poker.presets import DEFAULT_PRESET, PRESET_NAMES
from chinese_poker.rules import KNOBS, Rules
from chinese_poker.rules_text import toml_text

_PRESET_KEY = "preset"

__all__ = ["KNOB_PHRASES", "add_parser", "run"]

#: One phrase per knob for ``rules --help``, from the knob table (the full story:
#: ``help(chinese_poker.Rules)``, docs/RULES.md).
KNOB_PHRASES: dict[str, str] = {knob.name: f"{knob.description} ({knob.section})" for knob in KNOB_TABLE}


def _epilog() -> str:
    width = max(len(knob) for knob in KNOB_PHRASES)
    lines = ["knobs (numbers: sections of docs/RULES.md; more in help(chinese_poker.Rules)):"]
    for knob in KNOBS:
        lines += textwrap.wrap(
            KNOB_PHRASES[knob],
            width=110,
            initial_indent=f"  {knob:<{width}}  ",
            subsequent_indent=" " * (width + 4),
        )
    return "\n".join(lines)


def add_parser(commands: Any) -> None:
    """Add the ``rules`` command to the subparsers ``commands``."""
    rules = commands.add_parser(
        "rules",
        help="list presets or print one preset's rules",
        description="Without PRESET: list the presets. With PRESET (or a rules "
        "file): print every knob as TOML (a preset with its public source and description) or JSON.",
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rules.add_argument("preset", nargs="?", help="a preset name or a .toml/.json rules file")
    rules.add_argument("--format", choices=("toml", "json"), default="toml", help="toml (default) or json")
    rules.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """List the presets, or print one preset's (or rules file's) full rules."""
    if args.preset is None:
        width = max(len(name) for name in PRESET_NAMES)
        for name in PRESET_NAMES:
            default = " (default)" if name == DEFAULT_PRESET else ""
            print(f"{name:<{width}}  {Rules.preset_description(name)}{default}")
        return 0
    rules = resolve_rules(args.preset)
    if args.format == "json":
        # The same bytes as the service's GET /v1/rules/NAME.
        print(rules.to_json())
        return 0
    data = rules.to_dict()
    if rules.name is not None:
        # Where the preset comes from, as keys that Rules.from_dict reads as documentation: the output still
        # loads back as the same rules.
        data = {
            _PRESET_KEY: data.pop(_PRESET_KEY),
            "source": Rules.preset_source(rules.name),
            "description": Rules.preset_description(rules.name),
            **data,
        }
    sys.stdout.write(toml_text(data))
    return 0


def __dir__() -> list[str]:
    return list(__all__)
