"""``chinese-poker ofc``: open-face play. ``ofc fantasyland CARDS``: the exact best setting of a fantasyland
hand of 14 to 17 cards (``chinese_poker.ofc.fantasyland``); ``ofc advise``: every legal placement of a
position with its expected units (``chinese_poker.ofc.advise``); ``ofc play``: a duplicate match between
policies (``chinese_poker.ofc.play``)."""

from __future__ import annotations

import argparse
from typing import Any

from chinese_poker.cli.common import CliError, dumps, one_line, resolve_rules
from chinese_poker.ofc.advise import advise
from chinese_poker.ofc.fantasyland import fantasyland, stay_value_of
from chinese_poker.ofc.play import play
from chinese_poker.ofc.position import position
from chinese_poker.ofc.state import check_fantasyland_size
from chinese_poker.rules import Rules

__all__ = ["add_parser", "run_advise", "run_fantasyland", "run_play"]


def add_parser(commands: Any, rules_help: str) -> None:
    """Add the ``ofc`` command and its subcommands to the subparsers ``commands``."""
    command = commands.add_parser(
        "ofc",
        help="open-face play: placement advice, duplicate matches, the best fantasyland setting",
        description="Open-Face Chinese Poker play (docs/OFC.md).",
    )
    subcommands = command.add_subparsers(dest="ofc_command", metavar="SUBCOMMAND")
    solve = subcommands.add_parser(
        "fantasyland",
        help="the exact best setting of a fantasyland hand of 14 to 17 cards",
        description="The legal setting of 13 of the cards with the greatest royalties plus the stay value "
        "when the board stays in fantasyland; ties go to the stronger back, middle, front (RULES.md 4.3).",
    )
    solve.add_argument("cards", nargs="+", help="the 14 to 17 cards (quoted or not)")
    solve.add_argument("--rules", help=rules_help + " (default ofc)")
    solve.add_argument(
        "--stay-value",
        type=float,
        default=None,
        help="units that staying in fantasyland is worth (default: the mean royalty of a fantasyland hand)",
    )
    solve.add_argument("--format", choices=("text", "json"), default="text", help="output (default text)")
    solve.set_defaults(handler=run_fantasyland)
    _add_advise(subcommands, rules_help)
    _add_play(subcommands, rules_help)
    command.set_defaults(handler=_needs_subcommand)


def _add_advise(subcommands: Any, rules_help: str) -> None:
    advice = subcommands.add_parser(
        "advise",
        help="every legal placement of a position with its expected units",
        description="The expected units of every legal placement of the hand (docs/OFC.md): exact on the "
        "last street, sampled before it. Boards are 'FRONT/MIDDLE/BACK', e.g. 'Qs Qh/2c 3c/Kc Kd'.",
    )
    advice.add_argument(
        "--board", action="append", required=True, help="a seat's board, once per seat in order"
    )
    advice.add_argument("--hand", required=True, help="the advised seat's cards to place")
    advice.add_argument("--discards", default="", help="the advised seat's discards so far")
    advice.add_argument("--player", type=int, default=0, help="the advised seat (default 0)")
    advice.add_argument(
        "--fantasyland",
        action="append",
        default=[],
        metavar="SEAT[:CARDS]",
        help="a seat in fantasyland, once per such seat: SEAT for a hand of 14 cards, SEAT:CARDS for a "
        "hand of CARDS (14 under standard fantasyland, 14 to 17 under progressive); its board '//' "
        "while not set",
    )
    advice.add_argument("--samples", type=int, default=1000, help="deals drawn before the last street")
    advice.add_argument("--seed", type=int, default=0, help="the draw's seed")
    advice.add_argument("--top", type=int, default=10, help="options to print (default 10; 0 every one)")
    advice.add_argument("--rules", help=rules_help + " (default ofc)")
    advice.add_argument("--format", choices=("text", "json"), default="text", help="output (default text)")
    advice.set_defaults(handler=run_advise)


def _add_play(subcommands: Any, rules_help: str) -> None:
    match = subcommands.add_parser(
        "play",
        help="a duplicate match between policies",
        description="Duplicate open-face matches (docs/OFC.md): each deal played once per rotation of the "
        "seats, mean units per hand with 95%% intervals.",
    )
    match.add_argument(
        "policies", nargs="+", choices=("advisor", "greedy"), help="2 or 3 policies, one a seat"
    )
    match.add_argument("--deals", type=int, default=20, help="deals (default 20)")
    match.add_argument("--seed", type=int, default=0, help="the deals' seed")
    match.add_argument("--samples", type=int, default=1000, help="the advisor's deals per decision")
    match.add_argument(
        "--carry-fantasyland",
        action="store_true",
        help="a board that earns fantasyland plays the next deal of its rotation in fantasyland",
    )
    match.add_argument("--rules", help=rules_help + " (default ofc)")
    match.add_argument("--format", choices=("text", "json"), default="text", help="output (default text)")
    match.set_defaults(handler=run_play)


def _needs_subcommand(_args: argparse.Namespace) -> int:
    raise CliError("ofc needs a subcommand: advise, fantasyland or play")


def run_fantasyland(args: argparse.Namespace) -> int:
    """Print the best setting of the cards on the command line."""
    rules = resolve_rules(args.rules or "ofc")
    try:
        stay = stay_value_of(rules) if args.stay_value is None else args.stay_value
        best = fantasyland(" ".join(args.cards), rules, stay)
    except (ValueError, TypeError) as error:
        raise CliError(one_line(error)) from None
    if args.format == "json":
        print(dumps({"stay_value": stay, **best.to_dict()}))
        return 0
    for name, row, royalty in zip(
        ("front", "middle", "back"), (best.front, best.middle, best.back), best.royalties
    ):
        print(f"{name:<7} {' '.join(row):<15} royalty {royalty}")
    print(f"discard {' '.join(best.discards)}")
    stays = f", stays in fantasyland (+{stay:g})" if best.stays else ""
    print(f"royalties {best.royalty}{stays}: value {best.value:g}")
    return 0


def _board(text: str, seat: int) -> list[str]:
    rows = text.split("/")
    if len(rows) != 3:
        raise CliError(f"--board {seat}: give FRONT/MIDDLE/BACK (three rows split by '/'), got {text!r}")
    return [row.strip() for row in rows]


def _fantasyland_flags(given: list[str], seats: int, rules: Rules) -> list[int]:
    """Per seat the size of its fantasyland hand (0: not in fantasyland) from the ``--fantasyland SEAT`` or
    ``SEAT:CARDS`` options, each a size ``rules`` allow."""
    flags = [0] * seats
    for text in given:
        seat, _, cards = text.partition(":")
        try:
            at, count = int(seat), int(cards) if cards else 14
        except ValueError:
            raise CliError(f"--fantasyland {text}: give SEAT or SEAT:CARDS, e.g. 1 or 1:16") from None
        if not 0 <= at < seats:
            raise CliError(f"--fantasyland {text}: no seat {at}; the {seats} boards are seats 0..{seats - 1}")
        if flags[at]:
            raise CliError(f"--fantasyland {text}: seat {at} is given twice")
        try:
            check_fantasyland_size(rules, count, f"--fantasyland {text}: seat {at}")
        except ValueError as error:
            raise CliError(str(error)) from None
        flags[at] = count
    return flags


def run_advise(args: argparse.Namespace) -> int:
    """Print every legal placement of the position on the command line, best first."""
    rules = resolve_rules(args.rules or "ofc")
    boards = [_board(text, seat) for seat, text in enumerate(args.board)]
    flags = _fantasyland_flags(args.fantasyland, len(boards), rules)
    try:
        state = position(rules, boards, args.hand, args.discards, args.player, fantasyland=flags)
        options = advise(state, samples=args.samples, seed=args.seed, player=args.player)
    except (ValueError, TypeError) as error:
        raise CliError(one_line(error)) from None
    shown = options if args.top <= 0 else options[: args.top]
    if args.format == "json":
        print(dumps({"player": args.player, "street": state.street, "options": [o.to_dict() for o in shown]}))
        return 0
    how = "exact" if options[0].exact else f"{args.samples} deals, 95% interval"
    print(f"street {state.street}, player {args.player}: {len(options)} placements ({how})")
    for option in shown:
        interval = "" if option.exact else f"  [{option.low:+.3f}, {option.high:+.3f}]"
        print(f"{option.expected:+8.3f}{interval}  {option.action}")
    return 0


def run_play(args: argparse.Namespace) -> int:
    """Play the duplicate match and print each policy's mean units per hand."""
    rules = resolve_rules(args.rules or "ofc")
    try:
        match = play(
            rules,
            args.policies,
            args.deals,
            args.seed,
            samples=args.samples,
            carry_fantasyland=args.carry_fantasyland,
        )
    except (ValueError, TypeError) as error:
        raise CliError(one_line(error)) from None
    if args.format == "json":
        rows = [
            {
                "seat_policy": r.name,
                "units": r.units,
                "interval": [r.low, r.high],
                "with_fantasyland": r.with_fantasyland,
                "with_fantasyland_interval": [r.fl_low, r.fl_high],
                "fouls": r.fouls,
                "fantasyland_hands": r.fantasyland_hands,
            }
            for r in match.results
        ]
        print(dumps({"deals": match.deals, "players": match.players, "results": rows}))
        return 0
    print(f"{match.deals} deals x {match.players} rotations, units per hand (95% interval)")
    for r in match.results:
        print(
            f"{r.name:<8} {r.units:+.3f} [{r.low:+.3f}, {r.high:+.3f}]  with fantasyland "
            f"{r.with_fantasyland:+.3f} [{r.fl_low:+.3f}, {r.fl_high:+.3f}]  fouls {r.fouls:.1%}"
        )
    return 0
