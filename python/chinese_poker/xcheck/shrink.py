"""Classes of disagreements and their minimal rounds.

Each disagreeing round is explained, where one knob can: the single-knob changes of the rules (from the
search space) under which the library gives the engine's answer. Rounds explained by the same knobs form
a class; rounds no knob explains are split by the pattern of their minimal round. ``shrink`` makes a
round smaller while the engine and the library still disagree on it: first fewer players (every subset
of two, then of three), then simpler rows (a card replaced by a lower free card or two cards of a
player swapped, keeping only changes that lower the rows' categories and ranks), each step one batch
of candidate rounds sent to the engine.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from chinese_poker.evaluation import category, evaluate_batch
from chinese_poker.rules import Rules
from chinese_poker.xcheck.cases import XRound
from chinese_poker.xcheck.engine import Answer
from chinese_poker.xcheck.fit import Observed, agrees, differences, neighbours
from chinese_poker.xcheck.oracle import Outcome, Pool, settle_one

__all__ = ["NO_KNOB", "DisagreementClass", "classify", "explaining_knobs", "round_pattern", "shrink"]

#: What a class no knob explains says.
NO_KNOB = "no knob explains this: likely a bug in the engine or a rule the library does not have"

Ask = Callable[[Sequence[XRound]], list[Answer]]


def _net(rnd: XRound, rules: Rules) -> tuple[int, ...] | None:
    return settle_one(rnd, rules)


def _outcome(rnd: XRound, rules: Rules, rich: bool) -> Outcome:
    return Pool([rnd]).outcomes(rules, rich)[0]


def explaining_knobs(
    rounds: Sequence[XRound], answers: Sequence[Answer], rules: Rules, observed: Observed | None = None
) -> list[list[str]]:
    """For each round, the ``knob=value`` changes of ``rules`` under which the library agrees. With
    ``observed`` (every round answered), only changes that break at most half as many agreeing rounds of
    it as they mend count: a change that mends one round by chance and breaks others explains nothing."""
    pool = Pool(rounds)
    rich = any(a.rich for a in answers)
    out: list[list[str]] = [[] for _ in rounds]
    bad = observed.score(rules) if observed is not None else 0
    for knob, value, cand in neighbours(rules):
        outcomes = pool.outcomes(cand, rich)
        fixed = [i for i, (outcome, answer) in enumerate(zip(outcomes, answers)) if agrees(outcome, answer)]
        if not fixed:
            continue
        if observed is not None:
            mended = bad - len(observed.disagreeing(cand))
            broken_ratio_ok = mended > 0 and (len(fixed) - mended) * 2 <= len(fixed)
            if not broken_ratio_ok:
                continue
        for index in fixed:
            out[index].append(f"{knob}={_text(value)}")
    return out


def _tied_rows(rnd: XRound) -> tuple[str, ...]:
    """The rows where every player holds the same category, above a high card (``back straight``)."""
    cats = _categories(rnd)
    out = []
    for position, row in enumerate(("front", "middle", "back")):
        held = {cats[3 * p + position] for p in range(rnd.players)}
        if len(held) == 1 and held not in ({"high_card"}, {"declared"}):
            out.append(f"{row} {held.pop()}")
    return tuple(out)


def _text(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    return str(value)


def _row_codes(rnd: XRound) -> list[tuple[int, ...]]:
    return [hand[low:high] for hand in rnd.hands for low, high in ((0, 3), (3, 8), (8, 13))]


def _categories(rnd: XRound) -> list[str]:
    """Each player's rows' categories, front, middle, back (declared players: 'declared')."""
    out: list[str] = []
    for hand, declared in zip(rnd.hands, rnd.declared):
        if declared:
            out += ["declared"] * 3
            continue
        for row in (hand[0:3], hand[3:8], hand[8:13]):
            out.append(category(_strength(row)).name.lower())
    return out


def _strength(row: tuple[int, ...]) -> int:
    # jokers=2: a joker of a --probe jokers round evaluates as the card it stands for.
    return int(evaluate_batch(np.array([row], dtype=np.uint8), jokers=2)[0])


def complexity(rnd: XRound) -> tuple[int, int, int]:
    """How complex a round is: players, then the sum of its rows' strengths' categories and ranks."""
    total_category = 0
    total_rank = 0
    for hand in rnd.hands:
        for row in (hand[0:3], hand[3:8], hand[8:13]):
            strength = _strength(row)
            total_category += int(category(strength))
        total_rank += sum(c // 4 for c in hand)
    return (rnd.players, total_category, total_rank)


def round_pattern(rnd: XRound) -> str:
    """The pattern of a round: each player's rows' categories (``P1 one_pair/flush/full_house; ...``)."""
    cats = _categories(rnd)
    return "; ".join(f"P{p + 1} " + "/".join(cats[3 * p : 3 * p + 3]) for p in range(rnd.players))


def _disagreeing(
    ask: Ask, candidates: Sequence[XRound], rules: Rules, explained_by: Rules | None = None
) -> list[tuple[XRound, Answer]]:
    """The candidates on which the engine disagrees with ``rules`` (and agrees with ``explained_by``)."""
    if not candidates:
        return []
    answers = ask(candidates)
    return [
        (r, a)
        for r, a in zip(candidates, answers)
        if not agrees(_outcome(r, rules, a.rich), a)
        and (explained_by is None or agrees(_outcome(r, explained_by, a.rich), a))
    ]


def _variants(rng: random.Random, rnd: XRound, count: int) -> list[XRound]:
    """Simpler candidates of ``rnd``: a card replaced by a lower free card, two cards of a player swapped."""
    used = {c for hand in rnd.hands for c in hand}
    free = [c for c in range(52) if c not in used]
    out: list[XRound] = []
    base = complexity(rnd)
    for _ in range(count * 6):
        hands = [list(h) for h in rnd.hands]
        p = rng.randrange(rnd.players)
        if rnd.declared[p]:
            continue
        k = rng.randrange(13)
        if rng.random() < 0.6 and free:
            lower = [c for c in free if c // 4 <= hands[p][k] // 4]
            if not lower:
                continue
            hands[p][k] = rng.choice(lower)
        else:
            m = rng.randrange(13)
            hands[p][k], hands[p][m] = hands[p][m], hands[p][k]
        cand = replace(rnd, rid=f"{rnd.rid}~{len(out)}", hands=tuple(tuple(h) for h in hands))
        if complexity(cand) < base and all(cand.hands != o.hands for o in out):
            out.append(cand)
        if len(out) == count:
            break
    return out


def shrink(
    ask: Ask,
    rnd: XRound,
    answer: Answer,
    rules: Rules,
    *,
    steps: int = 8,
    batch: int = 16,
    seed: int = 0,
    explained_by: Rules | None = None,
) -> tuple[XRound, Answer]:
    """A minimal round that still disagrees, found from ``rnd`` (whose answer was ``answer``): the fewest
    players, then the simplest rows. With ``explained_by`` (the rules with the knob that explains the
    round's class changed), every smaller round kept is one the knob still explains: the minimal round
    shows the knob, not some other disagreement met on the way."""
    rng = random.Random(f"xcheck-shrink-{seed}-{rnd.rid}")
    best, best_answer = rnd, answer
    for size in (2, 3):
        if best.players <= size:
            break
        made = (
            best.seats(seats, f"{rnd.rid}-seats{''.join(str(s + 1) for s in seats)}")
            for seats in itertools.combinations(range(best.players), size)
        )
        subsets = [subset for subset in made if subset is not None]
        found = _disagreeing(ask, subsets, rules, explained_by)
        if found:
            best, best_answer = min(found, key=lambda item: complexity(item[0]))
            break
    for step in range(steps):
        candidates = [v.with_id(f"{rnd.rid}-s{step}-{k}") for k, v in enumerate(_variants(rng, best, batch))]
        found = _disagreeing(ask, candidates, rules, explained_by)
        if not found:
            continue
        best, best_answer = min(found, key=lambda item: complexity(item[0]))
    return best, best_answer


@dataclass
class DisagreementClass:
    """Disagreements explained alike: ``knobs`` (the single-knob changes that explain them; empty: none
    does), how many rounds, the first rounds' ids, and the minimal round with both answers and the fields
    they differ in (``differs``: ``net``, ``foul``, ``natural``, ``units``, ``rows``)."""

    knobs: list[str]
    count: int
    round_ids: list[str]
    minimal: XRound
    engine_answer: Answer
    library_net: tuple[int, ...] | None
    pattern: str
    explanation: str = field(default="")
    differs: list[str] = field(default_factory=list)


def classify(
    ask: Ask, observed: Observed, rules: Rules, *, max_classes: int = 8, seed: int = 0, shrink_steps: int = 8
) -> list[DisagreementClass]:
    """The classes of the disagreements of ``observed`` under ``rules``, each with its minimal round."""
    bad = observed.disagreeing(rules)
    rounds = [observed.pool.rounds[i] for i in bad]
    answers = [observed.answers[i] for i in bad]
    explained = explaining_knobs(rounds, answers, rules, observed)
    groups: dict[tuple[str, ...], list[int]] = {}
    for index, found in enumerate(explained):
        groups.setdefault(tuple(found), []).append(index)
    changed = {f"{knob}={_text(value)}": cand for knob, value, cand in neighbours(rules)}
    classes: list[DisagreementClass] = []
    order = sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
    for knobs, members in order[:max_classes]:
        tries = sorted(members[:4] if not knobs else members[:1], key=lambda i: complexity(rounds[i]))
        explained_by = changed.get(knobs[0]) if knobs else None
        seen: dict[str, DisagreementClass] = {}
        for rank, member in enumerate(tries):
            small, small_answer = shrink(
                ask,
                rounds[member],
                answers[member],
                rules,
                seed=seed,
                steps=shrink_steps,
                explained_by=explained_by,
            )
            pattern = round_pattern(small)
            same = next(
                (item for item in seen.values() if _tied_rows(item.minimal) == _tied_rows(small)), None
            )
            if same is not None:
                same.count += 1
                continue
            if pattern in seen:
                seen[pattern].count += 1
                continue
            if seen and small.players > min(item.minimal.players for item in seen.values()):
                continue  # a member that would not shrink as far as the others: not a class of its own
            knob_list = explaining_knobs([small], [small_answer], rules, observed)[0] if knobs else []
            seen[pattern] = DisagreementClass(
                knobs=knob_list or list(knobs),
                count=1 + (len(members) - len(tries) if rank == 0 else 0),
                round_ids=[rounds[i].rid for i in members[:10]],
                minimal=small,
                engine_answer=small_answer,
                library_net=_net(small, rules),
                differs=differences(_outcome(small, rules, small_answer.rich), small_answer),
                pattern=pattern,
                explanation=("the knob(s) " + ", ".join(knob_list or knobs) + " would explain it")
                if knobs
                else NO_KNOB,
            )
        classes.extend(seen.values())
    return classes


def __dir__() -> list[str]:
    return list(__all__)
