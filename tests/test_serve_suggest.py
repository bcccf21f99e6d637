"""POST /v1/suggest: the settings of cp.suggest as the service writes them, checked against the OpenAPI
document, and the requests it refuses."""

from __future__ import annotations

import json
from typing import Any

import chinese_poker as cp
import jsonschema
import pytest
from chinese_poker.serve import Limits, create_app
from chinese_poker.serve.openapi import openapi_document
from starlette.testclient import TestClient

CARDS = "As Ah Kd Ks Qc Qh 7c 7d 5s 4h 3c 9d 2s"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Limits()), raise_server_exceptions=False)


def _validator(name: str) -> jsonschema.Draft202012Validator:
    doc = json.loads(json.dumps(openapi_document()))
    return jsonschema.Draft202012Validator(
        {"$ref": f"#/components/schemas/{name}", "components": doc["components"]}
    )


def test_suggest_gives_what_suggest_gives(client: TestClient) -> None:
    answer = client.post("/v1/suggest", json={"cards": CARDS, "rules": "pagat", "k": 3, "opponents": 2})
    assert answer.status_code == 200
    data = answer.json()
    _validator("suggest_answer").validate(data)
    found = cp.suggest(CARDS, "pagat", 3, opponents=2)
    assert data["opponents"] == 2
    assert [s["rank"] for s in data["suggestions"]] == [1, 2, 3]
    for given, expected in zip(data["suggestions"], found):
        assert cp.Hand(given["front"], given["middle"], given["back"]) == expected.hand
        assert given["expected_units"] == expected.expected_units
        assert given["why"] == expected.why
        for reason in expected.rows:
            row: dict[str, Any] = given["rows"][reason.row]
            assert (row["strength"], row["text"], row["royalty"]) == (
                reason.strength,
                reason.text,
                reason.royalty,
            )
            assert (row["win"], row["tie"], row["loss"]) == (reason.win, reason.tie, reason.loss)
    first = data["suggestions"][0]
    arranged = client.post("/v1/arrange", json={"cards": CARDS, "opponents": 2}).json()
    assert (first["front"], first["middle"], first["back"]) == (
        arranged["front"],
        arranged["middle"],
        arranged["back"],
    )
    assert first["expected_units"] == arranged["expected_units"]
    # k defaults to 3; this hand has three distinct settings.
    assert len(client.post("/v1/suggest", json={"cards": CARDS}).json()["suggestions"]) == 3


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"cards": CARDS, "k": 0}, "k must be 1 to 10, got 0"),
        ({"cards": CARDS, "k": 11}, "k must be 1 to 10, got 11"),
        ({"cards": CARDS, "k": "3"}, "k must be 1 to 10, got a string"),
        ({"cards": CARDS, "opponents": 5}, "opponents must be 1, 2 or 3, got 5"),
        (
            {"cards": CARDS, "strategy": "expected"},
            "unknown key 'strategy'; allowed: cards, rules, k, opponents",
        ),
        ({"k": 2}, "cards missing (13 cards to arrange)"),
        ({"cards": "As Ks"}, "arranging takes 13 cards, got 2"),
    ],
)
def test_suggest_refuses_bad_requests(client: TestClient, body: dict[str, Any], message: str) -> None:
    answer = client.post("/v1/suggest", json=body)
    assert answer.status_code == 422
    assert answer.json()["error"]["message"] == message


def test_the_request_schema_refuses_what_the_endpoint_refuses() -> None:
    schema = _validator("suggest_request")
    assert schema.is_valid({"cards": CARDS, "rules": "pagat", "k": 10, "opponents": 3})
    for body in ({"cards": CARDS, "k": 0}, {"cards": CARDS, "k": 11}, {"cards": CARDS, "x": 1}, {"k": 2}):
        assert not schema.is_valid(body), body
