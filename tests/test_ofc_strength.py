"""bench/bench_ofc_strength.py: chunks written one file each, skipped when present, combined exactly."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest
from chinese_poker.ofc import play

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "bench_ofc_strength.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_ofc_strength", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(bench: ModuleType, folder: Path, deals: int, chunk: int, *extra: str) -> None:
    argv = ["run", "--deals", str(deals), "--chunk", str(chunk), "--samples", "20", "--dir", str(folder)]
    bench.main([*argv, *extra])


def _scores(path: Path) -> dict[str, object]:
    line = json.loads(path.read_text())
    return {k: v for k, v in line.items() if k not in ("seconds", "cpu_seconds", "load")}


def test_a_stopped_run_continues_where_it_stopped(bench: ModuleType, tmp_path: Path) -> None:
    _run(bench, tmp_path, deals=3, chunk=2)
    folder = tmp_path / "seed-2026-samples-20"
    assert sorted(p.name for p in folder.iterdir()) == [
        "chunk-000000-000001.jsonl",
        "chunk-000002-000002.jsonl",
    ]
    first, last = folder / "chunk-000000-000001.jsonl", folder / "chunk-000002-000002.jsonl"
    kept, played = first.stat().st_mtime_ns, _scores(last)
    last.unlink()
    _run(bench, tmp_path, deals=3, chunk=2)
    assert first.stat().st_mtime_ns == kept
    assert _scores(last) == played
    with pytest.raises(SystemExit, match="overlap a chunk recorded otherwise"):
        _run(bench, tmp_path, deals=3, chunk=3)

    match = play(bench.RULES, ["advisor", "greedy"], 3, 2026, samples=20)
    combined = bench.combine([str(tmp_path)])
    advisor, greedy = match.results
    assert (combined["deals"], combined["hands"]) == (3, 6)
    assert combined["units"] == pytest.approx(advisor.units, abs=1e-12)
    assert combined["units"] - combined["half"] == pytest.approx(advisor.low, abs=1e-12)
    assert combined["fl_advisor"] == pytest.approx(advisor.with_fantasyland - advisor.units, abs=1e-12)
    assert combined["fl_greedy"] == pytest.approx(greedy.with_fantasyland - greedy.units, abs=1e-12)
    assert combined["advisor_fouls"] == pytest.approx(advisor.fouls, abs=1e-12)
    assert combined["greedy_fouls"] == pytest.approx(greedy.fouls, abs=1e-12)
    with pytest.raises(SystemExit, match="deal 2 recorded twice"):
        bench.combine([str(tmp_path), str(last)])


def test_carried_fantasyland_chunks_are_a_match_of_their_own(bench: ModuleType, tmp_path: Path) -> None:
    _run(bench, tmp_path, deals=2, chunk=2)
    _run(bench, tmp_path, 2, 2, "--carry-fantasyland")
    carried = tmp_path / "seed-2026-samples-20-carry"
    line = json.loads((carried / "chunk-000000-000001.jsonl").read_text())
    match = play(bench.RULES, ["advisor", "greedy"], 2, 2026, samples=20, carry_fantasyland=True)
    assert line["carry_fantasyland"] is True
    assert line["advisor"] == list(match.results[0].scores)
    assert line["advisor_fantasyland_hands"] == match.results[0].fantasyland_hands
    assert bench.combine([str(carried)])["carry_fantasyland"] is True
    with pytest.raises(SystemExit, match="with and without carried fantasyland"):
        bench.combine([str(tmp_path)])


def test_greedys_fantasyland_values_filled_in_are_those_a_match_records(
    bench: ModuleType, tmp_path: Path
) -> None:
    # Deal 3 of seed 2026: greedy earns fantasyland (queens or better in front) in both seats.
    bench.main(["run", "--first-deal", "2", "--deals", "2", "--samples", "20", "--dir", str(tmp_path)])
    path = tmp_path / "seed-2026-samples-20" / "chunk-000002-000003.jsonl"
    recorded = json.loads(path.read_text())
    # greedy_fl is greedy's units with its fantasyland, and greedy's units are minus the advisor's.
    assert recorded["greedy_fl"][1] + recorded["advisor"][1] > 0
    stripped = {k: v for k, v in recorded.items() if k != "greedy_fl"}
    path.write_text(json.dumps(stripped) + "\n")
    bench.main(["backfill", "--dir", str(tmp_path)])
    filled = json.loads(path.read_text())
    assert filled["greedy_fl"] == pytest.approx(recorded["greedy_fl"], abs=1e-12)
    assert filled["greedy_fl_by"] == "greedy against itself"
