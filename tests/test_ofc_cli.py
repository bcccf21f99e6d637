"""``chinese-poker ofc fantasyland``: the best fantasyland setting on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chinese_poker.cli import main
from chinese_poker.rules import Rules

HAND = ["As", "Ah", "Ad", "Kc", "Kd", "Kh", "Qs", "Qh", "9c", "Tc", "Jc", "Qc", "8c", "2d"]


def test_fantasyland_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ofc", "fantasyland", *HAND, "--stay-value", "10"]) == 0
    text = capsys.readouterr().out
    assert "discard 2d" in text
    assert "royalties 49, stays in fantasyland (+10): value 59" in text
    assert main(["ofc", "fantasyland", *HAND, "--stay-value", "0", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["royalties"] == {"front": 22, "middle": 12, "back": 15}
    assert data["value"] == 49.0
    assert data["stays"] is True


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["ofc", "fantasyland", "As", "Ah"], "14 to 17 cards, got 2"),
        (["ofc", "fantasyland", *HAND[:-1], "As"], "As"),
        (["ofc", "fantasyland", *HAND, "--stay-value", "-3"], "stay_value"),
        (["ofc", "fantasyland", *HAND, "--rules", "nosuch"], "unknown preset"),
        (["ofc"], "needs a subcommand"),
    ],
)
def test_bad_input_exits_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def _rules_file(tmp_path: object) -> str:
    path = Path(str(tmp_path)) / "pineapple.json"
    path.write_text(Rules.preset("ofc").replace(ofc_variant="pineapple").to_json())
    return str(path)


def test_advise_lists_every_placement_best_first(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = _rules_file(tmp_path)
    argv = ["ofc", "advise", "--board", "Qs/2c 3c/Kc Kd", "--board", "//2d 3d 4d 5d 6d", "--hand", "Qh 9s 9c"]
    assert main([*argv, "--rules", rules, "--samples", "200", "--top", "0", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["street"] == 1
    assert len(data["options"]) == 27
    expected = [o["expected"] for o in data["options"]]
    assert expected == sorted(expected, reverse=True)
    assert all(o["deals"] == 200 and len(o["discards"]) == 1 for o in data["options"])
    assert main([*argv, "--rules", rules, "--samples", "200", "--top", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "street 1, player 0: 27 placements (200 deals, 95% interval)"
    assert len(lines) == 4


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--hand", "Qh 9s Qs"], "card Qs placed twice: player 0 front and player 0's hand"),
        (["--hand", "Qh 9s"], "street 1 deals 3 cards, the hand holds 2"),
        (["--hand", "Qh 9s 9c", "--discards", "8c"], "street 1 follows 0 discard(s), got 1"),
        (["--hand", "Qh 9s 9c", "--samples", "0"], "samples must be"),
    ],
)
def test_advise_bad_positions_exit_2(
    tmp_path: object, extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["ofc", "advise", "--board", "Qs/2c 3c/Kc Kd", "--board", "//2d 3d 4d 5d 6d", "--rules"]
    assert main([*argv, _rules_file(tmp_path), *extra]) == 2
    assert message in capsys.readouterr().err


def test_advise_needs_three_rows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ofc", "advise", "--board", "Qs 2c", "--board", "//", "--hand", "Qh 9s 9c"]) == 2
    assert "FRONT/MIDDLE/BACK" in capsys.readouterr().err


def test_play_greedy_against_itself_is_even(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "ofc",
                "play",
                "greedy",
                "greedy",
                "--deals",
                "3",
                "--rules",
                _rules_file(tmp_path),
                "--format",
                "json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["deals"] == 3
    assert [r["units"] for r in data["results"]] == [0.0, 0.0]


def test_play_carries_fantasyland_into_the_next_deal(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seed 53 (test_ofc_play.py): seat 1 plays deals 2 and 3 in fantasyland, in both rotations.
    args = ["ofc", "play", "greedy", "greedy", "--deals", "4", "--seed", "53", "--format", "json"]
    assert main([*args, "--rules", _rules_file(tmp_path), "--carry-fantasyland"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["fantasyland_hands"] for r in data["results"]] == [2, 2]
    assert main([*args, "--rules", _rules_file(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["fantasyland_hands"] for r in data["results"]] == [0, 0]


def _progressive_file(tmp_path: object, fantasyland: str = "progressive") -> str:
    path = Path(str(tmp_path)) / f"pineapple-{fantasyland}.json"
    path.write_text(Rules.preset("ofc").replace(ofc_variant="pineapple", fantasyland=fantasyland).to_json())
    return str(path)


ADVISE_AGAINST_FANTASYLAND = [
    "ofc",
    "advise",
    "--board",
    "Qs/2c 3c/Kc Kd",
    "--board",
    "//",
    "--hand",
    "Qh 9s 9c",
]


@pytest.mark.parametrize("seat", ["1", "1:14", "1:15", "1:16", "1:17"])
def test_advise_takes_a_progressive_fantasyland_hand_of_14_to_17(
    tmp_path: object, seat: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*ADVISE_AGAINST_FANTASYLAND, "--rules", _progressive_file(tmp_path), "--fantasyland", seat]
    assert main([*argv, "--samples", "60", "--top", "0", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["options"]) == 27
    assert all(o["deals"] == 60 for o in data["options"])


@pytest.mark.parametrize(
    ("fantasyland", "seats", "message"),
    [
        (
            "standard",
            ["1:15"],
            "--fantasyland 1:15: seat 1: a fantasyland hand holds 14 cards under "
            'fantasyland="standard", got 15',
        ),
        ("standard", ["1:17"], "holds 14 cards under"),
        (
            "progressive",
            ["1:18"],
            "--fantasyland 1:18: seat 1: a fantasyland hand holds 14 to 17 cards under "
            'fantasyland="progressive", got 18',
        ),
        ("progressive", ["1:13"], "holds 14 to 17 cards under"),
        ("progressive", ["1:0"], "holds 14 to 17 cards under"),
        ("off", ["1"], 'no fantasyland hand is dealt under fantasyland="off", got 14 cards'),
        ("progressive", ["1:x"], "--fantasyland 1:x: give SEAT or SEAT:CARDS, e.g. 1 or 1:16"),
        ("progressive", ["seat"], "give SEAT or SEAT:CARDS"),
        ("progressive", ["2:15"], "--fantasyland 2:15: no seat 2; the 2 boards are seats 0..1"),
        ("progressive", ["1:15", "1:16"], "--fantasyland 1:16: seat 1 is given twice"),
        ("progressive", ["0:15"], "player 0 plays in fantasyland: set the hand with fantasyland()"),
    ],
)
def test_advise_refuses_fantasyland_hands_the_rules_do_not_deal(
    tmp_path: object, fantasyland: str, seats: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*ADVISE_AGAINST_FANTASYLAND, "--rules", _progressive_file(tmp_path, fantasyland)]
    for seat in seats:
        argv += ["--fantasyland", seat]
    assert main(argv) == 2
    assert message in capsys.readouterr().err
