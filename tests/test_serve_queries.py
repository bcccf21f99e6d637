"""The service's query parameters and error positions: a parameter an endpoint does not take, one given
twice, or the packed endpoint's ``players`` left out is a 422 naming it; every position in an error body
(``round``, ``player``, ``card``) is a 0-based index, the same in the JSON endpoints, the packed one and
the Python API ``settle_batch``."""

from __future__ import annotations

import json
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core
from chinese_poker.cards import parse_card
from chinese_poker.serve import Limits, create_app
from starlette.testclient import TestClient

E2_PLAYERS = [
    {"name": "North", "front": "Ts Th Qs", "middle": "6s 5s 4s 3s 2h", "back": "Ks Kh Kd 3h 3d"},
    {"name": "East", "front": "Ac Kc 7s", "middle": "Td Tc 9s 8s 6c", "back": "Jh Jd Jc 7h 7d"},
    {"name": "South", "front": "Qd Qc 2c", "middle": "8h 7c 6d 5c 4c", "back": "9h 9d 9c 8d 8c"},
    {"name": "West", "front": "Qh Js 6h", "middle": "5h 5d 4h 4d 3c", "back": "As Ah Ad 2s 2d"},
]
ROWS = ("front", "middle", "back")


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Limits()), raise_server_exceptions=False)


def _error(answer: Any) -> dict[str, Any]:
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"] == "application/json"
    error: dict[str, Any] = answer.json()["error"]
    assert error["status"] == 422
    assert error["code"] == "bad_request"
    return error


def _packed(players: list[dict[str, str]]) -> np.ndarray:
    return np.array([[parse_card(c) for row in ROWS for c in p[row].split()] for p in players], np.uint8)


# ----- query parameters ----------------------------------------------------------------------------------


def test_a_misspelt_parameter_is_422_naming_it_not_ignored(client: TestClient) -> None:
    """``/v1/deal?player=2`` used to deal 4 players, the misspelt ``player`` ignored."""
    answer = client.get("/v1/deal?player=2&seed=7")
    assert _error(answer)["message"] == (
        "unknown query parameter 'player' (did you mean 'players'?); allowed: players, seed, rules"
    )
    dealt = client.get("/v1/deal?players=2&seed=7")
    assert dealt.status_code == 200
    assert len(dealt.json()["players"]) == 2


@pytest.mark.parametrize(
    ("method", "path", "message"),
    [
        (
            "post",
            "/v1/settle?explian=true",
            "unknown query parameter 'explian' (did you mean 'explain'?); allowed: rules, explain, receipt",
        ),
        (
            "post",
            "/v1/settle/batch?format=net",
            "unknown query parameter 'format'; allowed: rules, explain, output, receipt",
        ),
        (
            "post",
            "/v1/settle/packed?players=4&explain=true",
            "unknown query parameter 'explain'; allowed: players, rules",
        ),
        ("post", "/v1/check?rules=pagat", "unknown query parameter 'rules'; this endpoint takes none"),
        (
            "post",
            "/v1/arrange?strategy=expected",
            "unknown query parameter 'strategy'; this endpoint takes none",
        ),
        ("post", "/v1/suggest?k=3", "unknown query parameter 'k'; this endpoint takes none"),
        ("get", "/v1/health?verbose=1", "unknown query parameter 'verbose'; this endpoint takes none"),
        ("get", "/v1/version?x=", "unknown query parameter 'x'; this endpoint takes none"),
        ("get", "/v1/rules?name=pagat", "unknown query parameter 'name'; this endpoint takes none"),
        ("get", "/v1/rules/pagat?format=json", "unknown query parameter 'format'; this endpoint takes none"),
        ("get", "/v1/openapi.json?v=2", "unknown query parameter 'v'; this endpoint takes none"),
        ("get", "/v1/deal?players=2&players=3", "query parameter 'players' is given twice"),
        ("post", "/v1/settle?rules=pagat&rules=pagat", "query parameter 'rules' is given twice"),
    ],
)
def test_unknown_and_repeated_parameters_are_422(
    client: TestClient, method: str, path: str, message: str
) -> None:
    body = {"content": json.dumps({"players": E2_PLAYERS}).encode()} if method == "post" else {}
    assert _error(getattr(client, method)(path, **body))["message"] == message


def test_packed_without_players_is_422_not_four(client: TestClient) -> None:
    """The packed endpoint used to read a body without ``players=`` as rounds of 4 players."""
    body = _packed(E2_PLAYERS).tobytes()
    missing = client.post("/v1/settle/packed", content=body)
    assert _error(missing)["message"] == (
        "query parameter 'players' missing (the number of players of every round, 2 to 6)"
    )
    given = client.post("/v1/settle/packed?players=4", content=body)
    assert given.status_code == 200
    assert np.frombuffer(given.content, "<i8").tolist() == [3, -5, 3, -1]


def test_the_page_takes_any_query(client: TestClient) -> None:
    """The page reads ``seed``, ``players`` and ``rules`` itself (docs/SERVICE.md): not refused."""
    assert client.get("/?seed=7&players=4&rules=pagat-bonus").status_code == 200


# ----- error positions: 0-based everywhere ----------------------------------------------------------------


def test_error_positions_are_0_based_in_every_endpoint_and_in_settle_batch(client: TestClient) -> None:
    """One bad card, in the second round's third seat (South), at the fifth of its 13 cards (the second of
    its middle row): every endpoint and ``settle_batch`` name round 1, player 2 (and, where cards are
    placed by index, card 5)."""
    bad = [dict(player) for player in E2_PLAYERS]
    bad[2]["middle"] = "8h 7c 6d 5c 4c".replace("7c", "2c")  # 2c is South's front card too
    rounds = [{"id": "r0", "players": E2_PLAYERS}, {"id": "r1", "players": bad}]
    batch = client.post("/v1/settle/batch", content="".join(json.dumps(r) + "\n" for r in rounds).encode())
    assert batch.status_code == 422
    error = batch.json()["error"]
    assert (error["round"], error["player"]) == (1, 2)
    assert error["message"].startswith('line 2 (id "r1"), player 3 (South): ')  # the command line's words
    one = client.post("/v1/settle", json=rounds[1])
    assert (one.json()["error"]["round"], one.json()["error"]["player"]) == (0, 2)
    packed = np.stack([_packed(E2_PLAYERS), _packed(bad)])
    answer = client.post("/v1/settle/packed?players=4", content=packed.tobytes())
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert (error["round"], error["player"], error["card"]) == (1, 2, 4)  # 2c, South's fifth card, again
    with pytest.raises(_core.InputError) as raised:
        cp.settle_batch(packed, "pagat")
    assert (raised.value.item, raised.value.player, raised.value.position) == (1, 2, 4)
    assert error["message"] == str(raised.value)


def test_a_card_outside_the_pack_is_placed_alike(client: TestClient) -> None:
    packed = np.stack([_packed(E2_PLAYERS)] * 3)
    packed[2, 3, 12] = 60
    answer = client.post("/v1/settle/packed?players=4", content=packed.tobytes())
    error = answer.json()["error"]
    assert (error["round"], error["player"], error["card"]) == (2, 3, 12)
    assert error["message"] == "round 2, player 3, index 12: card code 60 is not in 0..51"


def test_a_batch_counts_rounds_not_lines(client: TestClient) -> None:
    """Blank lines are no rounds: the round after two of them is round 1, named by its line 4."""
    good = json.dumps({"players": E2_PLAYERS[:2]})
    bad = good.replace("Ac", "Zz")
    answer = client.post("/v1/settle/batch", content=f"{good}\n\n\n{bad}\n".encode())
    error = answer.json()["error"]
    assert (error["round"], error["player"]) == (1, 1)
    assert error["message"].startswith("line 4, player 2 (East): front: unknown card 'Zz'")
    broken = client.post("/v1/settle/batch", content=f"{good}\n\n{{bad\n".encode())
    assert broken.status_code == 400
    assert broken.json()["error"]["round"] == 1
    assert "player" not in broken.json()["error"]
