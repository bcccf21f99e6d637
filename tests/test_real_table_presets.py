"""The named presets of real tables (RULES.md section 6) and their two knobs, ace_basis and shooting
(RULES.md 3.1, 11.7, 11.9): each worked example through the C++ core and the pure-Python reference."""

from __future__ import annotations

import json
from typing import Any

import pytest
from chinese_poker import Hand, Rules, evaluate, parse_card, settle
from chinese_poker import reference as ref
from chinese_poker.formats.rounds import parse_round, round_output, settle_round
from chinese_poker.formats.verify import compare_outputs

# RULES.md 6, the maubinh round: the whole deck among four players; West fouls (jacks in front over nines
# in the middle over sevens in the back). Aces: North 3, East 0, South 1, West 0.
MAUBINH_ROUND = [
    Hand("As Ah Ad", "Kc Kd Kh 5c 5d", "9s Ts Js Qs Ks"),
    Hand("2c 3d 4h", "6c 7d 8h 9c Jd", "Tc Th Td 2s 3s"),
    Hand("Qc Qd 7s", "8c 8d 6h 6d 4c", "Ac 2h 3h 4s 5s"),
    Hand("Jc Jh Qh", "9d 9h 2d 3c 4d", "7c 7h 8s 6s 5h"),
]
# RULES.md 6, the shisanshui-rtxux round: North against East is 0, +1, +1 (a tie in front).
RTXUX_ROUND = [
    Hand("Kh Kd 2c", "As Qs Js 8s 3s", "9s 9h 9d 4c 4d"),
    Hand("Kc Ks 2d", "Ah Jh 6h 5h 2h", "8c 8d 8h 3d 3h"),
    Hand("Qc Qd 5c", "Tc Td Th 6c 6d", "7c 7d 7h 7s 5d"),
    Hand("9c Ts Qh", "Ac Ad Jc Jd 4s", "2s 3c 4h 5s 6s"),
]
# RULES.md 6, the shisanshui-luosong round: North scoops both others; East holds the horse card Ah.
LUOSONG_ROUND = [
    Hand("7c 7d 7h", "2d 3d 4d 5d 6d", "9s Ts Js Qs Ks"),
    Hand("Ah 2c 3c", "8c 8d 4h 4s Jh", "Tc Th Td 3h 3s"),
    Hand("Kh Kd 5c", "9c 9h 6c 6h Qd", "Ac Ad As 2h 2s"),
]
# RULES.md 6, the shisanshui-puxian round: North shoots all three others; East holds the horse card 8h.
PUXIAN_ROUND = [
    Hand("Kc Kd Kh", "Ac Ad Ah As 2d", "9s Ts Js Qs Ks"),
    Hand("Qc Qd 3h", "8c 8d 8h 4d 4h", "7c 7d 7h 7s 3c"),
    Hand("Jc Jh 2h", "9c 9d 9h 5c 5h", "6c 6d 6h 6s 2c"),
    Hand("Qh Jd 8s", "3d 3s 5d 5s 2s", "Tc Td Th 4c 4s"),
]

MAUBINH = Rules.preset("maubinh")
RTXUX = Rules.preset("shisanshui-rtxux")
LUOSONG = Rules.preset("shisanshui-luosong")
PUXIAN = Rules.preset("shisanshui-puxian")


def _reference_players(hands: list[Hand]) -> list[dict[str, Any]]:
    return [
        {"declared": list(h.cards)}
        if h.is_declared
        else {"front": list(h.front), "middle": list(h.middle), "back": list(h.back)}
        for h in hands
    ]


def both(hands: list[Hand], rules: Rules, **options: Any) -> tuple[Any, dict[str, Any]]:
    """The core's settlement and the reference's, whose nets, pair units and table ace parts agree."""
    ours = settle(hands, rules, **options)
    theirs = ref.settle(_reference_players(hands), rules.resolved(), **options)
    assert list(ours.net) == theirs["net"]
    assert [p.units for p in ours.pairs] == [p["units"] for p in theirs["pairs"]]
    assert [p.multiplier for p in ours.pairs] == [p["multiplier"] for p in theirs["pairs"]]
    assert [p.ace_units for p in ours.players] == theirs["ace_units"]
    return ours, theirs


def test_maubinh_worked_example() -> None:
    result, _ = both(MAUBINH_ROUND, MAUBINH)
    assert [p.foul for p in result.players] == [False, False, False, True]
    # North: 12 + 2 + 5 = 19 a pair, x2 for the scoop, x2 for the sweep; West's foul pays as a scoop.
    assert [result.pair(0, k).units for k in (1, 2, 3)] == [76, 76, 76]
    assert result.home_run == (True, False, False, False)
    assert [result.pair(1, 2).units, result.pair(1, 3).units, result.pair(2, 3).units] == [-6, 6, 6]
    assert [p.ace_units for p in result.players] == [2, -1, 0, -1]
    assert all(p.ace_units == 0 for p in result.pairs)  # counted against the table, not per pair
    assert result.net == (230, -77, -64, -89)
    # Pairwise, the same ace units pay four times as much: North 4 x (3 - 1).
    pairwise = MAUBINH.replace(ace_basis="pairwise")
    assert both(MAUBINH_ROUND, pairwise)[0].net == (236, -80, -64, -92)


def test_maubinh_round_settled_by_a_natural_has_no_chi_a() -> None:
    # East declares a natural its cards do not hold: the false declaration ends the round, 6 to each
    # opponent, and no Chi A is counted.
    declared = Hand.declared("2c 3d 4h 6c 7d 8h 9c Jd Tc Th Td 2s 3s")
    hands = [MAUBINH_ROUND[0], declared, MAUBINH_ROUND[2], MAUBINH_ROUND[3]]
    result, _ = both(hands, MAUBINH)
    assert result.net == (6, -18, 6, 6)
    assert [p.ace_units for p in result.players] == [0, 0, 0, 0]


def test_ace_basis_table_needs_four_players_without_a_banker() -> None:
    rules = Rules(ace_units=1, ace_basis="table")
    with pytest.raises(ValueError, match=r"'ace_basis'.*4 players"):
        settle(MAUBINH_ROUND[:3], rules)
    with pytest.raises(ValueError, match=r"'ace_basis'.*banker seat 0"):
        settle(MAUBINH_ROUND, rules, banker=0)
    with pytest.raises(ValueError, match="ace_basis"):
        ref.settle(_reference_players(MAUBINH_ROUND[:3]), rules.resolved())
    with pytest.raises(ValueError, match=r"'ace_basis'.*'pairwise', 'table'"):
        Rules(ace_basis="per_player")  # type: ignore[arg-type]


def test_ace_basis_table_in_the_output_and_explain() -> None:
    result = settle(MAUBINH_ROUND, MAUBINH)
    players = result.to_dict()["players"]
    assert [p["ace_units"] for p in players] == [2, -1, 0, -1]
    assert "ace_units" not in settle(MAUBINH_ROUND, Rules()).to_dict()["players"][0]
    assert "Chi A against the table" in result.explain()
    assert "North +2" in settle(MAUBINH_ROUND, MAUBINH, names=["North", "East", "South", "West"]).explain()
    # The JSON round format carries it, and verify compares it.
    rnd = parse_round({
        "id": "maubinh",
        "rules": "maubinh",
        "players": [
            {"name": name, **dict(zip(("front", "middle", "back"), str(h).split(" / ")))}
            for name, h in zip(("North", "East", "South", "West"), MAUBINH_ROUND)
        ],
    })  # fmt: skip
    expected = round_output(rnd, settle_round(rnd))
    assert compare_outputs([expected], [expected], strict=True) == []
    actual = json.loads(json.dumps(expected))
    actual["players"][0]["ace_units"] += 1
    found = compare_outputs([expected], [actual], strict=True)
    assert {(d.field, d.expected, d.actual) for d in found} == {("ace_units", 2, 3)}
    del actual["players"][0]["ace_units"]
    assert compare_outputs([expected], [actual])  # required when expected


def test_shisanshui_rtxux_worked_example() -> None:
    result, _ = both(RTXUX_ROUND, RTXUX)
    assert result.pair(0, 1).rows == (0, 1, 1)
    assert result.pair(0, 1).multiplier == 2
    assert result.pair(0, 1).scoop == 0
    assert result.pair(0, 1).units == 4
    assert [result.pair(0, 2).units, result.pair(1, 2).units] == [-5, -5]
    assert [result.pair(0, 3).units, result.pair(1, 3).units, result.pair(2, 3).units] == [6, 6, 14]
    assert result.home_run == (False, False, False, False)
    assert result.net == (5, -3, 24, -26)
    # Under shooting="scoop" the 0, +1, +1 pair is not doubled.
    assert both(RTXUX_ROUND, RTXUX.replace(shooting="scoop"))[0].net == (3, -1, 24, -26)


def test_shooting_no_lost_row_one_zero_two() -> None:
    # 1-0-2: A wins the back and ties front and middle.
    hands = [
        Hand("Kh Kd 2c", "9s 9h 8d 4c 4d", "As Qs Js 7s 3s"),
        Hand("Kc Ks 2d", "9c 9d 8h 4h 4s", "Ah Jh 6h 5h 2h"),
    ]
    base = Rules(scoop_multiplier=2, scoop_bonus=1)
    assert both(hands, base)[0].net == (1, -1)
    shot, _ = both(hands, base.replace(shooting="no_lost_row"))
    assert shot.net == (2, -2)
    assert shot.pairs[0].scoop == 0
    assert shot.pairs[0].scoop_bonus_units == 0
    with pytest.raises(ValueError, match=r"'shooting'.*'scoop', 'no_lost_row'"):
        Rules(shooting="ties")  # type: ignore[arg-type]


def test_shisanshui_luosong_worked_example() -> None:
    result, _ = both(LUOSONG_ROUND, LUOSONG)
    north_east, north_south = result.pair(0, 1), result.pair(0, 2)
    assert north_east.subtotal == 36
    assert north_east.capped
    assert north_east.home_run == 2
    assert north_east.horse == 2
    assert north_east.units == 48
    assert north_south.units == 24
    assert north_south.horse == 1
    assert result.pair(1, 2).units == -12  # South scoops East: 6, x2 for East's horse card
    assert result.net == (72, -60, -12)
    # Two players: no home run, the capped 12 doubled by the horse card (the rules text's own example).
    assert both(LUOSONG_ROUND[:2], LUOSONG)[0].net == (24, -24)


def test_shisanshui_puxian_worked_example() -> None:
    result, _ = both(PUXIAN_ROUND, PUXIAN)
    north_east = result.pair(0, 1)
    assert north_east.rows == (1, 1, 1)
    assert north_east.royalties[0] == (3, 8, 5)  # front trips, middle four of a kind, back straight flush
    assert north_east.subtotal == 32  # 16, shot x2
    assert north_east.home_run == 2
    assert north_east.horse == 2
    assert north_east.units == 128
    assert [result.pair(0, 2).units, result.pair(0, 3).units] == [64, 64]
    assert result.home_run == (True, False, False, False)
    east_south = result.pair(1, 2)
    assert east_south.rows == (1, -1, 1)
    # home_run_scope="table": the 全垒打 doubles the pairs between the other players as well.
    assert east_south.home_run == 2
    assert east_south.units == 12  # 1 - 2 + 4, doubled by the home run and by East's horse card
    assert [result.pair(1, 3).units, result.pair(2, 3).units] == [56, 28]
    assert result.net == (256, -60, -48, -148)  # the server's figures
    # With the home run on North's pairs only, the figures before the knob.
    own = PUXIAN.replace(home_run_scope="own_pairs")
    own_result, _ = both(PUXIAN_ROUND, own)
    assert own_result.pair(1, 2).home_run == 1
    assert own_result.net == (256, -94, -56, -106)
    # Three players: still a home run (ALL_SHOOT_PLAYER_NUM = 3); two players: none.
    assert both(PUXIAN_ROUND[:3], PUXIAN)[0].home_run == (True, False, False)
    assert both(PUXIAN_ROUND[:2], PUXIAN)[0].net == (64, -64)


def test_shisanshui_puxian_naturals() -> None:
    dragon = Hand.declared("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")  # holds the horse card 8h
    six_pairs = Hand.declared("2d 2h 5c 5d 7c 7h 9c 9d Jc Jh Kc Kd Ad")
    flushes = Hand.declared("3h 6h Th 2s 3s 4s 6s 7s 4d 6d 8d Td Qd")
    result, _ = both([dragon, six_pairs, flushes], PUXIAN)
    assert [p.natural for p in result.players] == ["dragon", "six_pairs", "three_flushes"]
    # The dragon's 52, doubled by its horse card; six pairs and three flushes both pay 6: nothing.
    assert [result.pair(0, 1).units, result.pair(0, 2).units, result.pair(1, 2).units] == [104, 104, 0]
    assert result.net == (208, -104, -104)
    # Twelve court cards making four trips: the higher payout (52) of the two kinds held.
    royals = Hand.declared("Jc Jd Jh Js Qc Qd Qh Kc Kd Kh Ac Ad Ah")
    plain = Hand("2c 3d 5h", "6c 7d 8c 9s Tc", "2s 3s 4s 6s 7s")
    royal_result, _ = both([royals, plain], PUXIAN)
    assert royal_result.players[0].natural == "four_trips"
    assert royal_result.net == (52, -52)
    # 十二皇族: twelve cards J to A and one lower card, no other kind.
    royals_and_one = Hand.declared("Jc Jd Qc Qd Qh Kc Kd Kh Ks Ac Ad Ah 2h")
    one_result, _ = both([royals_and_one, plain], PUXIAN)
    assert one_result.players[0].natural == "twelve_royals_and_one"
    assert one_result.net == (26, -26)


# The same server's room with clubs and hearts added (加二色), five players here.
PUXIAN_SIX = Rules.preset("shisanshui-puxian-six")
PUXIAN_SIX_ROUND = [
    Hand.parse(text, extra_suits="ch")
    for text in (
        "Qc Qd Qh / 9c 9c 9h 9h 9d / Ac Ac Ah Ah Ad",
        "Jc 5h 2c / 8s Td As Tc 8c / 7h 7c Kd 7c Kh",
        "2c 3s 6h / 8c 4h Qs Jc 4c / Th Kh Ts Tc Kc",
        "7d 9s Ks / 3h 2h 4h 2h 7h / Qc 3c 6c Kc 5c",
        "6c 4s 2s / 5d Qh 7s 5h 5c / 6d Jh Jd 6h Js",
    )
]


def test_shisanshui_puxian_six_worked_example() -> None:
    result, _ = both(PUXIAN_SIX_ROUND, PUXIAN_SIX)
    assert [p.foul for p in result.players] == [False] * 5
    north_east = result.pair(0, 1)
    assert north_east.rows == (1, 1, 1)
    assert north_east.royalties[0] == (3, 20, 10)  # front trips, middle and back five of a kind
    assert north_east.subtotal == 66  # 33, shot x2
    assert north_east.home_run == 2
    assert [result.pair(0, k).units for k in (1, 2, 3, 4)] == [132, 132, 132, 132]
    assert result.home_run == (True, False, False, False, False)
    # West's middle is a flush holding a pair of deuces (both 2h): a flush, under its clubs flush back.
    assert result.players[3].strengths[1] == 0x574322
    assert result.pair(2, 4).units == -12  # the fifth player shoots South: 3 x 2, doubled by the 全垒打
    assert result.net == (528, -134, -148, -126, -120)
    # Six at the table need both added suits; a 52-card deck seats four.
    with pytest.raises(ValueError, match="5 players needs 1 added suit"):
        settle(PUXIAN_SIX_ROUND, PUXIAN_SIX.replace(extra_suits=""))
    assert both(PUXIAN_SIX_ROUND, PUXIAN_SIX.replace(extra_suits="hc"))[0].net == result.net


def test_shisanshui_puxian_six_naturals() -> None:
    six = Hand.declared("Ac Ac Ah Ah Ad As 3c 4c 5c 6h 7h 9h 9c", extra_suits="ch")
    fives = Hand.declared("Kc Kc Kh Kh Kd Qc Qc Qh Qh Qs 2c 2d 2h", extra_suits="ch")
    plain = Hand("2s 3d 4d", "5d 6d 7d 8d Td", "7s 8s 9s Ts Js")
    result, _ = both([six, fives, plain], PUXIAN_SIX)
    assert [p.natural for p in result.players] == ["six_of_a_kind", "two_fives_and_trips", None]
    # 六六大顺 20 and 三皇五帝 26 against the plain hand; between them the larger payout, 26, wins.
    assert [result.pair(0, 2).units, result.pair(1, 2).units, result.pair(0, 1).units] == [20, 26, -26]


# The same server's room with two jokers (鬼牌), four players from 54 cards.
PUXIAN_GHOST = Rules.preset("shisanshui-puxian-ghost")
PUXIAN_GHOST_ROUND = [
    Hand.parse(text, jokers=2)
    for text in (
        "X2 Kh Kd / 9c 9d 9h 5c 5d / Ac Ad Ah As X1",
        "Qc Qd 3h / 8c 8d 8h 4d 4h / 7c 7d 7h 7s 3c",
        "Jc Jd 3d / Tc Td Th 4c 4s / 6c 6d 6h 6s 3s",
        "Kc Ks Qh / 2c 2d 2h 2s Jh / 8s 9s Ts Js Qs",
    )
]


def test_shisanshui_puxian_ghost_worked_example() -> None:
    result, _ = both(PUXIAN_GHOST_ROUND, PUXIAN_GHOST)
    north = result.players[0]
    assert north.joker_cards == (parse_card("As"), parse_card("Ks"))  # X1 a fifth ace, X2 a third king
    assert north.royalties == (3, 2, 10)
    assert north.strengths[2] == evaluate("Ac Ad Ah As As", extra_suits="s")  # five of a kind, one deck
    assert result.pair(0, 3).rows == (1, -1, 1)  # kings trips over kings; five aces over a straight flush
    assert result.pair(0, 1).units == 60  # 15 shot x2, East's horse card 8h x2
    assert [result.pair(0, k).units for k in (2, 3)] == [11, 5]
    assert result.home_run == (False,) * 4
    assert result.net == (76, -110, -45, 79)
    text = settle(PUXIAN_GHOST_ROUND, PUXIAN_GHOST).explain()
    assert "(X2 as Ks)" in text
    assert "(X1 as As)" in text
    # Without jokers in the pack the round is refused, naming the joker.
    with pytest.raises(ValueError, match=r"player 0\b.*X2.*joker"):
        settle(PUXIAN_GHOST_ROUND, PUXIAN_GHOST.replace(jokers=0))


@pytest.mark.parametrize(
    "name",
    [
        "maubinh",
        "shisanshui-rtxux",
        "shisanshui-luosong",
        "shisanshui-puxian",
        "shisanshui-puxian-six",
        "shisanshui-puxian-ghost",
    ],
)
def test_real_table_presets_name_their_source(name: str) -> None:
    rules = Rules.preset(name)
    assert rules.name == name
    assert Rules.preset_source(name)
    assert ref.resolve_rules(name) == rules.resolved()
