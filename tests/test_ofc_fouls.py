"""Open-face advice never makes a foul certain while another placement of the street keeps a legal board
possible, at every street of whole hands, judged with the pure-Python reference's evaluator."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from chinese_poker.ofc import Action, GameState, advise, greedy, new_game
from chinese_poker.reference.evaluate import (
    FOUR_OF_A_KIND,
    HIGH_CARD,
    ONE_PAIR,
    THREE_OF_A_KIND,
    TWO_PAIR,
    encode,
    evaluate,
    rank_value,
)
from chinese_poker.reference.settle import is_foul, resolve_rules
from chinese_poker.rules import Rules

PINEAPPLE = Rules.preset("ofc").replace(ofc_variant="pineapple", fantasyland="progressive")
WIDTHS = (3, 5, 5)
HANDS = 30

Rows = list[list[int]]


def _placed(state: GameState, move: Action) -> Rows:
    rows = [list(r) for r in state.boards[0]]
    for card, row in move.placements:
        rows[row].append(card)
    return rows


def _floor(cards: Sequence[int]) -> int:
    """A strength no completion of a partial row falls below: its rank groups, no kickers yet (adding
    cards keeps every group and only raises the sorted ranks, in the reference's encoding)."""
    groups = sorted(((n, r) for r, n in Counter(rank_value(c) for c in cards).items()), reverse=True)
    sizes = [n for n, _ in groups]
    ranks = [r for _, r in groups]
    if sizes[:1] == [4]:
        return encode(FOUR_OF_A_KIND, ranks)
    if sizes[:1] == [3]:
        return encode(THREE_OF_A_KIND, ranks)
    if sizes[:2] == [2, 2]:
        return encode(TWO_PAIR, ranks)
    return encode(ONE_PAIR if sizes[:1] == [2] else HIGH_CARD, ranks)


def _ceiling(cards: Sequence[int], width: int, unseen: Sequence[int], wheel: str) -> int:
    """The strongest completion of a row from the unseen cards (enumerated: at most two cards to add)."""
    return max(evaluate(list(cards) + list(more), wheel) for more in combinations(unseen, width - len(cards)))


def certainly_fouls(rows: Rows, unseen: Sequence[int], ref: Mapping[str, Any]) -> bool:
    """A sure foul, proved: a full board that fouls, or adjacent rows whose order no completion can
    mend (a full lower row below the upper row's floor, or a full upper row above the lower row's
    strongest completion when that adds at most two cards)."""
    if all(len(r) == w for r, w in zip(rows, WIDTHS)):
        return is_foul(rows[0], rows[1], rows[2], ref)
    wheel = ref["wheel"]
    for upper, lower in ((0, 1), (1, 2)):
        up, low = rows[upper], rows[lower]
        if not up or not low:
            continue
        if len(low) == WIDTHS[lower] and _floor(up) > evaluate(low, wheel):
            return True
        short = WIDTHS[lower] - len(low)
        full = len(up) == WIDTHS[upper]
        if full and short <= 2 and evaluate(up, wheel) > _ceiling(low, WIDTHS[lower], unseen, wheel):
            return True
    return False


def can_stay_legal(rows: Rows, unseen: Sequence[int], ref: Mapping[str, Any], rng: random.Random) -> bool:
    """A legal completion found, proved by example: the board itself when full, else one of 400 random
    fillings of the free places from the unseen cards."""
    free = [w - len(r) for r, w in zip(rows, WIDTHS)]
    for _ in range(400 if sum(free) else 1):
        cards = rng.sample(list(unseen), sum(free))
        filled = [r + cards[sum(free[:k]) : sum(free[: k + 1])] for k, r in enumerate(rows)]
        if not is_foul(filled[0], filled[1], filled[2], ref):
            return True
    return False


def test_the_advice_never_makes_a_foul_certain_while_a_legal_board_is_possible() -> None:
    ref = resolve_rules(PINEAPPLE.to_dict())
    rng = random.Random(12)
    decisions = sure_fouls_offered = last_streets = 0
    for hand in range(HANDS):
        game = new_game(PINEAPPLE, players=2, seed=rng.randrange(10**6))
        while not game.over:
            for seat in (0, 1):
                if not game.to_place[seat]:
                    continue
                if seat == 1:
                    game = game.apply(1, greedy(game, 1))
                    continue
                options = advise(game, samples=200, seed=hand, player=0)
                unseen = game.unseen_by(0)
                boards = [_placed(game, o.action) for o in options]
                sure = [certainly_fouls(b, unseen, ref) for b in boards]
                decisions += 1
                last_streets += int(sum(map(len, boards[0])) == 13)
                if any(sure) and not all(sure):
                    sure_fouls_offered += 1
                    # The two proofs agree: a sure foul is never seen to stay legal.
                    assert not can_stay_legal(boards[sure.index(True)], unseen, ref, rng)
                if sure[0]:
                    # The best option fouls for sure: then no other may be seen to stay legal.
                    others = [b for b, s in zip(boards, sure) if not s]
                    assert not any(can_stay_legal(b, unseen, ref, rng) for b in others), (hand, game.street)
                game = game.apply(0, options[0].action)
    assert decisions == HANDS * 5
    assert last_streets == HANDS
    # The check has teeth: many decisions offered a sure foul beside placements that were not.
    assert sure_fouls_offered >= 25
