"""``chinese-poker ofc fantasyland``: the best fantasyland setting on the command line."""

from __future__ import annotations

import json

import pytest
from chinese_poker.cli import main

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
