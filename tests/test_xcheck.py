"""The cross-check tool: the engine protocol's faults, the oracle against the reference, and a zoo of
mutant engines (rule mutants whose rules ``--fit`` recovers, bug mutants whose bug a minimal round shows)."""

from __future__ import annotations

import importlib
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from chinese_poker.cli import main
from chinese_poker.formats.rounds import parse_round, round_output, settle_round
from chinese_poker.rules import Rules
from chinese_poker.xcheck.cases import random_rounds, round_from_json, targeted_rounds
from chinese_poker.xcheck.engine import Engine, EngineError
from chinese_poker.xcheck.oracle import Pool

ENGINE = Path(__file__).parent / "xcheck_engines" / "engine.py"
reference_settle = importlib.import_module("chinese_poker.reference.settle")


def engine_command(*args: str) -> str:
    return shlex.join([sys.executable, str(ENGINE), *args])


def library_engine(rules: Rules) -> str:
    return engine_command("library", json.dumps(rules.to_dict()))


def run_tool(tmp_path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    report = tmp_path / "report.json"
    code = main(["xcheck", "--quiet", "--progress", "never", "--json", str(report), *args])
    return code, json.loads(report.read_text(encoding="utf-8"))


# The protocol ---------------------------------------------------------------------------------------------


def test_engine_answers_in_order_and_keeps_stderr() -> None:
    rounds = [r.to_json() for r in targeted_rounds(1)[:5]]
    with Engine(engine_command("fault", "error"), timeout=20) as engine:
        answers = engine.ask(rounds)
    expected = Pool(targeted_rounds(1)[:5]).nets(Rules())
    assert [a.net for a in answers] == expected
    assert "engine: scored t1-edge-E1" in engine.stderr


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        (
            "crash",
            "round t3-edge-E3: no answer: the engine exited with status 3; its stderr ends: engine: cannot",
        ),
        ("garbage", "round t2-edge-E2: the engine's answer is not JSON"),
        ("silent", "round t2-edge-E2: no answer within 1 s"),
        ("missing", 'round t2-edge-E2: malformed answer: the answer has no "net"'),
    ],
)
def test_protocol_faults_name_the_round(fault: str, message: str) -> None:
    rounds = [r.to_json() for r in targeted_rounds(1)[:4]]
    with Engine(engine_command("fault", fault), timeout=1) as engine, pytest.raises(EngineError) as caught:
        engine.ask(rounds)
    assert message in str(caught.value)


def test_cli_reports_a_crash_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "r.json"
    code = main(
        ["xcheck", "--engine", engine_command("fault", "crash"), "--budget", "50", "--json", str(report)]
    )
    assert code == 2
    assert "round t3-edge-E3: no answer: the engine exited with status 3" in capsys.readouterr().err
    data = json.loads(report.read_text())
    assert "cannot score this round" in data["engine_stderr"]
    assert data["rounds_sent"] == 0


def test_cli_refuses_a_command_that_does_not_start(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["xcheck", "--engine", "/nonexistent/engine --x"]) == 2
    assert "cannot start the engine" in capsys.readouterr().err


# The oracle against the reference -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "preset", ["pagat", "pagat-bonus", "shisanzhang-hk", "shisanshui-app", "shisanshui-luosong"]
)
def test_oracle_agrees_with_the_reference(preset: str) -> None:
    rounds = targeted_rounds(3)[::4] + list(random_rounds(3, 20))
    nets = Pool(rounds).nets(Rules.preset(preset))
    resolved = reference_settle.resolve_rules(preset)
    refused = 0
    for rnd, net in zip(rounds, nets):
        players = [
            {"declared": list(hand)}
            if declared
            else {"front": hand[:3], "middle": hand[3:8], "back": hand[8:]}
            for hand, declared in zip(rnd.hands, rnd.declared)
        ]
        try:
            expected = tuple(reference_settle.settle(players, resolved)["net"])
        except ValueError:
            expected = None
            refused += 1
        assert net == expected, rnd.rid
    assert refused < len(rounds)


def test_cases_are_reproducible_and_legal() -> None:
    first = targeted_rounds(5) + list(random_rounds(5, 30))
    again = targeted_rounds(5) + list(random_rounds(5, 30))
    assert [r.hands for r in first] == [r.hands for r in again]
    assert len({r.rid for r in first}) == len(first)
    for rnd in first:
        cards = [c for hand in rnd.hands for c in hand]
        assert len(cards) == len(set(cards)) == 13 * rnd.players
        assert 2 <= rnd.players <= 4


def test_check_mode_agrees_with_the_library(tmp_path: Path) -> None:
    code, report = run_tool(
        tmp_path,
        "--engine",
        library_engine(Rules.preset("pagat-bonus")),
        "--rules",
        "pagat-bonus",
        "--budget",
        "300",
    )
    assert code == 0
    assert report["disagreements"] == 0
    assert report["rounds_sent"] == 240


def test_check_mode_names_the_knob(tmp_path: Path) -> None:
    engine = library_engine(Rules.preset("pagat").replace(wheel="second"))
    code, report = run_tool(tmp_path, "--engine", engine, "--budget", "300")
    assert code == 1
    assert report["classes"], report
    first = report["classes"][0]
    assert "wheel=second" in first["knobs"]
    assert first["players"] == 2
    # The minimal round still shows the knob: under wheel=second the library gives the engine's answer.
    minimal = round_from_json(first["minimal_round"], "m", "minimal")
    assert minimal is not None
    shown = Pool([minimal]).nets(Rules.preset("pagat").replace(wheel="second"))[0]
    assert shown is not None
    assert list(shown) == first["engine_answer"]["net"] != first["library_net"]


# The zoo --------------------------------------------------------------------------------------------------

# Beyond the quick one, each mutant is the reference's time: what the library does for it, the quick one does.
SLOW_MUTANT = [pytest.mark.slow, pytest.mark.python_bound]

RULE_MUTANTS = {
    "pagat-wheel-scoop": Rules.preset("pagat").replace(wheel="second", scoop_bonus=3, overall_unit=1),
    "bonus-add-scooped": Rules.preset("pagat-bonus").replace(royalty_mode="add", foul_policy="as_scooped"),
    "hk-suits": Rules.preset("shisanzhang-hk").replace(suit_tiebreak="highest_card", suit_order="shcd"),
    "capsa-strict": Rules.preset("capsa-susun").replace(scoop_multiplier=3, middle_vs_back="strict"),
    "app-home-run": Rules.preset("shisanshui-app").replace(home_run_multiplier=3, natural_vs_natural="push"),
    "wiki-total": Rules.preset("wikipedia-2-4").replace(overall_basis="total", royalty_condition="always"),
    "luosong-cap": Rules.preset("shisanshui-luosong").replace(pair_cap=10, wheel="second"),
}
QUICK_RULE_MUTANTS = {"pagat-wheel-scoop"}


@pytest.mark.parametrize(
    "name",
    [n if n in QUICK_RULE_MUTANTS else pytest.param(n, marks=SLOW_MUTANT) for n in RULE_MUTANTS],
)
def test_fit_recovers_a_rule_mutant(tmp_path: Path, name: str) -> None:
    truth = RULE_MUTANTS[name]
    code, report = run_tool(tmp_path, "--fit", "--engine", library_engine(truth), "--budget", "500")
    assert code == 0, report["classes"]
    fitted = Rules.from_toml(report["rules_file"])
    assert Rules.from_dict(report["rules"]) == fitted
    # Zero disagreements on fresh rounds: the engine is the library under the truth.
    fresh = Pool(targeted_rounds(99) + list(random_rounds(99, 1500)))
    differing = [r.rid for r, a, b in zip(fresh.rounds, fresh.nets(fitted), fresh.nets(truth)) if a != b]
    assert differing == []


def output_under(round_object: dict[str, Any], preset: str) -> dict[str, Any]:
    """The library's output of a round under the mutant's preset (the rows, royalties, naturals, caps the
    planted bug plays with)."""
    rnd = parse_round({**round_object, "rules": preset})
    return round_output(rnd, settle_round(rnd))


def _categories(output: dict[str, Any], row: str) -> list[str]:
    return [p["rows"][row]["category"] for p in output["players"] if p["rows"]]


def _shows_two_pair(output: dict[str, Any]) -> bool:
    return any(_categories(output, row).count("two_pair") >= 2 for row in ("middle", "back"))


def _shows_wheel(output: dict[str, Any]) -> bool:
    backs = [p["rows"]["back"] for p in output["players"] if p["rows"]]
    straights = [b for b in backs if b["category"] == "straight"]
    wheels = [b for b in straights if {card[0] for card in b["cards"].split()} == set("A2345")]
    return bool(wheels) and len(straights) >= 2


def _shows_royalty(output: dict[str, Any]) -> bool:
    return any(p["rows"][row]["royalty"] > 0 for p in output["players"] if p["rows"] for row in p["rows"])


def _shows_naturals(output: dict[str, Any]) -> bool:
    return sum(p["natural"] is not None for p in output["players"]) >= 2


def _shows_cap(output: dict[str, Any]) -> bool:
    return any(pair.get("capped") for pair in output["pairs"])


# The bug, the preset the engine plays, what its minimal round must hold, the budget (the reference finds
# naturals in every hand under shisanshui-app, slowly: fewer rounds there).
BUG_MUTANTS = {
    "two_pair_low": ("pagat", _shows_two_pair, 400),
    "wheel_back": ("pagat", _shows_wheel, 400),
    "royalty_to_loser": ("pagat-bonus", _shows_royalty, 400),
    "natural_tiebreak_reversed": ("shisanshui-app", _shows_naturals, 300),
    "cap_off_by_one": ("shisanshui-luosong", _shows_cap, 400),
}
QUICK_BUG_MUTANTS = {"two_pair_low"}


@pytest.mark.parametrize(
    "bug",
    [n if n in QUICK_BUG_MUTANTS else pytest.param(n, marks=SLOW_MUTANT) for n in BUG_MUTANTS],
)
def test_a_bug_mutant_shows_as_a_minimal_round(tmp_path: Path, bug: str) -> None:
    preset, shows, budget = BUG_MUTANTS[bug]
    code, report = run_tool(
        tmp_path, "--fit", "--engine", engine_command("reference", preset, bug), "--budget", str(budget)
    )
    assert code == 1
    showing = [
        item
        for item in report["classes"]
        if item["players"] <= 3
        and item["engine_answer"]["net"] != item["library_net"]
        and shows(output_under(item["minimal_round"], preset))
    ]
    assert showing, [(c["pattern"], c["explanation"]) for c in report["classes"]]
