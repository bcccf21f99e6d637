"""What ``xcheck --probe`` sends (stakes, surrenders, banker rounds with bets, jokers): the oracle against
the reference on such rounds, seat subsets of them, fits that recover ``surrender_units`` and ``jokers``,
and an engine that ignores stakes shown as a minimal round."""

from __future__ import annotations

import importlib
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from chinese_poker.cli import main
from chinese_poker.rules import Rules
from chinese_poker.xcheck.cases import random_rounds, targeted_rounds
from chinese_poker.xcheck.oracle import Pool
from chinese_poker.xcheck.probes import PROBES, parse_probes, probe_rounds
from chinese_poker.xcheck.xround import XRound

ENGINE = Path(__file__).parent / "xcheck_engines" / "engine.py"
reference_settle = importlib.import_module("chinese_poker.reference.settle")


def library_engine(rules: Rules, *bug: str) -> str:
    return shlex.join([sys.executable, str(ENGINE), "library", json.dumps(rules.to_dict()), *bug])


def run_tool(tmp_path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    report = tmp_path / "report.json"
    code = main(["xcheck", "--quiet", "--progress", "never", "--json", str(report), *args])
    return code, json.loads(report.read_text(encoding="utf-8"))


def reference_net(rnd: XRound, rules: dict[str, Any]) -> tuple[int, ...] | None:
    players = [{"front": h[:3], "middle": h[3:8], "back": h[8:]} for h in rnd.hands]
    try:
        settled = reference_settle.settle(
            players, rules, rnd.stakes, rnd.surrender, banker=rnd.banker, bets=rnd.bets
        )
    except ValueError:
        return None
    return tuple(settled["net"])


@pytest.mark.parametrize(("preset", "surrender_units"), [("pagat", 0), ("pagat", 3), ("shisanzhang-hk", 2)])
def test_oracle_agrees_with_the_reference_on_probe_rounds(preset: str, surrender_units: int) -> None:
    rounds = probe_rounds(4, PROBES, count=12)
    assert [r.inputs for r in rounds[::12]] == [
        (True, False, False),
        (False, True, False),
        (False, False, True),
        (False, False, False),
    ]
    assert all(r.jokers > 0 for r in rounds[36:])
    rules = Rules.preset(preset).replace(surrender_units=surrender_units)
    resolved = reference_settle.resolve_rules(rules.to_dict())
    nets = Pool(rounds).nets(rules)
    assert nets == [reference_net(r, resolved) for r in rounds]
    # Surrenders are refused exactly when the rules have no surrender, jokers when they have none.
    assert [n is None for n in nets[12:24]] == [surrender_units == 0] * 12
    assert [n is None for n in nets[36:]] == [True] * 12


@pytest.mark.parametrize(("preset", "jokers"), [("pagat", 1), ("pagat", 2), ("shisanshui-app", 2)])
def test_oracle_agrees_with_the_reference_on_joker_rounds(preset: str, jokers: int) -> None:
    rounds = probe_rounds(6, ["jokers"])
    rules = Rules.preset(preset).replace(jokers=jokers)
    nets = Pool(rounds).nets(rules)
    assert nets == [reference_net(r, reference_settle.resolve_rules(rules.to_dict())) for r in rounds]
    # X2 is refused by a pack of one joker.
    assert [n is None for n in nets] == [r.jokers > jokers for r in rounds]
    assert any(r.jokers == 2 for r in rounds)


def test_probe_rounds_are_reproducible_and_carry_their_inputs() -> None:
    first, again = probe_rounds(9, ["banker", "stakes"]), probe_rounds(9, ["stakes", "banker"])
    assert first == again
    assert len(first) == 48
    stakes = first[0].to_json()["stakes"]
    players = first[0].players
    assert [[stakes[a][b] == stakes[b][a] for b in range(players)] for a in range(players)] == [
        [True] * players
    ] * players
    banker = first[24].to_json()
    assert 0 <= banker["banker"] < first[24].players
    assert len(banker["bets"]) == first[24].players
    assert all(1 <= b <= 5 for b in banker["bets"])


def test_seat_subsets_keep_the_inputs() -> None:
    base = next(r for r in probe_rounds(2, ["stakes"]) if r.players == 4)
    assert base.stakes is not None
    sub = base.seats((1, 3), "x")
    assert sub is not None
    assert sub.stakes == ((1, base.stakes[1][3]), (base.stakes[3][1], 1))
    assert sub.hands == (base.hands[1], base.hands[3])
    banked = next(r for r in probe_rounds(2, ["banker"]) if r.players >= 3)
    assert banked.banker is not None
    assert banked.bets is not None
    others = [s for s in range(banked.players) if s != banked.banker]
    assert banked.seats(others[:2], "y") is None  # without its banker the round means something else
    seats = sorted([banked.banker, others[0]])
    kept = banked.seats(seats, "z")
    assert kept is not None
    assert kept.banker == seats.index(banked.banker)
    assert kept.bets == tuple(banked.bets[s] for s in seats)


def test_an_unknown_probe_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_probes("all") == frozenset(PROBES)
    assert main(["xcheck", "--engine", "true", "--probe", "stakes,fantasyland"]) == 2
    assert "--probe: unknown input 'fantasyland' (choose from stakes, surrender, banker, jokers, or all)" in (
        capsys.readouterr().err
    )


@pytest.mark.python_bound  # the fit's engine is the reference
def test_fit_recovers_surrender_units(tmp_path: Path) -> None:
    truth = Rules.preset("shisanzhang-hk").replace(surrender_units=3, wheel="second")
    code, report = run_tool(
        tmp_path, "--fit", "--probe", "all", "--engine", library_engine(truth), "--budget", "600"
    )
    assert code == 0, report["classes"]
    assert report["probes"] == ["banker", "jokers", "stakes", "surrender"]
    fitted = Rules.from_toml(report["rules_file"])
    assert fitted.surrender_units == 3
    fresh = Pool(targeted_rounds(77)[::2] + list(random_rounds(77, 300)) + probe_rounds(77, PROBES))
    assert [r.rid for r, a, b in zip(fresh.rounds, fresh.nets(fitted), fresh.nets(truth)) if a != b] == []


@pytest.mark.python_bound  # the fit's engine is the reference
@pytest.mark.parametrize("jokers", [1, 2])
def test_fit_recovers_the_jokers(tmp_path: Path, jokers: int) -> None:
    truth = Rules.preset("pagat").replace(jokers=jokers, scoop_bonus=3)
    code, report = run_tool(
        tmp_path, "--fit", "--probe", "jokers", "--engine", library_engine(truth), "--budget", "500"
    )
    assert code == 0, report["classes"]
    fitted = Rules.from_toml(report["rules_file"])
    assert fitted.jokers == jokers
    fresh = Pool(list(random_rounds(78, 300)) + probe_rounds(78, ["jokers"], count=60))
    assert [r.rid for r, a, b in zip(fresh.rounds, fresh.nets(fitted), fresh.nets(truth)) if a != b] == []


def test_an_engine_ignoring_stakes_shows_as_a_minimal_staked_round(tmp_path: Path) -> None:
    truth = Rules.preset("pagat")
    code, report = run_tool(
        tmp_path,
        "--rules",
        "pagat",
        "--probe",
        "stakes",
        "--engine",
        library_engine(truth, "ignore_stakes"),
        "--budget",
        "400",
    )
    assert code == 1
    item = report["classes"][0]
    assert item["players"] == 2
    stakes = item["minimal_round"]["stakes"]
    assert stakes[0][1] != 1  # the stake the engine did not apply
    assert item["engine_answer"]["net"] != item["library_net"]
    # The engine's answer is the round's without its stakes: the library's is that times the stake.
    assert [n * stakes[0][1] for n in item["engine_answer"]["net"]] == item["library_net"]
