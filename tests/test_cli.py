"""The ``chinese-poker`` command, run as ``python -m chinese_poker`` in a subprocess: every command and every
error path (one line on stderr, exit code 2, no traceback)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

E2_PLAYERS = [
    {"name": "North", "front": "Ts Th Qs", "middle": "6s 5s 4s 3s 2h", "back": "Ks Kh Kd 3h 3d"},
    {"name": "East", "front": "Ac Kc 7s", "middle": "Td Tc 9s 8s 6c", "back": "Jh Jd Jc 7h 7d"},
    {"name": "South", "front": "Qd Qc 2c", "middle": "8h 7c 6d 5c 4c", "back": "9h 9d 9c 8d 8c"},
    {"name": "West", "front": "Qh Js 6h", "middle": "5h 5d 4h 4d 3c", "back": "As Ah Ad 2s 2d"},
]


def run(*args: str, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chinese_poker", *args], input=stdin, capture_output=True, text=True,
        cwd=cwd, timeout=120, encoding="utf-8",
    )  # fmt: skip


def e2_round(**extra: Any) -> dict[str, Any]:
    return {"id": "e2", "players": copy.deepcopy(E2_PLAYERS), **extra}


def assert_input_error(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("chinese-poker: error: ")
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


# ----- score ---------------------------------------------------------------------------------------------


def test_score_table_from_stdin() -> None:
    result = run("score", "--rules", "wikipedia-2-4", stdin=json.dumps(e2_round()))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == 'Round "e2" under wikipedia-2-4'
    assert lines[-1] == "Net: North +4, East -8, South +6, West -2"
    pair = next(line for line in lines if line.strip().startswith("North v East"))
    assert pair.split()[3:6] == ["North", "North", "North"]
    assert "Pair of tens, queen kicker" in result.stdout


def test_score_json_jsonl_and_explain(tmp_path: Path) -> None:
    rounds = [e2_round(), e2_round(id=2, rules="shisanzhang-hk")]
    path = tmp_path / "rounds.json"
    path.write_text(json.dumps(rounds), encoding="utf-8")
    as_json = run("score", str(path), "--format", "json")
    assert as_json.returncode == 0, as_json.stderr
    outputs = json.loads(as_json.stdout)
    assert [o["id"] for o in outputs] == ["e2", 2]
    assert [o["net"] for o in outputs] == [[3, -5, 3, -1], [6, -8, 3, -1]]
    assert [p["name"] for p in outputs[0]["players"]] == ["North", "East", "South", "West"]
    assert {"cards", "category", "text", "strength", "royalty"} <= set(
        outputs[0]["players"][0]["rows"]["front"]
    )
    assert len(outputs[0]["pairs"]) == 6
    as_jsonl = run("score", str(path), "--format", "jsonl", "--explain")
    lines = [json.loads(line) for line in as_jsonl.stdout.splitlines()]
    assert [line["net"] for line in lines] == [o["net"] for o in outputs]
    assert "Settlement under shisanzhang-hk" in lines[1]["explain"]
    assert run("score", str(path), "--format", "json").stdout == as_json.stdout  # deterministic
    overridden = json.loads(run("score", str(path), "--format", "json", "--rules", "pagat").stdout)
    assert [o["net"] for o in overridden] == [[3, -5, 3, -1], [3, -5, 3, -1]]
    explained = run("score", str(path), "--explain")
    assert "Settlement under pagat" in explained.stdout and "pair   rows F M B" in explained.stdout


def test_score_rules_file_and_declared_natural(tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text('preset = "pagat"\noverall_unit = 1\nfoul_policy = "as_scooped"\n', encoding="utf-8")
    result = run("score", "--rules", str(rules), "--format", "json", stdin=json.dumps(e2_round()))
    assert json.loads(result.stdout)[0]["net"] == [4, -8, 6, -2]
    declared = {
        "rules": "pagat-bonus",
        "players": [
            E2_PLAYERS[0],
            {"cards": "2c 2d 4c 4d 5c 5d 6d 6h 8c 8d 9c 9d Qd", "declare_natural": True},
        ],
    }
    result = run("score", "-", stdin=json.dumps(declared))
    assert result.returncode == 0, result.stderr
    assert "natural: six pairs" in result.stdout and "Net: North -3, P2 +3" in result.stdout


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ('{"players": [', ["<stdin>", "malformed JSON at line 1"]),
        (json.dumps(e2_round() | {"players": E2_PLAYERS[:1]}), ['round 1 (id "e2")', "2 to 4 players"]),
        ("BAD_CARD", ['round 1 (id "e2"), player 2 (East): middle: unknown card', "'Xx'"]),
        ("DUPLICATE", ['round 1 (id "e2")', "card Ts is held by both North and East"]),
        ("ROW_SIZE", ['round 1 (id "e2"), player 3 (South): the back takes 5 cards, got 4']),
        ("SAME_CARD", ["player 1 (North): back: card Ks appears twice"]),
        (json.dumps(e2_round(rules="nope")), ["round 1 (id \"e2\"): rules: unknown preset 'nope'"]),
        (json.dumps(e2_round(stakes=[[1]])), ["stakes must be a 4 x 4 matrix"]),
    ],
)
def test_score_errors(text: str, fragments: list[str]) -> None:
    data = e2_round()
    if text == "BAD_CARD":
        data["players"][1]["middle"] = "Td Xx 9s 8s 6c"
    elif text == "DUPLICATE":
        data["players"][1]["front"] = "Ac Kc Ts"
    elif text == "ROW_SIZE":
        data["players"][2]["back"] = "9h 9d 9c 8d"
    elif text == "SAME_CARD":
        data["players"][0]["back"] = "Ks Kh Kd 3h Ks"
    if text.isupper():
        text = json.dumps(data)
    assert_input_error(run("score", "--format", "json", stdin=text), *fragments)


def test_score_unknown_preset_and_missing_file(tmp_path: Path) -> None:
    assert_input_error(run("score", "--rules", "pagatt", stdin="{}"), "unknown preset 'pagatt'", "'pagat'")
    assert_input_error(run("score", str(tmp_path / "nope.json")), "not found")
    assert_input_error(run("score", "--rules", str(tmp_path / "nope.toml"), stdin="{}"), "not found")
    bad_rules = tmp_path / "bad.toml"
    bad_rules.write_text("wheel = 'sideways'\n", encoding="utf-8")
    assert_input_error(run("score", "--rules", str(bad_rules), stdin="{}"), "bad.toml", "wheel")
    assert_input_error(run("score", stdin=""), "no rounds")


def test_score_jsonl_keep_going(tmp_path: Path) -> None:
    bad = e2_round(id="bad")
    bad["players"][0]["front"] = "Ts Th"
    lines = [json.dumps(e2_round(id="a")), json.dumps(bad), "{not json", json.dumps(e2_round(id="d"))]
    path = tmp_path / "rounds.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    stopped = run("score", str(path), "--format", "jsonl")
    assert stopped.returncode == 2
    assert [json.loads(line)["id"] for line in stopped.stdout.splitlines()] == ["a"]
    assert_input_error(stopped, 'rounds.jsonl: line 2 (id "bad"), player 1 (North): the front takes 3 cards')
    going = run("score", str(path), "--format", "jsonl", "--keep-going")
    assert going.returncode == 2
    assert [json.loads(line)["id"] for line in going.stdout.splitlines()] == ["a", "d"]
    errors = going.stderr.strip().splitlines()
    assert len(errors) == 3 and "Traceback" not in going.stderr
    assert 'line 2 (id "bad")' in errors[0] and "line 3: malformed JSON" in errors[1]
    assert "2 of 4 rounds could not be settled" in errors[2]
    path.write_text("\n".join(["{bad first line", *lines]) + "\n", encoding="utf-8")  # .jsonl: by name
    going = run("score", str(path), "--format", "jsonl", "--keep-going")
    assert [json.loads(line)["id"] for line in going.stdout.splitlines()] == ["a", "d"]
    assert "rounds.jsonl: line 1: malformed JSON" in going.stderr


# ----- deal ----------------------------------------------------------------------------------------------


def test_deal_default_runs_with_no_arguments() -> None:
    result = run("deal")
    assert result.returncode == 0, result.stderr
    assert "under pagat" in result.stdout and result.stdout.startswith("Seed ")
    assert result.stdout.rstrip().splitlines()[-1].startswith("Net: North ")


def test_deal_is_reproducible_and_consistent() -> None:
    first = run("deal", "--seed", "7", "--players", "3", "--rules", "pagat-bonus", "--format", "json")
    assert first.returncode == 0, first.stderr
    out = json.loads(first.stdout)
    assert out["id"] == "deal-7" and out["rules"] == "pagat-bonus"
    assert [p["name"] for p in out["players"]] == ["North", "East", "South"]
    assert sum(out["net"]) == 0
    assert not any(p["foul"] for p in out["players"])  # arranged hands are legal
    deal = ("deal", "--seed", "7", "--players", "3", "--rules", "pagat-bonus")
    assert run(*deal, "--format", "json").stdout == first.stdout
    round_text = run(*deal, "--format", "input").stdout
    rescored = run("score", "--format", "json", stdin=round_text)
    assert json.loads(rescored.stdout)[0] == out
    table = run(*deal)
    assert "Seed 7" in table.stdout and "North v East" in table.stdout


def test_deal_errors() -> None:
    assert_input_error(run("deal", "--players", "5"), "--players must be 2, 3 or 4")
    assert_input_error(run("deal", "--rules", "nope"), "unknown preset 'nope'")


# ----- check ---------------------------------------------------------------------------------------------


def test_check_legal_and_foul(tmp_path: Path) -> None:
    legal = run("check", "Ts Th Qs 6s 5s 4s 3s 2h Ks Kh Kd 3h 3d")
    assert legal.returncode == 0, legal.stderr
    assert "legal under pagat" in legal.stdout and "Straight, six high" in legal.stdout
    foul = run("check", "Jd", "Kh", "Ks", "/", "6c 9s Td Th Qs", "/", "2s 3c 4d 5c 6s")
    assert foul.returncode == 1
    assert "FOUL under pagat: the front (Pair of kings" in foul.stdout
    assert "beats the middle (Pair of tens" in foul.stdout
    assert "a legal setting (by arrange):" in foul.stdout
    both = run("check", "Ah Ad 2c / Kh Kd 3c 4d 6s / Qc Qd 5c 7d 8h")
    assert "the front (Pair of aces" in both.stdout and "the middle (Pair of kings" in both.stdout
    strict_rules = tmp_path / "strict.json"
    strict_rules.write_text(json.dumps({"middle_vs_back": "strict"}), encoding="utf-8")
    equal = "2c 3d 4h / Ah Kh Qh Jh 9h / As Ks Qs Js 9s"
    assert run("check", equal).returncode == 0
    strict = run("check", equal, "--rules", str(strict_rules))
    assert strict.returncode == 1 and "equals the back" in strict.stdout


def test_check_naturals() -> None:
    six_pairs = "2c 2d 4c 4d 5c 5d 6d 6h 8c 8d 9c 9d Qd"
    counted = run("check", six_pairs, "--rules", "pagat-bonus")
    assert "natural under pagat-bonus: six_pairs (3 units; counts when declared)" in counted.stdout
    plain = run("check", six_pairs)
    assert "natural under pagat: none (pagat counts no naturals)" in plain.stdout
    assert "13-card patterns held: six_pairs" in plain.stdout


def test_check_a_round_file(tmp_path: Path) -> None:
    south = {"name": "South", "front": "Ah As 2c", "middle": "Kh Ks 3c 4d 6s", "back": "Qc Qd 5c 7c 8h"}
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"id": "e4", "players": [E2_PLAYERS[1], south]}), encoding="utf-8")
    result = run("check", str(path))
    assert result.returncode == 1
    east, south_text = result.stdout.split("\n\n")
    assert east.startswith('round "e4", East:') and "legal under pagat" in east
    assert south_text.startswith('round "e4", South:') and "FOUL" in south_text


def test_check_errors() -> None:
    assert_input_error(run("check", "As Ks Qs"), "13 cards", "got 3")
    assert_input_error(run("check", "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s Xs"), "unknown card 'Xs'")
    assert_input_error(run("check", "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s As"), "card As appears twice")
    assert_input_error(run("check", "As Ks / Qs Js Ts 9s 8s / 7s 6s 5s 4s 3s 2s"), "the front takes 3 cards")
    assert_input_error(run("check", "-", stdin="[1]"), "a round must be an object")


# ----- rules ---------------------------------------------------------------------------------------------


def test_rules_list_and_show() -> None:
    listing = run("rules")
    assert listing.returncode == 0
    names = [line.split()[0] for line in listing.stdout.splitlines()]
    assert names[:2] == ["pagat", "pagat-bonus"] and "pusoy" in names
    assert "(default)" in listing.stdout.splitlines()[0]
    shown = run("rules", "shisanzhang-hk")
    assert shown.returncode == 0
    assert 'preset = "shisanzhang-hk"' in shown.stdout and "scoop_multiplier = 2" in shown.stdout
    assert "surrender_units = 0" in shown.stdout  # every knob
    as_json = json.loads(run("rules", "wikipedia-2-4", "--format", "json").stdout)
    assert as_json["overall_unit"] == 1
    assert_input_error(run("rules", "nope"), "unknown preset 'nope'")


# ----- vectors and verify -----------------------------------------------------------------------------------


def test_vectors_verify_against_a_fresh_score(tmp_path: Path) -> None:
    vectors = tmp_path / "vectors.jsonl"
    made = run("vectors", "--rules", "pagat-bonus", "--count", "25", "--seed", "11", "-o", str(vectors))
    assert made.returncode == 0, made.stderr
    assert made.stderr == ""  # no progress bar in a pipe
    cases = [json.loads(line) for line in vectors.read_text(encoding="utf-8").splitlines()]
    ids = [case["id"] for case in cases]
    assert ids[:4] == ["E1", "E2", "E3", "E4"] and ids[-1] == "random-0025"
    assert {"ties", "wheel", "fouls", "royalties", "naturals", "naturals-dragons"} <= set(ids)
    again = run("vectors", "--rules", "pagat-bonus", "--count", "25", "--seed", "11")
    assert again.stdout == vectors.read_text(encoding="utf-8")  # reproducible from the seed
    other_seed = run("vectors", "--rules", "pagat-bonus", "--count", "25", "--seed", "12")
    assert other_seed.stdout != again.stdout

    actual = tmp_path / "actual.jsonl"
    scored = run("score", str(vectors), "--format", "jsonl")
    assert scored.returncode == 0, scored.stderr
    actual.write_text(scored.stdout, encoding="utf-8")
    ok = run("verify", str(vectors), str(actual))
    assert ok.returncode == 0, ok.stdout
    assert ok.stdout.strip() == f"OK: all {len(cases)} rounds agree"
    as_list = tmp_path / "actual.json"
    as_list.write_text(run("score", str(vectors), "--format", "json").stdout, encoding="utf-8")
    assert run("verify", str(vectors), str(as_list)).returncode == 0

    altered = [json.loads(line) for line in scored.stdout.splitlines()]
    altered[1]["pairs"][0]["rows"][2] = -altered[1]["pairs"][0]["rows"][2]  # E2, North v East, back
    altered[2]["players"][1]["net"] += 1  # E3, Bob
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(o) + "\n" for o in altered), encoding="utf-8")
    failed = run("verify", str(vectors), str(bad))
    assert failed.returncode == 1
    lines = failed.stdout.strip().splitlines()
    assert 'round "E2", pair North v East, row back: rows: expected +1, actual -1' in lines
    assert 'round "E3", player Bob: net: expected -1, actual 0' in lines
    assert lines[-1] == f"FAILED: 2 disagreements in 2 of {len(cases)} rounds"
    limited = run("verify", str(vectors), str(bad), "--max", "1")
    assert "... and 1 more" in limited.stdout
    ignoring = run("verify", str(vectors), str(bad), "--ignore", "rows,net")
    assert ignoring.returncode == 0


def test_vectors_json_format_progress_and_custom_rules(tmp_path: Path) -> None:
    result = run("vectors", "--count", "3", "--seed", "1", "--format", "json", "--no-edge-cases",
                 "--progress", "always")  # fmt: skip
    assert result.returncode == 0
    vectors = json.loads(result.stdout)
    assert [v["id"] for v in vectors] == ["random-0001", "random-0002", "random-0003"]
    assert all(v["rules"] == "pagat" for v in vectors)
    assert "vectors [" in result.stderr and "3/3 100%" in result.stderr
    custom = tmp_path / "custom.toml"
    custom.write_text('preset = "pagat"\nscoop_bonus = 3\n', encoding="utf-8")
    made = run("vectors", "--rules", str(custom), "--count", "2", "--seed", "1", "--no-edge-cases")
    first = json.loads(made.stdout.splitlines()[0])
    assert first["rules"]["scoop_bonus"] == 3 and first["expected"]["rules"]["scoop_bonus"] == 3


def test_vectors_and_verify_errors(tmp_path: Path) -> None:
    assert_input_error(run("vectors", "--rules", "nope"), "unknown preset 'nope'")
    assert_input_error(run("vectors", "--count", "-1"), "--count must be 0 or more")
    assert_input_error(run("vectors", "--count", "1", "-o", str(tmp_path / "no" / "such" / "dir.jsonl")),
                       "cannot write")  # fmt: skip
    good = tmp_path / "good.json"
    good.write_text(json.dumps([{"id": 1, "net": [0, 0], "players": [], "pairs": []}]), encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text('[{"id": 1, ', encoding="utf-8")
    assert_input_error(run("verify", str(good), str(broken)), "broken.json", "malformed JSON")
    assert_input_error(run("verify", str(good), str(tmp_path / "missing.json")), "not found")
    assert_input_error(run("verify", "-", "-"), "only one of EXPECTED and ACTUAL")
    assert run("verify", str(good), str(good)).returncode == 0


def test_usage_errors_and_help() -> None:
    none = run()
    assert none.returncode == 2 and "usage:" in none.stderr
    unknown = run("shuffle")
    assert unknown.returncode == 2 and "invalid choice" in unknown.stderr
    helped = run("--help")
    assert helped.returncode == 0 and "score" in helped.stdout and "verify" in helped.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_bar_on_a_terminal_and_quiet_in_a_pipe(tmp_path: Path) -> None:
    import os
    import pty
    import time

    two = {"players": E2_PLAYERS[:2]}
    path = tmp_path / "many.jsonl"
    path.write_text("".join(json.dumps(two | {"id": k}) + "\n" for k in range(3000)), encoding="utf-8")
    piped = run("score", str(path), "--format", "jsonl")
    assert piped.returncode == 0 and piped.stderr == ""
    master, slave = pty.openpty()
    start = time.monotonic()
    with open(tmp_path / "out.jsonl", "w", encoding="utf-8") as stdout:
        command = [sys.executable, "-m", "chinese_poker", "score", str(path), "--format", "jsonl"]
        process = subprocess.Popen(command, stdout=stdout, stderr=slave)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    assert process.wait(timeout=120) == 0
    os.close(master)
    elapsed = time.monotonic() - start
    assert len((tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()) == 3000
    if elapsed > 1.0:  # the bar waits half a second before it shows
        assert b"settling [" in seen and b"/3000" in seen
    assert seen.endswith(b"\r\x1b[K") or seen == b""  # erased at the end
