"""Packs with added suits and jokers through every layer above the evaluator: the strengths each pack can
make (and their categories, vectors and texts), suggest against arrange, evaluate_setting's field deals,
the horse card and the player limit under fantasyland."""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from itertools import combinations

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import HandCategory, _core, category, describe, evaluate, tiebreak_vector
from chinese_poker._field import field_hands
from chinese_poker.arrange import _expected_model
from chinese_poker.cli import main
from chinese_poker.dealing import deal_batch, deal_hands
from chinese_poker.evaluation import pack_strengths
from chinese_poker.serve import Limits, create_app
from hypothesis import given, settings
from starlette.testclient import TestClient
from strategies import pack_cards, pack_hands

WHEELS = ("low", "second")
#: Every pack the rules allow: up to two added suits, up to two jokers.
EVERY_EXTRA_SUITS = ("", *"cdhs", *("".join(pair) for pair in combinations("cdhs", 2)))
PACKS = [(extra, jokers) for extra in EVERY_EXTRA_SUITS for jokers in (0, 1, 2)]

# Classes per category (index = HandCategory value) of one 52-card deck: RULES.md's 7462 and 455.
FIVE_CARD_CLASSES = [1_277, 2_860, 858, 858, 10, 1_277, 156, 156, 10, 0]
THREE_CARD_CLASSES = [286, 156, 0, 13, 0, 0, 0, 0, 0, 0]

#: The row of the preset shisanshui-puxian-ghost that no layer above the evaluator knew: three aces of
#: diamonds (two of them jokers), a flush.
TRIPS_FLUSH = "Ad X1 X2 Qd 2d"
GHOST_ROUND = [
    ("7c 8h 9s", "Kh Kc 6d 6c 4s", TRIPS_FLUSH),
    ("Qs Qh 2c", "Ts 9h 8c 7d 6s", "Js Jh Jd 5c 5d"),
]


def _strength(cat: int, vector: tuple[int, ...]) -> int:
    value = cat << 20
    for shift, rank in zip((16, 12, 8, 4, 0), vector):
        value |= rank << shift
    return value


def _by_category(strengths: frozenset[int]) -> list[int]:
    counts = Counter(s >> 20 for s in strengths)
    return [counts[c] for c in range(10)]


# ----- the strengths of every pack ----------------------------------------------------------------------


@pytest.mark.parametrize("wheel", WHEELS)
def test_pack_strengths_of_known_packs(wheel: str) -> None:
    assert _by_category(pack_strengths(5, wheel)) == FIVE_CARD_CLASSES
    assert _by_category(pack_strengths(3, wheel)) == THREE_CARD_CLASSES
    # One added suit: the 13 fives of a kind and the flushes holding one pair (13 * C(12, 3)) or two pairs
    # (C(13, 2) * 11); no flush holds three of a kind.
    one_suit = _by_category(pack_strengths(5, wheel, extra_suits="s"))
    assert one_suit == [*FIVE_CARD_CLASSES[:5], 1_277 + 2_860 + 858, *FIVE_CARD_CLASSES[6:9], 13]
    # A front has no flush: no pack adds a three-card strength.
    for extra_suits, jokers in PACKS:
        assert pack_strengths(3, wheel, extra_suits=extra_suits, jokers=jokers) == pack_strengths(3, wheel)


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"width": 4}, ValueError, "width must be 3 or 5, got 4"),
        ({"wheel": "high"}, ValueError, "wheel must be 'low' or 'second', got 'high'"),
        ({"wheel": 1}, TypeError, "wheel must be 'low' or 'second'"),
        ({"extra_suits": "x"}, ValueError, "extra_suits: 'x' is not a set of suit letters"),
        ({"extra_suits": "shd"}, ValueError, "extra_suits: at most two suits"),
        ({"jokers": 3}, ValueError, "jokers must be 0, 1 or 2, got 3"),
    ],
)
def test_pack_strengths_refuses_what_is_no_pack(arguments: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        pack_strengths(**arguments)


@pytest.mark.parametrize(("extra_suits", "jokers"), PACKS)
def test_every_strength_of_every_pack_has_its_category_vector_and_text(extra_suits: str, jokers: int) -> None:
    """Every strength a pack's rows can make (both widths, both wheels) is known to category,
    tiebreak_vector and describe, and the vector rebuilds the strength; a pack with added suits or jokers
    makes every category, five of a kind included, and one deck all but five of a kind."""
    made = set()
    for wheel in WHEELS:
        for width in (3, 5):
            for strength in pack_strengths(width, wheel, extra_suits=extra_suits, jokers=jokers):
                cat = category(strength)
                vector = tiebreak_vector(strength)
                assert cat == strength >> 20
                assert _strength(cat, vector) == strength
                assert describe(strength)
                made.add(cat)
    assert made == set(HandCategory) - (set() if extra_suits or jokers else {HandCategory.FIVE_OF_A_KIND})


@pytest.mark.parametrize(("extra_suits", "jokers"), PACKS)
def test_flushes_with_repeated_ranks_by_pack(extra_suits: str, jokers: int) -> None:
    """A flush holding a pair needs a card twice (an added suit) or a joker; one holding three of a kind
    a card three times: two jokers, or an added suit's copy and a joker."""
    strengths = pack_strengths(5, extra_suits=extra_suits, jokers=jokers)
    # With a joker and no added suit "As Ks Qs Js X1" is a royal flush, but "As 9s 4s 3s X1" two aces.
    assert (_strength(5, (14, 14, 13, 12, 11)) in strengths) == bool(extra_suits)
    assert (_strength(5, (14, 14, 9, 4, 3)) in strengths) == bool(extra_suits or jokers)
    assert (_strength(5, (14, 14, 14, 12, 2)) in strengths) == (
        jokers == 2 or (jokers == 1 and extra_suits != "")
    )
    assert (_strength(9, (7,)) in strengths) == bool(extra_suits or jokers)


def test_the_flush_holding_three_of_a_kind() -> None:
    strength = evaluate(TRIPS_FLUSH, jokers=2)
    assert strength == _strength(5, (14, 14, 14, 12, 2)) == 6221506
    assert category(strength) is HandCategory.FLUSH
    assert tiebreak_vector(strength) == (14, 14, 14, 12, 2)
    assert describe(strength) == "Flush, ace-ace-ace-queen-deuce"
    # Above the three aces it holds, below the full house.
    assert evaluate("Ad Ac Ah Qd 2d") < strength < evaluate("Ad Ac Ah Qd Qc")
    with pytest.raises(ValueError, match="is not the strength of any 3- or 5-card hand"):
        describe(_strength(5, (14, 14, 14, 14, 2)))


def test_a_round_with_a_flush_holding_three_of_a_kind_is_reported() -> None:
    rules = cp.Rules.preset("shisanshui-puxian-ghost")
    hands = [cp.Hand(*rows, jokers=rules.jokers) for rows in GHOST_ROUND]
    settlement = cp.settle(hands, rules, names=["North", "South"])
    back = settlement.to_dict()["players"][0]["rows"]["back"]
    assert back["category"] == "flush"
    assert back["text"] == "Flush, ace-ace-ace-queen-deuce (X1 as Ad, X2 as Ad)"
    assert back["strength"] == 6221506
    assert "Flush, ace-ace-ace-queen-deuce" in settlement.explain()


@pytest.mark.parametrize("form", ["json", "table"])
def test_score_reports_a_flush_holding_three_of_a_kind(
    form: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    players = [
        {"name": name, "front": front, "middle": middle, "back": back}
        for name, (front, middle, back) in zip(("North", "South"), GHOST_ROUND)
    ]
    text = json.dumps({"id": "ghost", "players": players})
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code = main(["score", "--rules", "shisanshui-puxian-ghost", "--format", form])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Traceback" not in err
    assert "Flush, ace-ace-ace-queen-deuce" in out
    if form == "json":
        (result,) = json.loads(out)
        assert result["players"][0]["rows"]["back"]["category"] == "flush"
        assert sum(result["net"]) == 0


# ----- suggest against arrange --------------------------------------------------------------------------


def test_suggest_takes_a_joker_hand_with_a_five_of_a_kind_or_repeated_flush_setting() -> None:
    rules = cp.Rules(jokers=1)
    cards = "X1 As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3d"
    suggestions = cp.suggest(cards, rules, k=5)
    assert suggestions[0].hand == cp.arrange(cards, rules).hand
    assert suggestions[0].expected_units == cp.arrange(cards, rules).expected_units
    assert len(suggestions) == 5
    assert [s.expected_units for s in suggestions] == sorted(
        (s.expected_units for s in suggestions), reverse=True
    )
    five = cp.suggest("X1 As Ah Ad Ac Ks Kh Kd Qs Qh 2c 3d 4h", rules, k=3)
    assert five[0].hand == cp.arrange("X1 As Ah Ad Ac Ks Kh Kd Qs Qh 2c 3d 4h", rules).hand
    paired = cp.Rules(extra_suits="s")
    hand = "As As Ks Ks Qs Js 9s 8s 7s 2d 3d 4c 5h"
    assert cp.suggest(hand, paired, k=3)[0].hand == cp.arrange(hand, paired).hand


@settings(max_examples=120, deadline=None)
@given(drawn=pack_hands())
def test_suggest_first_is_arrange_on_hands_of_packs(drawn: tuple[list[int], str, int]) -> None:
    cards, extra_suits, jokers = drawn
    rules = cp.Rules(extra_suits=extra_suits, jokers=jokers)
    best = cp.arrange(cards, rules)
    suggestions = cp.suggest(cards, rules, k=3)
    assert suggestions[0].hand == best.hand
    assert suggestions[0].strengths == best.strengths
    assert suggestions[0].expected_units == best.expected_units
    for suggestion in suggestions:
        assert sorted(suggestion.hand.cards) == sorted(cards)
        for row in suggestion.rows:
            assert row.text == describe(row.strength)


@pytest.mark.parametrize(
    ("cards", "rules"),
    [
        ("X1 As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3d", {"preset": "pagat", "jokers": 1}),
        ("X1 X2 As Ah Ad Kc Ks Qh Qd 9s 8s 2c 3d", "shisanshui-puxian-ghost"),
        ("As As Ks Ks Qs Js 9s 8s 7s 2d 3d 4c 5h", {"preset": "pagat", "extra_suits": "s"}),
    ],
)
def test_the_service_suggests_for_hands_of_packs(cards: str, rules: object) -> None:
    client = TestClient(create_app(Limits()), raise_server_exceptions=False)
    answer = client.post("/v1/suggest", json={"cards": cards, "rules": rules, "k": 3})
    assert answer.status_code == 200, answer.text
    first = answer.json()["suggestions"][0]
    arranged = client.post("/v1/arrange", json={"cards": cards, "rules": rules}).json()
    assert [first[row] for row in ("front", "middle", "back")] == [
        arranged[row] for row in ("front", "middle", "back")
    ]
    assert first["expected_units"] == arranged["expected_units"]


def test_expected_rows_still_refuses_what_no_row_can_be() -> None:
    model = _expected_model(cp.Rules())
    good = [evaluate("2c 3d 4h"), evaluate("2s 3s 4s 5s 7d"), evaluate("As As Ah Ad Ac", extra_suits="s")]
    ev, _, _ = _core.expected_rows(np.array([good], dtype=np.int32), model)
    assert np.isfinite(ev).all()
    for bad in (12345, _strength(5, (14, 14, 14, 14, 2)), -1):
        with pytest.raises(ValueError, match="is not the strength of any row"):
            _core.expected_rows(np.array([[good[0], good[1], bad]], dtype=np.int32), model)


# ----- evaluate_setting's field -------------------------------------------------------------------------


@pytest.mark.parametrize(("extra_suits", "jokers"), [("", 0), ("", 1), ("", 2), ("s", 0), ("dh", 2)])
def test_field_hands_are_the_pack_less_ours(extra_suits: str, jokers: int) -> None:
    rules = cp.Rules(extra_suits=extra_suits, jokers=jokers)
    rng = random.Random(5)
    pack = pack_cards(extra_suits, jokers)
    for _ in range(4):
        ours = rng.sample(pack, 13)
        others = field_hands(7, 100, 140, ours, rules=rules, opponents=3).reshape(40, 39)
        for deal in others.tolist():
            assert not Counter(deal) + Counter(ours) - Counter(pack)  # never more copies than the pack
    # One deck: the 52 cards of each deal in order with ours skipped.
    deck = deal_batch(3, 0, 10).reshape(10, 52)
    ours = list(range(0, 52, 4))
    plain = field_hands(3, 0, 10, ours, rules=cp.Rules(), opponents=2).reshape(10, 26)
    assert plain.tolist() == [[c for c in row if c not in ours][:26] for row in deck.tolist()]


@pytest.mark.parametrize(
    ("cards", "extra_suits", "jokers"),
    [
        ("X1 As 3d 8s 7s 6s 5s 4s Ks Qs Js Ts 9s", "", 1),
        ("X1 X2 Kd Qh Qc 9s 9h 9d 4c 3c Ah Ad 2s", "", 2),
        ("As As 3d 8s 7s 6s 5s 4s Ks Qs Js Ts 9s", "s", 0),
    ],
)
def test_evaluate_setting_of_hands_with_jokers_and_copies(cards: str, extra_suits: str, jokers: int) -> None:
    rules = cp.Rules(extra_suits=extra_suits, jokers=jokers)
    hand = cp.arrange(cards, rules).hand
    value = cp.evaluate_setting(hand, rules, samples=300, seed=11)
    assert value.samples == 300
    assert value.total_units + sum(value.opponents_total_units) == 0
    assert value.expected_units == pytest.approx(value.total_units / 300)
    again = cp.evaluate_setting(hand, rules, samples=300, seed=11, threads=2)
    assert again.total_units == value.total_units
    # Deals 0..149 and 150..299 add up to deals 0..299.
    first = cp.evaluate_setting(hand, rules, samples=150, seed=11)
    second = cp.evaluate_setting(hand, rules, samples=150, seed=11, start=150)
    assert first.total_units + second.total_units == value.total_units


# ----- the horse card -----------------------------------------------------------------------------------


@pytest.mark.parametrize("joker", ["X1", "X2", 52, 53])
@pytest.mark.parametrize("jokers", [0, 2])
def test_a_joker_is_never_the_horse_card(joker: object, jokers: int) -> None:
    with pytest.raises(
        ValueError, match=r"rules knob 'horse_card': .* is a joker, which cannot be the horse card"
    ):
        cp.Rules(horse_card=joker, jokers=jokers)
    with pytest.raises(ValueError, match="rules knob 'horse_card'"):
        cp.Rules.preset("shisanshui-puxian-ghost").replace(horse_card=joker)


def test_a_card_is_the_horse_card() -> None:
    rules = cp.Rules(horse_card=51, jokers=2)
    assert rules.horse_card == "As"
    assert cp.Rules(horse_card="as").horse_card == "As"
    with pytest.raises(ValueError, match="rules knob 'horse_card'"):
        cp.Rules(horse_card=54)


# ----- fantasyland's player limit -----------------------------------------------------------------------


@pytest.mark.parametrize(("extra_suits", "players"), [("s", 5), ("hs", 6), ("s", 4), ("", 4)])
def test_fantasyland_names_its_own_player_limit(extra_suits: str, players: int) -> None:
    rules = cp.Rules(extra_suits=extra_suits, fantasyland="standard")
    hands = deal_hands(random.Random(players), players, extra_suits=extra_suits)
    with pytest.raises(ValueError, match="with fantasyland on a round has 2 or 3 players") as caught:
        cp.settle([cp.Hand.from_cards(h, extra_suits=extra_suits) for h in hands], rules)
    assert "added suit" not in str(caught.value).split(",")[0]
    assert f"got {players}" in str(caught.value)
    with pytest.raises(ValueError, match="with fantasyland on a round has 2 or 3 players"):
        cp.settle_batch(np.array([hands], dtype=np.uint8), rules)
