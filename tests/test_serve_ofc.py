"""POST /v1/ofc/advise and /v1/ofc/fantasyland: what the library gives, and 422s naming the bad field."""

from __future__ import annotations

from typing import Any

import pytest
from chinese_poker.ofc import advise, fantasyland, position
from chinese_poker.rules import Rules
from chinese_poker.serve import Limits, create_app
from starlette.testclient import TestClient

PINEAPPLE = Rules.preset("ofc").replace(ofc_variant="pineapple")
BOARDS = [{"front": "Qs", "middle": "2c 3c", "back": "Kc Kd"}, {"back": "2d 3d 4d 5d 6d"}]
HAND = ["As", "Ah", "Ad", "Kc", "Kd", "Kh", "Qs", "Qh", "9c", "Tc", "Jc", "Qc", "8c", "2d"]


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Limits()), raise_server_exceptions=False)


def test_advise_gives_what_advise_gives(client: TestClient) -> None:
    request = {"rules": PINEAPPLE.to_dict(), "boards": BOARDS, "hand": "Qh 9s 9c", "samples": 300, "seed": 4}
    answer = client.post("/v1/ofc/advise", json=request)
    assert answer.status_code == 200
    data = answer.json()
    state = position(PINEAPPLE, BOARDS, "Qh 9s 9c")
    expected = advise(state, samples=300, seed=4)
    assert data["street"] == 1
    assert data["exact"] is False
    assert data["options"] == [o.to_dict() for o in expected]


def test_fantasyland_gives_what_fantasyland_gives(client: TestClient) -> None:
    answer = client.post("/v1/ofc/fantasyland", json={"cards": " ".join(HAND), "stay_value": 10})
    assert answer.status_code == 200
    assert answer.json() == {"stay_value": 10.0, **fantasyland(HAND, "ofc", 10).to_dict()}


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("/v1/ofc/advise", {"boards": BOARDS, "hand": "Qh 9s Qs"}, "hand: card Qs placed twice"),
        ("/v1/ofc/advise", {"boards": BOARDS, "hand": "Qh 9s"}, "hand: player 0: street 1 deals 3 cards"),
        ("/v1/ofc/advise", {"boards": BOARDS, "hand": "Qh 9s 9c", "discards": "8c"}, "discards: player 0"),
        (
            "/v1/ofc/advise",
            {"boards": [{"front": "Qs Qh 2c 3c"}, {}], "hand": "9s"},
            "boards: player 0: row front overfull",
        ),
        ("/v1/ofc/advise", {"boards": "x", "hand": "9s"}, "boards: missing, or not a list"),
        ("/v1/ofc/advise", {"boards": BOARDS}, "hand: missing"),
        (
            "/v1/ofc/advise",
            {"boards": BOARDS, "hand": "Qh 9s 9c", "samples": 0},
            "samples: must be an integer",
        ),
        ("/v1/ofc/advise", {"boards": BOARDS, "hand": "Qh 9s 9c", "board": 1}, "board: not a field"),
        ("/v1/ofc/fantasyland", {"cards": "As Ah"}, "cards: fantasyland: a fantasyland hand holds 14 to 17"),
        ("/v1/ofc/fantasyland", {"cards": " ".join(HAND), "stay_value": "x"}, "stay_value: a number"),
        (
            "/v1/ofc/fantasyland",
            {"cards": " ".join(HAND), "stay_value": -1},
            "stay_value: stay_value must be",
        ),
    ],
)
def test_bad_requests_are_422_naming_the_field(
    client: TestClient, path: str, body: dict[str, Any], message: str
) -> None:
    if path.endswith("advise") and "rules" not in body:
        body = {"rules": PINEAPPLE.to_dict(), **body}
    answer = client.post(path, json=body)
    assert answer.status_code == 422
    assert answer.json()["error"]["message"].startswith(message)


def test_malformed_json_is_400(client: TestClient) -> None:
    assert client.post("/v1/ofc/advise", content=b"{").status_code == 400


PROGRESSIVE = PINEAPPLE.replace(fantasyland="progressive")
AGAINST_FANTASYLAND = [{"front": "Qs", "middle": "2c 3c", "back": "Kc Kd"}, {}]


@pytest.mark.parametrize("cards", [True, 14, 15, 16, 17])
def test_advise_takes_a_progressive_fantasyland_hand_of_14_to_17(
    client: TestClient, cards: bool | int
) -> None:
    request = {
        "rules": PROGRESSIVE.to_dict(),
        "boards": AGAINST_FANTASYLAND,
        "hand": "Qh 9s 9c",
        "fantasyland": [False, cards],
        "samples": 60,
        "seed": 2,
    }
    answer = client.post("/v1/ofc/advise", json=request)
    assert answer.status_code == 200
    state = position(PROGRESSIVE, AGAINST_FANTASYLAND, "Qh 9s 9c", fantasyland=[False, cards])
    assert state.fantasyland_cards == (0, 14 if cards is True else cards)
    assert answer.json()["options"] == [o.to_dict() for o in advise(state, samples=60, seed=2)]


@pytest.mark.parametrize(
    ("fantasyland", "flags", "message", "player"),
    [
        (
            "standard",
            [False, 15],
            'fantasyland: player 1: a fantasyland hand holds 14 cards under fantasyland="standard", got 15',
            1,
        ),
        ("standard", [False, 17], "fantasyland: player 1: a fantasyland hand holds 14 cards under", 1),
        (
            "progressive",
            [False, 18],
            "fantasyland: player 1: a fantasyland hand holds 14 to 17 cards under "
            'fantasyland="progressive", got 18',
            1,
        ),
        (
            "progressive",
            [False, 13],
            "fantasyland: player 1: a fantasyland hand holds 14 to 17 cards under",
            1,
        ),
        ("off", [False, True], 'fantasyland: no seat plays in fantasyland under fantasyland="off"', None),
        ("progressive", [False, 15.0], "fantasyland: a list of one entry per seat", None),
        ("progressive", [False, "15"], "fantasyland: a list of one entry per seat", None),
        ("progressive", 15, "fantasyland: a list of one entry per seat", None),
        ("progressive", [False], "fantasyland: give one flag per player (2), got 1", None),
    ],
)
def test_fantasyland_sizes_the_rules_do_not_deal_are_422(
    client: TestClient, fantasyland: str, flags: object, message: str, player: int | None
) -> None:
    rules = PINEAPPLE.replace(fantasyland=fantasyland)
    request = {
        "rules": rules.to_dict(),
        "boards": AGAINST_FANTASYLAND,
        "hand": "Qh 9s 9c",
        "fantasyland": flags,
    }
    answer = client.post("/v1/ofc/advise", json=request)
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["message"].startswith(message)
    assert error.get("player") == player
