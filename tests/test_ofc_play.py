"""Duplicate open-face matches: seats rotated over the same deals, so the luck of the cards cancels."""

from __future__ import annotations

import pytest
from chinese_poker.ofc import Action, GameState, greedy, play
from chinese_poker.rules import Rules

PINEAPPLE = Rules.preset("ofc").replace(ofc_variant="pineapple", fantasyland="progressive")


def test_a_policy_against_itself_scores_zero_every_deal() -> None:
    match = play(PINEAPPLE, ["greedy", "greedy"], deals=4, seed=5)
    assert [r.scores for r in match.results] == [(0.0,) * 4, (0.0,) * 4]
    assert match.results[0].with_fantasyland == match.results[1].with_fantasyland


def test_two_player_duplicate_scores_are_opposite_and_reproducible() -> None:
    def back_first(state: GameState, player: int) -> Action:
        # Fill the back, then the middle, then the front; discard the last card.
        held = state.to_place[player]
        keep = len(held) - (1 if len(held) == 3 else 0)
        room = list(state.room(player))
        moves = []
        for card in held[:keep]:
            row = 2 if room[2] else (1 if room[1] else 0)
            room[row] -= 1
            moves.append((card, row))
        return Action(tuple(sorted(moves)), tuple(held[keep:]))

    first = play(PINEAPPLE, [greedy, back_first], deals=6, seed=3)
    again = play(PINEAPPLE, [greedy, back_first], deals=6, seed=3)
    assert first == again
    mine, theirs = first.results
    assert mine.name == "greedy"
    assert theirs.name == "back_first"
    assert [a + b for a, b in zip(mine.scores, theirs.scores)] == [0.0] * 6
    assert mine.units > 0
    assert theirs.fouls > mine.fouls


def test_the_advisor_plays_whole_hands() -> None:
    match = play(PINEAPPLE, ["advisor", "greedy"], deals=1, seed=1, samples=60)
    assert match.deals == 1
    assert match.results[0].units == -match.results[1].units


@pytest.mark.parametrize(
    ("policies", "deals", "message"),
    [
        (["greedy"], 1, "2 or 3 players"),
        (["greedy", "nosuch"], 1, "'nosuch' is not 'advisor', 'greedy' or a callable"),
        (["greedy", "greedy"], 0, "deals must be a positive int"),
    ],
)
def test_bad_matches_are_value_errors(policies: list[str], deals: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        play(PINEAPPLE, policies, deals)
