"""The HTTP service's endpoints (in process, Starlette's test client) against the command line: the same
bytes as ``chinese-poker score``, ``rules``, ``deal`` and ``check`` for the same input; the same one-line
messages for bad rounds; dealt cards; the limits; the OpenAPI document built from the format's schemas."""

from __future__ import annotations

import copy
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import chinese_poker as cp
import jsonschema
import numpy as np
import pytest
from chinese_poker.cli import main
from chinese_poker.formats.rounds import load_schema
from chinese_poker.serve import Limits, MissingExtraError, create_app, require_extra
from chinese_poker.serve.openapi import openapi_document
from starlette.testclient import TestClient

E2_PLAYERS = [
    {"name": "Nörth", "front": "Ts Th Qs", "middle": "6s 5s 4s 3s 2h", "back": "Ks Kh Kd 3h 3d"},
    {"name": "East", "front": "Ac Kc 7s", "middle": "Td Tc 9s 8s 6c", "back": "Jh Jd Jc 7h 7d"},
    {"name": "South", "front": "Qd Qc 2c", "middle": "8h 7c 6d 5c 4c", "back": "9h 9d 9c 8d 8c"},
    {"name": "West", "front": "Qh Js 6h", "middle": "5h 5d 4h 4d 3c", "back": "As Ah Ad 2s 2d"},
]
EAST_DEALT = "Ac Kc 7s Td Tc 9s 8s 6c Jh Jd Jc 7h 7d"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Limits()), raise_server_exceptions=False)


def e2_round(**extra: Any) -> dict[str, Any]:
    return {"id": "e2", "players": copy.deepcopy(E2_PLAYERS), **extra}


def run_cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    """``chinese-poker ARGS`` in process: exit code, stdout, stderr."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def cli_score(tmp_path: Path, name: str, text: str, *options: str) -> tuple[int, bytes, str]:
    """The installed command on a file: exit code, stdout bytes, stderr (a real process, real stdout)."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "chinese_poker", "score", str(path), "--format", "jsonl", *options],
        capture_output=True,
        check=False,
        # The caller's environment (a sanitized build needs its LD_PRELOAD in the child too), UTF-8 output.
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    return done.returncode, done.stdout, done.stderr.decode("utf-8")


def cli_message(stderr: str, path: Path) -> str:
    """The command's one-line error without ``chinese-poker: error: FILE:``."""
    first = stderr.splitlines()[0]
    prefix = f"chinese-poker: error: {path}: "
    assert first.startswith(prefix), first
    return first[len(prefix) :]


# ----- settling: the same bytes as the command line ------------------------------------------------------


def test_settle_one_round_gives_the_bytes_of_score(client: TestClient, tmp_path: Path) -> None:
    round_ = e2_round()
    answer = client.post("/v1/settle", json=round_)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json")
    code, out, _ = cli_score(tmp_path, "one.json", json.dumps(round_, ensure_ascii=False))
    assert code == 0
    assert answer.content == out
    data = answer.json()
    assert data["net"] == [3, -5, 3, -1]  # E2 under pagat (docs/RULES.md 7)
    assert data["players"][0]["name"] == "Nörth"


def test_batch_gives_the_bytes_of_score_on_vectors(client: TestClient, tmp_path: Path) -> None:
    vectors = tmp_path / "vectors.jsonl"
    assert (
        main(["vectors", "--rules", "pagat-bonus", "--count", "40", "--seed", "3", "-o", str(vectors)]) == 0
    )
    text = vectors.read_text(encoding="utf-8")
    answer = client.post("/v1/settle/batch", content=text.encode("utf-8"))
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/x-ndjson")
    code, out, _ = cli_score(tmp_path, "rounds.jsonl", text)
    assert code == 0
    assert answer.content == out
    lines = answer.content.decode("utf-8").splitlines()
    expected = [json.loads(line)["expected"] for line in text.splitlines()]
    assert [json.loads(line)["net"] for line in lines] == [item["net"] for item in expected]
    assert len(lines) == len(expected) > 40  # the edge cases, then 40 random rounds


def test_explain_and_rules_override_as_the_command_line(client: TestClient, tmp_path: Path) -> None:
    text = json.dumps(e2_round(rules="pagat"), ensure_ascii=False) + "\n"
    answer = client.post("/v1/settle/batch?rules=wikipedia-1-6&explain=true", content=text.encode())
    code, out, _ = cli_score(tmp_path, "e2.jsonl", text, "--rules", "wikipedia-1-6", "--explain")
    assert code == 0
    assert answer.status_code == 200
    assert answer.content == out
    data = json.loads(answer.content)
    assert data["rules"] == "wikipedia-1-6"
    assert data["explain"].startswith("Settlement under wikipedia-1-6, 4 players")
    single = client.post("/v1/settle?rules=wikipedia-1-6&explain=1", json=e2_round(rules="pagat"))
    assert single.content == out


def test_a_bad_round_is_422_with_the_command_line_message(client: TestClient, tmp_path: Path) -> None:
    good = json.dumps(e2_round(id="r1"))
    bad_round = e2_round(id="r2")
    bad_round["players"][1]["middle"] = "9c Xs 8d 7h 2c"
    text = good + "\n" + json.dumps(bad_round) + "\n"
    answer = client.post("/v1/settle/batch", content=text.encode())
    assert answer.status_code == 422
    error = answer.json()["error"]
    code, _, err = cli_score(tmp_path, "bad.jsonl", text)
    assert code == 2
    assert error["message"] == cli_message(err, tmp_path / "bad.jsonl")
    assert error["message"] == (
        "line 2 (id \"r2\"), player 2 (East): middle: unknown card 'Xs' at position 1 in '9c Xs 8d 7h 2c'"
    )
    assert error["round"] == 1  # 0-based: the second round of the request
    assert error["player"] == 1  # the second seat
    assert error["code"] == "bad_round"


def test_a_card_held_twice_names_both_players(client: TestClient, tmp_path: Path) -> None:
    round_ = e2_round()
    round_["players"][3]["back"] = "As Ah Ad 2s Ks"  # North holds Ks
    answer = client.post("/v1/settle", json=round_)
    assert answer.status_code == 422
    code, _, err = cli_score(tmp_path, "twice.json", json.dumps(round_))
    assert code == 2
    assert answer.json()["error"]["message"] == cli_message(err, tmp_path / "twice.json")
    assert answer.json()["error"]["message"] == 'round 1 (id "e2"): card Ks is held by both Nörth and West'


def test_malformed_json_is_400(client: TestClient) -> None:
    answer = client.post("/v1/settle", content=b'{"players": [')
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "malformed_json"
    assert answer.json()["error"]["message"].startswith("malformed JSON at line 1 column 14")
    good = json.dumps(e2_round()).encode()
    lines = client.post("/v1/settle/batch", content=good + b'\n{"players": [\n')
    assert lines.status_code == 400
    assert lines.json()["error"]["message"].startswith("line 2: malformed JSON at column 14")
    latin = client.post("/v1/settle", content=b'{"id": "\xe9"}')
    assert latin.status_code == 400
    assert (
        latin.json()["error"]["message"]
        == "not UTF-8 at byte offset 8: invalid continuation byte (byte 0xe9)"
    )


def test_one_round_must_be_an_object(client: TestClient) -> None:
    answer = client.post("/v1/settle", json=[e2_round()])
    assert answer.status_code == 422
    assert answer.json()["error"]["message"] == "a round must be a JSON object, got a list"
    empty = client.post("/v1/settle/batch", content=b"\n\n")
    assert empty.status_code == 422
    assert empty.json()["error"]["message"] == "no rounds"


# ----- dealt cards -------------------------------------------------------------------------------------


def test_dealt_cards_that_match_settle_as_without_them(client: TestClient) -> None:
    plain = client.post("/v1/settle", json=e2_round())
    round_ = e2_round()
    round_["players"][1]["dealt"] = EAST_DEALT.split()[::-1]  # any order, a list or a string
    round_["players"][0]["dealt"] = "Ts Th Qs 6s 5s 4s 3s 2h Ks Kh Kd 3h 3d"
    answer = client.post("/v1/settle", json=round_)
    assert answer.status_code == 200
    assert answer.content == plain.content


def test_a_card_not_dealt_is_422_naming_player_and_card(client: TestClient) -> None:
    round_ = e2_round()
    round_["players"][1]["dealt"] = EAST_DEALT.replace("Jc", "2s")
    answer = client.post("/v1/settle", json=round_)
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert (
        error["message"] == 'round 1 (id "e2"), player 2 (East): dealt: card Jc was submitted but not dealt'
    )
    assert (error["round"], error["player"]) == (0, 1)
    batch = client.post("/v1/settle/batch", content=(json.dumps(round_) + "\n").encode())
    assert batch.json()["error"]["message"].startswith('line 1 (id "e2"), player 2 (East): dealt: card Jc')


@pytest.mark.parametrize(
    ("dealt", "message"),
    [
        ("Ac Kc 7s", "dealt must be 13 cards, got 3"),
        (EAST_DEALT.replace("Jc", "Jd"), "dealt: card Jd appears twice (positions 9 and 10)"),
        (7, "dealt must be a string of cards or a list of cards, got a number"),
        ("Ac Kc 7s Td Tc 9s 8s 6c Jh Jd Jc 7h Zz", "dealt: unknown card 'Zz' at position 12"),
    ],
)
def test_bad_dealt_values(client: TestClient, dealt: object, message: str) -> None:
    round_ = e2_round()
    round_["players"][1]["dealt"] = dealt
    answer = client.post("/v1/settle", json=round_)
    assert answer.status_code == 422
    assert answer.json()["error"]["message"].startswith(f'round 1 (id "e2"), player 2 (East): {message}')


# ----- check, arrange, rules, deal, version -------------------------------------------------------------


def test_check_a_foul_as_the_command_line(
    client: TestClient, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = "Qs Qh 7s / Qd Qc 6h 5d 4c / Ks Kh Kd 3h 3d"
    answer = client.post("/v1/check", json={"cards": cards.replace("/", ""), "rules": "pagat"})
    assert answer.status_code == 200
    data = answer.json()
    code, out, _ = run_cli(capsys, monkeypatch, "check", cards)
    assert code == 1
    assert data["lines"] == out.splitlines()
    assert data["foul"] is True
    assert data["reasons"] == [
        "the front (Pair of queens, seven kicker) beats the middle (Pair of queens, six-five-four kickers)"
    ]
    assert data["rows"]["back"]["category"] == "full_house"
    hand = cp.Hand(data["suggestion"]["front"], data["suggestion"]["middle"], data["suggestion"]["back"])
    assert not hand.facts().foul
    assert sorted(hand.cards) == sorted(cp.parse_cards(cards.replace("/", "")))


def test_check_a_natural(client: TestClient) -> None:
    six_pairs = "2c 2d 4c 4d 5c 5d 6d 6h 8c 8d 9c 9d Qd"
    answer = client.post(
        "/v1/check", json={"cards": six_pairs, "declare_natural": True, "rules": "pagat-bonus"}
    )
    assert answer.status_code == 200
    data = answer.json()
    assert data["declared"] is True
    assert data["natural"] == "six_pairs"
    assert "six_pairs" in data["held"]
    assert data["rows"] is None
    wrong = client.post("/v1/check", json={"cards": six_pairs, "dealt": six_pairs.replace("Qd", "Qs")})
    assert wrong.status_code == 422
    assert wrong.json()["error"]["message"] == "dealt: card Qd was submitted but not dealt"


def test_arrange_gives_what_arrange_gives(client: TestClient) -> None:
    cards = "As Ks Qs Js Ts 9h 9d 9c 2c 2d 7h 5s 3d"
    for strategy in ("expected", "strongest"):
        answer = client.post(
            "/v1/arrange", json={"cards": cards, "rules": "pagat-bonus", "strategy": strategy}
        )
        assert answer.status_code == 200
        data = answer.json()
        chosen = cp.arrange(cards, cp.Rules.preset("pagat-bonus"), strategy)
        assert cp.Hand(data["front"], data["middle"], data["back"]) == chosen.hand
        assert data["expected_units"] == pytest.approx(chosen.expected_units)
        assert [data["rows"][row]["strength"] for row in ("front", "middle", "back")] == list(
            chosen.strengths
        )
        assert data["rows"]["back"]["category"] == "straight_flush"
    bad = client.post("/v1/arrange", json={"cards": cards, "strategy": "best"})
    assert bad.status_code == 422
    assert bad.json()["error"]["message"] == "strategy must be one of 'expected', 'strongest', got 'best'"
    short = client.post("/v1/arrange", json={"cards": "As Ks"})
    assert short.json()["error"]["message"] == "arranging takes 13 cards, got 2"


def test_rules_and_deal_as_the_command_line(
    client: TestClient, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for preset in cp.Rules.presets():
        answer = client.get(f"/v1/rules/{preset}")
        _, out, _ = run_cli(capsys, monkeypatch, "rules", preset, "--format", "json")
        assert answer.status_code == 200
        assert answer.text == out
    listing = client.get("/v1/rules").json()
    assert [item["name"] for item in listing["presets"]] == list(cp.Rules.presets())
    assert listing["default"] == "pagat"
    unknown = client.get("/v1/rules/pagot")
    assert unknown.status_code == 422
    assert "(did you mean 'pagat'?)" in unknown.json()["error"]["message"]
    dealt = client.get("/v1/deal?players=3&seed=7&rules=shisanzhang-hk")
    _, out, _ = run_cli(
        capsys,
        monkeypatch,
        "deal",
        "--players",
        "3",
        "--seed",
        "7",
        "--rules",
        "shisanzhang-hk",
        "--format",
        "input",
    )
    assert dealt.status_code == 200
    assert dealt.text == out
    assert client.get("/v1/deal?players=5").status_code == 422
    assert client.get("/v1/deal?seed=-1").status_code == 422
    # The rules' pack: five players with an added suit; the jokers of shisanshui-puxian-ghost dealt.
    five = client.get("/v1/deal?players=5&seed=7&rules=shisanshui-puxian-six")
    assert five.status_code == 200, five.text
    assert len(five.json()["players"]) == 5
    ghost = [client.get(f"/v1/deal?seed={s}&rules=shisanshui-puxian-ghost").text for s in range(3)]
    assert any("X1" in text or "X2" in text for text in ghost)


def test_version_and_health(client: TestClient) -> None:
    version = client.get("/v1/version").json()
    assert version["engine"] == {"name": "chinese-poker", "version": cp.__version__}
    assert version["api"] == "v1"
    assert version["limits"] == {
        "max_body_bytes": 16 * 1024 * 1024,
        "max_rounds": 100_000,
        "max_players": 6,
        "read_timeout": 30.0,
        "batch_threads": 1,
    }
    assert client.get("/v1/health").json() == {"status": "ok"}


def test_the_page_and_its_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name in ("page.js", "page.css"):
        assert f"/static/{name}" in page.text
        assert client.get(f"/static/{name}").status_code == 200
    assert "http" not in client.get("/static/page.css").text  # nothing loaded from elsewhere
    missing = client.get("/static/nothing.js")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"


# ----- packed net units --------------------------------------------------------------------------------


def test_packed_settles_as_settle_batch_and_as_settle() -> None:
    client = TestClient(create_app(Limits(max_rounds=500)))
    rng = np.random.default_rng(5)
    deals = rng.random((300, 52)).argsort(axis=1)[:, :39].astype(np.uint8).reshape(300, 3, 13)
    answer = client.post("/v1/settle/packed?players=3&rules=pagat-bonus", content=deals.tobytes())
    assert answer.status_code == 200
    net = np.frombuffer(answer.content, dtype="<i8").reshape(300, 3)
    assert np.array_equal(net, cp.settle_batch(deals, "pagat-bonus"))
    assert (net.sum(axis=1) == 0).all()
    for k in (0, 1, 299):
        hands = [cp.Hand.from_cards(row.tolist()) for row in deals[k]]
        assert list(net[k]) == list(cp.settle(hands, "pagat-bonus").net)
    ragged = client.post("/v1/settle/packed?players=3", content=deals.tobytes()[:-1])
    assert ragged.status_code == 422
    twice = deals[:1].copy()
    twice[0, 1, 0] = twice[0, 0, 0]
    repeated = client.post("/v1/settle/packed?players=3", content=twice.tobytes())
    assert repeated.status_code == 422
    too_many = client.post("/v1/settle/packed?players=3", content=np.concatenate([deals, deals]).tobytes())
    assert too_many.status_code == 413


# ----- limits ------------------------------------------------------------------------------------------


def test_limits() -> None:
    client = TestClient(create_app(Limits(max_body_bytes=2000, max_rounds=2, max_players=3)))
    big = client.post("/v1/settle", content=b" " * 2001)
    assert big.status_code == 413
    assert big.json()["error"] == {
        "status": 413,
        "code": "body_too_large",
        "message": "the body exceeds 2000 bytes",
    }
    two = e2_round()
    two["players"] = two["players"][:2]
    three = (json.dumps(two) + "\n") * 3
    many = client.post("/v1/settle/batch", content=three.encode())
    assert many.status_code == 413
    assert many.json()["error"]["message"] == "more than 2 rounds in one request"
    four = client.post("/v1/settle", json=e2_round())
    assert four.status_code == 422
    assert four.json()["error"]["message"] == (
        'round 1 (id "e2"): this service settles rounds of at most 3 players, got 4'
    )
    assert client.post("/v1/settle", json=two).status_code == 200


def test_limits_are_checked() -> None:
    with pytest.raises(ValueError, match="max_players must be 2 to 6, got 7"):
        Limits(max_players=7)
    with pytest.raises(ValueError, match="max_rounds must be a positive integer"):
        Limits(max_rounds=0)
    assert Limits.from_env({"CHINESE_POKER_SERVE_LIMITS": Limits(max_rounds=9).to_env()}) == Limits(
        max_rounds=9
    )


# ----- the OpenAPI document ------------------------------------------------------------------------------


def _validator(doc: dict[str, Any], name: str) -> jsonschema.Draft202012Validator:
    schema = {"$ref": f"#/components/schemas/{name}", "components": doc["components"]}
    return jsonschema.Draft202012Validator(schema)


def test_openapi_comes_from_the_format_schemas(client: TestClient) -> None:
    doc = client.get("/v1/openapi.json").json()
    assert doc == json.loads(json.dumps(openapi_document()))
    assert doc["openapi"] == "3.1.0"
    schemas = doc["components"]["schemas"]
    round_schema = load_schema("round")
    assert set(round_schema["$defs"]) <= {name.removeprefix("round_") for name in schemas}
    assert "dealt" in schemas["round_player"]["properties"]
    round_ = e2_round()
    round_["players"][1]["dealt"] = EAST_DEALT
    _validator(doc, "round_round").validate(round_)
    output = client.post("/v1/settle", json=round_).json()
    _validator(doc, "output_round").validate(output)
    bad = e2_round()
    bad["players"][0]["extra"] = 1
    assert not _validator(doc, "round_round").is_valid(bad)
    for path, methods in doc["paths"].items():
        for method, operation in methods.items():
            assert "summary" in operation, (path, method)


# ----- the extra ---------------------------------------------------------------------------------------


def test_the_package_imports_without_the_web_stack() -> None:
    code = (
        "import sys, chinese_poker, chinese_poker.serve, chinese_poker.cli; "
        "print(sorted(m for m in ('starlette', 'uvicorn') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_missing_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = __import__("importlib.util").util.find_spec

    def find_spec(name: str, *args: Any) -> Any:
        return None if name == "uvicorn" else real(name, *args)

    monkeypatch.setattr("importlib.util.find_spec", find_spec)
    hint = (
        "pip install '.[serve]' from a checkout, or pip install 'chinese-poker[serve]' once the package is "
        "published"
    )
    with pytest.raises(MissingExtraError) as missing:
        require_extra()
    assert str(missing.value) == (
        f"the scoring service needs uvicorn, which is not installed; install the serve extra with: {hint}"
    )
    assert main(["serve", "--port", "0"]) == 2
    assert hint in capsys.readouterr().err
    assert main(["serve", "--max-players", "9"]) == 2
    assert "max_players must be 2 to 6, got 9" in capsys.readouterr().err


def test_a_room_with_jokers(client: TestClient) -> None:
    # RULES.md 6's shisanshui-puxian-ghost example: X1 and X2 in North's front and back.
    rows = [
        ("X2 Kh Kd", "9c 9d 9h 5c 5d", "Ac Ad Ah As X1"),
        ("Qc Qd 3h", "8c 8d 8h 4d 4h", "7c 7d 7h 7s 3c"),
        ("Jc Jd 3d", "Tc Td Th 4c 4s", "6c 6d 6h 6s 3s"),
        ("Kc Ks Qh", "2c 2d 2h 2s Jh", "8s 9s Ts Js Qs"),
    ]
    players = [{"front": front, "middle": middle, "back": back} for front, middle, back in rows]
    answer = client.post("/v1/settle", json={"rules": "shisanshui-puxian-ghost", "players": players})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["net"] == [76, -110, -45, 79]
    assert data["players"][0]["jokers"] == {"X1": "As", "X2": "Ks"}
    refused = client.post("/v1/settle", json={"rules": "shisanshui-puxian", "players": players})
    assert refused.status_code == 422
    assert "X2 (code 53) is a joker the pack does not hold" in refused.json()["error"]["message"]
    check = client.post("/v1/check", json={**players[0], "rules": "shisanshui-puxian-ghost"})
    assert check.status_code == 200, check.text
    assert check.json()["foul"] is False
    assert check.json()["rows"]["back"]["category"] == "five_of_a_kind"
    cards = "X1 X2 Ah Ad Ac 2c 3d 4h 6s 7c 9d Jh Kc"
    arranged = client.post("/v1/arrange", json={"cards": cards, "rules": "shisanshui-puxian-ghost"})
    assert arranged.status_code == 200, arranged.text
    chosen = cp.arrange(cards, cp.Rules.preset("shisanshui-puxian-ghost"))
    data = arranged.json()
    assert cp.Hand(data["front"], data["middle"], data["back"], jokers=2) == chosen.hand


def test_a_five_player_room_with_an_added_suit(client: TestClient) -> None:
    # RULES.md 6's shisanshui-puxian-six example (clubs and hearts added): a card held twice, 5 players.
    rows = [
        ("Qc Qd Qh", "9c 9c 9h 9h 9d", "Ac Ac Ah Ah Ad"),
        ("Jc 5h 2c", "8s Td As Tc 8c", "7h 7c Kd 7c Kh"),
        ("2c 3s 6h", "8c 4h Qs Jc 4c", "Th Kh Ts Tc Kc"),
        ("7d 9s Ks", "3h 2h 4h 2h 7h", "Qc 3c 6c Kc 5c"),
        ("6c 4s 2s", "5d Qh 7s 5h 5c", "6d Jh Jd 6h Js"),
    ]
    players = [{"front": front, "middle": middle, "back": back} for front, middle, back in rows]
    answer = client.post("/v1/settle", json={"rules": "shisanshui-puxian-six", "players": players})
    assert answer.status_code == 200, answer.text
    assert answer.json()["net"] == [528, -134, -148, -126, -120]
    # The same round under a 52-card preset: the copy of 9c is the first thing wrong, named as the CLI does.
    refused = client.post("/v1/settle", json={"rules": "shisanshui-puxian", "players": players})
    assert refused.status_code == 422
    assert refused.json()["error"]["message"] == (
        "round 1, player 1 (P1): middle: card 9c appears twice (positions 0 and 1)"
    )
