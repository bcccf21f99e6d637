"""The real-table settlement knobs (RULES.md 3.1 and 11): each worked example of RULES.md 3.1, through
the C++ core and through the pure-Python reference, and the errors of bad values and banker rounds."""

from __future__ import annotations

import json
import pickle
from typing import Any

import numpy as np
import pytest
from chinese_poker import Hand, Rules, settle, settle_batch
from chinese_poker import reference as ref
from chinese_poker.formats.rounds import RoundError, parse_round, round_input, round_output, settle_round
from chinese_poker.formats.verify import compare_outputs

E1 = [
    Hand("6s 6h 6d", "4s 4h 4d 9s 9h", "Ks Kh Kd 8s 8h"),
    Hand("Qs Qh 7s", "Js Jh Jd 2s 2h", "Ac 5s 5h 5d 5c"),
]
E2 = [
    Hand("Ts Th Qs", "6s 5s 4s 3s 2h", "Ks Kh Kd 3h 3d"),
    Hand("Ac Kc 7s", "Td Tc 9s 8s 6c", "Jh Jd Jc 7h 7d"),
    Hand("Qd Qc 2c", "8h 7c 6d 5c 4c", "9h 9d 9c 8d 8c"),
    Hand("Qh Js 6h", "5h 5d 4h 4d 3c", "As Ah Ad 2s 2d"),
]
E6_ROYAL = [
    Hand("Qs Qh Qd", "9h 8h 7h 6h 5h", "Kc Qc Jc Tc 9c"),
    Hand("2c 3d 4h", "As Kd 7c 6s 2h", "Ad Kh 8c 7s 3s"),
]
E6_TABLE = [
    Hand("Ac Ad Kc", "Ks Qd Js Td 9s", "Ah Jh 9h 7h 5h"),
    Hand("Kd Qc 2c", "Qs Qh 8c 6c 3d", "3c 4c 5c 6d 7d"),
    Hand("Kh Jc 2d", "Tc Th 8d 6s 3s", "8h 8s 5d 5s 2h"),
    Hand("As Jd Ts", "9c 9d 7c 7s 6h", "4d 4h 4s 3h 2s"),
]
FOUL_PAIR = [
    Hand("Qc Jd 8h", "9h 9d 5c 5d 2c", "6c 6d 6h 6s 8d"),
    Hand("Kh Ks 2d", "Tc Th 9c 5s 3h", "Ac Ad 7c 7d 4s"),  # foul: kings in front over tens
]
TWO_FOULS = [
    Hand("Ah Ad 3c", "Kc Qd 8h 6s 2c", "Tc 9d 7h 5s 4d"),  # foul: aces in front over king-high
    Hand("Kh Ks 2d", "Jc Jd 9c 5h 3h", "Qc Qh 7c 7d 4s"),  # foul: kings in front over jacks
]
SIX_PAIRS = Hand.declared("2c 2d 5h 5s 7c 7d 9h 9s Jc Jd Kh Ks Ac")
THREE_FLUSHES = Hand.declared("3h 4h 6h 2s 3s 4s 6s 8s 3d 4d 6d 8d Td")
NATURALS_TABLE = [
    SIX_PAIRS,
    Hand("2h 3d Ad", "4c 6c 8c Tc Qc", "4s 6s 8s Ts Qs"),
    Hand("2s 3h 5c", "7h 9c Jh Kc Ah", "4d 6d 8d Td Qd"),
    Hand("5d 7s 9d", "3c 3s Js Kd As", "4h 6h 8h Th Qh"),
]

PAGAT = Rules()
PAGAT_BONUS = Rules.preset("pagat-bonus")
HK = Rules.preset("shisanzhang-hk")


def _reference_players(hands: list[Hand]) -> list[dict[str, Any]]:
    return [
        {"declared": list(h.cards)}
        if h.is_declared
        else {"front": list(h.front), "middle": list(h.middle), "back": list(h.back)}
        for h in hands
    ]


def nets(hands: list[Hand], rules: Rules, **options: Any) -> tuple[int, ...]:
    """The nets by the core, checked against the reference's."""
    ours = settle(hands, rules, **options).net
    theirs = ref.settle(_reference_players(hands), rules.resolved(), **options)["net"]
    assert list(ours) == theirs
    return ours


def test_row_base() -> None:
    assert nets(E1, PAGAT) == (-1, 1)
    assert nets(E1, PAGAT.replace(row_base=(1, 2, 3))) == (-4, 4)
    assert nets(E1, PAGAT_BONUS.replace(row_base=(1, 2, 3))) == (-3, 3)  # royalties replace the bases
    assert nets(E1, PAGAT_BONUS.replace(row_base=(1, 2, 3), royalty_mode="add")) == (-7, 7)
    assert Rules(row_base={"front": 1, "middle": 2, "back": 3}).row_base == (1, 2, 3)
    assert Rules(row_base=[2, 2, 2]).to_dict()["row_base"] == [2, 2, 2]


def test_ace_units_pairwise_and_the_table_count() -> None:
    assert nets(E2, PAGAT) == (3, -5, 3, -1)
    result = settle(E2, PAGAT.replace(ace_units=1))
    assert nets(E2, PAGAT.replace(ace_units=1)) == (-1, -5, -1, 7)
    aces = [sum(c // 4 == 12 for c in h.cards) for h in E2]
    assert aces == [0, 1, 0, 3]
    per_player = [
        sum(p.ace_units * (1 if p.i == k else -1) for p in result.pairs if k in (p.i, p.j)) for k in range(4)
    ]
    assert per_player == [-4, 0, -4, 8]
    # With all four aces dealt the pairwise part is four times the count against the table (aces - 1).
    assert per_player == [4 * (a - 1) for a in aces]


def test_ace_part_is_never_multiplied_or_capped() -> None:
    rules = HK.replace(ace_units=1, pair_cap=5)
    result = settle(E6_TABLE, rules)
    assert nets(E6_TABLE, rules) == result.net
    first = result.pair(0, 1)
    assert first.home_run == 2
    assert first.ace_units == 3  # P1 holds three aces, P2 none
    assert first.units == 5 * 2 + 3


def test_foul_policy_as_laid_and_foul_vs_foul() -> None:
    assert nets(FOUL_PAIR, PAGAT) == (3, -3)
    assert nets(FOUL_PAIR, PAGAT.replace(foul_policy="as_laid")) == (1, -1)
    assert settle(FOUL_PAIR, PAGAT.replace(foul_policy="as_laid")).pair(0, 1).decided_by == "rows"
    assert all(h.is_foul() for h in TWO_FOULS)
    assert nets(TWO_FOULS, PAGAT) == (0, 0)
    assert nets(TWO_FOULS, PAGAT.replace(foul_vs_foul="as_laid")) == (-1, 1)


def test_caps_and_the_home_run_bonus() -> None:
    assert nets(E6_ROYAL, PAGAT.replace(royalties="eastern")) == (18, -18)
    assert nets(E6_ROYAL, PAGAT.replace(royalties="eastern", pair_cap=12)) == (12, -12)
    assert settle(E6_ROYAL, PAGAT.replace(royalties="eastern", pair_cap=12)).pair(0, 1).capped
    assert nets(E6_TABLE, HK)[0] == 36
    assert nets(E6_TABLE, HK.replace(pair_cap=5))[0] == 30
    assert nets(E6_TABLE, HK.replace(home_run_cap=8))[0] == 24
    assert settle(E6_TABLE, HK.replace(home_run_cap=8)).pair(0, 2).home_run_capped
    assert nets(E6_TABLE, HK.replace(home_run_bonus=1))[0] == 39
    assert nets(E6_TABLE, HK.replace(home_run_bonus=1, home_run_multiplier=1))[0] == 21
    assert settle(E6_TABLE, HK.replace(home_run_bonus=1)).pair(0, 3).home_run_bonus_units == 1


def test_home_run_counts_naturals() -> None:
    assert nets(NATURALS_TABLE, HK)[0] == 9
    result = settle(NATURALS_TABLE, HK.replace(home_run_counts_naturals=True))
    assert nets(NATURALS_TABLE, HK.replace(home_run_counts_naturals=True))[0] == 18
    assert result.home_run == (True, False, False, False)


MAUBINH_FOUL_TABLE = [
    Hand("As Ah 2c", "Kc Kd Kh 5c 5d", "9s Ts Js Qs Ks"),
    Hand("3c 4d 6h", "7c 8d 9h Jc 2d", "Tc Th 8s 8h 3s"),
    Hand("Jh Jd Qh", "9d 2h 3d 4c 6c", "7d 7h 5h 5s 4s"),  # fouled: jacks in front over a nine-high middle
]


def test_foul_counts_for_home_run() -> None:
    # RULES.md 3.1: the Mậu Binh engine's sập làng with a binh lủng opponent not counted as sập.
    rules = Rules.preset("maubinh").replace(ace_basis="pairwise", ace_units=0, foul_policy="lose_all_rows")
    without = settle(MAUBINH_FOUL_TABLE, rules)
    assert [p.units for p in without.pairs] == [16, 8, 3]
    assert without.home_run == (False, False, False)
    counted = rules.replace(foul_counts_for_home_run=True)
    result = settle(MAUBINH_FOUL_TABLE, counted)
    assert [p.units for p in result.pairs] == [32, 16, 3]
    assert result.pair(0, 2).multiplier == 1  # counted toward the home run, not shot itself
    assert result.pair(0, 2).home_run == 2
    assert result.home_run == (True, False, False)
    assert nets(MAUBINH_FOUL_TABLE, counted) == (48, -29, -19)
    assert nets(MAUBINH_FOUL_TABLE, rules) == (24, -13, -11)
    # Under "as_scooped" the pair is a scoop already, and under "as_laid" no foul decides it: no change.
    for policy in ("as_scooped", "as_laid"):
        plain = rules.replace(foul_policy=policy)
        assert nets(MAUBINH_FOUL_TABLE, plain.replace(foul_counts_for_home_run=True)) == nets(
            MAUBINH_FOUL_TABLE, plain
        )
    # The batch kernels agree with the round.
    rounds = np.array([[list(h.cards) for h in MAUBINH_FOUL_TABLE]], dtype=np.uint8)
    assert settle_batch(rounds, counted).tolist() == [[48, -29, -19]]


def test_natural_vs_natural() -> None:
    rules = PAGAT.replace(naturals=[["three_flushes", 5], ["six_pairs", 3]])
    expected = {"by_kind": 3, "by_units": -5, "net": -2, "push": 0}
    for mode, units in expected.items():
        assert nets([SIX_PAIRS, THREE_FLUSHES], rules.replace(natural_vs_natural=mode)) == (units, -units), (
            mode
        )


def test_natural_settles_table_and_units_mode() -> None:
    assert nets(NATURALS_TABLE, PAGAT_BONUS) == (9, 1, -7, -3)
    assert nets(NATURALS_TABLE, PAGAT_BONUS.replace(natural_settles_table=True)) == (9, -3, -3, -3)
    shot = PAGAT_BONUS.replace(scoop_multiplier=2, home_run_multiplier=2, home_run_min_opponents=1)
    assert nets(NATURALS_TABLE, shot)[0] == 9
    assert nets(NATURALS_TABLE, shot.replace(natural_units_mode="as_home_run"))[0] == 36


def test_false_declaration() -> None:
    false_b = [E1[0], Hand.declared(E1[1].cards)]
    with pytest.raises(ValueError, match="declared a natural but holds none"):
        settle(false_b, PAGAT_BONUS)
    rules = PAGAT_BONUS.replace(false_declaration_units=6)
    assert nets(false_b, rules) == (6, -6)
    assert settle(false_b, rules).pair(0, 1).decided_by == "false_declaration"
    # At a table, the false declarer pays everyone; with natural_settles_table the others pay nothing.
    table = [E2[0], Hand.declared(E2[1].cards), E2[2], E2[3]]
    assert nets(table, rules) == (6, -18, 8, 4)
    assert nets(table, rules.replace(natural_settles_table=True)) == (6, -18, 6, 6)


def test_horse_card() -> None:
    assert nets(E1, PAGAT.replace(horse_card="Ac")) == (-2, 2)
    assert nets(E2, PAGAT.replace(horse_card="As")) == (4, -6, 4, -2)
    assert nets(E2, PAGAT.replace(horse_card="As", horse_multiplier=3)) == (5, -7, 5, -3)
    assert Rules(horse_card="as").horse_card == "As"
    assert Rules(horse_card=51).horse_card == "As"


def test_banker_rounds() -> None:
    result = settle(E2, PAGAT, banker=0, bets=[1, 2, 1, 3])
    assert nets(E2, PAGAT, banker=0, bets=[1, 2, 1, 3]) == (8, -6, 1, -3)
    assert [(p.i, p.j, p.bet) for p in result.pairs] == [(0, 1, 2), (0, 2, 1), (0, 3, 3)]
    assert result.to_dict()["banker"] == 0
    assert result.to_dict()["bets"] == [1, 2, 1, 3]
    assert pickle.loads(pickle.dumps(result)) == result
    # The banker in the middle of the seats: pairs stay in (i < j) order, with the banker in each.
    assert [(p.i, p.j) for p in settle(E2, PAGAT, banker=2).pairs] == [(0, 2), (1, 2), (2, 3)]
    # Only the banker makes a home run: E6's P1 scoops all three others.
    assert settle(E6_TABLE, HK, banker=0).home_run == (True, False, False, False)
    assert settle(E6_TABLE, HK, banker=1).home_run == (False, False, False, False)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"banker": 4}, ValueError, r"banker = 4 is not a seat: a round of 4 players has seats 0\.\.3"),
        ({"banker": -1}, ValueError, "is not a seat"),
        ({"banker": 0, "bets": [1, 0, 1, 1]}, ValueError, r"bets\[1\] = 0 \(player 1\) is not in 1\.\.1000"),
        ({"banker": 0, "bets": [1, 1, 1, 1001]}, ValueError, r"bets\[3\] = 1001 \(player 3\)"),
        ({"banker": 0, "bets": [1, 1, 1]}, ValueError, r"bets needs one int per player \(4\), got 3"),
        ({"bets": [1, 1, 1, 1]}, ValueError, "no banker"),
        ({"banker": "North"}, TypeError, "banker must be a seat"),
        ({"banker": 0, "bets": [1, 1.5, 1, 1]}, TypeError, r"bets\[1\] must be an int"),
    ],
)
def test_banker_errors(options: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        settle(E2, PAGAT, **options)


@pytest.mark.parametrize(
    ("knobs", "message"),
    [
        ({"row_base": (0, 1, 1)}, "'row_base'.*out of range.*1 to 1000"),
        ({"row_base": (1, 1)}, "'row_base'.*three ints"),
        ({"row_base": {"front": 1, "middle": 2}}, "'row_base'.*front, middle, back"),
        ({"ace_units": 1001}, "'ace_units'.*0 to 1000"),
        ({"pair_cap": -1}, "'pair_cap'"),
        ({"home_run_cap": 2000}, "'home_run_cap'"),
        ({"home_run_bonus": True}, "'home_run_bonus'"),
        ({"false_declaration_units": -3}, "'false_declaration_units'"),
        ({"horse_multiplier": 0}, "'horse_multiplier'.*1 to 1000"),
        ({"horse_card": "Xs"}, "'horse_card'.*a card such as 'As'"),
        ({"horse_card": ["As"]}, "'horse_card'"),
        ({"natural_vs_natural": "by_rank"}, "'natural_vs_natural'.*'by_kind', 'by_units', 'net', 'push'"),
        ({"natural_units_mode": "sweep"}, "'natural_units_mode'.*'table', 'as_home_run'"),
        ({"foul_policy": "laid"}, "'foul_policy'.*'as_laid'"),
        ({"foul_vs_foul": "none"}, "'foul_vs_foul'.*'push', 'as_laid'"),
        ({"home_run_counts_naturals": 1}, "'home_run_counts_naturals'"),
        ({"natural_settles_table": "yes"}, "'natural_settles_table'"),
    ],
)
def test_bad_values_name_the_knob(knobs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Rules(**knobs)


def test_round_format_banker_and_bets() -> None:
    data = {
        "id": "bank",
        "banker": "North",
        "bets": [1, 2, 1, 3],
        "players": [
            {"name": name, **dict(zip(("front", "middle", "back"), str(h).split(" / ")))}
            for name, h in zip(("North", "East", "South", "West"), E2)
        ],
    }
    rnd = parse_round(data)
    assert rnd.banker == 0
    out = round_output(rnd, settle_round(rnd))
    assert out["net"] == [8, -6, 1, -3]
    assert (out["banker"], out["bets"]) == (0, [1, 2, 1, 3])
    assert [pair["bet"] for pair in out["pairs"]] == [2, 1, 3]
    assert round_input(rnd)["banker"] == "North"
    assert parse_round({**data, "banker": 0}).banker == 0
    for bad, message in (
        ({"banker": "Nobody"}, "banker 'Nobody' is not a player"),
        ({"banker": 4}, "banker seat 4 is not a seat"),
        ({"banker": True}, "banker must be a player's name"),
        ({"bets": [1, 1, 0, 1]}, r"player 3 \(South\): bet 0 is not an int from 1 to 1000"),
        ({"bets": [1, 1]}, "one int per player"),
        ({"banker": None}, "bets are given but the round names no banker"),
    ):
        with pytest.raises(RoundError, match=message):
            parse_round({**data, **bad})


def test_output_is_unchanged_without_the_new_knobs() -> None:
    plain = settle(E1, PAGAT).to_dict()["pairs"][0]
    assert "horse" not in plain
    assert "banker" not in settle(E1, PAGAT).to_dict()
    extended = settle(E1, PAGAT.replace(horse_card="Ac")).to_dict()["pairs"][0]
    assert extended["horse"] == 2
    assert list(extended)[: len(plain)] == list(plain)
    assert "horse" in settle(E1, PAGAT.replace(horse_card="Ac")).explain()


def test_verify_compares_the_new_fields() -> None:
    data = {
        "id": "aces",
        "rules": {"ace_units": 1, "horse_card": "As"},
        "players": [
            {"name": name, **dict(zip(("front", "middle", "back"), str(h).split(" / ")))}
            for name, h in zip(("North", "East", "South", "West"), E2)
        ],
    }
    rnd = parse_round(data)
    expected = round_output(rnd, settle_round(rnd))
    assert compare_outputs([expected], [expected], strict=True) == []
    actual = json.loads(json.dumps(expected))
    actual["pairs"][2]["ace_units"] += 1
    del actual["pairs"][1]["horse"]
    found = compare_outputs([expected], [actual], strict=True)
    assert {(d.field, d.expected, d.actual) for d in found} == {("ace_units", -3, -2), ("horse", 1, None)}
