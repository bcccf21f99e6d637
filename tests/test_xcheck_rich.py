"""Richer answers (per player ``foul`` and ``natural``, per pair ``units`` and ``rows``): compared field by
field when an engine gives them, in the fit and in the classes, where they show bugs the nets hide."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from chinese_poker.cli import main
from chinese_poker.formats.rounds import parse_round, round_output, settle_round
from chinese_poker.rules import Rules
from chinese_poker.xcheck.cases import random_rounds, targeted_rounds
from chinese_poker.xcheck.engine import Answer, parse_answer
from chinese_poker.xcheck.fit import agrees, differences
from chinese_poker.xcheck.oracle import Pool

ENGINE = Path(__file__).parent / "xcheck_engines" / "engine.py"


def library_engine(rules: Rules, variant: str) -> str:
    return shlex.join([sys.executable, str(ENGINE), "library", json.dumps(rules.to_dict()), variant])


def run_tool(tmp_path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    report = tmp_path / "report.json"
    code = main(["xcheck", "--quiet", "--progress", "never", "--json", str(report), *args])
    return code, json.loads(report.read_text(encoding="utf-8"))


def full_output(rnd_json: dict[str, Any], rules: Rules) -> dict[str, Any]:
    parsed = parse_round({**rnd_json, "rules": rules.to_dict()})
    return round_output(parsed, settle_round(parsed))


def test_a_full_output_is_read_and_agrees_field_by_field() -> None:
    rules = Rules.preset("shisanshui-app")
    rounds = [r for r in targeted_rounds(1) if r.players == 3][:20]
    facts = Pool(rounds).facts(rules)
    assert any(f is not None and any(f.natural) for f in facts)  # naturals among them
    for rnd, fact in zip(rounds, facts):
        answer = parse_answer(full_output(rnd.to_json(), rules), 3)
        assert answer.rich
        assert answer.pair_units is not None
        assert answer.pair_rows is not None
        assert len(answer.pair_units) == len(answer.pair_rows) == 3
        assert fact is not None
        assert differences(fact, answer) == []
        assert agrees(fact, answer)


def test_differences_name_the_fields() -> None:
    rnd = next(r for r in random_rounds(5, 50) if r.players == 2)
    rules = Rules.preset("pagat")
    fact = Pool([rnd]).facts(rules)[0]
    assert fact is not None
    right = parse_answer(full_output(rnd.to_json(), rules), 2)
    flipped = tuple(not f for f in fact.foul)
    wrong_rows = ((1, 1, 1),) if fact.rows[0] != (1, 1, 1) else ((-1, -1, -1),)
    assert differences(fact, Answer(net=right.net, foul=flipped)) == ["foul"]
    assert differences(fact, Answer(net=right.net, pair_rows=wrong_rows)) == ["rows"]
    assert differences(fact, Answer(net=right.net, pair_units=(fact.units[0] + 1,))) == ["units"]
    assert differences(fact, Answer(net=None, error="refused")) == ["net"]
    assert differences(None, Answer(net=None, error="refused")) == []
    # A plain net answer is compared by its net only.
    assert agrees(fact.net, Answer(net=right.net))


@pytest.mark.python_bound  # the fit's engine is the reference
def test_fit_with_rich_answers_recovers_the_rules(tmp_path: Path) -> None:
    truth = Rules.preset("pagat-bonus").replace(royalty_mode="add", foul_policy="as_scooped")
    code, report = run_tool(tmp_path, "--fit", "--engine", library_engine(truth, "rich"), "--budget", "500")
    assert code == 0, report["classes"]
    fitted = Rules.from_toml(report["rules_file"])
    fresh = Pool(targeted_rounds(99) + list(random_rounds(99, 1000)))
    assert [r.rid for r, a, b in zip(fresh.rounds, fresh.facts(fitted), fresh.facts(truth)) if a != b] == []


def test_a_bug_only_the_rich_fields_show_is_a_class(tmp_path: Path) -> None:
    truth = Rules.preset("pagat")
    code, report = run_tool(
        tmp_path, "--rules", "pagat", "--engine", library_engine(truth, "rich_foul_hidden"), "--budget", "400"
    )
    assert code == 1
    assert report["classes"], report
    item = report["classes"][0]
    assert item["differs"] == ["foul"]
    assert item["engine_answer"]["net"] == item["library_net"]  # the nets agree
    assert item["players"] == 2
    library = full_output(item["minimal_round"], truth)
    assert any(p["foul"] for p in library["players"])
    assert item["engine_answer"]["foul"] == [False, False]
