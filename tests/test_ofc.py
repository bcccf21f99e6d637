"""Row comparison, rank-keyed royalties and open-face (RULES.md 2.4, 4.1, 4.2, 12 and the ofc preset).

Every worked example of those sections runs here through both engines: the package (C++ core) and the
pure-Python reference.
"""

from __future__ import annotations

import json

import pytest
from chinese_poker import Hand, Rules, settle
from chinese_poker import reference as ref
from chinese_poker.formats.rounds import parse_round, round_input, round_output, settle_round
from chinese_poker.formats.verify import compare_outputs


def _players(hands: list[Hand]) -> list[dict]:
    return [{"front": list(h.front), "middle": list(h.middle), "back": list(h.back)} for h in hands]


def both(hands: list[Hand], rules: Rules, fantasyland: list[bool] | None = None) -> tuple[dict, dict]:
    """The settlement of both engines, as the reference's dict and the package's to_dict()."""
    ours = settle(hands, rules, fantasyland=fantasyland)
    theirs = ref.settle(_players(hands), rules.resolved(), fantasyland=fantasyland)
    assert list(ours.net) == theirs["net"]
    assert [p.fantasyland_cards for p in ours.players] == theirs["fantasyland_cards"]
    # The reference reports every field; the output shows the real-table pair fields only when used.
    for pair, expected in zip(ours.to_dict()["pairs"], theirs["pairs"]):
        assert pair == {k: list(v) if isinstance(v, tuple) else v for k, v in expected.items() if k in pair}
        assert set(pair) <= set(expected)
    return theirs, ours.to_dict()


def rows_of(hands: list[Hand], rules: Rules) -> list[int]:
    theirs, ours = both(hands, rules)
    assert ours["pairs"][0]["rows"] == theirs["pairs"][0]["rows"]
    return list(theirs["pairs"][0]["rows"])


# ----- RULES.md 2.4 / 12: suit_tiebreak="by_card" and suit_order ----------------------------------------

# The middles are equal (fives with A-9-3); A wins the front, B the back.
BY_CARD_A = Hand("Kc 8h 2h", "Ad 5s 5c 9d 3c", "Jc Jd Js 4c 4d")
BY_CARD_B = Hand("Qc 8c 2s", "As 5h 5d 9c 3d", "Qd Qh Qs 6c 6d")


@pytest.mark.parametrize(
    ("tiebreak", "order", "rows", "net"),
    [
        ("off", "shdc", [1, 0, -1], 0),
        ("highest_card", "shdc", [1, 1, -1], 1),  # the fives first: 5s beats 5h
        ("by_card", "shdc", [1, -1, -1], -1),  # the aces first: As beats Ad
        ("highest_card", "hsdc", [1, -1, -1], -1),  # hearts over spades: 5h beats 5s
        ("by_card", "hsdc", [1, -1, -1], -1),
    ],
)
def test_by_card_against_highest_card(tiebreak: str, order: str, rows: list[int], net: int) -> None:
    rules = Rules(suit_tiebreak=tiebreak, suit_order=order)
    assert rows_of([BY_CARD_A, BY_CARD_B], rules) == rows
    assert settle([BY_CARD_A, BY_CARD_B], rules).net == (net, -net)


# Both backs are wheels; A's has the ace of spades and the five of clubs, B's the reverse.
WHEEL_A = Hand("Kc Qd 7h", "2c 2d 9s 9h Jc", "As 2h 3c 4d 5c")
WHEEL_B = Hand("Kd Qh 7c", "3s 3d Ts Th Jd", "Ac 2s 3h 4h 5s")


@pytest.mark.parametrize("wheel", ["low", "second"])
def test_the_wheels_ace_comes_first_by_card(wheel: str) -> None:
    assert rows_of([WHEEL_A, WHEEL_B], Rules(suit_tiebreak="highest_card", wheel=wheel))[2] == -1  # 5s
    assert rows_of([WHEEL_A, WHEEL_B], Rules(suit_tiebreak="by_card", wheel=wheel))[2] == 1  # As


def test_any_suit_order_and_the_section_2_4_example() -> None:
    a = Hand("Ac 9h 4h", "Kc Kd 8s 6c 2d", "Qh Qs Qd 5c 3s")
    b = Hand("Ad 9s 4s", "Ks Kh 8c 6d 2c", "Jd Jc 7h 7s 3c")
    # Spades, clubs, diamonds, hearts: clubs over diamonds as under "shcd".
    assert rows_of([a, b], Rules(suit_tiebreak="highest_card", suit_order="scdh")) == [1, -1, 1]
    assert rows_of([a, b], Rules(suit_tiebreak="by_card", suit_order="scdh")) == [1, -1, 1]
    assert rows_of([a, b], Rules(suit_tiebreak="by_card", suit_order="shdc")) == [-1, -1, 1]
    with pytest.raises(ValueError, match=r"'suit_order'.*any order of the four suit letters"):
        Rules(suit_order="shsc")


# ----- RULES.md 4.1: rank-keyed royalties ----------------------------------------------------------------


def test_a_rank_key_overrides_its_category() -> None:
    rules = Rules(royalties={"front": {"one_pair": 2, "one_pair@A": 5, "one_pair@2": 0}})
    assert Hand("As Ah 2c", "3d 4d 5d 6d 8d", "9c 9h 9s Kc Kd").facts(rules).royalties == (5, 0, 0)
    assert Hand("Ks Kh 2c", "3d 4d 5d 6d 8d", "9c 9h 9s Qc Qd").facts(rules).royalties == (2, 0, 0)
    assert Hand("2s 2h Kc", "3d 4d 5d 6d 8d", "9c 9h 9s Qc Qd").facts(rules).royalties == (0, 0, 0)
    # The zero override is kept (it changes what deuces pay); a zero entry that overrides nothing is not.
    assert ("front", "one_pair@2", 0) in rules.royalties
    assert Rules(royalties={"front": {"one_pair@2": 0}}).royalties == ()
    resolved = ref.resolve_rules(rules.resolved())
    assert ref.royalties("As Ah 2c", "3d 4d 5d 6d 8d", "9c 9h 9s Kc Kd", resolved) == (5, 0, 0)
    assert ref.royalties("2s 2h Kc", "3d 4d 5d 6d 8d", "9c 9h 9s Qc Qd", resolved) == (0, 0, 0)


@pytest.mark.parametrize("wheel", ["low", "second"])
def test_wheel_straight_flush_and_the_wheel_straight_under_either_wheel(wheel: str) -> None:
    table = {"back": {"straight_flush": 10, "wheel_straight_flush": 4, "royal_flush": 20, "straight@5": 3}}
    rules = Rules(royalties=table, wheel=wheel)
    front, middle = "2c 3d 7c", "9c 9d Jh Qd Kd"
    for back, units in (
        ("Ah 2h 3h 4h 5h", 4),  # the wheel straight flush
        ("6h 7h 8h 9h Th", 10),
        ("Ts Js Qs Ks As", 20),
        ("As 2d 3c 4h 5s", 3),  # the wheel straight: its deciding rank is the 5
    ):
        hand = Hand(front, middle, back)
        assert hand.facts(rules).royalties[2] == units, back
        assert ref.royalties(front, middle, back, rules.resolved())[2] == units


@pytest.mark.parametrize(
    ("row", "key", "message"),
    [
        ("back", "straight@2", r"'straight@2' cannot occur in the back; allowed: straight@5 to straight@A"),
        ("front", "four_of_a_kind@A", r"a front \(3 cards\) cannot hold 'four_of_a_kind@A'"),
        ("middle", "one_pair@X", r"unknown rank 'X' in key 'one_pair@X' in row 'middle'"),
        ("middle", "one_pair@10", r"unknown rank '10'"),
        ("back", "straight_flush@A", r"'straight_flush@A' cannot occur in the back.*'royal_flush'"),
        ("back", "straight_flush@5", r"'straight_flush@5' cannot occur.*'wheel_straight_flush'"),
        ("back", "flush@6", r"'flush@6' cannot occur in the back; allowed: flush@7 to flush@A"),
        ("front", "high_card@3", r"'high_card@3' cannot occur in the front; allowed: high_card@4 to"),
        ("back", "royal_flush@A", r"unknown category 'royal_flush' in key 'royal_flush@A'"),
        ("front", "wheel_straight_flush", r"a front \(3 cards\) cannot hold 'wheel_straight_flush'"),
    ],
)
def test_a_key_the_row_cannot_hold_is_refused(row: str, key: str, message: str) -> None:
    with pytest.raises(ValueError, match="rules knob 'royalties': " + message):
        Rules(royalties={row: {key: 1}})


def test_rank_keys_round_trip_through_json_and_toml() -> None:
    rules = Rules(royalties={"front": {"one_pair@Q": 7, "one_pair": 1}, "back": {"wheel_straight_flush": 3}})
    assert rules.royalties == (
        ("front", "one_pair", 1),
        ("front", "one_pair@Q", 7),
        ("back", "wheel_straight_flush", 3),
    )
    assert Rules.from_json(rules.to_json()) == rules
    assert Rules.from_toml(rules.to_toml()) == rules


# ----- the ofc preset ---------------------------------------------------------------------------------------

OFC = Rules.preset("ofc")
# P0: queens in front (7), a flush in the middle (8), nines full in the back (6); P1: sixes (1), a straight
# (4), a flush (4). P0 wins all three rows.
OFC_P0 = Hand("Qs Qh 2c", "3d 4d 5d 6d 8d", "9c 9h 9s Kc Kd")
OFC_P1 = Hand("6s 6h Ac", "Tc Jh Qd Ks Ad", "2s 3s 4s 5s 7s")
OFC_FOUL = Hand("Ks Kh Ac", "6s 6h Tc Qd Ad", "2s 3s 4s 5s 7s")  # kings in front over sixes


def test_ofc_preset_royalties_and_scoring() -> None:
    theirs, ours = both([OFC_P0, OFC_P1], OFC)
    assert [p["rows"]["front"]["royalty"] for p in ours["players"]] == [7, 1]
    assert settle([OFC_P0, OFC_P1], OFC).players[0].royalties == (7, 8, 6)
    assert settle([OFC_P0, OFC_P1], OFC).players[1].royalties == (1, 4, 4)
    pair = ours["pairs"][0]
    # 3 rows, 3 for the scoop, and 21 - 9 = 12 in royalties, paid whatever the rows.
    assert (pair["row_units"], pair["scoop_bonus_units"], pair["royalty_units"], pair["units"]) == (
        3,
        3,
        12,
        18,
    )
    assert theirs["net"] == [18, -18]


def test_ofc_foul_loses_as_scooped_and_collects_nothing() -> None:
    theirs, ours = both([OFC_P0, OFC_FOUL], OFC)
    # 3 rows of 1 + royalty each (7 + 8 + 6), and 3 for the scoop: 27; the fouled board's own royalties
    # (kings in front 8, the flush in the back 4) are void.
    assert theirs["net"] == [27, -27]
    assert ours["pairs"][0]["decided_by"] == "foul"
    assert ours["players"][1]["fantasyland_cards"] == 0


def test_ofc_preset_source_names_a_public_engine() -> None:
    assert "soramamepiyo/OpenFaceChinesePoker" in Rules.preset_source("ofc")
    assert "OFCScoreCalculator.cs" in Rules.preset_source("ofc")


# ----- RULES.md 4.2: fantasyland ------------------------------------------------------------------------

# P1 enters with queens in front; P2 played in fantasyland and stays with trips in front; P3 played in
# fantasyland and leaves (jacks in front, a full house in the back).
FL_P1 = Hand("Qs Qh 2c", "3d 4d 5d 6d 8d", "9c 9h 9s Kc Kd")
FL_P2 = Hand("7c 7d 7h", "Tc Jc Qc Ks Ad", "2s 3s 4s 5s 8s")
FL_P3 = Hand("Jh Jd 3c", "4c 4h 6c 6h 8c", "Ac Ah As Td Th")


def test_fantasyland_worked_example() -> None:
    theirs, ours = both([FL_P1, FL_P2, FL_P3], OFC, fantasyland=[False, True, True])
    assert theirs["net"] == [9, 13, -22]
    assert theirs["fantasyland_cards"] == [14, 14, 0]
    assert [p["fantasyland_cards"] for p in ours["players"]] == [14, 14, 0]
    # Without the flags P2 enters with its trips and P3 (jacks) does not qualify.
    assert both([FL_P1, FL_P2, FL_P3], OFC)[0]["fantasyland_cards"] == [14, 14, 0]
    progressive = OFC.replace(fantasyland="progressive")
    assert both([FL_P1, FL_P2, FL_P3], progressive)[0]["fantasyland_cards"] == [14, 17, 0]
    assert both([FL_P1, FL_P2, FL_P3], progressive, [False, True, True])[0]["fantasyland_cards"] == [
        14,
        14,
        0,
    ]


@pytest.mark.parametrize(
    ("front", "standard", "progressive"),
    [
        ("Js Jh 2c", 0, 0),
        ("Qs Qh 2c", 14, 14),
        ("Ks Kh 2c", 14, 15),
        ("As Ah 2c", 14, 16),
        ("5s 5h 5c", 14, 17),
    ],
)
def test_fantasyland_entry_by_front(front: str, standard: int, progressive: int) -> None:
    hand = Hand(front, "3d 4d 6d 7d 8d", "9c 9h 9s Kc Kd")
    other = Hand("2s 3s 4s", "Tc Th Td 8h 7h", "6c 6h 6s Qc Qd")
    for mode, cards in (("standard", standard), ("progressive", progressive), ("off", 0)):
        theirs, _ = both([hand, other], OFC.replace(fantasyland=mode))
        assert theirs["fantasyland_cards"][0] == cards, (front, mode)


def test_fantasyland_stay_rule_middle_and_back() -> None:
    middle_full = Hand("2c 3d 4h", "8c 8d 8h Kc Kd", "9s 9h 9d 9c 2s")  # stays by the middle, and the back
    back_quads = Hand("2d 3c 4c", "Ts Th Js Jh 5d", "7c 7d 7h 7s 6c")  # stays by the back only
    plain = Hand("Ah As 5c", "Tc Td Jc Jd 6d", "Qc Qd Qh 6h 6s")  # aces in front do not keep it there
    for hand, stays in ((middle_full, 14), (back_quads, 14), (plain, 0)):
        assert not hand.is_foul(OFC)
        other = Hand.from_cards([c for c in range(52) if c not in hand.cards][:13])  # any other board
        theirs, _ = both([hand, other], OFC, fantasyland=[True, False])
        assert theirs["fantasyland_cards"][0] == stays


def test_fantasyland_input_errors() -> None:
    with pytest.raises(
        ValueError, match=r"player 1 played in fantasyland but these rules have fantasyland = \"off\""
    ):
        settle([OFC_P0, OFC_P1], Rules(), fantasyland=[False, True])
    with pytest.raises(ValueError, match="fantasyland needs one flag per player"):
        settle([OFC_P0, OFC_P1], OFC, fantasyland=[True])
    with pytest.raises(TypeError, match=r"fantasyland\[0\] must be a bool"):
        settle([OFC_P0, OFC_P1], OFC, fantasyland=[1, 0])  # type: ignore[list-item]
    deal = Hand.from_cards(list(range(13))), Hand.from_cards(list(range(13, 26)))
    four = [*deal, Hand.from_cards(list(range(26, 39))), Hand.from_cards(list(range(39, 52)))]
    with pytest.raises(ValueError, match="with fantasyland on a round has 2 or 3 players"):
        settle(four, OFC)
    assert len(settle(four, OFC.replace(fantasyland="off")).net) == 4
    with pytest.raises(ValueError, match="2 or 3 players"):
        ref.settle(_players(four), OFC.resolved())


def test_fantasyland_in_the_json_round_format() -> None:
    data = {
        "id": "fl",
        "rules": "ofc",
        "players": [
            {"name": "P1", "front": "Qs Qh 2c", "middle": "3d 4d 5d 6d 8d", "back": "9c 9h 9s Kc Kd"},
            {"name": "P2", "front": "7c 7d 7h", "middle": "Tc Jc Qc Ks Ad", "back": "2s 3s 4s 5s 8s",
             "fantasyland": True},
            {"name": "P3", "front": "Jh Jd 3c", "middle": "4c 4h 6c 6h 8c", "back": "Ac Ah As Td Th",
             "fantasyland": True},
        ],
    }  # fmt: skip
    rnd = parse_round(data)
    assert rnd.fantasyland == (False, True, True)
    assert round_input(rnd)["players"][2]["fantasyland"] is True
    out = round_output(rnd, settle_round(rnd))
    assert [p["fantasyland_cards"] for p in out["players"]] == [14, 14, 0]
    # verify compares the field.
    wrong = json.loads(json.dumps(out))
    wrong["players"][2]["fantasyland_cards"] = 14
    found = compare_outputs([out], [wrong])
    assert [d.field for d in found] == ["fantasyland_cards"]
    del wrong["players"][2]["fantasyland_cards"]
    assert [d.field for d in compare_outputs([out], [wrong])] == ["fantasyland_cards"]
    with pytest.raises(ValueError, match="fantasyland must be true or false"):
        parse_round({**data, "players": [{**data["players"][0], "fantasyland": 1}, data["players"][1]]})
    off = {**data, "rules": "pagat"}
    with pytest.raises(
        ValueError, match=r"P2 played in fantasyland, but the rules have fantasyland = \"off\""
    ):
        settle_round(parse_round(off))


def test_outputs_without_fantasyland_rules_have_no_new_field() -> None:
    out = settle([OFC_P0, OFC_P1], Rules()).to_dict()
    assert all("fantasyland_cards" not in p for p in out["players"])
