"""What a new user ran into: verify agreeing on nothing, check ignoring a round's rules, hands that differ
only in the order of a row, outputs that do not say what made them, and knobs without explanations."""

from __future__ import annotations

import copy
import hashlib
import inspect
import io
import json
import re
import typing
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from chinese_poker import Hand, Rules, __version__, arrangements
from chinese_poker.cli import main
from chinese_poker.cli.deal import deal_round
from chinese_poker.cli.rules import KNOB_PHRASES
from chinese_poker.formats.compare import compare_round
from chinese_poker.formats.rounds import (
    load_schema,
    parse_round,
    round_output,
    rules_digest,
    rules_from_value,
    settle_round,
)
from chinese_poker.formats.vectors import generate_vectors
from chinese_poker.formats.verify import OutputFileError, compare_outputs
from chinese_poker.rules import KNOBS

E2_PLAYERS = [
    {"name": "North", "front": "Ts Th Qs", "middle": "6s 5s 4s 3s 2h", "back": "Ks Kh Kd 3h 3d"},
    {"name": "East", "front": "Ac Kc 7s", "middle": "Td Tc 9s 8s 6c", "back": "Jh Jd Jc 7h 7d"},
]

#: A setting whose middle equals its back: legal under "non_strict", a foul under "strict".
EQUAL_ROWS = {"name": "Even", "front": "As Ks Qs", "middle": "2c 3d 4h 5s 6c", "back": "2d 3h 4s 5c 6d"}
STRICT_RULES = {"preset": "pagat", "middle_vs_back": "strict"}


def run_cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        code = main(list(args))
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 2
    out, err = capsys.readouterr()
    return code, out, err


def write_json(path: Path, data: Any) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def outputs(count: int = 2) -> list[dict[str, Any]]:
    return [v["expected"] for v in generate_vectors(Rules.preset("pagat-bonus"), count, 7, edges=False)]


# ----- 1. verify must compare something ---------------------------------------------------------------------


def test_verify_a_rounds_file_as_expected_is_an_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    rounds = [{"id": f"r{k}", "players": copy.deepcopy(E2_PLAYERS)} for k in range(3)]
    expected = write_json(tmp_path / "rounds.json", rounds)
    code, out, err = run_cli(capsys, monkeypatch, "verify", expected, expected)
    assert code == 2
    assert "OK" not in out
    assert "rounds.json" in err
    assert 'expected round "r0" is not an output: it has no net, pairs' in err
    assert "a rounds file without expected results?" in err


def test_verify_two_empty_lists_is_an_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    empty = write_json(tmp_path / "empty.json", [])
    code, out, err = run_cli(capsys, monkeypatch, "verify", empty, empty)
    assert code == 2
    assert out == ""
    assert "empty.json: no expected rounds, nothing to compare" in err
    blank = tmp_path / "blank.jsonl"
    blank.write_text("\n", encoding="utf-8")
    assert run_cli(capsys, monkeypatch, "verify", str(blank), empty)[0] == 2
    with pytest.raises(OutputFileError, match="nothing to compare"):
        compare_outputs([], [])
    with pytest.raises(OutputFileError, match="not an output"):
        compare_outputs([{"id": 1, "players": []}], [{"id": 1, "players": []}])


# ----- 2. check: each round's own rules; a missing file -----------------------------------------------------


def test_check_a_file_uses_each_rounds_rules(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    rounds = [
        {"id": "strict", "rules": STRICT_RULES, "players": [EQUAL_ROWS, E2_PLAYERS[0]]},
        {"id": "bonus", "rules": "pagat-bonus", "players": copy.deepcopy(E2_PLAYERS)},
    ]
    path = write_json(tmp_path / "rounds.json", rounds)
    code, out, _ = run_cli(capsys, monkeypatch, "check", path)
    assert code == 1  # the equal middle and back is a foul under the round's own strict rules
    blocks = out.split("\n\n")
    assert blocks[0].startswith('round "strict", Even:')
    assert "FOUL" in blocks[0]
    assert "under pagat-bonus" in blocks[2]
    assert "under pagat:" not in blocks[2]
    code, out, _ = run_cli(capsys, monkeypatch, "check", path, "--rules", "pagat")
    assert code == 0  # --rules overrides every round, as score's does
    assert "FOUL" not in out
    assert "under pagat-bonus" not in out


def test_check_a_missing_file_is_a_missing_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("nosuchfile.json", "rounds.JSONL", "x.ndjson", str(tmp_path / "no" / "such"), "a/b"):
        code, _, err = run_cli(capsys, monkeypatch, "check", name)
        assert code == 2, name
        assert f"file {name!r} not found" in err, err
        assert "unknown card" not in err
    # A setting written with its row separators is still a setting, and a bad card still a bad card.
    code, out, _ = run_cli(capsys, monkeypatch, "check", "Ts Th Qs / 6s 5s 4s 3s 2h / Ks Kh Kd 3h 3d")
    assert code == 0
    assert "legal" in out
    code, _, err = run_cli(capsys, monkeypatch, "check", "Ts Th Qs / 6s 5s 4s 3s 2h / Ks Kh Kd 3h Zz")
    assert code == 2
    assert "unknown card 'Zz'" in err


# ----- 3. Hand equality ignores the order inside a row ------------------------------------------------------


def test_hand_equality_ignores_the_order_within_rows() -> None:
    one = Hand("Ts Th Qs", "6s 5s 4s 3s 2h", "Ks Kh Kd 3h 3d")
    other = Hand("Qs Ts Th", "2h 3s 4s 5s 6s", "3d 3h Kd Kh Ks")
    assert one == other
    assert hash(one) == hash(other)
    assert len({one, other}) == 1
    assert str(other) == "Qs Ts Th / 2h 3s 4s 5s 6s / 3d 3h Kd Kh Ks"  # the order given is kept
    moved = Hand("Ts Th 2h", "6s 5s 4s 3s Qs", "Ks Kh Kd 3h 3d")  # the same 13 cards, other rows
    assert one != moved
    cards = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s"
    declared = Hand.declared(cards)
    assert declared == Hand.declared(" ".join(reversed(cards.split())))
    assert hash(declared) == hash(Hand.declared(" ".join(reversed(cards.split()))))
    assert declared != Hand.from_cards(cards)


# ----- 4. arrangements' return type follows with_strengths --------------------------------------------------


def test_arrangements_is_overloaded_on_with_strengths() -> None:
    overloads = typing.get_overloads(arrangements)
    assert len(overloads) == 3
    hints = [inspect.signature(o) for o in overloads]
    assert [h.parameters["with_strengths"].annotation for h in hints] == [
        "Literal[False]",
        "Literal[True]",
        "bool",
    ]
    assert [h.return_annotation for h in hints] == [
        "np.ndarray",
        "tuple[np.ndarray, np.ndarray]",
        "np.ndarray | tuple[np.ndarray, np.ndarray]",
    ]
    cards = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7d"
    settings = arrangements(cards)
    assert isinstance(settings, np.ndarray)
    pair = arrangements(cards, with_strengths=True)
    assert isinstance(pair, tuple)
    assert pair[0].shape == settings.shape
    assert pair[1].shape == (settings.shape[0], 3)


# ----- 5. Rules(...) suggests the closest knob --------------------------------------------------------------


def test_rules_constructor_suggests_the_closest_knob() -> None:
    with pytest.raises(TypeError, match=r"unknown knob 'scoop_bonous' \(did you mean 'scoop_bonus'\?\)"):
        Rules(scoop_bonous=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unknown knob 'zzz'; known: "):
        Rules(zzz=1)  # type: ignore[call-arg]
    assert Rules(scoop_bonus=3).scoop_bonus == 3
    assert Rules(name="pagat") == Rules()
    assert "scoop_bonus" in inspect.signature(Rules).parameters  # the keyword signature is still visible
    with pytest.raises(ValueError, match="scoop_bonus"):
        Rules(scoop_bonus=-1)


# ----- 6. negative seeds and clean messages -----------------------------------------------------------------


def test_deal_rejects_a_negative_seed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(capsys, monkeypatch, "deal", "--seed", "-1")
    assert code == 2
    assert out == ""
    assert "--seed must be 0 or more, got -1" in err
    assert run_cli(capsys, monkeypatch, "deal", "--seed", "0")[0] == 0
    with pytest.raises(ValueError, match="seed must be an integer 0 or more"):
        deal_round(Rules(), 4, -1)
    assert deal_round(Rules(), 2, 1)["id"] == "deal-1"


def test_error_messages_quote_rows_without_their_padding() -> None:
    with pytest.raises(ValueError, match="unknown card 'Zh'") as parsed:
        Hand.parse("As Ks Qs / 2c 3c 4c 5c 7d / 8h 9h Th Jh Zh")
    assert "in '8h 9h Th Jh Zh'" in str(parsed.value)
    with pytest.raises(ValueError, match="unknown card 'Zz'") as built:
        Hand(" As Ks Zz ", "2c 3c 4c 5c 7d", "8h 9h Th Jh Qh")
    assert "in 'As Ks Zz'" in str(built.value)
    assert Hand.parse(" As Ks Qs | 2c 3c 4c 5c 7d |8h 9h Th Jh Qh ") == Hand(
        "As Ks Qs", "2c 3c 4c 5c 7d", "8h 9h Th Jh Qh"
    )


# ----- 7. every output says what made it and under which rules ----------------------------------------------


def canonical_digest(rules: Rules) -> str:
    data = rules.to_dict()
    data.pop("preset", None)
    # JSON_FORMAT.md: a knob newer than the digest hashes only away from its default.
    for knob, default in (("jokers", 0), ("foul_counts_for_home_run", False), ("ofc_variant", "classic")):
        if data[knob] == default:
            del data[knob]
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def test_outputs_carry_engine_and_rules_digest(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = {"name": "chinese-poker", "version": __version__}
    bonus = Rules.preset("pagat-bonus")
    assert rules_digest(bonus) == canonical_digest(bonus)
    assert len(rules_digest(bonus)) == 64
    assert rules_digest(Rules.from_dict(bonus.to_dict() | {"preset": None})) == rules_digest(bonus)
    assert rules_digest(bonus) != rules_digest(Rules())
    assert rules_digest(Rules()) == "5c67d307d1d5fd345380d72fa38a8247e7ae81c1aae287869a05914db98b3f70"
    newer = Rules(foul_counts_for_home_run=True)
    assert rules_digest(newer) == canonical_digest(newer) != rules_digest(Rules())
    rnd = parse_round({"id": "e2", "rules": "pagat-bonus", "players": copy.deepcopy(E2_PLAYERS)})
    out = round_output(rnd, settle_round(rnd))
    assert out["engine"] == engine
    assert out["rules_digest"] == canonical_digest(bonus)
    assert list(out)[:4] == ["id", "engine", "rules", "rules_digest"]
    vectors = list(generate_vectors(bonus, 1, 3))
    assert len({v["expected"]["rules_digest"] for v in vectors}) == 2  # E4-custom-rules has its own
    for vector in vectors:
        assert vector["expected"]["engine"] == engine
        assert vector["expected"]["rules_digest"] == canonical_digest(rules_from_value(vector["rules"]))
    code, text, _ = run_cli(
        capsys, monkeypatch, "deal", "--seed", "5", "--format", "json", "--rules", "pusoy"
    )
    assert code == 0
    dealt = json.loads(text)
    assert dealt["engine"] == engine
    assert dealt["rules_digest"] == canonical_digest(Rules.preset("pusoy"))
    code, text, _ = run_cli(
        capsys, monkeypatch, "score", "--format", "json", stdin=json.dumps({"players": E2_PLAYERS})
    )
    assert code == 0
    assert json.loads(text)[0]["rules_digest"] == canonical_digest(Rules())


def test_output_schema_lists_engine_and_rules_digest() -> None:
    schema = load_schema("output")
    assert schema["properties"]["engine"]["required"] == ["name", "version"]
    assert schema["properties"]["rules_digest"]["pattern"] == "^[0-9a-f]{64}$"
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(schema)
    out = outputs(1)[0]
    validator.validate(out)
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**out, "rules_digest": "abc"})


def test_verify_ignores_engine_and_compares_rules_digest_when_both_have_it() -> None:
    expected = outputs()
    other = copy.deepcopy(expected)
    for out in other:
        out["engine"] = {"name": "another-scorer", "version": "9.9"}
    assert compare_outputs(expected, other) == []
    bare = copy.deepcopy(expected)
    for out in bare:
        del out["engine"], out["rules_digest"]
    assert compare_outputs(expected, bare, strict=True) == []
    assert compare_outputs(bare, expected, strict=True) == []
    wrong = copy.deepcopy(expected[0])
    wrong["rules_digest"] = "0" * 64
    found = [str(d) for d in compare_round(expected[0], wrong)]
    assert found == [
        f"round {json.dumps(expected[0]['id'])}: rules_digest: expected "
        f'"{expected[0]["rules_digest"]}", actual "{"0" * 64}"'
    ]


# ----- 8. what each knob means ------------------------------------------------------------------------------


def test_rules_docstring_explains_every_knob() -> None:
    doc = inspect.getdoc(Rules)
    assert doc is not None
    items = re.findall(r"^- ``(\w+)``: (.*?)(?=^- |^$)", doc, flags=re.MULTILINE | re.DOTALL)
    assert sorted(knob for knob, _ in items) == sorted(KNOBS)  # each knob once
    for knob, text in items:
        meaning, *rest = text.split(";")
        assert len(meaning.split()) >= 3, knob  # what it does, not only its values
        assert rest, knob  # then its values and default
        assert re.search(r"\((?:[^()]|\([^()]*\))*\)", "".join(rest)), knob  # the default in parentheses
    assert "RULES.md 2.2" in doc
    assert "RULES.md 5" in doc


def test_rules_help_lists_every_knob_with_a_phrase(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert set(KNOB_PHRASES) == set(KNOBS)
    code, out, _ = run_cli(capsys, monkeypatch, "rules", "--help")
    assert code == 0
    # Each knob heads a line, and its phrase follows (wrapped onto the indented lines below it).
    lines = out.splitlines()
    for knob in KNOBS:
        (start,) = [k for k, line in enumerate(lines) if line.split()[:1] == [knob]]
        end = start + 1
        while end < len(lines) and lines[end].startswith(" " * 8) and lines[end].split()[0] not in KNOBS:
            end += 1
        text = " ".join(" ".join(lines[start:end]).split()[1:])
        assert text == " ".join(KNOB_PHRASES[knob].split()), knob
