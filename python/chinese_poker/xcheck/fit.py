"""Fitting the rules an engine plays: the nearest preset, then a coordinate search over the knobs, with
probes spent where the candidate rule sets still differ.

``Observed`` is the rounds sent so far with the engine's answers. ``nearest_preset`` is the preset with
fewest disagreements; ``coordinate_search`` changes one knob at a time (then two at once, tried on the
rounds still disagreeing) while that lowers the disagreements; ``fit`` alternates it with probes: among
fresh rounds, those on which the best rules and their equally good neighbours (one knob away) answer
differently are sent, so the engine itself decides between them, until ``budget`` rounds are spent or no
fresh round tells the candidates apart.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from chinese_poker.presets import PRESET_NAMES
from chinese_poker.rules import Rules
from chinese_poker.xcheck.cases import XRound, random_rounds, targeted_rounds
from chinese_poker.xcheck.engine import Answer
from chinese_poker.xcheck.oracle import Facts, Outcome, Pool, rules_key, search_space
from chinese_poker.xcheck.probes import probe_rounds

__all__ = [
    "FitResult",
    "Observed",
    "agrees",
    "coordinate_search",
    "differences",
    "fit",
    "nearest_preset",
    "neighbours",
]


#: Presets a fit starts from: those the tool's rounds can play (no added suits, jokers, fantasyland or
#: table-wide Chi A).
def _playable(rules: Rules) -> bool:
    return not (
        rules.extra_suits or rules.jokers or rules.fantasyland != "off" or rules.ace_basis != "pairwise"
    )


FIT_PRESETS = tuple(name for name in PRESET_NAMES if _playable(Rules.preset(name)))


def differences(outcome: Outcome, answer: Answer) -> list[str]:
    """The fields on which the engine's answer differs from the library's ``outcome`` (its net, or its
    ``Facts`` when the engine answers more; ``None``: the library refuses the round): ``net``, then
    ``foul``, ``natural``, ``units``, ``rows`` where the answer has them."""
    net = outcome.net if isinstance(outcome, Facts) else outcome
    out = [] if net == answer.net else ["net"]
    if isinstance(outcome, Facts) and answer.net is not None:
        given = (
            ("foul", answer.foul, outcome.foul),
            ("natural", answer.natural, outcome.natural),
            ("units", answer.pair_units, outcome.units),
            ("rows", answer.pair_rows, outcome.rows),
        )
        out += [name for name, theirs, ours in given if theirs is not None and theirs != ours]
    return out


def agrees(outcome: Outcome, answer: Answer) -> bool:
    """Whether the library's ``outcome`` matches the engine's answer in every field the answer has."""
    if not isinstance(outcome, Facts):
        return outcome == answer.net
    return not differences(outcome, answer)


@dataclass
class Observed:
    """The rounds sent so far and the engine's answers, in order; ``rich`` once an answer has more than
    the net (then rounds are compared on every field the answers give)."""

    pool: Pool = field(default_factory=Pool)
    answers: list[Answer] = field(default_factory=list)
    rich: bool = False

    def add(self, rounds: Sequence[XRound], answers: Sequence[Answer]) -> None:
        self.pool.extend(rounds)
        self.answers.extend(answers)
        self.rich = self.rich or any(a.rich for a in answers)

    def disagreeing(self, rules: Rules) -> list[int]:
        """The indices of the rounds on which ``rules`` disagree with the engine."""
        outcomes = self.pool.outcomes(rules, self.rich)
        return [i for i, (o, a) in enumerate(zip(outcomes, self.answers)) if not agrees(o, a)]

    def score(self, rules: Rules) -> int:
        return len(self.disagreeing(rules))


def nearest_preset(observed: Observed) -> tuple[str, int]:
    """The preset with fewest disagreements (the first listed on a tie) and that count."""
    scores = [(observed.score(Rules.preset(name)), index, name) for index, name in enumerate(FIT_PRESETS)]
    best = min(scores)
    return best[2], best[0]


_NEIGHBOURS: dict[str, list[tuple[str, Any, Rules]]] = {}


def neighbours(rules: Rules) -> list[tuple[str, Any, Rules]]:
    """Every rule set one knob away from ``rules`` in the search space: ``(knob, value, rules)``."""
    key = rules_key(rules)
    if key not in _NEIGHBOURS:
        if len(_NEIGHBOURS) > 256:
            _NEIGHBOURS.clear()
        _NEIGHBOURS[key] = _neighbours(rules)
    return _NEIGHBOURS[key]


def _neighbours(rules: Rules) -> list[tuple[str, Any, Rules]]:
    out: list[tuple[str, Any, Rules]] = []
    for knob, values in search_space():
        current = getattr(rules, knob)
        for value in values:
            if value == current:
                continue
            try:
                out.append((knob, value, rules.replace(**{knob: value})))
            except ValueError:
                continue  # a combination the rules refuse (e.g. a natural knob without naturals)
    return out


def _subpool(observed: Observed, indices: Sequence[int]) -> Observed:
    sub = Observed()
    sub.add([observed.pool.rounds[i] for i in indices], [observed.answers[i] for i in indices])
    return sub


def _pair_moves(observed: Observed, rules: Rules, score: int) -> tuple[Rules, int] | None:
    """The best change of two knobs at once, tried first on the rounds still disagreeing (at most 64)."""
    bad = observed.disagreeing(rules)[:64]
    sub = _subpool(observed, bad)
    singles = neighbours(rules)
    mends = sorted(
        ((len(bad) - sub.score(cand), index) for index, (_, _, cand) in enumerate(singles)), reverse=True
    )
    helpful = [singles[index] for mended, index in mends[:16] if mended > 0]
    # Two helpful knobs together, and the four most helpful with any other knob.
    pairs = [(a, b) for n, a in enumerate(helpful) for b in helpful[n + 1 :]]
    pairs += [(a, b) for a in helpful[:4] for b in singles if b not in helpful]
    tried: set[str] = set()
    ranked: list[tuple[int, str, Rules]] = []
    for (knob_a, value_a, _), (knob_b, value_b, _) in pairs:
        if knob_b == knob_a:
            continue
        try:
            cand = rules.replace(**{knob_a: value_a, knob_b: value_b})
        except ValueError:
            continue
        key = rules_key(cand)
        if key in tried:
            continue
        tried.add(key)
        ranked.append((sub.score(cand), key, cand))
    ranked.sort(key=lambda item: (item[0], item[1]))
    best: tuple[Rules, int] | None = None
    for _, _, cand in ranked[:8]:
        full = observed.score(cand)
        if full < score and (best is None or full < best[1]):
            best = (cand, full)
    return best


def coordinate_search(observed: Observed, start: Rules, *, steps: int = 40) -> tuple[Rules, int]:
    """Rules at least as good as ``start`` (fewer disagreements), one or two knobs changed per step."""
    current, score = start, observed.score(start)
    for _ in range(steps):
        if score == 0:
            break
        best = min(
            ((observed.score(cand), index, cand) for index, (_, _, cand) in enumerate(neighbours(current))),
            default=None,
            key=lambda item: (item[0], item[1]),
        )
        if best is not None and best[0] < score:
            current, score = best[2], best[0]
            continue
        paired = _pair_moves(observed, current, score)
        if paired is None:
            break
        current, score = paired
    return current, score


@dataclass
class FitResult:
    """What a fit found: the rules, the preset it started from, the rounds they explain of those sent,
    and the knobs the probes could not decide (neighbours no fresh round told apart)."""

    rules: Rules
    preset: str
    explained: int
    rounds: int
    undecided: list[str]


def _discriminating(
    rules: Rules, ties: Sequence[Rules], fresh: Pool, used: set[int], limit: int, *, rich: bool = False
) -> list[int]:
    """Up to ``limit`` unused fresh rounds on which some tie answers differently from ``rules`` (in any
    field the engine answers, when ``rich``), taken from the ties in turn so that every tie gets rounds."""
    base = fresh.outcomes(rules, rich)
    lists = [
        [i for i, (a, b) in enumerate(zip(base, fresh.outcomes(tie, rich))) if a != b and i not in used]
        for tie in ties
    ]
    chosen: dict[int, None] = {}
    depth = 0
    while len(chosen) < limit and any(depth < len(found) for found in lists):
        for found in lists:
            if depth < len(found) and len(chosen) < limit:
                chosen.setdefault(found[depth])
        depth += 1
    return list(chosen)


def fit(
    ask: Callable[[Sequence[XRound]], list[Answer]],
    observed: Observed,
    *,
    seed: int,
    budget: int,
    probe_batch: int = 64,
    probes: frozenset[str] = frozenset(),
    log: Callable[[str], None] = lambda _: None,
) -> FitResult:
    """Fit the engine's rules from ``observed`` (already answered), spending at most ``budget`` more
    rounds on probes through ``ask``; ``probes``: the per-round inputs the fresh rounds may have too
    (``chinese_poker.xcheck.probes``)."""
    preset, preset_score = nearest_preset(observed)
    log(f"nearest preset: {preset} ({preset_score} of {len(observed.pool)} rounds disagree)")
    rules, score = coordinate_search(observed, Rules.preset(preset))
    spent, undecided, verified = 0, [], False
    fresh = Pool(
        [
            *(r.with_id(f"p-{r.rid}") for r in targeted_rounds(seed + 7919)),
            *(r.with_id(f"p-{r.rid}") for r in random_rounds(seed + 7919, 800)),
            *(r.with_id(f"p-{r.rid}") for r in probe_rounds(seed + 7919, probes)),
        ]
    )
    used: set[int] = set()
    while spent < budget:
        ties = [cand for _, _, cand in neighbours(rules) if observed.score(cand) == score]
        limit = min(probe_batch, budget - spent)
        chosen = _discriminating(rules, ties, fresh, used, limit, rich=observed.rich) if ties else []
        checking = not chosen
        if checking:
            undecided = [k for k, _, cand in neighbours(rules) if observed.score(cand) == score]
            if verified:
                break
            # Nothing tells the neighbours apart: fresh rounds check the rules as a whole.
            verified = True
            unused = [i for i in range(len(fresh)) if i not in used]
            chosen = unused[: min(max(probe_batch, budget // 3), budget - spent)]
            if not chosen:
                break
        used.update(chosen)
        asked = [fresh.rounds[i] for i in chosen]
        observed.add(asked, ask(asked))
        spent += len(asked)
        revealed = observed.score(rules) - score
        rules, score = coordinate_search(observed, rules)
        if checking and revealed > 0:
            verified = False  # the fresh rounds moved the rules: check the new ones too
        log(f"probes: {spent} rounds sent, {score} of {len(observed.pool)} disagree")
    return FitResult(rules, preset, len(observed.pool) - score, len(observed.pool), sorted(set(undecided)))


def __dir__() -> list[str]:
    return list(__all__)
