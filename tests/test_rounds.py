"""The JSON round format (chinese_poker.formats.rounds), conformance vectors (formats.vectors), the comparison
of outputs (formats.verify) and the progress bar, in process."""

from __future__ import annotations

import copy
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from chinese_poker import Hand, Rules, settle
from chinese_poker.checking import held_patterns
from chinese_poker.cli import progress as progress_module
from chinese_poker.cli.common import dumps
from chinese_poker.cli.progress import OutputWriter, Progress, progress_for
from chinese_poker.cli.round_table import format_round_table
from chinese_poker.formats.compare import compare_round
from chinese_poker.formats.net_lines import settle_net_lines
from chinese_poker.formats.records import read_rounds
from chinese_poker.formats.rounds import (
    RoundError,
    iter_settled,
    load_schema,
    parse_round,
    round_input,
    round_net_output,
    round_output,
    rules_reference,
    settle_round,
)
from chinese_poker.formats.vectors import E4_RULES, edge_cases, generate_vectors, random_round
from chinese_poker.formats.verify import OutputFileError, compare_outputs, load_outputs
from chinese_poker.presets import PRESET_NAMES

DOCS = Path(__file__).resolve().parent.parent / "docs" / "JSON_FORMAT.md"

E2_PLAYERS = [
    {"name": "North", "front": "Ts Th Qs", "middle": "6s 5s 4s 3s 2h", "back": "Ks Kh Kd 3h 3d"},
    {"name": "East", "front": "Ac Kc 7s", "middle": "Td Tc 9s 8s 6c", "back": "Jh Jd Jc 7h 7d"},
    {"name": "South", "front": "Qd Qc 2c", "middle": "8h 7c 6d 5c 4c", "back": "9h 9d 9c 8d 8c"},
    {"name": "West", "front": "Qh Js 6h", "middle": "5h 5d 4h 4d 3c", "back": "As Ah Ad 2s 2d"},
]
SIX_PAIRS = "2c 2d 4c 4d 5c 5d 6d 6h 8c 8d 9c 9d Qd"


def e2_round(**extra: Any) -> dict[str, Any]:
    return {"id": "e2", "players": copy.deepcopy(E2_PLAYERS), **extra}


def error_of(data: Any, **kwargs: Any) -> str:
    """The one-line error of a round: from reading it, or (what only the core checks) from settling it."""
    with pytest.raises(RoundError) as info:
        settle_round(parse_round(data, **kwargs), kwargs.get("where", ""))
    return str(info.value)


# ----- parsing ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "totals"),
    [("pagat", [3, -5, 3, -1]), ("wikipedia-2-4", [4, -8, 6, -2]), ("shisanzhang-hk", [6, -8, 3, -1])],
)
def test_e2_through_the_json_format(preset: str, totals: list[int]) -> None:
    rnd = parse_round(e2_round(rules=preset))
    out = round_output(rnd, settle_round(rnd))
    assert out["id"] == "e2"
    assert out["rules"] == preset
    assert out["net"] == totals
    assert [p["name"] for p in out["players"]] == ["North", "East", "South", "West"]
    assert [p["net"] for p in out["players"]] == totals


def test_output_is_settlement_to_dict_with_id_and_names() -> None:
    rnd = parse_round(e2_round(stakes=[[1, 2, 1, 1], [2, 1, 3, 1], [1, 3, 1, 1], [1, 1, 1, 1]]))
    settlement = settle([Hand(p["front"], p["middle"], p["back"]) for p in E2_PLAYERS], Rules.preset("pagat"),
                        stakes=[[1, 2, 1, 1], [2, 1, 3, 1], [1, 3, 1, 1], [1, 1, 1, 1]])  # fmt: skip
    out = round_output(rnd, settle_round(rnd))
    expected = settlement.to_dict()
    assert list(out) == ["id", "engine", "rules", "rules_digest", "net", "players", "pairs"]
    assert out["pairs"] == expected["pairs"]
    assert out["net"] == expected["net"]
    for player, plain in zip(out["players"], expected["players"]):
        assert player.pop("name")
        assert player == plain
    assert json.loads(json.dumps(out)) == out


def test_cards_as_lists_codes_and_13_in_order() -> None:
    players = copy.deepcopy(E2_PLAYERS)
    players[0]["front"] = ["Ts", "Th", "Qs"]
    players[1] = {"name": "East", "cards": "Ac Kc 7s Td Tc 9s 8s 6c Jh Jd Jc 7h 7d"}
    players[2]["back"] = [4 * 7 + 2, 4 * 7 + 1, 4 * 7 + 0, 4 * 6 + 1, 4 * 6 + 0]  # 9h 9d 9c 8d 8c
    rnd = parse_round({"players": players})
    assert round_output(rnd, settle_round(rnd))["net"] == [3, -5, 3, -1]
    assert rnd.id == 1  # the position


def test_declared_natural_and_default_names() -> None:
    data = {
        "rules": "pagat-bonus",
        "players": [
            {"front": "Ts Th Qs", "middle": "6s 5s 4s 3s 2h", "back": "Ks Kh Kd 3h 3d"},
            {"cards": SIX_PAIRS, "declare_natural": True},
        ],
    }
    rnd = parse_round(data)
    assert rnd.names == ("P1", "P2")
    assert rnd.hands[1].is_declared
    out = round_output(rnd, settle_round(rnd))
    assert out["net"] == [-3, 3]
    assert out["players"][1]["natural"] == "six_pairs"
    assert out["players"][1]["rows"] is None
    assert out["pairs"][0]["decided_by"] == "natural"


def test_round_rules_object_and_override() -> None:
    data = e2_round(rules={"preset": "pagat", "overall_unit": 1, "foul_policy": "as_scooped"})
    rnd = parse_round(data)
    assert rnd.rules == Rules.preset("wikipedia-2-4")
    assert round_output(rnd, settle_round(rnd))["net"] == [4, -8, 6, -2]
    assert parse_round(data, rules=Rules.preset("pagat"), override_rules=True).rules.name == "pagat"
    assert parse_round(e2_round()).rules.name == "pagat"


def test_surrender() -> None:
    players = copy.deepcopy(E2_PLAYERS)
    players[1]["surrender"] = True
    rnd = parse_round({"players": players, "rules": {"surrender_units": 3}})
    out = round_output(rnd, settle_round(rnd))
    assert out["players"][1]["surrendered"] is True
    assert "surrenders" in error_of({"players": players})


def test_round_input_round_trip() -> None:
    data = {
        "id": 7,
        "rules": "pagat-bonus",
        "stakes": [[1, 2], [2, 1]],
        "players": [
            {"name": "N", "front": ["Ts", "Th", "Qs"], "middle": "6s5s4s3s2h", "back": "ks kh kd 3h 3d"},
            {"name": "S", "cards": SIX_PAIRS, "declare_natural": True},
        ],
    }
    rnd = parse_round(data)
    again = round_input(rnd)
    assert again["players"][0]["middle"] == "6s 5s 4s 3s 2h"
    assert parse_round(again) == rnd


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["players"][1].update(middle="Td Tc 9s 8s Xx"),
            r"player 2 \(East\): middle: unknown card 'Xx'",
        ),
        (
            lambda d: d["players"][1].update(front="Ac Kc"),
            r"player 2 \(East\): the front takes 3 cards, got 2",
        ),
        (
            lambda d: d["players"][1].update(back="Jh Jd Jc 7h 7h"),
            r"player 2 \(East\): back: card 7h appears twice",
        ),
        (lambda d: d["players"][1].update(front="Ac Kc Ts"), r"card Ts is held by both North and East"),
        (
            lambda d: d["players"][0].update(midle="x"),
            r"player 1 \(North\): unknown key 'midle' .*did you mean 'middle'",
        ),
        (lambda d: d["players"][0].pop("back"), r"player 1 \(North\): back missing"),
        (lambda d: d["players"][0].update(cards=SIX_PAIRS), r"either front, middle and back, or cards"),
        (lambda d: d["players"][0].update(name=""), r"player 1 \(P1\): name must be a non-empty string"),
        (lambda d: d["players"][1].update(name="North"), r"players 1 and 2 are both named 'North'"),
        (
            lambda d: d.update(players=d["players"][:1]),
            r"a round has 2 to 6 players \(5 and 6 with added suits\), got 1",
        ),
        (lambda d: d.update(rules="pagatt"), r"rules: unknown preset 'pagatt' \(did you mean 'pagat'\?\)"),
        (lambda d: d.update(rules={"wheel": "middle"}), r"rules: rules knob 'wheel'"),
        (lambda d: d.update(stakes=[[1, 2], [2, 1]]), r"stakes must be a 4 x 4 matrix"),
        (lambda d: d.update(stakes=[[1, 2, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]), r"symmetric"),
        (
            lambda d: d.update(stakes=[[1, -1, 1, 1], [-1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]),
            r"stakes\[0\]\[1\]",
        ),
        (lambda d: d.update(id=[1]), r"id must be a string or an integer"),
        (lambda d: d.update(player=[]), r"unknown key 'player' in a round \(did you mean 'players'\?\)"),
        (lambda d: d["players"][0].update(declare_natural="yes"), r"declare_natural must be true or false"),
        (lambda d: d["players"][2].update(front=7), r"player 3 \(South\): front must be a string of cards"),
        (lambda d: d["players"][2].update(front=["Qd", None, "2c"]), r"front: card 1 must be a card"),
        (
            lambda d: d["players"][2].update(front=["Qd", 52, "2c"]),
            r"front: card X1 \(code 52\) is a joker the pack does not hold",
        ),
    ],
)
def test_errors_name_the_round_and_player(mutate: Any, message: str) -> None:
    data = e2_round()
    mutate(data)
    text = error_of(data, position=3, where="round 3")
    assert text.startswith("round 3")
    assert re.search(message, text), text
    assert "\n" not in text


def test_declaring_without_a_natural() -> None:
    players = copy.deepcopy(E2_PLAYERS[:2])
    players[0] = {"name": "North", "cards": "Ts Th Qs 6s 5s 4s 3s 2h Ks Kh Kd 3h 3d", "declare_natural": True}
    assert "player 1 (North): declares a natural, but the rules (pagat) list no naturals" in error_of(
        {"players": players}
    )
    text = error_of({"players": players, "rules": "pagat-bonus"})
    assert "player 1 (North): declares a natural but holds none" in text


def test_not_a_round() -> None:
    assert "a round must be an object" in error_of([1, 2])
    assert "players missing" in error_of({"id": 1})


# ----- files ---------------------------------------------------------------------------------------------


def test_read_rounds_forms() -> None:
    one = json.dumps(e2_round())
    assert read_rounds(one) == (False, read_rounds(one)[1])
    jsonl, raws = read_rounds(json.dumps([e2_round(), e2_round(id="b")]))
    assert not jsonl
    assert [r.data["id"] for r in raws] == ["e2", "b"]
    jsonl, raws = read_rounds(one + "\n\n" + json.dumps(e2_round(id="b")) + "\n")
    assert jsonl
    assert [(r.position, r.line) for r in raws] == [(1, 1), (2, 3)]
    jsonl, raws = read_rounds(one + "\n{oops\n" + one)
    assert jsonl
    assert raws[1].error is not None
    assert raws[1].where == "line 2"
    assert raws[0].where == 'line 1 (id "e2")'
    jsonl, raws = read_rounds('{\n  "players": [\n')
    assert not jsonl
    assert len(raws) == 1
    assert "malformed JSON at line" in (raws[0].error or "")
    assert read_rounds("  \n") == (False, [])


def test_iter_settled_reports_and_continues() -> None:
    bad = e2_round(id="bad")
    bad["players"][0]["front"] = "Ts Th"
    text = "\n".join(json.dumps(r) for r in (e2_round(id="a"), bad, e2_round(id="c")))
    _, raws = read_rounds(text)
    results = list(iter_settled(raws))
    assert [r[1].id if r[1] else None for r in results] == ["a", None, "c"]
    assert str(results[1][3]).startswith('line 2 (id "bad"), player 1 (North): the front takes 3 cards')


# ----- the schema ----------------------------------------------------------------------------------------


def test_schemas_agree_with_the_parser() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    round_schema, output_schema = load_schema("round"), load_schema("output")
    jsonschema.Draft202012Validator.check_schema(round_schema)
    jsonschema.Draft202012Validator.check_schema(output_schema)
    good = [e2_round(), e2_round(rules="capsa-susun", stakes=None), [e2_round(), e2_round(id=3)]]
    good.append(
        {"players": [E2_PLAYERS[0], {"cards": SIX_PAIRS, "declare_natural": True}], "rules": "pagat-bonus"}
    )
    for data in good:
        jsonschema.validate(data, round_schema)
    vectors = list(generate_vectors(Rules.preset("pagat-bonus"), 5, 1))
    jsonschema.validate(vectors, round_schema)
    for vector in vectors:
        jsonschema.validate(vector["expected"], output_schema)
    bad_mutations = [
        lambda d: d["players"][0].update(midle="x"),
        lambda d: d["players"][0].pop("back"),
        lambda d: d["players"][0].update(cards=SIX_PAIRS),
        lambda d: d.update(players=d["players"][:1]),
        lambda d: d.update(rules="pagatt"),
        lambda d: d.update(player=[]),
        lambda d: d.update(id=[1]),
        lambda d: d["players"][0].update(front=["Ts", "Th"]),
        lambda d: d["players"][0].update(front=["Ts", "Th", "Xx"]),
        lambda d: d["players"][0].update(declare_natural=True),
        lambda d: d.update(stakes=[[1, -1, 1, 1], [-1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]),
    ]
    for mutate in bad_mutations:
        data = e2_round()
        mutate(data)
        with pytest.raises(RoundError):
            settle_round(parse_round(data))
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(data, round_schema)


def test_docs_example_round_is_valid() -> None:
    block = re.findall(r"```json\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)[0]
    rnd = parse_round(json.loads(block))
    out = round_output(rnd, settle_round(rnd))
    assert out["id"] == "table-7/hand-12"
    assert out["players"][2]["natural"] == "six_pairs"
    assert sum(out["net"]) == 0


# ----- vectors -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_edge_cases_are_valid_for_every_preset(preset: str) -> None:
    rules = Rules.preset(preset)
    cases = edge_cases(rules)
    ids = [case["id"] for case in cases]
    assert len(set(ids)) == len(ids)
    for case in cases:
        rnd = parse_round(case)
        assert sum(round_output(rnd, settle_round(rnd))["net"]) == 0


def test_edge_cases_cover_what_the_issue_asks() -> None:
    vectors = {v["id"]: v["expected"] for v in generate_vectors(Rules.preset("shisanzhang-hk"), 0, 0)}
    assert vectors["E1"]["net"] == [-3, 3]
    assert vectors["E2"]["net"] == [6, -8, 3, -1]
    assert vectors["E3"]["net"] == [1, -1]
    assert vectors["E4-custom-rules"]["net"] == [-2, -4, -34, 40]
    assert vectors["E4-custom-rules"]["rules"] == E4_RULES.to_dict()
    # ties: A and B push every row
    assert next(p for p in vectors["ties"]["pairs"] if (p["i"], p["j"]) == (0, 1))["rows"] == [0, 0, 0]
    # fouls on both sides
    fouls = vectors["fouls"]
    assert [p["foul"] for p in fouls["players"]] == [True, True, False]
    assert next(p for p in fouls["pairs"] if (p["i"], p["j"]) == (0, 1))["units"] == 0
    # naturals against naturals, and royalties on both sides
    assert all(p["decided_by"] == "natural" for p in vectors["naturals"]["pairs"])
    assert all(all(p["natural"]) for p in vectors["naturals"]["pairs"])
    assert vectors["naturals-dragons"]["pairs"][0]["units"] == 0  # dragon v dragon ties
    royalties = vectors["royalties"]["pairs"][0]["royalties"]
    assert all(v > 0 for v in royalties[0])
    assert all(v > 0 for v in royalties[1])
    assert vectors["home-run"]["players"][0]["home_run"] is True
    assert vectors["home-run"]["net"][0] == 216
    # the wheel: low wheel loses the back to the six-high straight; second wheel wins it
    assert vectors["wheel"]["pairs"][0]["rows"] == [0, 0, -1]
    second = {v["id"]: v["expected"] for v in generate_vectors(Rules.preset("shisanshui-app"), 0, 0)}
    assert second["wheel-straight-flush"]["players"][0]["foul"] is True


def test_vectors_are_reproducible_and_seeded() -> None:
    rules = Rules.preset("pagat-bonus")
    first = list(generate_vectors(rules, 15, 42))
    assert first == list(generate_vectors(rules, 15, 42))
    other = list(generate_vectors(rules, 15, 43, edges=False))
    assert [v["players"] for v in first[-15:]] != [v["players"] for v in other]
    assert [v["id"] for v in other][:2] == ["random-0001", "random-0002"]
    for vector in first:
        rnd = parse_round(vector)
        assert round_output(rnd, settle_round(rnd)) == vector["expected"]
        assert vector["rules"] in ("pagat-bonus", E4_RULES.to_dict())


def test_rules_reference() -> None:
    assert rules_reference(Rules.preset("pusoy")) == "pusoy"
    assert rules_reference(E4_RULES)["scoop_multiplier"] == 2


# ----- verify --------------------------------------------------------------------------------------------


def expected_outputs() -> list[dict[str, Any]]:
    return [v["expected"] for v in generate_vectors(Rules.preset("pagat-bonus"), 3, 5)]


def test_verify_agrees_with_itself_and_reads_vectors() -> None:
    outputs = expected_outputs()
    assert compare_outputs(outputs, copy.deepcopy(outputs)) == []
    vectors_text = "\n".join(json.dumps(v) for v in generate_vectors(Rules.preset("pagat-bonus"), 3, 5))
    assert load_outputs(vectors_text) == outputs
    assert load_outputs(json.dumps(outputs)) == outputs
    assert load_outputs(json.dumps(outputs[0])) == outputs[:1]


def test_verify_reports_each_field() -> None:
    outputs = expected_outputs()
    actual = copy.deepcopy(outputs)
    by_id = {o["id"]: o for o in actual}
    by_id["E1"]["net"][0] += 1
    by_id["E2"]["pairs"][2]["rows"][1] = -by_id["E2"]["pairs"][2]["rows"][1]
    by_id["E2"]["players"][2]["rows"]["back"]["royalty"] = 9
    by_id["E3"]["players"][0]["foul"] = True
    by_id["E4"]["pairs"][0]["royalties"][1][2] = 7
    del by_id["ties"]["players"][0]["natural"]
    del by_id["fouls"]["pairs"][0]["scoop"]  # not required: skipped unless strict
    by_id["wheel"]["rules"] = "pagat"
    actual.remove(by_id["royalties"])
    actual.append({"id": "extra", "net": [], "players": [], "pairs": []})
    lines = [str(d) for d in compare_outputs(outputs, actual)]
    assert 'round "E1": net of A: expected -3, actual -2' in lines
    assert 'round "E2", pair North v West, row middle: rows: expected +1, actual -1' in lines
    assert 'round "E2", player South, row back: royalty: expected 0, actual +9' in lines
    assert 'round "E3", player Amy: foul: expected false, actual true' in lines
    assert 'round "E4", pair N v E, row back, side of E: royalties: expected 0, actual +7' in lines
    assert 'round "ties", player A: natural: expected null, actual is missing it' in lines
    assert 'round "wheel": rules: expected "pagat-bonus", actual "pagat"' in lines
    assert 'round "royalties": missing from the actual output' in lines
    assert 'round "extra": not in the expected output' in lines
    assert len(lines) == 9
    strict = [str(d) for d in compare_outputs(outputs, actual, strict=True)]
    assert any("scoop: expected 0, actual is missing it" in line for line in strict)
    ignored = compare_outputs(outputs, actual, ignore={"royalty", "royalties", "rules"})
    assert len(ignored) == 6


def test_verify_minimal_other_implementation() -> None:
    """Another scorer may write only the required fields, in its own number formats."""
    outputs = expected_outputs()
    minimal = []
    for out in outputs:
        minimal.append(
            {
                "id": out["id"],
                "net": [float(n) for n in out["net"]],
                "players": [
                    {"net": p["net"], "foul": p["foul"], "natural": p["natural"]} for p in out["players"]
                ],
                "pairs": [
                    {"i": p["i"], "j": p["j"], "rows": p["rows"], "units": p["units"]} for p in out["pairs"]
                ],
            }
        )
    assert compare_outputs(outputs, minimal) == []
    assert compare_outputs(outputs, minimal, strict=True) != []
    minimal[0]["players"][0]["foul"] = 0  # a number is not a boolean
    assert len(compare_outputs(outputs, minimal)) == 1


def test_verify_rules_compare_as_rules() -> None:
    out = expected_outputs()[0]
    spelled = copy.deepcopy(out)
    spelled["rules"] = Rules.preset("pagat-bonus").to_dict()
    spelled["rules"].pop("preset")
    assert compare_round(out, spelled) == []


def test_verify_bad_files() -> None:
    with pytest.raises(OutputFileError, match="line 2"):
        load_outputs('{"id": 1}\n{oops\n')
    with pytest.raises(OutputFileError, match="must be an object"):
        load_outputs("[1, 2]")
    outputs = expected_outputs()
    with pytest.raises(OutputFileError, match="twice"):
        compare_outputs(outputs + outputs[:1], outputs)


# ----- the table and the progress bar --------------------------------------------------------------------


def test_table_is_aligned() -> None:
    rnd = parse_round(e2_round(rules="shisanzhang-hk"))
    text = format_round_table(round_output(rnd, settle_round(rnd)))
    lines = text.splitlines()
    assert lines[0] == 'Round "e2" under shisanzhang-hk'
    net_end = lines[1].index("Net") + 3
    players = {line.split()[0]: line[:net_end].split()[-1] for line in lines[2:10] if line.strip()}
    assert {name: players[name] for name in ("North", "East", "South", "West")} == {
        "North": "+6", "East": "-8", "South": "+3", "West": "-1",
    }  # fmt: skip
    assert "North v East" in text
    assert "scoop by North" in text
    assert lines[-1] == "Net: North +6, East -8, South +3, West -1"


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    """Stands in for the ``time`` module of chinese_poker.cli.progress: the test sets the time."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(progress_module, "time", fake)
    return fake


@pytest.mark.parametrize(
    ("total", "width", "done", "elapsed", "text"),
    [
        (10, 30, 5, 2.0, "x [###############---------------] 5/10  50% eta 2s"),
        (200, 30, 0, 0.0, "x [------------------------------] 0/200   0%"),
        (200, 30, 50, 0.6, "x [########----------------------] 50/200  25% eta 2s"),
        (200, 30, 200, 75.0, "x [##############################] 200/200 100% in 1m15s"),
        (10, 30, 12, 1.0, "x [##############################] 10/10 100% in 1s"),  # done is capped
        (3, 30, 1, 3600.0, "x [##########--------------------] 1/3  33% eta 2h00m"),
        (4, 8, 1, 1.0, "x [##------] 1/4  25% eta 3s"),
        (7, 10, 3, 44.5, "x [####------] 3/7  43% eta 59s"),
        (7, 10, 3, 45.0, "x [####------] 3/7  43% eta 1m00s"),
    ],
)
def test_progress_bar_text(total: int, width: int, done: int, elapsed: float, text: str) -> None:
    assert Progress(total, "x", FakeTerminal(), width=width).render(done, elapsed) == text


def test_progress_bar_waits_then_redraws_ten_times_a_second(clock: Clock) -> None:
    terminal = FakeTerminal()
    bar = Progress(200, "vectors", terminal)  # a terminal: drawn; the default delay is half a second
    assert bar.enabled
    for after, done in [(0.2, 10), (0.6, 50), (0.65, 60), (0.75, 70), (0.76, 200)]:
        clock.now = 1000.0 + after
        bar.update(done)
    assert terminal.getvalue() == (
        "\r\x1b[Kvectors [########----------------------] 50/200  25% eta 2s"
        "\r\x1b[Kvectors [##########--------------------] 70/200  35% eta 1s"
        "\r\x1b[Kvectors [##############################] 200/200 100% in 1s"
    )  # nothing before half a second; 60 came 0.05 s after a redraw; the end always shows
    bar.close()
    assert terminal.getvalue().endswith("100% in 1s\r\x1b[K")
    written = terminal.getvalue()
    clock.now += 5.0
    bar.update(200)
    bar.close()
    assert terminal.getvalue() == written  # closed for good


def test_progress_bar_clear_and_the_shared_terminal(clock: Clock) -> None:
    terminal = FakeTerminal()
    bar = Progress(4, "settling", terminal, delay=0.0)
    writer = OutputWriter(bar, terminal)
    bar.update(1)
    writer.write("line 1\n")
    clock.now += 0.01  # a redraw is due again right after a clear, however soon
    bar.update(2)
    assert terminal.getvalue() == (
        "\r\x1b[Ksettling [########----------------------] 1/4  25%"
        "\r\x1b[Kline 1\n"
        "\r\x1b[Ksettling [###############---------------] 2/4  50% eta 0s"
    )
    bar.clear()
    bar.clear()  # nothing shown: nothing to erase
    assert terminal.getvalue().endswith("eta 0s\r\x1b[K")


def test_progress_bar_stays_quiet_in_a_pipe_unless_forced(clock: Clock) -> None:
    pipe = io.StringIO()
    quiet = Progress(200, "vectors", pipe, delay=0.0)
    assert not quiet.enabled
    for done in range(0, 201, 20):
        clock.now += 1.0
        quiet.update(done)
    quiet.close()
    assert pipe.getvalue() == ""
    forced = Progress(2, "vectors", pipe, enabled=True, delay=0.0)
    clock.now += 1.0
    forced.update(2)
    assert pipe.getvalue() == "\r\x1b[Kvectors [##############################] 2/2 100% in 1s"
    writer = OutputWriter(forced, io.StringIO())
    assert not writer.share  # the output is no terminal: nothing to erase before writing
    assert not Progress(0, "empty", FakeTerminal(), enabled=True).enabled  # nothing to count


def test_progress_modes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stderr", FakeTerminal())
    auto = progress_for("auto", 5, "x")
    assert (auto.enabled, auto.delay) == (True, 0.5)
    always = progress_for("always", 5, "x")
    assert (always.enabled, always.delay) == (True, 0.0)
    assert not progress_for("never", 5, "x").enabled
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert not progress_for("auto", 5, "x").enabled
    assert progress_for("always", 5, "x").enabled


def test_held_patterns() -> None:
    assert held_patterns(Hand.declared(SIX_PAIRS).cards) == ["six_pairs"]
    assert "dragon" in held_patterns(Hand.declared("2h 3s 4h 5s 6h 7s 8h 9h Ts Jh Qs Kh Ah").cards)


# ----- the net-lines fast path ---------------------------------------------------------------------------


def _general_net_lines(body: bytes, rules: Rules | None) -> bytes:
    """The net output lines of a JSON Lines body the general way: every round parsed, settled and written."""
    _, raws = read_rounds(body.decode("utf-8"), json_lines=True)
    lines = []
    for raw in raws:
        rnd = parse_round(raw.data, position=raw.position, rules=rules, override_rules=rules is not None)
        lines.append(dumps(round_net_output(rnd, settle_round(rnd))) + "\n")
    return "".join(lines).encode("utf-8")


@pytest.mark.parametrize("preset", [None, "pagat", "shisanzhang-hk", "maubinh"])
def test_net_lines_are_the_bytes_of_the_general_path(preset: str | None) -> None:
    rules = None if preset is None else Rules.preset(preset)
    rng = random.Random(7)
    rounds = []
    for k in range(60):
        data = random_round(rng, rules or Rules.preset(), f"r{k}")
        players = [
            {key: p[key] for key in ("name", "front", "middle", "back") if key in p} for p in data["players"]
        ]
        # The common shape: settings only, and every round of one size.
        if all(len(p) == 4 for p in players) and len(players) == 4:
            rounds.append({"id": k if k % 3 == 0 else data["id"], "players": players})
    assert len(rounds) > 20
    body = "".join(json.dumps(r) + "\n" for r in rounds).encode("utf-8")
    answer = settle_net_lines(body, rules, max_rounds=1000)
    assert answer is not None
    lines, more = answer
    assert not more
    assert lines == _general_net_lines(body, rules)
    hands = [Hand(p["front"], p["middle"], p["back"]) for p in rounds[0]["players"]]
    first_net = list(settle(hands, rules or "pagat").net)
    assert json.loads(lines.splitlines()[0]) == {"id": rounds[0]["id"], "net": first_net}
    assert any(isinstance(r["id"], int) for r in rounds)
    # More rounds than the limit: the lines of those before it, and "more".
    first, more = settle_net_lines(body, rules, max_rounds=5) or (b"", False)
    assert more
    assert first == b"".join(lines.splitlines(keepends=True)[:5])


def test_net_lines_leave_other_shapes_to_the_general_path() -> None:
    good = json.dumps(e2_round()) + "\n"
    assert settle_net_lines(good.encode(), None, max_rounds=10) == (b'{"id":"e2","net":[3,-5,3,-1]}\n', False)
    declared = e2_round()
    declared["players"][0] = {"name": "North", "cards": SIX_PAIRS, "declare_natural": True}
    repeated = e2_round()
    repeated["players"][1]["front"] = "Ts Kc 7s"  # North holds Ts too
    three = {"id": 3, "players": copy.deepcopy(E2_PLAYERS[:3])}
    for other in (declared, repeated, three, e2_round(rules="pagat-bonus"), e2_round(stakes=[[1] * 4] * 4)):
        body = (good + json.dumps(other) + "\n").encode()
        assert settle_net_lines(body, None, max_rounds=10) is None
    assert settle_net_lines(b"not json\n", None, max_rounds=10) is None
    assert settle_net_lines(good.encode(), "shisanshui-puxian-ghost", max_rounds=10) is None  # jokers
    assert settle_net_lines((good * 2).encode(), None, max_rounds=10, max_players=3) is None
