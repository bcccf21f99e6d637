"""Duplicate open-face matches: seats rotated over the same deals, so the luck of the cards cancels."""

from __future__ import annotations

import pytest
from chinese_poker.ofc import Action, GameState, advisor, greedy, new_game, play
from chinese_poker.reference.settle import fantasyland_cards, is_foul, resolve_rules
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
    for result in first.results:
        assert len(result.fl_scores) == 6
        assert sum(result.fl_scores) / 6 == pytest.approx(result.with_fantasyland, abs=1e-12)
        # Earned fantasyland hands only add their value.
        assert all(f >= s for f, s in zip(result.fl_scores, result.scores))


def test_the_advisor_plays_whole_hands() -> None:
    match = play(PINEAPPLE, ["advisor", "greedy"], deals=1, seed=1, samples=60)
    assert match.deals == 1
    assert match.results[0].units == -match.results[1].units


def _replayed_counts(seed: int, deals: int) -> list[tuple[int, ...]]:
    """Each deal's fantasyland hands when greedy plays both seats, carried by the reference's rule."""
    ref = resolve_rules(PINEAPPLE.to_dict())
    counts, out = [0, 0], []
    for nonce in range(deals):
        out.append(tuple(counts))
        game = new_game(PINEAPPLE, 2, seed, nonce=nonce, fantasyland_cards=counts)
        while not game.over:
            seat = next(s for s in range(2) if game.to_place[s])
            game = game.apply(seat, greedy(game, seat))
        counts = [
            0 if is_foul(*board, ref) else fantasyland_cards(*board, ref, counts[p] > 0)
            for p, board in enumerate(game.boards)
        ]
    return out


def test_fantasyland_is_carried_into_the_next_deal_and_kept_while_it_stays() -> None:
    # Seed 53: seat 1's kings in front on deal 1 give 15 cards on deal 2, whose setting stays (14 on 3).
    expected = [(0, 0), (0, 0), (0, 15), (0, 14)]
    assert _replayed_counts(53, 4) == expected
    seen: dict[tuple[int, int], tuple[int, ...]] = {}

    def watcher(state: GameState, player: int) -> Action:
        seen[(player, state.nonce)] = state.fantasyland_cards
        if state.fantasyland_cards[player]:
            assert len(state.to_place[player]) == state.fantasyland_cards[player]
            # Set at the end: the other board is full before the fantasyland hand is set.
            assert sum(len(row) for row in state.boards[1 - player]) == 13
        return greedy(state, player)

    match = play(PINEAPPLE, [watcher, greedy], deals=4, seed=53, carry_fantasyland=True)
    # The watcher sits in seat 0, then in seat 1 (the rotation): both seats' cards of the same deals.
    assert [seen[(0, n)] for n in range(4)] == expected
    assert [seen[(1, n)] for n in range(4)] == expected
    assert [r.fantasyland_hands for r in match.results] == [2, 2]
    assert [r.scores for r in match.results] == [(0.0,) * 4, (0.0,) * 4]
    plain = play(PINEAPPLE, [greedy, greedy], deals=4, seed=53)
    assert [r.fantasyland_hands for r in plain.results] == [0, 0]


def test_the_advisor_plays_against_a_fantasyland_hand_carried_in() -> None:
    # Seed 18: greedy in seat 1 earns 15 cards on deal 0; the advisor in seat 0 then acts on deal 1
    # against a fantasyland hand it cannot see (an empty board until the end).
    advise_seat = advisor(samples=40, seed=0)
    faced: list[int] = []

    def adviser(state: GameState, player: int) -> Action:
        other = 1 - player
        if state.fantasyland_cards[other] and not any(state.boards[other]):
            faced.append(state.nonce)
        return advise_seat(state, player)

    match = play(PINEAPPLE, [adviser, greedy], deals=2, seed=18, carry_fantasyland=True)
    assert set(faced) == {1}
    assert match.results[1].fantasyland_hands >= 1
    assert [a + b for a, b in zip(match.results[0].scores, match.results[1].scores)] == [0.0, 0.0]


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
