"""``chinese-poker rules``: list the presets, or print one preset's (or rules file's) every knob."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from chinese_poker.cli.common import resolve_rules
from chinese_poker.presets import DEFAULT_PRESET, PRESET_NAMES
from chinese_poker.rules import KNOBS, Rules

__all__ = ["KNOB_PHRASES", "add_parser", "run"]

#: One phrase per knob for ``rules --help`` (the full story: ``help(chinese_poker.Rules)``, docs/RULES.md).
KNOB_PHRASES: dict[str, str] = {
    "wheel": "where A-2-3-4-5 ranks among straights: low or second (2.2)",
    "suit_tiebreak": "whether suits break ties between equal rows, and how (2.4)",
    "suit_order": "the suit ranking of that tie-break: any order of s, h, d, c (2.4)",
    "middle_vs_back": "whether a middle equal to the back is a foul (2.5)",
    "overall_unit": "extra units for winning the pair overall (3, step 5)",
    "overall_basis": "who wins overall: two rows or the total (3, step 5)",
    "scoop_bonus": "extra units for winning all three rows (3, step 6)",
    "scoop_multiplier": "what a scoop multiplies the pair's result by (3, step 6)",
    "royalties_in_multiplier": "whether that multiplier applies to royalties (3, step 6)",
    "home_run_multiplier": "a further multiplier for scooping every opponent (3)",
    "home_run_min_opponents": "how many opponents a home run needs (3)",
    "royalties": "the bonus table of special rows: pagat, eastern or a table (4)",
    "royalty_mode": "a royalty replaces the row unit or adds to it (4)",
    "royalty_condition": "only the row's winner collects royalties, or every holder (4)",
    "royalty_cancel": "royalty hands in the same row cancel (4)",
    "foul_pays_royalties": "whether a fouled hand pays the other's royalties (3, step 3)",
    "naturals": "the 13-card special hands that count, and their units (5)",
    "natural_declaration": "a natural counts only when declared, or whenever held (5)",
    "natural_tiebreak": "how two naturals of one kind compare (5)",
    "quads_as_two_pairs": "four of a kind counts as two pairs for six pairs (5)",
    "trips_as_pair_plus_single": "three of a kind counts as pair plus odd card for six pairs (5)",
    "surrender_units": "what a surrendering player pays each opponent; 0 = off (3, step 2)",
    # naturals group (issue #10)
    "three_straights_front_a23": "A-2-3 is a front straight for three straights (10)",
    "three_straights_front_qka": "Q-K-A is a front straight for three straights (10)",
    "three_straights_wheel": "A-2-3-4-5 is a middle/back straight for three straights (10)",
    "three_flushes_distinct_suits": "three flushes need three different suits (10)",
    "quads_as_trips": "four of a kind counts as trips for four trips (10)",
    "foul_policy": "what a fouled hand pays: three rows, as if scooped, or rows as laid (3, step 3)",
    # settlement group (issue #10)
    "row_base": "units of a won front, middle and back (11.5)",
    "ace_units": "Chi A: units per ace held more than the opponent, a side payment (11.8)",
    "pair_cap": "largest units of a pair decided by rows or a foul; 0 = off (11.9)",
    "home_run_cap": "largest units of a home-run pair; 0 = off (11.9)",
    "home_run_bonus": "units added per opponent for a home run (11.9)",
    "home_run_counts_naturals": "a natural win counts as a scoop for the home run (11.9)",
    "natural_vs_natural": "how two naturals pay each other: by_kind, by_units, net, push (11.1)",
    "natural_settles_table": "a natural anywhere settles every pair by naturals only (11.1)",
    "natural_units_mode": "a natural pays its units, or what a sweep of the table pays (11.1)",
    "false_declaration_units": "what a false declaration pays each opponent; 0 = an error (11.0)",
    "horse_card": "the horse card: its holder's pairs are multiplied (11.9)",
    "horse_multiplier": "what the horse card multiplies by (11.9)",
    "foul_vs_foul": "two fouled hands pay nothing, or compare rows as laid (11.3)",
    # ofc group
    "fantasyland": "who is dealt a fantasyland hand next: off, standard or progressive (4.2)",
    # presets group
    "ace_basis": "Chi A per pair (pairwise) or each player against the table, 4 players (11.9)",
    "shooting": "the scoop multiplier needs three won rows, or no lost row (11.7)",
    "home_run_scope": "a home run multiplies its player's pairs, or every pair of the round (11.9)",
    # deck group (issue #15)
    "extra_suits": "suits added to the pack once more: '' | 's' | 'sh'; 5 and 6 players (1)",
    "jokers": "jokers in the pack, X1 and X2, each any card: 0 | 1 | 2 (1.2)",
}


def _epilog() -> str:
    width = max(len(knob) for knob in KNOB_PHRASES)
    lines = ["knobs (numbers: sections of docs/RULES.md; more in help(chinese_poker.Rules)):"]
    lines += [f"  {knob:<{width}}  {KNOB_PHRASES[knob]}" for knob in KNOBS]
    return "\n".join(lines)


def add_parser(commands: Any) -> None:
    """Add the ``rules`` command to the subparsers ``commands``."""
    rules = commands.add_parser(
        "rules",
        help="list presets or print one preset's rules",
        description="Without PRESET: list the presets. With PRESET (or a rules "
        "file): print every knob as TOML (or JSON).",
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
        print(rules.to_json())
    else:
        sys.stdout.write(rules.to_toml())
    return 0


def __dir__() -> list[str]:
    return list(__all__)
