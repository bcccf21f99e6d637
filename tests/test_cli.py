"""The ``chinese-poker`` command in process (``chinese_poker.cli.main`` with captured output and a given
stdin): every command and every error path (one line on stderr, exit code 2, no traceback); then a few runs
of the installed command in a subprocess: ``python -m chinese_poker``, the ``chinese-poker`` script, a pipe
between two commands, and the exit codes."""

from __future__ import annotations

import copy
import io
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from chinese_poker import Rules, __version__
from chinese_poker.cli import main
from chinese_poker.cli import progress as progress_module
from chinese_poker.presets import PRESET_NAMES

E2_PLAYERS = [
    {"name": "North", "front": "Ts Th Qs", "middle": "6s 5s 4s 3s 2h", "back": "Ks Kh Kd 3h 3d"},
    {"name": "East", "front": "Ac Kc 7s", "middle": "Td Tc 9s 8s 6c", "back": "Jh Jd Jc 7h 7d"},
    {"name": "South", "front": "Qd Qc 2c", "middle": "8h 7c 6d 5c 4c", "back": "9h 9d 9c 8d 8c"},
    {"name": "West", "front": "Qh Js 6h", "middle": "5h 5d 4h 4d 3c", "back": "As Ah Ad 2s 2d"},
]


@dataclass(frozen=True)
class Result:
    """What one run of the command gave: its exit code and everything it wrote."""

    returncode: int
    stdout: str
    stderr: str


Cli = Callable[..., Result]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Cli:
    """Runs ``chinese-poker ARGS`` in process: ``cli(*args, stdin=text)``."""

    def run(*args: str, stdin: str = "") -> Result:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        try:
            code = main(list(args))
        except SystemExit as stop:  # argparse: --help, --version and usage errors
            code = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 2
        out, err = capsys.readouterr()
        return Result(code, out, err)

    return run


def e2_round(**extra: Any) -> dict[str, Any]:
    return {"id": "e2", "players": copy.deepcopy(E2_PLAYERS), **extra}


def assert_input_error(result: Result | subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("chinese-poker: error: ")
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


# ----- score ---------------------------------------------------------------------------------------------


def test_score_table_from_stdin(cli: Cli) -> None:
    result = cli("score", "--rules", "wikipedia-2-4", stdin=json.dumps(e2_round()))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == 'Round "e2" under wikipedia-2-4'
    assert lines[-1] == "Net: North +4, East -8, South +6, West -2"
    pair = next(line for line in lines if line.strip().startswith("North v East"))
    assert pair.split()[3:6] == ["North", "North", "North"]
    assert "Pair of tens, queen kicker" in result.stdout


def test_score_json_jsonl_and_explain(cli: Cli, tmp_path: Path) -> None:
    rounds = [e2_round(), e2_round(id=2, rules="shisanzhang-hk")]
    path = tmp_path / "rounds.json"
    path.write_text(json.dumps(rounds), encoding="utf-8")
    as_json = cli("score", str(path), "--format", "json")
    assert as_json.returncode == 0, as_json.stderr
    outputs = json.loads(as_json.stdout)
    assert [o["id"] for o in outputs] == ["e2", 2]
    assert [o["net"] for o in outputs] == [[3, -5, 3, -1], [6, -8, 3, -1]]
    assert [p["name"] for p in outputs[0]["players"]] == ["North", "East", "South", "West"]
    assert {"cards", "category", "text", "strength", "royalty"} <= set(
        outputs[0]["players"][0]["rows"]["front"]
    )
    assert len(outputs[0]["pairs"]) == 6
    as_jsonl = cli("score", str(path), "--format", "jsonl", "--explain")
    lines = [json.loads(line) for line in as_jsonl.stdout.splitlines()]
    assert [line["net"] for line in lines] == [o["net"] for o in outputs]
    assert "Settlement under shisanzhang-hk" in lines[1]["explain"]
    assert cli("score", str(path), "--format", "json").stdout == as_json.stdout  # deterministic
    overridden = json.loads(cli("score", str(path), "--format", "json", "--rules", "pagat").stdout)
    assert [o["net"] for o in overridden] == [[3, -5, 3, -1], [3, -5, 3, -1]]
    explained = cli("score", str(path), "--explain")
    assert "Settlement under pagat" in explained.stdout
    assert "pair  rows F M B  by" in explained.stdout


def test_score_rules_file_and_declared_natural(cli: Cli, tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text('preset = "pagat"\noverall_unit = 1\nfoul_policy = "as_scooped"\n', encoding="utf-8")
    result = cli("score", "--rules", str(rules), "--format", "json", stdin=json.dumps(e2_round()))
    assert json.loads(result.stdout)[0]["net"] == [4, -8, 6, -2]
    declared = {
        "rules": "pagat-bonus",
        "players": [
            E2_PLAYERS[0],
            {"cards": "2c 2d 4c 4d 5c 5d 6d 6h 8c 8d 9c 9d Qd", "declare_natural": True},
        ],
    }
    result = cli("score", "-", stdin=json.dumps(declared))
    assert result.returncode == 0, result.stderr
    assert "natural: six pairs" in result.stdout
    assert "Net: North -3, P2 +3" in result.stdout


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ('{"players": [', ["<stdin>", "malformed JSON at line 1"]),
        (json.dumps(e2_round() | {"players": E2_PLAYERS[:1]}), ['round 1 (id "e2")', "2 to 6 players"]),
        ("BAD_CARD", ['round 1 (id "e2"), player 2 (East): middle: unknown card', "'Xx'"]),
        ("DUPLICATE", ['round 1 (id "e2")', "card Ts is held by both North and East"]),
        ("ROW_SIZE", ['round 1 (id "e2"), player 3 (South): the back takes 5 cards, got 4']),
        ("SAME_CARD", ["player 1 (North): back: card Ks appears twice"]),
        (json.dumps(e2_round(rules="nope")), ["round 1 (id \"e2\"): rules: unknown preset 'nope'"]),
        (json.dumps(e2_round(stakes=[[1]])), ["stakes must be a 4 x 4 matrix"]),
    ],
)
def test_score_errors(cli: Cli, text: str, fragments: list[str]) -> None:
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
    assert_input_error(cli("score", "--format", "json", stdin=text), *fragments)


def test_score_unknown_preset_and_missing_file(cli: Cli, tmp_path: Path) -> None:
    assert_input_error(cli("score", "--rules", "pagatt", stdin="{}"), "unknown preset 'pagatt'", "'pagat'")
    assert_input_error(cli("score", str(tmp_path / "nope.json")), "not found")
    assert_input_error(cli("score", "--rules", str(tmp_path / "nope.toml"), stdin="{}"), "not found")
    bad_rules = tmp_path / "bad.toml"
    bad_rules.write_text("wheel = 'sideways'\n", encoding="utf-8")
    assert_input_error(cli("score", "--rules", str(bad_rules), stdin="{}"), "bad.toml", "wheel")
    assert_input_error(cli("score", stdin=""), "no rounds")


def test_score_jsonl_keep_going(cli: Cli, tmp_path: Path) -> None:
    bad = e2_round(id="bad")
    bad["players"][0]["front"] = "Ts Th"
    lines = [json.dumps(e2_round(id="a")), json.dumps(bad), "{not json", json.dumps(e2_round(id="d"))]
    path = tmp_path / "rounds.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    stopped = cli("score", str(path), "--format", "jsonl")
    assert stopped.returncode == 2
    assert [json.loads(line)["id"] for line in stopped.stdout.splitlines()] == ["a"]
    assert_input_error(stopped, 'rounds.jsonl: line 2 (id "bad"), player 1 (North): the front takes 3 cards')
    going = cli("score", str(path), "--format", "jsonl", "--keep-going")
    assert going.returncode == 2
    assert [json.loads(line)["id"] for line in going.stdout.splitlines()] == ["a", "d"]
    errors = going.stderr.strip().splitlines()
    assert len(errors) == 3
    assert "Traceback" not in going.stderr
    assert 'line 2 (id "bad")' in errors[0]
    assert "line 3: malformed JSON" in errors[1]
    assert "2 of 4 rounds could not be settled" in errors[2]
    path.write_text("\n".join(["{bad first line", *lines]) + "\n", encoding="utf-8")  # .jsonl: by name
    going = cli("score", str(path), "--format", "jsonl", "--keep-going")
    assert [json.loads(line)["id"] for line in going.stdout.splitlines()] == ["a", "d"]
    assert "rounds.jsonl: line 1: malformed JSON" in going.stderr


# ----- deal ----------------------------------------------------------------------------------------------


def test_deal_default_runs_with_no_arguments(cli: Cli) -> None:
    result = cli("deal")
    assert result.returncode == 0, result.stderr
    assert "under pagat" in result.stdout
    assert result.stdout.startswith("Seed ")
    assert result.stdout.rstrip().splitlines()[-1].startswith("Net: North ")


def test_deal_is_reproducible_and_consistent(cli: Cli) -> None:
    first = cli("deal", "--seed", "7", "--players", "3", "--rules", "pagat-bonus", "--format", "json")
    assert first.returncode == 0, first.stderr
    out = json.loads(first.stdout)
    assert out["id"] == "deal-7"
    assert out["rules"] == "pagat-bonus"
    assert [p["name"] for p in out["players"]] == ["North", "East", "South"]
    assert sum(out["net"]) == 0
    assert not any(p["foul"] for p in out["players"])  # arranged hands are legal
    deal = ("deal", "--seed", "7", "--players", "3", "--rules", "pagat-bonus")
    assert cli(*deal, "--format", "json").stdout == first.stdout
    round_text = cli(*deal, "--format", "input").stdout
    rescored = cli("score", "--format", "json", stdin=round_text)
    assert json.loads(rescored.stdout)[0] == out
    table = cli(*deal)
    assert "Seed 7" in table.stdout
    assert "North v East" in table.stdout


def test_deal_from_the_rules_pack(cli: Cli) -> None:
    """Six players from the 78-card pack of two added suits; four from the 54 cards with two jokers, the
    jokers dealt (at this seed) and laid like any card."""
    six = cli("deal", "--seed", "3", "--players", "6", "--rules", "shisanshui-puxian-six", "--format", "json")
    assert six.returncode == 0, six.stderr
    out = json.loads(six.stdout)
    assert [p["name"] for p in out["players"]] == ["North", "East", "South", "West", "Fifth", "Sixth"]
    assert sum(out["net"]) == 0
    seeds = [
        cli("deal", "--seed", str(s), "--rules", "shisanshui-puxian-ghost", "--format", "input")
        for s in range(3)
    ]
    texts = [result.stdout for result in seeds]
    assert all(result.returncode == 0 for result in seeds)
    assert any("X1" in text or "X2" in text for text in texts)
    assert_input_error(
        cli("deal", "--players", "7", "--rules", "shisanshui-puxian-six"), "--players must be 2 to 6"
    )


def test_deal_errors(cli: Cli) -> None:
    assert_input_error(cli("deal", "--players", "5"), "--players must be 2 to 4 under these rules")
    assert_input_error(cli("deal", "--rules", "nope"), "unknown preset 'nope'")


# ----- check ---------------------------------------------------------------------------------------------


def test_check_legal_and_foul(cli: Cli, tmp_path: Path) -> None:
    legal = cli("check", "Ts Th Qs 6s 5s 4s 3s 2h Ks Kh Kd 3h 3d")
    assert legal.returncode == 0, legal.stderr
    assert "legal under pagat" in legal.stdout
    assert "Straight, six high" in legal.stdout
    foul = cli("check", "Jd", "Kh", "Ks", "/", "6c 9s Td Th Qs", "/", "2s 3c 4d 5c 6s")
    assert foul.returncode == 1
    assert "FOUL under pagat: the front (Pair of kings" in foul.stdout
    assert "beats the middle (Pair of tens" in foul.stdout
    assert "a legal setting (by arrange):" in foul.stdout
    both = cli("check", "Ah Ad 2c / Kh Kd 3c 4d 6s / Qc Qd 5c 7d 8h")
    assert "the front (Pair of aces" in both.stdout
    assert "the middle (Pair of kings" in both.stdout
    strict_rules = tmp_path / "strict.json"
    strict_rules.write_text(json.dumps({"middle_vs_back": "strict"}), encoding="utf-8")
    equal = "2c 3d 4h / Ah Kh Qh Jh 9h / As Ks Qs Js 9s"
    assert cli("check", equal).returncode == 0
    strict = cli("check", equal, "--rules", str(strict_rules))
    assert strict.returncode == 1
    assert "equals the back" in strict.stdout


def test_check_naturals(cli: Cli) -> None:
    six_pairs = "2c 2d 4c 4d 5c 5d 6d 6h 8c 8d 9c 9d Qd"
    counted = cli("check", six_pairs, "--rules", "pagat-bonus")
    assert "natural under pagat-bonus: six_pairs (3 units; counts when declared)" in counted.stdout
    plain = cli("check", six_pairs)
    assert "natural under pagat: none (pagat counts no naturals)" in plain.stdout
    assert "13-card patterns held: six_pairs" in plain.stdout


def test_check_a_round_file(cli: Cli, tmp_path: Path) -> None:
    south = {"name": "South", "front": "Ah As 2c", "middle": "Kh Ks 3c 4d 6s", "back": "Qc Qd 5c 7c 8h"}
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"id": "e4", "players": [E2_PLAYERS[1], south]}), encoding="utf-8")
    result = cli("check", str(path))
    assert result.returncode == 1
    east, south_text = result.stdout.split("\n\n")
    assert east.startswith('round "e4", East:')
    assert "legal under pagat" in east
    assert south_text.startswith('round "e4", South:')
    assert "FOUL" in south_text


def test_check_errors(cli: Cli) -> None:
    assert_input_error(cli("check", "As Ks Qs"), "13 cards", "got 3")
    assert_input_error(cli("check", "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s Xs"), "unknown card 'Xs'")
    assert_input_error(cli("check", "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s As"), "card As appears twice")
    assert_input_error(cli("check", "As Ks / Qs Js Ts 9s 8s / 7s 6s 5s 4s 3s 2s"), "the front takes 3 cards")
    assert_input_error(cli("check", "-", stdin="[1]"), "a round must be an object")


# ----- rules ---------------------------------------------------------------------------------------------


def test_rules_list_and_show(cli: Cli) -> None:
    listing = cli("rules")
    assert listing.returncode == 0
    names = [line.split()[0] for line in listing.stdout.splitlines()]
    assert names[:2] == ["pagat", "pagat-bonus"]
    assert "pusoy" in names
    assert "(default)" in listing.stdout.splitlines()[0]
    shown = cli("rules", "shisanzhang-hk")
    assert shown.returncode == 0
    assert 'preset = "shisanzhang-hk"' in shown.stdout
    assert "scoop_multiplier = 2" in shown.stdout
    assert "surrender_units = 0" in shown.stdout  # every knob
    as_json = json.loads(cli("rules", "wikipedia-2-4", "--format", "json").stdout)
    assert as_json["overall_unit"] == 1
    assert_input_error(cli("rules", "nope"), "unknown preset 'nope'")


# ----- vectors and verify -----------------------------------------------------------------------------------


def test_vectors_verify_against_a_fresh_score(cli: Cli, tmp_path: Path) -> None:
    vectors = tmp_path / "vectors.jsonl"
    made = cli("vectors", "--rules", "pagat-bonus", "--count", "25", "--seed", "11", "-o", str(vectors))
    assert made.returncode == 0, made.stderr
    assert made.stderr == ""  # no progress bar in a pipe
    cases = [json.loads(line) for line in vectors.read_text(encoding="utf-8").splitlines()]
    ids = [case["id"] for case in cases]
    assert ids[:4] == ["E1", "E2", "E3", "E4"]
    assert ids[-1] == "random-0025"
    assert {"ties", "wheel", "fouls", "royalties", "naturals", "naturals-dragons"} <= set(ids)
    again = cli("vectors", "--rules", "pagat-bonus", "--count", "25", "--seed", "11")
    assert again.stdout == vectors.read_text(encoding="utf-8")  # reproducible from the seed
    other_seed = cli("vectors", "--rules", "pagat-bonus", "--count", "25", "--seed", "12")
    assert other_seed.stdout != again.stdout

    actual = tmp_path / "actual.jsonl"
    scored = cli("score", str(vectors), "--format", "jsonl")
    assert scored.returncode == 0, scored.stderr
    actual.write_text(scored.stdout, encoding="utf-8")
    ok = cli("verify", str(vectors), str(actual))
    assert ok.returncode == 0, ok.stdout
    assert len(cases) == 39  # 14 edge cases and 25 random rounds
    assert ok.stdout.strip() == "OK: all 39 rounds agree"
    as_list = tmp_path / "actual.json"
    as_list.write_text(cli("score", str(vectors), "--format", "json").stdout, encoding="utf-8")
    assert cli("verify", str(vectors), str(as_list)).returncode == 0

    altered = [json.loads(line) for line in scored.stdout.splitlines()]
    altered[1]["pairs"][0]["rows"][2] = -altered[1]["pairs"][0]["rows"][2]  # E2, North v East, back
    altered[2]["players"][1]["net"] += 1  # E3, Bob
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(o) + "\n" for o in altered), encoding="utf-8")
    failed = cli("verify", str(vectors), str(bad))
    assert failed.returncode == 1
    lines = failed.stdout.strip().splitlines()
    assert 'round "E2", pair North v East, row back: rows: expected +1, actual -1' in lines
    assert 'round "E3", player Bob: net: expected -1, actual 0' in lines
    assert lines[-1] == "FAILED: 2 disagreements in 2 of 39 rounds"
    limited = cli("verify", str(vectors), str(bad), "--max", "1")
    assert "... and 1 more" in limited.stdout
    ignoring = cli("verify", str(vectors), str(bad), "--ignore", "rows,net")
    assert ignoring.returncode == 0


def test_vectors_json_format_progress_and_custom_rules(cli: Cli, tmp_path: Path) -> None:
    result = cli("vectors", "--count", "3", "--seed", "1", "--format", "json", "--no-edge-cases",
                 "--progress", "always")  # fmt: skip
    assert result.returncode == 0
    vectors = json.loads(result.stdout)
    assert [v["id"] for v in vectors] == ["random-0001", "random-0002", "random-0003"]
    assert all(v["rules"] == "pagat" for v in vectors)
    assert "vectors [" in result.stderr
    assert "3/3 100%" in result.stderr
    custom = tmp_path / "custom.toml"
    custom.write_text('preset = "pagat"\nscoop_bonus = 3\n', encoding="utf-8")
    made = cli("vectors", "--rules", str(custom), "--count", "2", "--seed", "1", "--no-edge-cases")
    first = json.loads(made.stdout.splitlines()[0])
    assert first["rules"]["scoop_bonus"] == 3
    assert first["expected"]["rules"]["scoop_bonus"] == 3


def test_vectors_and_verify_errors(cli: Cli, tmp_path: Path) -> None:
    assert_input_error(cli("vectors", "--rules", "nope"), "unknown preset 'nope'")
    assert_input_error(cli("vectors", "--count", "-1"), "--count must be 0 or more")
    assert_input_error(cli("vectors", "--count", "1", "-o", str(tmp_path / "no" / "such" / "dir.jsonl")),
                       "cannot write")  # fmt: skip
    good = tmp_path / "good.json"
    good.write_text(json.dumps([{"id": 1, "net": [0, 0], "players": [], "pairs": []}]), encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text('[{"id": 1, ', encoding="utf-8")
    assert_input_error(cli("verify", str(good), str(broken)), "broken.json", "malformed JSON")
    assert_input_error(cli("verify", str(good), str(tmp_path / "missing.json")), "not found")
    assert_input_error(cli("verify", "-", "-"), "only one of EXPECTED and ACTUAL")
    assert cli("verify", str(good), str(good)).returncode == 0


def test_usage_errors_and_help(cli: Cli) -> None:
    none = cli()
    assert none.returncode == 2
    assert "usage:" in none.stderr
    unknown = cli("shuffle")
    assert unknown.returncode == 2
    assert "invalid choice" in unknown.stderr
    helped = cli("--help")
    assert helped.returncode == 0
    assert "score" in helped.stdout
    assert "verify" in helped.stdout


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class TickingClock:
    """Stands in for the ``time`` module of chinese_poker.cli.progress: each reading is 0.3 s later."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 0.3
        return self.now


def test_progress_bar_on_a_terminal_and_quiet_in_a_pipe(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    two = {"players": E2_PLAYERS[:2]}
    path = tmp_path / "many.jsonl"
    path.write_text("".join(json.dumps(two | {"id": k}) + "\n" for k in range(5)), encoding="utf-8")
    monkeypatch.setattr(progress_module, "time", TickingClock())
    # The core reads a file a chunk at a time and the bar moves a chunk at a time: here a round a chunk.
    monkeypatch.setattr("chinese_poker.formats.full_stream.FULL_CHUNK_BYTES", 1)
    piped = cli("score", str(path), "--format", "jsonl")  # stderr is captured: no terminal
    assert piped.returncode == 0
    assert piped.stderr == ""
    terminal = FakeTerminal()
    monkeypatch.setattr("sys.stderr", terminal)
    shown = cli("score", str(path), "--format", "jsonl")
    assert shown.returncode == 0
    assert [json.loads(line)["id"] for line in shown.stdout.splitlines()] == [0, 1, 2, 3, 4]
    # The clock reads 0.3 s at the start, then 0.3 s more at each update: the first is 0.3 s in, before the
    # half-second delay; from the second (0.6 s in) on, each is drawn; the bar is erased at the end.
    assert terminal.getvalue().split("\r\x1b[K") == [
        "",
        "settling [############------------------] 2/5  40% eta 1s",
        "settling [##################------------] 3/5  60% eta 1s",
        "settling [########################------] 4/5  80% eta 0s",
        "settling [##############################] 5/5 100% in 2s",
        "",
    ]


# ----- the installed command, in a subprocess -----------------------------------------------------------


def run_module(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chinese_poker", *args], input=stdin, capture_output=True, text=True,
        timeout=120, encoding="utf-8", check=False,
    )  # fmt: skip


def installed_script() -> str:
    beside_python = shutil.which("chinese-poker", path=str(Path(sys.executable).parent))
    found = beside_python or shutil.which("chinese-poker")
    assert found is not None, "the chinese-poker script is not installed next to this Python"
    return found


def test_module_reads_stdin_and_writes_the_table() -> None:
    result = run_module("score", "--rules", "wikipedia-2-4", stdin=json.dumps(e2_round()))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.splitlines()[-1] == "Net: North +4, East -8, South +6, West -2"


def test_script_runs_and_reports_its_version() -> None:
    script = installed_script()
    version = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=60, check=False)
    assert (version.returncode, version.stdout.strip()) == (0, f"chinese-poker {__version__}")
    listing = subprocess.run([script, "rules"], capture_output=True, text=True, timeout=60, check=False)
    assert listing.returncode == 0
    assert listing.stdout.split()[0] == "pagat"


def test_a_pipe_from_deal_into_score() -> None:
    script = installed_script()
    with subprocess.Popen(
        [script, "deal", "--seed", "7", "--players", "3", "--format", "input"], stdout=subprocess.PIPE
    ) as dealer:
        scored = subprocess.run(
            [sys.executable, "-m", "chinese_poker", "score", "--format", "json"], stdin=dealer.stdout,
            capture_output=True, timeout=120, check=False,
        )  # fmt: skip
        assert dealer.stdout is not None
        dealer.stdout.close()
        assert dealer.wait(timeout=120) == 0
    assert scored.returncode == 0, scored.stderr
    [out] = json.loads(scored.stdout)
    assert out["id"] == "deal-7"
    assert [p["name"] for p in out["players"]] == ["North", "East", "South"]
    assert sum(out["net"]) == 0


def test_exit_codes_of_a_foul_bad_input_and_usage() -> None:
    foul = run_module("check", "Jd Kh Ks / 6c 9s Td Th Qs / 2s 3c 4d 5c 6s")
    assert foul.returncode == 1
    assert "FOUL under pagat" in foul.stdout
    assert_input_error(run_module("score", "--format", "json", stdin='{"players": ['), "malformed JSON")
    usage = run_module("shuffle")
    assert usage.returncode == 2
    assert "invalid choice" in usage.stderr


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_vectors_of_every_preset_verify_against_themselves(cli: Cli, tmp_path: Path, preset: str) -> None:
    vectors = tmp_path / "vectors.jsonl"
    made = cli("vectors", "--rules", preset, "--count", "8", "--seed", "3", "-o", str(vectors))
    assert made.returncode == 0, made.stderr
    cases = [json.loads(line) for line in vectors.read_text(encoding="utf-8").splitlines()]
    own = [case for case in cases if case["id"] != "E4-custom-rules"]  # that case has rules of its own
    if Rules.preset(preset).ace_basis == "table":
        assert {len(case["players"]) for case in own} == {4}  # ace_basis "table": four players
        assert all("ace_units" in p for case in own for p in case["expected"]["players"])
    if Rules.preset(preset).fantasyland != "off":
        assert max(len(case["players"]) for case in own) == 3
    actual = tmp_path / "actual.jsonl"
    scored = cli("score", str(vectors), "--format", "jsonl")
    assert scored.returncode == 0, scored.stderr
    actual.write_text(scored.stdout, encoding="utf-8")
    ok = cli("verify", str(vectors), str(actual))
    assert ok.returncode == 0, ok.stdout
    assert ok.stdout.strip() == f"OK: all {len(cases)} rounds agree"
