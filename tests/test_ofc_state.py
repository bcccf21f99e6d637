"""The open-face game state (RULES.md 4.3): the deal from a seed, legal actions, whole games, bad actions."""

from __future__ import annotations

import random
import re

import pytest
from chinese_poker.cards import parse_cards
from chinese_poker.fair import deal_stream, pack, shuffle
from chinese_poker.ofc import fantasyland
from chinese_poker.ofc.position import position
from chinese_poker.ofc.state import Action, GameState, action, new_game
from chinese_poker.rules import Rules

PINEAPPLE = Rules.preset("ofc").replace(ofc_variant="pineapple", fantasyland="progressive")


def test_the_deal_is_the_counter_based_dealer_over_the_whole_pack() -> None:
    game = new_game("ofc", 2, seed=12345, nonce=3)
    expected = shuffle(pack("ofc"), deal_stream((12345).to_bytes(32, "big"), [b"ofc"], 3))
    assert list(game.deck) == expected
    assert game.to_place == (tuple(expected[:5]), tuple(expected[5:10]))
    assert new_game("ofc", 2, seed=12345, nonce=3) == game
    assert new_game("ofc", 2, seed=12346, nonce=3).deck != game.deck


def _play(game: GameState, rng: random.Random) -> GameState:
    while not game.over:
        for seat in range(game.players):
            if game.to_place[seat]:
                if game.fantasyland_cards[seat]:
                    best = fantasyland(game.to_place[seat], game.rules, 5.0)
                    rows = [
                        (c, r) for r, cards in enumerate((best.front, best.middle, best.back)) for c in cards
                    ]
                    game = game.apply(seat, action(rows, best.discards))
                else:
                    game = game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


@pytest.mark.parametrize(
    ("rules", "players", "discards", "fantasyland_cards"),
    [
        (Rules.preset("ofc"), 2, 0, None),
        (Rules.preset("ofc"), 3, 0, (0, 14, 0)),
        (PINEAPPLE, 2, 4, None),
        (PINEAPPLE, 3, 4, (17, 0, 0)),
    ],
)
def test_whole_games_fill_every_board(
    rules: Rules, players: int, discards: int, fantasyland_cards: tuple[int, ...] | None
) -> None:
    game = _play(new_game(rules, players, seed=99, fantasyland_cards=fantasyland_cards), random.Random(1))
    assert game.over
    every = [c for board in game.boards for row in board for c in row]
    every += [c for thrown in game.discards for c in thrown]
    assert len(every) == len(set(every))
    for seat in range(players):
        assert [len(r) for r in game.boards[seat]] == [3, 5, 5]
        fl = (fantasyland_cards or (0,) * players)[seat]
        assert len(game.discards[seat]) == (fl - 13 if fl else discards)
        assert len(game.unseen_by(seat)) == 52 - len(game.seen_by(seat))
    assert game.street == (8 if rules.ofc_variant == "classic" else 4)


def test_legal_actions_of_a_pineapple_street() -> None:
    game = new_game(PINEAPPLE, 2, seed=5)
    for seat in range(2):
        game = game.apply(seat, action([(c, "back") for c in game.to_place[seat]]))
    assert game.street == 1
    options = game.legal_actions(0)
    # 3 discards x (front, middle: 3 x 3 row pairs less none full: the back has no room) = 3 x 4.
    assert game.room(0) == (3, 5, 0)
    assert len(options) == 3 * 4
    assert all(len(o.discarded) == 1 and len(o.placements) == 2 for o in options)


def test_bad_actions_name_what_is_wrong() -> None:
    game = new_game(PINEAPPLE, 2, seed=5)
    held = game.to_place[0]
    other = game.to_place[1][0]
    with pytest.raises(ValueError, match="placed twice"):
        game.apply(0, Action(((held[0], 0), (held[0], 1))))
    with pytest.raises(ValueError, match="is not held"):
        game.apply(0, Action(((other, 0),)))
    with pytest.raises(ValueError, match="row front overfull"):
        game.apply(0, Action(tuple((c, 0) for c in held)))
    with pytest.raises(ValueError, match="takes 0 discard"):
        game.apply(0, Action(tuple((c, 2) for c in held[:4]), (held[4],)))
    with pytest.raises(ValueError, match="left:"):
        game.apply(0, Action(tuple((c, 2) for c in held[:4])))
    # An Action built by hand: a row out of range is named, never an IndexError or the back row.
    for row in (3, -1, True):
        with pytest.raises(
            ValueError, match=rf"^player 0, street 0: row must be 0..2 \(front, middle, back\), got {row}$"
        ):
            game.apply(0, Action(((held[0], row), *((c, 2) for c in held[1:]))))  # type: ignore[arg-type]
    with pytest.raises(
        ValueError, match=r"^player 0, street 0: a placement is a \(card, row\) pair, got \d+$"
    ):
        game.apply(0, Action((held[0],)))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^player 0, street 0: card 999 is not held$"):
        game.apply(0, Action(((999, 0),)))
    game = game.apply(0, action([(c, "back") for c in held]))
    with pytest.raises(ValueError, match="no cards to place"):
        game.apply(0, action([(held[0], "front")]))
    game = game.apply(1, action([(c, "middle") for c in game.to_place[1]]))
    three = game.to_place[0]
    with pytest.raises(ValueError, match=r"discard .. is not held"):
        game.apply(0, Action(((three[0], 0), (three[1], 0)), (other,)))
    with pytest.raises(ValueError, match="takes 1 discard"):
        game.apply(0, Action(((three[0], 0), (three[1], 0), (three[2], 1))))
    with pytest.raises(ValueError, match="row back overfull"):
        game.apply(0, Action(((three[0], 2), (three[1], 0)), (three[2],)))
    with pytest.raises(ValueError, match="unknown row"):
        action([("As", "top")])


def test_bad_games_are_value_errors() -> None:
    with pytest.raises(ValueError, match="2 or 3 players"):
        new_game("ofc", 4)
    with pytest.raises(ValueError, match="fantasyland_cards"):
        new_game(Rules.preset("ofc").replace(fantasyland="off"), 2, fantasyland_cards=(14, 0))
    with pytest.raises(ValueError, match="seed"):
        new_game("ofc", 2, seed=-1)
    game = new_game(PINEAPPLE, 2, seed=1, fantasyland_cards=(15, 0))
    assert len(game.to_place[0]) == 15
    with pytest.raises(ValueError, match="fantasyland hand"):
        game.legal_actions(0)
    cards = parse_cards("As Ks")
    assert action([("As", 0), ("Ks", "back")]) == Action(((cards[0], 0), (cards[1], 2)))


STANDARD = PINEAPPLE.replace(fantasyland="standard")
UNSET = [("", "", ""), ("", "", "")]


@pytest.mark.parametrize("cards", [14, 15, 16, 17])
def test_progressive_fantasyland_hands_hold_14_to_17_cards(cards: int) -> None:
    game = new_game(PINEAPPLE, 2, seed=3, fantasyland_cards=(0, cards))
    assert len(game.to_place[1]) == cards
    seen = position(PINEAPPLE, UNSET, game.to_place[0], fantasyland=[False, cards])
    assert seen.fantasyland_cards == (0, cards)
    assert position(PINEAPPLE, UNSET, game.to_place[0], fantasyland=[0, True]).fantasyland_cards == (0, 14)
    assert position(STANDARD, UNSET, game.to_place[0], fantasyland=[0, 14]).fantasyland_cards == (0, 14)


@pytest.mark.parametrize(
    ("rules", "cards", "allowed"),
    [
        (STANDARD, 15, "holds 14 cards"),
        (STANDARD, 17, "holds 14 cards"),
        (STANDARD, 13, "holds 14 cards"),
        (PINEAPPLE, 13, "holds 14 to 17 cards"),
        (PINEAPPLE, 18, "holds 14 to 17 cards"),
        (PINEAPPLE, -1, "holds 14 to 17 cards"),
    ],
)
def test_fantasyland_hand_sizes_the_rules_do_not_deal_are_refused(
    rules: Rules, cards: int, allowed: str
) -> None:
    message = f'player 1: a fantasyland hand {allowed} under fantasyland="{rules.fantasyland}", got {cards}'
    with pytest.raises(ValueError, match=f"^{re.escape(f'fantasyland_cards: {message}')}$"):
        new_game(rules, 2, seed=3, fantasyland_cards=(0, cards))
    hand = new_game(rules, 2, seed=3).to_place[0]
    with pytest.raises(ValueError, match=f"^{re.escape(f'fantasyland: {message}')}$"):
        position(rules, UNSET, hand, fantasyland=[False, cards])
    with pytest.raises(
        ValueError, match=r"^fantasyland: player 1: a flag is a bool or a hand size, got 15\.0$"
    ):
        position(rules, UNSET, hand, fantasyland=[False, 15.0])  # type: ignore[list-item]


def test_no_fantasyland_hand_under_fantasyland_off() -> None:
    off = PINEAPPLE.replace(fantasyland="off")
    message = (
        'fantasyland_cards: player 1: no fantasyland hand is dealt under fantasyland="off", got 14 cards'
    )
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        new_game(off, 2, fantasyland_cards=(0, 14))
    with pytest.raises(ValueError, match='no seat plays in fantasyland under fantasyland="off"'):
        position(off, UNSET, new_game(off, 2).to_place[0], fantasyland=[False, True])
