"""One cross-check run: send the rounds, fit the rules (or check given ones), classify and shrink what
still disagrees, and build the report (``run_xcheck``); ``report_text`` is its readable summary.

The report (``--json REPORT``) holds: the engine command, seed and budget, the rounds sent, the rules
(``rules``: ``Rules.to_dict()``, and ``rules_toml``: the rules file ``chinese-poker rules`` reads), how many
rounds they explain, the knobs no round decided, every class of disagreements with its minimal round,
both answers there and the library's full output of it, any protocol error and the engine's stderr.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from chinese_poker.formats.rounds import parse_round, round_output, settle_round
from chinese_poker.rules import Rules
from chinese_poker.xcheck.cases import XRound, random_rounds, targeted_rounds
from chinese_poker.xcheck.engine import Answer, EngineError
from chinese_poker.xcheck.fit import FIT_PRESETS, FitResult, Observed, fit
from chinese_poker.xcheck.probes import probe_rounds
from chinese_poker.xcheck.shrink import DisagreementClass, classify

__all__ = ["Budget", "closest_preset", "report_text", "rules_file", "run_xcheck"]

AskRaw = Callable[[Sequence[dict[str, Any]]], list[Answer]]


@dataclass
class Budget:
    """Sends rounds to the engine in chunks (reporting progress), never more than ``limit`` in all."""

    ask_raw: AskRaw
    limit: int
    chunk: int = 256
    sent: int = 0
    progress: Callable[[int], None] = field(default=lambda _: None)

    @property
    def left(self) -> int:
        return max(0, self.limit - self.sent)

    def ask(self, rounds: Sequence[XRound]) -> list[Answer]:
        """The answers to ``rounds`` (cut to what is left of the budget)."""
        rounds = list(rounds)[: self.left]
        answers: list[Answer] = []
        for start in range(0, len(rounds), self.chunk):
            part = rounds[start : start + self.chunk]
            answers += self.ask_raw([r.to_json() for r in part])
            self.sent += len(part)
            self.progress(self.sent)
        return answers


def closest_preset(rules: Rules) -> tuple[str, dict[str, Any]]:
    """The preset from which ``rules`` change fewest knobs, and those knobs with their values (as
    ``Rules.to_dict`` writes them)."""
    mine = rules.to_dict()
    mine.pop("preset", None)
    best: tuple[int, int, str, dict[str, Any]] | None = None
    for index, name in enumerate(FIT_PRESETS):
        theirs = Rules.preset(name).to_dict()
        changed = {k: v for k, v in mine.items() if theirs.get(k) != v}
        if best is None or (len(changed), index) < best[:2]:
            best = (len(changed), index, name, changed)
    assert best is not None
    return best[2], best[3]


def rules_file(rules: Rules, note: str) -> str:
    """``rules`` as a TOML rules file (``Rules.from_toml`` and ``chinese-poker rules`` read it): the
    closest preset and the knobs changed from it, after a comment ``note``."""
    base, changed = closest_preset(rules)
    lines = [f"# {note}", f'preset = "{base}"']
    for line in rules.to_toml().splitlines():
        key = line.split(" = ", 1)[0]
        if key in changed:
            lines.append(line)
    text = "\n".join(lines) + "\n"
    if Rules.from_toml(text) != rules:  # a form the short file cannot spell: every knob then
        text = f"# {note}\n" + rules.to_toml()
    return text


def _answer_json(answer: Answer) -> dict[str, Any]:
    out: dict[str, Any] = {"net": None if answer.net is None else list(answer.net)}
    if answer.error is not None:
        out["error"] = answer.error
    if answer.foul is not None:
        out["foul"] = list(answer.foul)
    if answer.natural is not None:
        out["natural"] = list(answer.natural)
    if answer.pair_units is not None:
        out["pair_units"] = list(answer.pair_units)
    if answer.pair_rows is not None:
        out["pair_rows"] = [None if rows is None else list(rows) for rows in answer.pair_rows]
    return out


def _library_output(rnd: XRound, rules: Rules) -> dict[str, Any] | str:
    data = rnd.to_json()
    data["rules"] = rules.to_dict()
    try:
        parsed = parse_round(data)
        return round_output(parsed, settle_round(parsed))
    except ValueError as error:
        return f"the library refuses this round: {error}"


def _class_json(item: DisagreementClass, rules: Rules) -> dict[str, Any]:
    return {
        "knobs": item.knobs,
        "explanation": item.explanation,
        "count": item.count,
        "round_ids": item.round_ids,
        "pattern": item.pattern,
        "differs": item.differs,
        "players": item.minimal.players,
        "minimal_round": item.minimal.to_json(),
        "engine_answer": _answer_json(item.engine_answer),
        "library_net": None if item.library_net is None else list(item.library_net),
        "library_output": _library_output(item.minimal, rules),
    }


def run_xcheck(
    ask_raw: AskRaw,
    *,
    rules: Rules | None,
    seed: int,
    budget: int,
    log: Callable[[str], None] = lambda _: None,
    progress: Callable[[int], None] = lambda _: None,
    max_classes: int = 8,
    probes: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """Run a cross-check and return the report; ``rules=None`` fits them (``--fit``); ``probes``: the
    per-round inputs (stakes, surrender, banker) sent too."""
    meter = Budget(ask_raw, budget, progress=progress)
    report: dict[str, Any] = {
        "seed": seed, "budget": budget, "fit": rules is None, "probes": sorted(probes), "error": None,
    }  # fmt: skip
    observed = Observed()
    fitted: FitResult | None = None
    current = rules if rules is not None else Rules()
    classes: list[DisagreementClass] = []
    try:
        # The fit keeps the last fifth of the budget for shrinking; a check sends four fifths up front.
        first = budget // 2 if rules is None else budget * 4 // 5
        targeted = [*targeted_rounds(seed), *probe_rounds(seed, probes)][:first]
        initial = [*targeted, *random_rounds(seed, max(0, first - len(targeted)))]
        observed.add(initial, meter.ask(initial))
        log(f"sent {meter.sent} rounds ({len(targeted)} targeted)")
        if rules is None:
            left = max(0, budget * 4 // 5 - meter.sent)
            fitted = fit(meter.ask, observed, seed=seed, budget=left, probes=probes, log=log)
            current = fitted.rules
        classes = classify(meter.ask, observed, current, max_classes=max_classes, seed=seed)
    except EngineError as error:
        report["error"] = str(error)
    bad = observed.disagreeing(current)
    explained = len(observed.pool) - len(bad)
    base, changed = closest_preset(current)
    note = (
        f"rules that explain {explained} of {len(observed.pool)} rounds (chinese-poker xcheck, seed {seed})"
    )
    report.update({
        "rounds_sent": meter.sent,
        "rules": current.to_dict(),
        "rules_file": rules_file(current, note),
        "closest_preset": base,
        "changed_knobs": changed,
        "start_preset": fitted.preset if fitted is not None else None,
        "rounds": len(observed.pool),
        "explained": explained,
        "disagreements": len(bad),
        "undecided_knobs": fitted.undecided if fitted is not None else [],
        "classes": [_class_json(item, current) for item in classes],
    })  # fmt: skip
    return report


def report_text(report: dict[str, Any]) -> str:
    """The readable summary of a report."""
    lines: list[str] = []
    if report.get("error"):
        lines.append(f"engine error: {report['error']}")
    if report["fit"]:
        lines.append(
            f"fitted rules (search started from the preset {report['start_preset']}) explain "
            f"{report['explained']} of {report['rounds']} rounds:"
        )
        lines += ["  " + line for line in report["rules_file"].splitlines() if line.strip()]
        if report["undecided_knobs"]:
            lines.append("knobs no round decided: " + ", ".join(report["undecided_knobs"]))
    else:
        lines.append(f"the rules explain {report['explained']} of {report['rounds']} rounds")
    lines.append(f"{report['rounds_sent']} rounds sent; {report['disagreements']} disagree")
    for number, item in enumerate(report["classes"], 1):
        lines.append(f"class {number}: {item['count']} round(s); {item['explanation']}")
        lines.append(f"  minimal round ({item['players']} players): {item['pattern']}")
        for player in item["minimal_round"]["players"]:
            rows = player.get("cards") or " | ".join(player[r] for r in ("front", "middle", "back"))
            lines.append(f"    {player['name']}: {rows}")
        differs = ", ".join(item["differs"]) or "net"
        nets = f"engine net {item['engine_answer']['net']}, library net {item['library_net']}"
        lines.append(f"  {nets} (they differ in: {differs})")
    return "\n".join(lines) + "\n"


def __dir__() -> list[str]:
    return list(__all__)
