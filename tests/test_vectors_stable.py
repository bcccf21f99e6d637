"""Behaviour is unchanged: conformance vectors written by release 0.1.0 (edge cases and random rounds under
four presets, tests/data/vectors-0.1.0.jsonl, made with ``chinese-poker vectors --count 25 --seed 5``) still
verify against today's engine, field by field."""

from __future__ import annotations

from pathlib import Path

from chinese_poker.formats.records import read_rounds
from chinese_poker.formats.rounds import parse_round, round_output, settle_round
from chinese_poker.formats.verify import compare_outputs, load_outputs

VECTORS = Path(__file__).with_name("data") / "vectors-0.1.0.jsonl"


PRESETS = ("pagat-bonus", "shisanshui-app", "wikipedia-1-6", "capsa-susun")

# Release 0.1.0 wrote the knob front_straight_ace, since split in two (CHANGELOG): the old value stands for
# both new knobs, so the vectors are read as the rules they were written under.
OLD_KNOB = '"front_straight_ace":true'
NEW_KNOBS = '"three_straights_front_a23":true,"three_straights_front_qka":true'


def test_vectors_of_release_0_1_0_still_verify() -> None:
    text_0_1_0 = VECTORS.read_text(encoding="utf-8")
    assert text_0_1_0.count(OLD_KNOB) == 8  # every rules object of the file; none says false
    lines = text_0_1_0.replace(OLD_KNOB, NEW_KNOBS).splitlines()
    per_preset = len(lines) // len(PRESETS)
    assert per_preset * len(PRESETS) == len(lines)
    for k, preset in enumerate(PRESETS):
        text = "\n".join(lines[k * per_preset : (k + 1) * per_preset])  # one file per preset: ids repeat
        expected = load_outputs(text, preset)
        _, raws = read_rounds(text, json_lines=True)
        actual = [round_output(rnd, settle_round(rnd)) for rnd in (parse_round(raw.data) for raw in raws)]
        assert len(actual) == len(expected) == per_preset
        assert all(case["rules"] == preset for case in expected[:3])
        assert compare_outputs(expected, actual, strict=True) == [], preset


ADDED_SUITS = Path(__file__).with_name("data") / "vectors-added-suits.jsonl"


def test_vectors_of_packs_with_added_suits_still_verify() -> None:
    """Vectors under shisanshui-puxian-six (78 cards, clubs and hearts twice; made with ``chinese-poker
    vectors --rules shisanshui-puxian-six --count 24 --seed 15``): rounds of 5 and 6 players, cards held
    twice at the table and within a hand, verify field by field."""
    text = ADDED_SUITS.read_text(encoding="utf-8")
    expected = load_outputs(text, "shisanshui-puxian-six")
    _, raws = read_rounds(text, json_lines=True)
    rounds = [parse_round(raw.data) for raw in raws]
    actual = [round_output(rnd, settle_round(rnd)) for rnd in rounds]
    assert compare_outputs(expected, actual, strict=True) == []
    sizes = [len(rnd.hands) for rnd in rounds]
    assert sizes.count(5) == 7
    assert sizes.count(6) == 9
    repeated_at_table = [
        rnd for rnd in rounds if len({c for h in rnd.hands for c in h.cards}) < 13 * len(rnd.hands)
    ]
    repeated_in_a_hand = [rnd for rnd in rounds if any(len(set(h.cards)) < 13 for h in rnd.hands)]
    assert len(repeated_at_table) == 25
    assert len(repeated_in_a_hand) == 25


JOKERS = Path(__file__).with_name("data") / "vectors-jokers.jsonl"


def test_vectors_of_packs_with_jokers_still_verify() -> None:
    """Vectors under shisanshui-puxian-ghost (54 cards, two jokers; made with ``chinese-poker vectors --rules
    shisanshui-puxian-ghost --count 24 --seed 15``): the RULES.md 1.2 rounds, and rounds where players hold
    X1 and X2 in every row and declare naturals with them, verify field by field."""
    text = JOKERS.read_text(encoding="utf-8")
    expected = load_outputs(text, "shisanshui-puxian-ghost")
    _, raws = read_rounds(text, json_lines=True)
    rounds = [parse_round(raw.data) for raw in raws]
    actual = [round_output(rnd, settle_round(rnd)) for rnd in rounds]
    assert compare_outputs(expected, actual, strict=True) == []
    ids = [raw.data["id"] for raw in raws]
    assert {"jokers-front", "jokers-back"} <= set(ids)
    with_jokers = [rnd for rnd in rounds if any(c >= 52 for h in rnd.hands for c in h.cards)]
    assert len(with_jokers) >= 20
    assert any(h.is_declared and max(h.cards) >= 52 for rnd in rounds for h in rnd.hands)
    front = next(out for out, i in zip(expected, ids) if i == "jokers-front")
    assert front["pairs"][0]["rows"] == [1, 1, -1]
    assert front["players"][0]["jokers"] == {"X1": "Qs"}
    assert front["players"][0]["rows"]["front"]["text"] == "Three of a kind, queens (X1 as Qs)"
