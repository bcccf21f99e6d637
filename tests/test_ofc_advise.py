"""Open-face advice: exact on the last street against a brute force, sampled before it, bad input named."""

from __future__ import annotations

import math
import random
from itertools import combinations

import chinese_poker._core as _core
import numpy as np
import pytest
from chinese_poker import settle
from chinese_poker.ofc import (
    FANTASYLAND_POOL,
    Action,
    GameState,
    action,
    advise,
    fantasyland,
    fantasyland_value,
    greedy,
    new_game,
    position,
)
from chinese_poker.reference.settle import fantasyland_cards, is_foul, resolve_rules, royalties
from chinese_poker.rules import Rules

OPP = ("", "", "2d 3d 4d 5d 6d")
PINEAPPLE = Rules.preset("ofc").replace(ofc_variant="pineapple", fantasyland="progressive")
JOKER = PINEAPPLE.replace(jokers=1)


def _to_last_street(seed: int, rules: Rules = PINEAPPLE, both: bool = False) -> GameState:
    """A game played by the greedy baseline up to seat 0's last street (seat 1 acted too when ``both``)."""
    game = new_game(rules, players=2, seed=seed)
    last = 4 if rules.ofc_variant == "pineapple" else 8
    while game.street < last:
        for seat in range(game.players):
            if game.to_place[seat]:
                game = game.apply(seat, greedy(game, seat))
    if both:
        game = game.apply(1, greedy(game, 1))
    return game


def _full_board_score(rows: tuple[list[int], ...], ref: dict[str, object], fl: list[float]) -> float:
    """The greedy score of a full board (docs/OFC.md), from the pure-Python reference."""
    if is_foul(rows[0], rows[1], rows[2], ref):
        return -100.0
    score = float(sum(royalties(rows[0], rows[1], rows[2], ref)))
    cards = fantasyland_cards(rows[0], rows[1], rows[2], ref, False)
    return score + (fl[cards] if cards else 0.0)


def _greedy_last(
    board: tuple[tuple[int, ...], ...], cards: tuple[int, ...], ref: dict[str, object], fl: list[float]
):
    """The greedy baseline's last-street completion, in its enumeration order (first best wins)."""
    best, best_rows = -1e300, None
    for thrown in range(len(cards)):
        kept = [c for k, c in enumerate(cards) if k != thrown]
        for code in range(9):
            rows = [list(r) for r in board]
            for k, card in enumerate(kept):
                rows[(code // 3**k) % 3].append(card)
            if [len(r) for r in rows] != [3, 5, 5]:
                continue
            score = _full_board_score(tuple(rows), ref, fl)
            if score > best:
                best, best_rows = score, rows
    assert best_rows is not None
    return best_rows


def _brute_force(game: GameState, move: object) -> float:
    """Seat 0's mean units over every 3 cards seat 1 can still get, seat 1 completing greedily."""
    ref = resolve_rules(game.rules.to_dict())
    fl = [fantasyland_value(game.rules, k) if k >= 14 else 0.0 for k in range(18)]
    own = [list(r) for r in game.boards[0]]
    for card, row in move.placements:  # type: ignore[attr-defined]
        own[row].append(card)
    unseen = game.unseen_by(0)
    deals = list(combinations(unseen, 3)) if game.to_place[1] else [()]
    total = 0.0
    for cards in deals:
        theirs = _greedy_last(game.boards[1], cards, ref, fl) if cards else [list(r) for r in game.boards[1]]
        result = settle([tuple(own), tuple(theirs)], game.rules)
        earned = result.players[0].fantasyland_cards
        total += result.players[0].net + (fl[earned] if earned else 0.0)
    return total / len(deals)


@pytest.mark.parametrize(("seed", "joker"), [(3, False), (11, False), (15, True), (4, True)])
def test_last_street_advice_is_the_same_whatever_the_samples_and_seed(seed: int, joker: bool) -> None:
    # The positions of the brute-force checks below, whose time is the reference's: here the exact last
    # street alone (every path of it, a joker in hand or on a board included), quick enough to run under
    # the sanitizers too. Exact means every placement, each over every deal, whatever samples and seed say.
    game = _to_last_street(seed, JOKER if joker else PINEAPPLE)
    options = advise(game, samples=10, seed=1, player=0)
    again = advise(game, samples=2000, seed=99, player=0)
    assert [(o.action, o.expected) for o in again] == [(o.action, o.expected) for o in options]
    assert all(o.exact and o.low == o.expected == o.high for o in options)
    assert {o.deals for o in options} == {len(list(combinations(game.unseen_by(0), 3)))}
    assert sorted(map(repr, (o.action for o in options))) == sorted(map(repr, game.legal_actions(0)))
    assert [o.expected for o in options] == sorted((o.expected for o in options), reverse=True)


@pytest.mark.python_bound
@pytest.mark.parametrize("seed", [3, 11])
def test_last_street_is_exact_against_brute_force(seed: int) -> None:
    game = _to_last_street(seed)
    options = advise(game, samples=10, player=0)
    assert all(o.exact and o.low == o.expected == o.high for o in options)
    assert {o.deals for o in options} == {len(list(combinations(game.unseen_by(0), 3)))}
    assert len(options) == len(game.legal_actions(0))
    for option in options:
        assert option.expected == pytest.approx(_brute_force(game, option.action), abs=1e-9)


@pytest.mark.python_bound
@pytest.mark.parametrize("seed", [15, 4])
def test_last_street_with_a_joker_is_exact_against_brute_force(seed: int) -> None:
    # Seed 15: the joker is in seat 0's last three cards; seed 4: on seat 1's board (placed by
    # greedy as a wild card), otherwise unseen, so seat 1's completions may draw it.
    game = _to_last_street(seed, JOKER)
    assert 52 in game.to_place[0] + tuple(c for row in game.boards[1] for c in row)
    options = advise(game, player=0)
    assert all(o.exact for o in options)
    for option in options:
        assert option.expected == pytest.approx(_brute_force(game, option.action), abs=1e-9)
    # Greedy's own last street is the reference's best full-board score (first best in its order).
    ref = resolve_rules(JOKER.to_dict())
    fl = [fantasyland_value(JOKER, k) if k >= 14 else 0.0 for k in range(18)]
    move = greedy(game, 0)
    rows = [list(r) for r in game.boards[0]]
    for card, row in move.placements:
        rows[row].append(card)
    best = _greedy_last(game.boards[0], game.to_place[0], ref, fl)
    assert [sorted(r) for r in rows] == [sorted(r) for r in best]


@pytest.mark.parametrize(
    ("boards", "hand", "row"),
    [
        # A joker beside a queen in front is a pair of queens (royalty and half a fantasyland hand).
        ((("Qs", "Ks Kd", "Ah Ad"), ("", "2h 5h", "Ts Tc 3s")), "X1 4c 7s", 0),
        # Beside the back's pair of nines it makes trips (in the middle, trips of fives above the back).
        ((("", "5c 5d 4s", "9h 9d"), ("", "2h 5h", "Ts Tc 3s")), "X1 2s 3h", 2),
    ],
)
def test_greedy_reads_a_joker_in_a_partial_row_as_its_best_card(
    boards: tuple[tuple[str, str, str], ...], hand: str, row: int
) -> None:
    seen = position(JOKER, list(boards), hand)
    move = greedy(seen, 0)
    assert (52, row) in move.placements


def _three_seat_last_street(seed: int, rules: Rules) -> GameState:
    """A 3-player game played by the greedy baseline up to the last street, no seat having placed it."""
    game = new_game(rules, players=3, seed=seed)
    while game.street < 4:
        for seat in range(game.players):
            if game.to_place[seat]:
                game = game.apply(seat, greedy(game, seat))
    assert all(game.to_place[seat] for seat in range(3))
    return game


@pytest.mark.parametrize("player", [0, 1, 2])
def test_three_player_last_street_each_seat_by_itself_equals_every_joint_deal(player: int) -> None:
    # The ofc preset has no naturals, so natural_settles_table changes no value; it only ties the pairs
    # together, which makes the advice enumerate every joint deal. Each seat's deals valued by themselves
    # must give the same values, for whichever seat is advised; quick enough for the sanitizers.
    game = _three_seat_last_street(5, PINEAPPLE)
    joint = _three_seat_last_street(5, PINEAPPLE.replace(natural_settles_table=True))
    by_seat = advise(game, samples=10, seed=1, player=player)
    every = {repr(o.action): o.expected for o in advise(joint, samples=2000, seed=99, player=player)}
    assert all(o.exact and o.deals == 286 * 120 for o in by_seat)
    assert sorted(map(repr, (o.action for o in by_seat))) == sorted(map(repr, game.legal_actions(player)))
    for option in by_seat:
        assert option.expected == pytest.approx(every[repr(option.action)], abs=1e-12)


@pytest.mark.python_bound
@pytest.mark.parametrize(
    ("seed", "rules"),
    [
        (2, PINEAPPLE),
        (8, PINEAPPLE),
        # A home run (scooping both others doubles those pairs) ties the pairs together: every joint deal.
        (2, PINEAPPLE.replace(home_run_multiplier=2, home_run_min_opponents=2)),
    ],
)
def test_three_player_last_street_is_exact_over_every_joint_deal(seed: int, rules: Rules) -> None:
    # Brute force: every 3 cards of the 13 unseen for seat 1 and every 3 of the other 10 for seat 2
    # (34,320 joint deals), each seat completing greedily (the reference's evaluator), the table settled.
    game = _three_seat_last_street(seed, rules)
    ref = resolve_rules(rules.to_dict())
    fl = [fantasyland_value(rules, k) if k >= 14 else 0.0 for k in range(18)]
    unseen = game.unseen_by(0)
    completions = [
        {
            cards: tuple(map(tuple, _greedy_last(game.boards[seat], cards, ref, fl)))
            for cards in combinations(unseen, 3)
        }
        for seat in (1, 2)
    ]
    options = advise(game, samples=10, player=0)
    assert {o.deals for o in options} == {286 * 120}
    assert all(o.exact and o.low == o.expected == o.high for o in options)
    for option in options:
        own = [list(r) for r in game.boards[0]]
        for card, row in option.action.placements:
            own[row].append(card)
        total = 0.0
        for first in combinations(unseen, 3):
            rest = [c for c in unseen if c not in first]
            for second in combinations(rest, 3):
                result = settle([tuple(own), completions[0][first], completions[1][second]], rules)
                earned = result.players[0].fantasyland_cards
                total += result.players[0].net + (fl[earned] if earned else 0.0)
        assert option.expected == pytest.approx(total / (286 * 120), abs=1e-9)


def test_last_street_against_a_full_board_is_one_settlement() -> None:
    game = _to_last_street(5, both=True)
    options = advise(game, player=0)
    assert {o.deals for o in options} == {1}
    for option in options:
        assert option.expected == pytest.approx(_brute_force(game, option.action), abs=1e-12)


def test_earlier_streets_are_sampled_with_common_deals_and_reproducible() -> None:
    game = new_game(PINEAPPLE, players=2, seed=9)
    game = game.apply(0, greedy(game, 0)).apply(1, greedy(game, 1))
    first = advise(game, samples=400, seed=1, player=0)
    again = advise(game, samples=400, seed=1, player=0)
    assert first == again
    assert all(not o.exact and o.deals == 400 and o.low < o.expected < o.high for o in first)
    assert [o.expected for o in first] == sorted((o.expected for o in first), reverse=True)
    other = advise(game, samples=400, seed=2, player=0)
    assert [o.expected for o in other] != [o.expected for o in first]


def test_the_advice_never_fouls_when_a_legal_completion_is_certain() -> None:
    rng = random.Random(4)
    checked = 0
    for _ in range(30):
        game = _to_last_street(rng.randrange(10**6))
        legal = []
        for move in game.legal_actions(0):
            rows = [list(r) for r in game.boards[0]]
            for card, row in move.placements:
                rows[row].append(card)
            legal.append(not is_foul(rows[0], rows[1], rows[2], resolve_rules(game.rules.to_dict())))
        if not any(legal):
            continue
        checked += 1
        best = advise(game, player=0)[0].action
        assert legal[game.legal_actions(0).index(best)]
    assert checked >= 20


def test_greedy_is_a_legal_action_and_sets_fantasyland_hands() -> None:
    game = new_game(PINEAPPLE, players=2, seed=2, fantasyland_cards=[15, 0])
    move = greedy(game, 0)
    assert len(move.placements) == 13
    assert len(move.discarded) == 2
    game = game.apply(0, move)
    assert greedy(game, 1) in game.legal_actions(1)


def test_fantasyland_values_grow_with_the_cards() -> None:
    values = [fantasyland_value(PINEAPPLE, k) for k in range(14, 18)]
    assert values == sorted(values)
    assert values[0] > 0
    assert fantasyland_value(PINEAPPLE.replace(fantasyland="off"), 14) == 0.0


def test_position_equals_the_dealt_state_it_describes() -> None:
    game = new_game(PINEAPPLE, players=2, seed=9)
    game = game.apply(0, greedy(game, 0)).apply(1, greedy(game, 1))
    seen = position(PINEAPPLE, [game.boards[0], game.boards[1]], game.to_place[0], game.discards[0], player=0)
    assert seen.unseen_by(0) == game.unseen_by(0)
    assert advise(seen, samples=200, player=0) == advise(game, samples=200, player=0)


@pytest.mark.parametrize(
    ("boards", "hand", "discards", "message"),
    [
        (
            [("As", "", "Kc Kd Kh 2c"), OPP],
            "As 4c 5c",
            "",
            "card As placed twice: player 0 front and player 0's hand",
        ),
        (
            [("Qs Qh", "", "Kc Kd Kh"), ("Qs", "", "")],
            "",
            "",
            "card Qs placed twice: player 0 front and player 1 front",
        ),
        ([("Qs Qh 2c 3c", "", "Kc"), OPP], "4c 5c 6c", "", "row front overfull: 4 cards, it takes 3"),
        ([("Qs", "2c 3c", "Kc Kd"), OPP], "4c 5c 6c", "4c", "card 4c placed twice: player 0's hand and"),
        ([("Qs", "2c 3c", "Kc Kd"), OPP], "4c 5c", "", "street 1 deals 3 cards, the hand holds 2"),
        ([("Qs", "2c 3c", "Kc Kd"), OPP], "4c 5c 6c", "7c", "street 1 follows 0 discard(s), got 1"),
        ([("Qs", "2c 3c", "Kc"), OPP], "4c 5c 6c", "", "4 cards placed is no street's start"),
        (
            [("Qs", "2c 3c", "Kc Kd"), ("2d", "", "")],
            "4c 5c 6c",
            "",
            "player 1: 1 cards placed is not street 1",
        ),
        ([("Qs", "2c 3c", "Kc Kd"), {"top": "2d"}], "4c 5c 6c", "", "unknown row 'top'"),
    ],
)
def test_bad_positions_name_what_is_wrong(
    boards: list[object], hand: str, discards: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        position(PINEAPPLE, boards, hand, discards)


def test_bad_actions_name_what_is_wrong() -> None:
    game = new_game(PINEAPPLE, players=2, seed=1)
    game = game.apply(0, action([(c, "back") for c in game.to_place[0]]))
    game = game.apply(1, greedy(game, 1))
    a, b, c = game.to_place[0]
    with pytest.raises(ValueError, match="placed twice"):
        game.apply(0, action([(a, "front"), (a, "middle")], [c]))
    with pytest.raises(ValueError, match="row back overfull"):
        game.apply(0, action([(a, "back"), (b, "front")], [c]))
    with pytest.raises(ValueError, match=r"discard .* is not held"):
        game.apply(0, action([(a, "front"), (b, "front")], [game.boards[0][2][0]]))
    with pytest.raises(ValueError, match="this street takes 1 discard"):
        game.apply(0, action([(a, "front"), (b, "front"), (c, "middle")]))
    with pytest.raises(ValueError, match="samples must be"):
        advise(game, samples=0)
    with pytest.raises(ValueError, match="rules: differ"):
        advise(game, rules="ofc")


def test_advising_a_fantasyland_hand_is_refused() -> None:
    game = new_game(PINEAPPLE, players=2, seed=2, fantasyland_cards=[15, 0])
    with pytest.raises(ValueError, match="fantasyland"):
        advise(game, player=0)


def test_an_opponent_in_fantasyland_not_yet_set_is_valued_over_dealt_hands() -> None:
    game = new_game(PINEAPPLE, players=2, seed=2, fantasyland_cards=[0, 15])
    # Its 15 cards are unseen to seat 0, and the first street comes without waiting for them.
    assert not set(game.to_place[1]) & set(game.seen_by(0))
    options = advise(game, samples=300, seed=4, player=0)
    assert {o.action for o in options} == set(game.legal_actions(0))
    assert all(not o.exact and o.deals == 300 for o in options)
    assert all(math.isfinite(o.low) and o.low < o.expected < o.high for o in options)
    assert advise(game, samples=300, seed=4, player=0) == options


def _pool_value(state: GameState, move: Action, seed: int) -> float:
    """Seat 0's units on the last street against seat 1 in fantasyland, by docs/OFC.md's model: the mean
    over FANTASYLAND_POOL hands dealt from the unseen cards, each set by the exact solver."""
    pack = bytes(state.unseen_by(0))
    nonces = np.arange(FANTASYLAND_POOL, dtype=np.uint64)
    key = b"chinese-poker/ofc/fantasyland-opponent/" + seed.to_bytes(8, "big")
    hands = _core.fair_deals(
        key, b"chinese-poker/deal/v1\x01\x03ofc", pack, state.fantasyland_cards[1], nonces
    )
    own = [list(r) for r in state.boards[0]]
    for card, row in move.placements:
        own[row].append(card)
    total = 0.0
    for hand in hands:
        best = fantasyland([int(c) for c in hand], state.rules)
        result = settle([own, [best.front, best.middle, best.back]], state.rules, fantasyland=[False, True])
        earned = result.players[0].fantasyland_cards
        total += result.players[0].net + (fantasyland_value(state.rules, earned) if earned else 0.0)
    return total / FANTASYLAND_POOL


def test_the_last_street_against_fantasyland_is_exact_over_the_dealt_hands() -> None:
    seen = position(
        PINEAPPLE,
        [("Qs Qh", "2c 3c 4d 5h", "Kc Kd Ks 7h 7d"), ("", "", "")],
        "Qd 6s 9c",
        discards="2s 3s 4s",
        fantasyland=[False, 16],
    )
    options = advise(seen, seed=9, player=0)
    assert len(options) == len(seen.legal_actions(0)) == 6
    assert all(o.exact and o.deals == FANTASYLAND_POOL for o in options)
    # Qd to the front earns fantasyland (trips of queens: 17 cards) and the 6s makes the middle a straight.
    best = action([("Qd", "front"), ("6s", "middle")], ["9c"])
    assert sorted(options[0].action.placements) == sorted(best.placements)
    assert options[0].action.discarded == best.discarded
    for option in options:
        assert option.expected == pytest.approx(_pool_value(seen, option.action, 9), abs=1e-9)
