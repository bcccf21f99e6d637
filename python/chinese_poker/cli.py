"""The ``chinese-poker`` command (also ``python -m chinese_poker``).

Commands: ``score`` (settle rounds from a JSON round file), ``deal`` (deal, arrange and settle a random
round), ``check`` (is a setting legal, and which natural do the 13 cards hold), ``rules`` (list presets or
print one as TOML), ``vectors`` (write conformance vectors) and ``verify`` (compare another implementation's
output with the expected output). The JSON round format is described in docs/JSON_FORMAT.md.

Exit codes: 0 success; 1 ``verify`` found disagreements or ``check`` found a foul; 2 bad input (malformed
JSON, a bad or duplicate card, a wrong row size, an unknown preset, ...), reported as one line on stderr.
"""

from __future__ import annotations

import argparse
import difflib
import io
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, Callable

from chinese_poker.arrange import arrange
from chinese_poker.cards import format_card, parse_cards
from chinese_poker.evaluation import describe
from chinese_poker.hand import ROW_NAMES, ROW_SIZES, Hand, detect_natural
from chinese_poker.rounds import (
    RoundError,
    iter_settled,
    parse_round,
    read_rounds,
    round_input,
    round_output,
    rules_reference,
    settle_round,
)
from chinese_poker.rules import DEFAULT_PRESET, NATURAL_NAMES, PRESET_NAMES, Rules
from chinese_poker.vectors import edge_cases, generate_vectors
from chinese_poker.verify import OutputFileError, compare_outputs, load_outputs

__all__ = ["CliError", "Progress", "format_round_table", "main", "resolve_rules"]

PROG = "chinese-poker"
_SEAT_NAMES = ("North", "East", "South", "West")


class CliError(Exception):
    """A user error: printed as one line on stderr, exit code 2."""


# ----- progress bar --------------------------------------------------------------------------------------


def _isatty(stream: IO[str]) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return False


class Progress:
    """A one-line progress bar on a terminal: ``label [#####-----] done/total pct% eta``.

    Drawn only when ``stream`` (default stderr) is a terminal (or ``enabled`` is true) and the run has lasted
    ``delay`` seconds, so short runs and pipes stay quiet; redrawn at most ten times a second. ``clear()``
    erases the line (before writing to the same terminal); ``close()`` erases it for good.
    """

    def __init__(
        self,
        total: int,
        label: str,
        stream: IO[str] | None = None,
        *,
        enabled: bool | None = None,
        delay: float = 0.5,
        width: int = 30,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = max(0, total)
        self.label = label
        self.enabled = (_isatty(self.stream) if enabled is None else enabled) and self.total > 0
        self.delay = delay
        self.width = width
        self.start = time.monotonic()
        self.last_draw = -1.0
        self.done = 0
        self.visible = False

    def render(self, done: int, elapsed: float) -> str:
        """The bar's text for ``done`` of ``total`` after ``elapsed`` seconds."""
        done = min(done, self.total)
        fraction = done / self.total if self.total else 1.0
        filled = int(round(fraction * self.width))
        bar = "#" * filled + "-" * (self.width - filled)
        text = f"{self.label} [{bar}] {done}/{self.total} {fraction * 100:3.0f}%"
        if 0 < done < self.total and elapsed > 0:
            remaining = elapsed * (self.total - done) / done
            text += f" eta {_duration(remaining)}"
        elif done >= self.total:
            text += f" in {_duration(elapsed)}"
        return text

    def update(self, done: int) -> None:
        """Record progress; redraw when due."""
        self.done = done
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.delay:
            return
        if now - self.last_draw < 0.1 and done < self.total:
            return
        self.last_draw = now
        self.stream.write("\r\x1b[K" + self.render(done, now - self.start))
        self.stream.flush()
        self.visible = True

    def clear(self) -> None:
        """Erase the bar (it comes back at the next due update)."""
        if self.visible:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.visible = False
            self.last_draw = -1.0

    def close(self) -> None:
        """Erase the bar for good."""
        self.clear()
        self.enabled = False


def _duration(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


# ----- shared helpers ------------------------------------------------------------------------------------


def resolve_rules(value: str | None) -> Rules:
    """Rules from ``--rules``: a preset name, or a ``.toml`` / ``.json`` rules file; ``None`` is ``pagat``."""
    if value is None:
        return Rules.preset()
    if value in PRESET_NAMES:
        return Rules.preset(value)
    if value.lower().endswith((".toml", ".json")) or os.path.sep in value or os.path.exists(value):
        if not os.path.isfile(value):
            raise CliError(f"rules file {value!r} not found")
        try:
            return Rules.load(value)
        except (ValueError, OSError) as error:
            raise CliError(f"rules file {value!r}: {_one_line(error)}") from None
    close = difflib.get_close_matches(value, PRESET_NAMES, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise CliError(
        f"unknown preset {value!r}{hint}; presets: {', '.join(PRESET_NAMES)} (or a .toml/.json file)"
    )


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def _read_text(path: str | None) -> tuple[str, str]:
    """The text of ``path`` (``None`` or ``"-"``: stdin) and how to name it in messages."""
    if path is None or path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        return Path(path).read_text(encoding="utf-8"), path
    except FileNotFoundError:
        raise CliError(f"file {path!r} not found") from None
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(f"cannot read {path!r}: {_one_line(error)}") from None


def _json_lines_by_name(source: str) -> bool | None:
    """JSON Lines for a ``.jsonl`` / ``.ndjson`` file; otherwise decided by the content."""
    return True if source.lower().endswith((".jsonl", ".ndjson")) else None


def _dumps(data: Any, indent: int | None = None) -> str:
    separators = None if indent is not None else (",", ":")
    return json.dumps(data, indent=indent, ensure_ascii=False, separators=separators)


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _table(
    headers: Sequence[str], rows: Sequence[Sequence[str] | str], right: Sequence[int] = ()
) -> list[str]:
    """Aligned text columns (two spaces apart); columns whose index is in ``right`` are right-aligned. A row
    given as one string spans the columns from the second one on (it does not widen them)."""
    widths = [len(h) for h in headers]
    for row in rows:
        if isinstance(row, str):
            continue
        for k, cell in enumerate(row):
            widths[k] = max(widths[k], len(cell))

    def line(cells: Sequence[str] | str) -> str:
        if isinstance(cells, str):
            return (" " * (widths[0] + 2) + cells).rstrip()
        parts = [
            cell.rjust(widths[k]) if k in right else cell.ljust(widths[k]) for k, cell in enumerate(cells)
        ]
        return "  ".join(parts).rstrip()

    return [line(headers)] + [line(row) for row in rows]


def format_round_table(out: dict[str, Any]) -> str:
    """A settled round (an output object of the JSON format) as aligned, readable text: each player's rows
    and net, then each pair's rows (who won each), how it was decided and its units, then the net line."""
    names = [p["name"] for p in out["players"]]
    rules = out["rules"] if isinstance(out["rules"], str) else "custom rules"
    lines = [f"Round {_dumps(out['id'])} under {rules}"]
    rows: list[list[str] | str] = []
    for player in out["players"]:
        status = []
        if player["foul"]:
            status.append("FOUL")
        if player["natural"]:
            status.append(f"natural: {player['natural'].replace('_', ' ')}")
        if player["surrendered"]:
            status.append("surrendered")
        if player["home_run"]:
            status.append("HOME RUN")
        if player["rows"] is None:
            rows.append(
                [player["name"], "(declares a natural)", "", "", _signed(player["net"]), ", ".join(status)]
            )
            rows.append(str(player.get("declared", "")))
            continue
        cards = [player["rows"][row]["cards"] for row in ROW_NAMES]
        texts = []
        for row in ROW_NAMES:
            cell = player["rows"][row]["text"]
            if player["rows"][row]["royalty"]:
                cell += f" (royalty {player['rows'][row]['royalty']})"
            texts.append(cell)
        rows.append([player["name"], *cards, _signed(player["net"]), ", ".join(status)])
        rows.append(["", *texts, "", ""])
    lines += [
        "  " + line for line in _table(["Player", "Front", "Middle", "Back", "Net", ""], rows, right=(4,))
    ]
    lines.append("")
    pair_rows = []
    for pair in out["pairs"]:
        i, j = pair["i"], pair["j"]
        if pair["rows"] is None:
            won = ["-", "-", "-"]
        else:
            won = [names[i] if r > 0 else names[j] if r < 0 else "tie" for r in pair["rows"]]
        units = pair["units"]
        result = f"{names[i]} {units:+d}" if units > 0 else f"{names[j]} {-units:+d}" if units < 0 else "0"
        notes = []

        def to(value: int, i: int = i, j: int = j) -> str:
            return f"{names[i]} +{value}" if value > 0 else f"{names[j]} +{-value}"

        if pair["decided_by"] == "natural":
            kinds = [kind.replace("_", " ") if kind else "no natural" for kind in pair["natural"]]
            notes.append(f"{kinds[0]} v {kinds[1]}")
        if pair["surrender_units"]:
            notes.append(f"surrender {to(pair['surrender_units'])}")
        if pair["royalty_units"]:
            notes.append(f"royalties {to(pair['royalty_units'])}")
        if pair["overall_units"]:
            notes.append(f"overall {to(pair['overall_units'])}")
        if pair["scoop"]:
            notes.append(f"scoop by {names[i] if pair['scoop'] > 0 else names[j]}")
        if pair["scoop_bonus_units"]:
            notes.append(f"scoop bonus {to(pair['scoop_bonus_units'])}")
        if pair["multiplier"] != 1:
            notes.append(f"x{pair['multiplier']}")
        if pair["stake"] != 1:
            notes.append(f"stake x{pair['stake']}")
        if pair["home_run"] != 1:
            notes.append(f"home run x{pair['home_run']}")
        pair_rows.append([f"{names[i]} v {names[j]}", *won, pair["decided_by"], result, ", ".join(notes)])
    lines += [
        "  " + line for line in _table(["Pair", "Front", "Middle", "Back", "By", "Units", ""], pair_rows)
    ]
    lines.append("")
    lines.append("Net: " + ", ".join(f"{name} {_signed(net)}" for name, net in zip(names, out["net"])))
    if out.get("explain"):
        lines.append("")
        lines.append(out["explain"])
    return "\n".join(lines)


def _progress(mode: str, total: int, label: str) -> Progress:
    """The progress bar for ``--progress mode``: ``auto`` on a terminal after half a second, ``always`` from
    the start (even in a pipe), ``never``."""
    if mode == "auto":
        return Progress(total, label)
    return Progress(total, label, enabled=mode == "always", delay=0.0)


class _Writer:
    """Writes output to stdout, erasing the progress bar first when both share a terminal."""

    def __init__(self, progress: Progress | None, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self.progress = progress
        self.share = progress is not None and progress.enabled and _isatty(self.stream)

    def write(self, text: str) -> None:
        if self.share and self.progress is not None:
            self.progress.clear()
        self.stream.write(text)


# ----- score -----------------------------------------------------------------------------------------


def cmd_score(args: argparse.Namespace) -> int:
    """``score``: settle every round of a round file and print the results."""
    rules = resolve_rules(args.rules) if args.rules is not None else None
    text, source = _read_text(args.file)
    _, raws = read_rounds(text, json_lines=_json_lines_by_name(source))
    if not raws:
        raise CliError(f"{source}: no rounds")
    progress = _progress(args.progress, len(raws), "settling")
    writer = _Writer(progress)
    outputs: list[dict[str, Any]] = []
    bad = 0
    first = True
    try:
        for count, (_, rnd, settlement, error) in enumerate(
            iter_settled(raws, rules, override_rules=rules is not None), start=1
        ):
            if error is not None:
                message = f"{source}: {error}"
                if not args.keep_going:
                    raise CliError(message)
                progress.clear()
                print(f"{PROG}: error: {message}", file=sys.stderr)
                bad += 1
                progress.update(count)
                continue
            assert rnd is not None and settlement is not None
            out = round_output(rnd, settlement, explain=args.explain)
            if args.format == "json":
                outputs.append(out)
            elif args.format == "jsonl":
                writer.write(_dumps(out) + "\n")
            else:
                writer.write(("" if first else "\n") + format_round_table(out) + "\n")
            first = False
            progress.update(count)
    finally:
        progress.close()
    if args.format == "json":
        sys.stdout.write(_dumps(outputs, indent=2) + "\n")
    if bad:
        print(f"{PROG}: {bad} of {len(raws)} rounds could not be settled", file=sys.stderr)
        return 2
    return 0


# ----- deal ------------------------------------------------------------------------------------------


def deal_round(rules: Rules, players: int, seed: int) -> dict[str, Any]:
    """A random round as an input object: ``players`` hands dealt from a deck shuffled by ``seed``, each
    arranged by ``arrange``'s default strategy; a natural is declared when ``arrange`` says to (or, with an
    ``arrange`` that does not say, whenever one is held and the rules need a declaration)."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    entries = []
    for index in range(players):
        cards = deck[13 * index : 13 * index + 13]
        name = _SEAT_NAMES[index]
        arrangement = arrange(cards, rules)
        if rules.natural_declaration == "must_declare" and rules.naturals:
            declare = getattr(arrangement, "declare", _NOT_SAID)
            if declare is _NOT_SAID:
                declare = detect_natural(cards, rules)
            if declare:
                entries.append({"name": name, "cards": _sorted_text(cards), "declare_natural": True})
                continue
        hand = arrangement.hand
        entry: dict[str, Any] = {"name": name}
        for row, codes in zip(ROW_NAMES, (hand.front, hand.middle, hand.back)):
            entry[row] = _sorted_text(codes or ())
        entries.append(entry)
    return {"id": f"deal-{seed}", "rules": rules_reference(rules), "players": entries}


_NOT_SAID = object()


def _sorted_text(codes: Sequence[int]) -> str:
    """Cards as text, the most numerous rank first, then by rank high to low (``"8d 8h Ks"``)."""
    counts: dict[int, int] = {}
    for code in codes:
        counts[code // 4] = counts.get(code // 4, 0) + 1
    ordered = sorted(codes, key=lambda code: (-counts[code // 4], -(code // 4), -(code % 4)))
    return " ".join(format_card(code) for code in ordered)


def cmd_deal(args: argparse.Namespace) -> int:
    """``deal``: deal a random round, arrange each hand, settle it and print it."""
    rules = resolve_rules(args.rules)
    if not 2 <= args.players <= 4:
        raise CliError(f"--players must be 2, 3 or 4, got {args.players}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    data = deal_round(rules, args.players, seed)
    rnd = parse_round(data, rules=rules, override_rules=True)
    if args.format == "input":
        print(_dumps(round_input(rnd), indent=2))
        return 0
    out = round_output(rnd, settle_round(rnd), explain=args.explain)
    if args.format == "json":
        print(_dumps(out, indent=2))
    else:
        print(f"Seed {seed} (repeat with --seed {seed})")
        print(format_round_table(out))
    return 0


# ----- check -----------------------------------------------------------------------------------------


def _check_hand(text: str) -> Hand:
    parts = [part for part in text.replace("|", "/").split("/")]
    try:
        if len(parts) == 3:
            rows = []
            for row, size, part in zip(ROW_NAMES, ROW_SIZES, parts):
                try:
                    codes = parse_cards(part)
                except ValueError as error:
                    raise ValueError(f"{row}: {error}") from None
                if len(codes) != size:
                    raise ValueError(f"the {row} takes {size} cards, got {len(codes)}")
                rows.append(codes)
            return Hand(*rows)
        if len(parts) != 1:
            raise ValueError(f"give the rows as 'front / middle / back' (3 parts), got {len(parts)} parts")
        codes = parse_cards(text)
        if len(codes) != 13:
            raise ValueError(f"a setting takes 13 cards (front 3, middle 5, back 5), got {len(codes)}")
        return Hand.from_cards(codes)
    except ValueError as error:
        raise CliError(_one_line(error)) from None


def held_patterns(cards: Sequence[int]) -> list[str]:
    """Every natural kind (RULES.md 5) the 13 cards hold, whatever any rules list."""
    held = []
    for kind in NATURAL_NAMES:
        if detect_natural(cards, Rules().replace(naturals=[(kind, 1)])) is not None:
            held.append(kind)
    return held


def _foul_reasons(hand: Hand, rules: Rules, strengths: Sequence[int]) -> list[str]:
    front, middle, back = strengths
    reasons = []
    if front > middle:
        reasons.append(f"the front ({describe(front)}) beats the middle ({describe(middle)})")
    if middle > back:
        reasons.append(f"the middle ({describe(middle)}) beats the back ({describe(back)})")
    elif middle == back and rules.middle_vs_back == "strict":
        reasons.append(f"the middle equals the back ({describe(back)}) and middle_vs_back is strict")
    return reasons


def check_lines(hand: Hand, rules: Rules) -> tuple[bool, list[str]]:
    """``(foul, lines)``: the readable verdict on one hand under ``rules`` (rows, legality, naturals)."""
    rules_name = rules.name or "these rules"
    facts = hand.facts(rules)
    lines = []
    foul = False
    if hand.is_declared:
        lines.append(f"declares a natural: {' '.join(format_card(c) for c in hand.cards)}")
    else:
        strengths = [int(s) for s in facts["strengths"]]
        rows = []
        for row, codes, strength, royalty in zip(
            ROW_NAMES, (hand.front, hand.middle, hand.back), strengths, facts["royalties"]
        ):
            extra = f"  (royalty {royalty})" if royalty else ""
            rows.append([row, " ".join(format_card(c) for c in codes or ()), describe(strength) + extra])
        lines += _table(["row", "cards", "hand"], rows)[1:]
        foul = bool(facts["foul"])
        if foul:
            reasons = _foul_reasons(hand, rules, strengths)
            lines.append(f"FOUL under {rules_name}: " + "; ".join(reasons))
            suggestion = arrange(hand.cards, rules).hand
            rows_text = [
                _sorted_text(codes or ()) for codes in (suggestion.front, suggestion.middle, suggestion.back)
            ]
            lines.append(f"a legal setting (by arrange): {' / '.join(rows_text)}")
        else:
            lines.append(f"legal under {rules_name}: back >= middle >= front")
    natural = detect_natural(hand.cards, rules) if rules.naturals else None
    if natural is not None:
        how = "counts when declared" if rules.natural_declaration == "must_declare" else "counts (auto)"
        units = dict(rules.naturals)[natural]
        lines.append(f"natural under {rules_name}: {natural} ({units} units; {how})")
    elif rules.naturals:
        lines.append(f"natural under {rules_name}: none")
    else:
        lines.append(f"natural under {rules_name}: none ({rules_name} counts no naturals)")
    held = held_patterns(hand.cards)
    lines.append("13-card patterns held: " + (", ".join(held) if held else "none"))
    return foul, lines


def cmd_check(args: argparse.Namespace) -> int:
    """``check``: say whether a setting is legal (and why not) and which natural its 13 cards hold."""
    rules = resolve_rules(args.rules)
    given = args.cards
    if len(given) == 1 and (given[0] == "-" or os.path.isfile(given[0])):
        return _check_file(given[0], rules)
    foul, lines = check_lines(_check_hand(" ".join(given)), rules)
    print("\n".join(lines))
    return 1 if foul else 0


def _check_file(path: str, rules: Rules) -> int:
    text, source = _read_text(path)
    _, raws = read_rounds(text, json_lines=_json_lines_by_name(source))
    if not raws:
        raise CliError(f"{source}: no rounds")
    any_foul = False
    blocks = []
    for raw in raws:
        if raw.error is not None:
            raise CliError(f"{source}: {raw.where}: {raw.error}")
        try:
            rnd = parse_round(
                raw.data, position=raw.position, where=raw.where, rules=rules, override_rules=True
            )
        except RoundError as error:
            raise CliError(f"{source}: {error}") from None
        for name, hand in zip(rnd.names, rnd.hands):
            foul, lines = check_lines(hand, rules)
            any_foul = any_foul or foul
            blocks.append("\n".join([f"round {_dumps(rnd.id)}, {name}:"] + ["  " + line for line in lines]))
    print("\n\n".join(blocks))
    return 1 if any_foul else 0


# ----- rules -----------------------------------------------------------------------------------------


def cmd_rules(args: argparse.Namespace) -> int:
    """``rules``: list the presets, or print one preset's (or rules file's) full rules."""
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


# ----- vectors ---------------------------------------------------------------------------------------


def cmd_vectors(args: argparse.Namespace) -> int:
    """``vectors``: write conformance vectors (edge cases and random rounds with their expected output)."""
    rules = resolve_rules(args.rules)
    if args.count < 0:
        raise CliError(f"--count must be 0 or more, got {args.count}")
    total = args.count + (0 if args.no_edge_cases else len(edge_cases(rules)))
    progress = _progress(args.progress, total, "vectors")
    stream: IO[str]
    close: Callable[[], None] = lambda: None  # noqa: E731
    if args.output in (None, "-"):
        stream = sys.stdout
    else:
        try:
            stream = open(args.output, "w", encoding="utf-8")  # noqa: SIM115
        except OSError as error:
            raise CliError(f"cannot write {args.output!r}: {_one_line(error)}") from None
        close = stream.close
    writer = _Writer(progress, stream)
    try:
        vectors = generate_vectors(
            rules, args.count, args.seed, edges=not args.no_edge_cases, progress=progress.update
        )
        if args.format == "json":
            writer.write(_dumps(list(vectors), indent=2) + "\n")
        else:
            for vector in vectors:
                writer.write(_dumps(vector) + "\n")
    finally:
        progress.close()
        close()
    return 0


# ----- verify ----------------------------------------------------------------------------------------


def cmd_verify(args: argparse.Namespace) -> int:
    """``verify``: compare ACTUAL (another implementation's output) with EXPECTED, field by field."""
    if args.expected == "-" and args.actual == "-":
        raise CliError("only one of EXPECTED and ACTUAL can be read from stdin")
    texts = {}
    for role, path in (("expected", args.expected), ("actual", args.actual)):
        text, source = _read_text(path)
        try:
            texts[role] = load_outputs(text, source)
        except OutputFileError as error:
            raise CliError(str(error)) from None
    ignore = {field.strip() for item in args.ignore for field in item.split(",") if field.strip()}
    try:
        found = compare_outputs(texts["expected"], texts["actual"], ignore=ignore, strict=args.strict)
    except OutputFileError as error:
        raise CliError(str(error)) from None
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


# ----- main ------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``chinese-poker`` command."""
    from chinese_poker import __version__

    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Evaluate and settle 13-card Chinese Poker rounds (Capsa Susun, Pusoy, Shisanzhang).",
        epilog="Exit codes: 0 ok; 1 verify found differences or check found a foul; 2 bad input. "
        "The JSON round format: docs/JSON_FORMAT.md.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    rules_help = f"a preset ({', '.join(PRESET_NAMES)}) or a .toml/.json rules file"
    progress_help = "progress bar on stderr: auto (only on a terminal, the default), always or never"

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
        choices=("table", "json", "jsonl"),
        default="table",
        help="table (default), json (a list of output rounds) or jsonl (one per line)",
    )
    score.add_argument("--explain", action="store_true", help="add the unit-by-unit explanation")
    score.add_argument(
        "--keep-going",
        action="store_true",
        help="report bad rounds on stderr and settle the rest (exit code 2 if any was bad)",
    )
    score.add_argument("--progress", choices=("auto", "always", "never"), default="auto", help=progress_help)
    score.set_defaults(handler=cmd_score)

    deal = commands.add_parser(
        "deal",
        help="deal, arrange and settle a random round",
        description="Deal a random round, arrange each hand with arrange's default "
        "strategy, settle it and print it.",
    )
    deal.add_argument("--players", type=int, default=4, help="2, 3 or 4 (default 4)")
    deal.add_argument("--seed", type=int, help="shuffle seed (default: random, printed)")
    deal.add_argument("--rules", help=rules_help + " (default pagat)")
    deal.add_argument(
        "--format",
        choices=("table", "json", "input"),
        default="table",
        help="table (default), json (the output round) or input (the round as score reads it)",
    )
    deal.add_argument("--explain", action="store_true", help="add the unit-by-unit explanation")
    deal.set_defaults(handler=cmd_deal)

    check = commands.add_parser(
        "check",
        help="is a setting legal, and which natural do its cards hold",
        description="Check a setting: 13 cards front 3, middle 5, back 5 (or "
        "'front / middle / back'), or a round file (every player). "
        "Exit code 1 when a setting is a foul.",
    )
    check.add_argument(
        "cards", nargs="+", help="the cards (quoted or not), or a round file, or '-' for stdin"
    )
    check.add_argument("--rules", help=rules_help + " (default pagat)")
    check.set_defaults(handler=cmd_check)

    rules = commands.add_parser(
        "rules",
        help="list presets or print one preset's rules",
        description="Without PRESET: list the presets. With PRESET (or a rules "
        "file): print every knob as TOML (or JSON).",
    )
    rules.add_argument("preset", nargs="?", help="a preset name or a .toml/.json rules file")
    rules.add_argument("--format", choices=("toml", "json"), default="toml", help="toml (default) or json")
    rules.set_defaults(handler=cmd_rules)

    vectors = commands.add_parser(
        "vectors",
        help="write conformance vectors",
        description="Write conformance vectors: the edge cases (RULES.md E1-E4, "
        "ties, wheels, fouls, naturals, royalties, stakes, a home run), "
        "then COUNT random rounds, each with its expected output; the "
        "same rules, count and seed give the same file.",
    )
    vectors.add_argument("--rules", default="pagat", help=rules_help + " (default pagat)")
    vectors.add_argument(
        "--count", type=int, default=100, help="random rounds after the edge cases (default 100)"
    )
    vectors.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    vectors.add_argument("-o", "--output", help="output file (default: stdout)")
    vectors.add_argument(
        "--format",
        choices=("jsonl", "json"),
        default="jsonl",
        help="jsonl (default: one vector per line) or json (a list)",
    )
    vectors.add_argument("--no-edge-cases", action="store_true", help="random rounds only")
    vectors.add_argument(
        "--progress", choices=("auto", "always", "never"), default="auto", help=progress_help
    )
    vectors.set_defaults(handler=cmd_vectors)

    verify = commands.add_parser(
        "verify",
        help="compare another implementation's output with the expected",
        description="Compare ACTUAL (another implementation's output) with EXPECTED "
        "(a vectors file or score output), field by field; print every "
        "disagreement; exit code 1 if any.",
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
    verify.set_defaults(handler=cmd_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.handler(args))
    except (CliError, RoundError, OutputFileError) as error:
        sys.stderr.write(f"{PROG}: error: {_one_line(error)}\n")
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
