"""suggest (the k best distinct settings and why) and evaluate_setting (the Monte Carlo value of a setting):
agreement with arrange, distinctness, reproducibility over threads and chunks, zero sum, dominance, a lock
hand, the interval's 1/sqrt(N) shrinking, bad input, and the ARRANGING.md examples as written."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import numpy as np
import pytest
from chinese_poker import (
    Hand,
    Rules,
    arrange,
    arrangements,
    evaluate_setting,
    evaluate_settings,
    suggest,
)
from chinese_poker import advice as advice_module
from chinese_poker.advice import distinct_key
from chinese_poker.cli import main
from chinese_poker.presets import PRESET_NAMES
from hypothesis import assume, given, settings
from hypothesis import strategies as st

hands13 = st.permutations(range(52)).map(lambda deck: tuple(deck[:13]))
presets = st.sampled_from(PRESET_NAMES).map(Rules.preset)

PAIRS = "As Ah Kd Ks Qc Qh 7c 7d 5s 4h 3c 9d 2s"  # three pairs and a wheel: few real choices
PAIRS_HAND = Hand("Ah Ks Kd", "Qh Qc 9d 7d 7c", "As 5s 4h 3c 2s")  # arrange(PAIRS)
QUADS = "7s 7h 7d 7c Kd Ks Qc Qh 9c 9d 5s 4h 2s"
LOCK = Hand("As Ad Ac", "Ks Qs Js Ts 9s", "Ah Kh Qh Jh Th")
ARRANGING = Path(__file__).resolve().parent.parent / "docs" / "ARRANGING.md"


# ----- suggest --------------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(cards=hands13, rules=presets, opponents=st.integers(1, 3))
def test_the_first_suggestion_is_what_arrange_chooses(cards, rules, opponents) -> None:
    chosen = arrange(cards, rules, "expected", opponents=opponents)
    (first,) = suggest(cards, rules, k=1, opponents=opponents)
    assert first.rank == 1
    assert first.hand == chosen.hand
    assert first.hand.cards == chosen.hand.cards
    assert first.strengths == chosen.strengths
    assert first.expected_units == chosen.expected_units
    assert first.declare == chosen.declare


@settings(max_examples=30, deadline=None)
@given(cards=hands13, rules=presets, k=st.integers(2, 6))
def test_suggestions_are_distinct_sorted_legal_and_undominated(cards, rules, k) -> None:
    found = suggest(cards, rules, k=k)
    assume(len(found) >= 2)
    assert len(found) <= k
    assert [s.rank for s in found] == list(range(1, len(found) + 1))
    # The first is what arrange plays (the second stage's choice); the others follow the model's order.
    assert found[0].hand == arrange(cards, rules).hand
    units = [s.expected_units for s in found[1:]]
    assert units == sorted(units, reverse=True)
    keys = distinct_key([s.strengths for s in found])
    assert len(set(keys.tolist())) == len(found)
    for index, s in enumerate(found):
        assert sorted(s.hand.cards) == sorted(cards)
        assert not s.hand.is_foul(rules)
        assert s.strengths == s.hand.facts(rules).strengths
        for better in found[:index]:
            assert not all(b >= w for b, w in zip(better.strengths, s.strengths))


def test_distinct_key_ignores_kickers_and_separates_made_hands() -> None:
    def key(front: str, middle: str, back: str) -> int:
        strengths = Hand(front, middle, back).facts().strengths
        return int(distinct_key([strengths])[0])

    base = key("Qc Qh 9d", "Kd Ks 7c 7d 8h", "As 5s 4h 3c 2s")
    # Another kicker, other suits: near-duplicates.
    assert key("Qd Qs 8h", "Kh Kc 7s 7h 9d", "Ad 5d 4s 3h 2c") == base
    # The pair's rank, the second pair's rank, a straight's top card: distinct.
    assert key("Jc Jh 9d", "Kd Ks 7c 7d 8h", "As 5s 4h 3c 2s") != base
    assert key("Qc Qh 9d", "Kd Ks 6c 6d 8h", "As 5s 4h 3c 2s") != base
    assert key("Qc Qh 9d", "Kd Ks 7c 7d 8h", "6s 5s 4h 3c 2d") != base
    # A high-card row is named by its top card.
    assert key("Ac 9h 4d", "Kd Ks 7c 7d 8h", "Qs Js Ts 8s 3s") == key(
        "Ac 9h 2d", "Kd Ks 7c 7d 8h", "Qs Js Ts 8s 4s"
    )
    assert key("Ac 9h 4d", "Kd Ks 7c 7d 8h", "Qs Js Ts 8s 3s") != key(
        "Kc 9h 4d", "Ad As 7c 7d 8h", "Qs Js Ts 8s 3s"
    )
    with pytest.raises(ValueError, match=r"shape \(K, 3\)"):
        distinct_key([1, 2, 3])


def test_three_pairs_and_a_wheel_have_three_real_choices() -> None:
    found = suggest(PAIRS, k=5)
    # Every other setting is a near-duplicate of these or weaker in every row than one of them.
    assert [[row.text for row in s.rows] for s in found] == [
        [
            "Pair of kings, ace kicker",
            "Two pair, queens and sevens, nine kicker",
            "Straight, five high (wheel)",
        ],
        [
            "Pair of queens, ace kicker",
            "Two pair, kings and sevens, nine kicker",
            "Straight, five high (wheel)",
        ],
        [
            "Pair of sevens, ace kicker",
            "Two pair, kings and queens, nine kicker",
            "Straight, five high (wheel)",
        ],
    ]
    assert [round(s.expected_units, 4) for s in found] == [1.208, 0.9804, -0.5432]
    assert [round(row.win, 4) for row in found[0].rows] == [0.9267, 0.6055, 0.1561]
    assert found[0].why.startswith("front pair of kings, ace kicker (wins 93%); middle two pair")
    assert found[0].why.endswith("; royalties: none")
    assert str(found[0].hand) == str(arrange(PAIRS).hand)
    # Units scale with the opponents; the ranking does not change.
    one = suggest(PAIRS, k=5, opponents=1)
    assert [s.hand for s in one] == [s.hand for s in found]
    assert [s.expected_units * 3 for s in one] == pytest.approx([s.expected_units for s in found], abs=1e-12)


def test_a_row_reason_gives_chances_that_add_up_and_the_rules_royalty() -> None:
    rules = Rules.preset("pagat-bonus")
    found = suggest(QUADS, rules, k=3)
    assert len(found) == 3
    first = found[0]
    back = first.rows[2]
    assert (back.row, back.category, back.text) == (
        "back",
        "four_of_a_kind",
        "Four of a kind, sevens, four kicker",
    )
    assert back.royalty == 4 == first.hand.facts(rules).royalties[2]
    assert "royalties: back +4" in first.why
    for s in found:
        for row in s.rows:
            assert row.win + row.tie + row.loss == pytest.approx(1.0, abs=1e-12)
            assert 0 <= row.tie <= 1
        assert s.scoop == pytest.approx(s.rows[0].win * s.rows[1].win * s.rows[2].win)
    # With the suit tie-break, equal strengths count half won and half lost: no tie is left.
    split = suggest(QUADS, rules.replace(suit_tiebreak="highest_card"), k=1)[0]
    assert all(row.tie == pytest.approx(0.0, abs=1e-12) for row in split.rows)


def test_suggestions_serialise_to_json() -> None:
    found = suggest(PAIRS, k=2)
    data = json.loads(json.dumps([s.to_dict() for s in found]))
    assert data[0]["rank"] == 1
    assert data[0]["hand"] == str(found[0].hand)
    assert data[0]["rows"][0]["cards"] == str(found[0].hand).split(" / ")[0]
    assert [row["row"] for row in data[1]["rows"]] == ["front", "middle", "back"]
    assert data[1]["expected_units"] == found[1].expected_units
    assert set(data[0]) == {"rank", "hand", "strengths", "expected_units", "rows", "scoop", "declare", "why"}


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: suggest("As Ah Kd"), "arranging takes 13 cards, got 3"),
        (lambda: suggest("As As Kd Ks Qc Qh 7c 7d 5s 4h 3c 9d 2s"), "card As appears twice"),
        (lambda: suggest(PAIRS, k=0), r"k must be in 1\.\.100, got 0"),
        (lambda: suggest(PAIRS, opponents=4), "opponents must be 1, 2 or 3, got 4"),
        (lambda: suggest(PAIRS, "no-such-preset"), "no-such-preset"),
    ],
)
def test_suggest_refuses_bad_input(call, message) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_suggest_refuses_a_non_integer_k() -> None:
    with pytest.raises(TypeError, match="k must be an int, got bool"):
        suggest(PAIRS, k=True)


# ----- evaluate_setting ---------------------------------------------------------------------------------


def test_evaluation_is_reproducible_and_the_same_for_any_threads_and_chunks(monkeypatch) -> None:
    hand = arrange(PAIRS).hand
    one = evaluate_setting(hand, samples=300, seed=11, threads=1, compare_to_best=True)
    two = evaluate_setting(hand, samples=300, seed=11, threads=2, compare_to_best=True)
    assert one == two
    assert one == evaluate_setting(hand, samples=300, seed=11, threads=1, compare_to_best=True)
    monkeypatch.setattr(advice_module, "_CHUNK", 7)
    assert evaluate_setting(hand, samples=300, seed=11, threads=2, compare_to_best=True) == one
    # Deals 0..99 and 100..299 are deals 0..299.
    head = evaluate_setting(hand, samples=100, seed=11)
    tail = evaluate_setting(hand, samples=200, seed=11, start=100)
    assert head.total_units + tail.total_units == one.total_units
    assert np.add(head.opponents_total_units, tail.opponents_total_units).tolist() == list(
        one.opponents_total_units
    )
    # Another seed deals other cards.
    assert evaluate_setting(hand, samples=300, seed=12).total_units != one.total_units


def test_the_opponents_units_are_ours_with_the_sign_changed() -> None:
    for opponents in (1, 2, 3):
        value = evaluate_setting(PAIRS_HAND, opponents=opponents, samples=200, seed=3, field="strongest")
        assert len(value.opponents_total_units) == opponents
        assert value.total_units + sum(value.opponents_total_units) == 0
        assert value.expected_units == value.total_units / 200
        assert value.compared == 1.0
        for rates in value.rows:
            assert rates.win + rates.tie + rates.loss == pytest.approx(1.0, abs=1e-12)


def test_the_best_compared_with_itself_has_no_regret() -> None:
    value = evaluate_setting(PAIRS_HAND, samples=200, seed=5, compare_to_best=True)
    assert value.best is not None
    # The best of these 13 cards in this order: the hand itself (aces of other suits elsewhere would
    # be equally good).
    assert value.best.hand == PAIRS_HAND == suggest(PAIRS_HAND.cards, k=1)[0].hand
    assert value.best.difference == 0.0
    assert value.best.regret == 0.0
    assert value.best.difference_interval == (0.0, 0.0)
    assert value.best.expected_units == value.expected_units
    assert value.best.interval == value.interval


def test_a_setting_weaker_in_every_row_is_worth_less_on_the_same_deals() -> None:
    strong = arrange(PAIRS).hand
    settings_, strengths = arrangements(PAIRS, with_strengths=True)
    best = np.asarray(strong.facts().strengths)
    weaker = np.flatnonzero(np.all(strengths < best, axis=1))
    assert weaker.size > 0
    # The strongest of the strictly weaker settings, so the difference is the smallest there is.
    index = int(weaker[np.lexsort((strengths[weaker, 0], strengths[weaker, 1], strengths[weaker, 2]))[-1]])
    weak = Hand.from_cards(settings_[index].tolist())
    value = evaluate_setting(weak, samples=400, seed=9, compare_to_best=True)
    reference = evaluate_setting(strong, samples=400, seed=9)
    assert value.best is not None
    # suggest's first for the cards in the weak setting's order: the same rows as arrange's for PAIRS.
    assert value.best.hand.facts().strengths == strong.facts().strengths
    assert value.best.expected_units == reference.expected_units
    # Row by row a weaker row never wins where the stronger one lost, so every deal pays no more.
    assert value.total_units < reference.total_units
    assert value.best.difference == (value.total_units - reference.total_units) / 400
    assert value.best.difference_interval[1] < 0 < value.best.regret
    for weak_row, strong_row in zip(value.rows, reference.rows):
        assert weak_row.win <= strong_row.win
        assert weak_row.loss >= strong_row.loss


def test_several_settings_of_the_same_cards_are_measured_on_the_same_deals() -> None:
    found = suggest(PAIRS, k=3)
    hands = [s.hand for s in found]
    together = evaluate_settings(hands, samples=300, seed=13, compare_to_best=True, threads=2)
    assert together == tuple(evaluate_setting(h, samples=300, seed=13, compare_to_best=True) for h in hands)
    # Paired: ours - best per deal, so the second's difference is its total less the first's.
    first, second, _ = together
    assert second.best is not None
    assert second.best.difference == (second.total_units - first.total_units) / 300
    with pytest.raises(ValueError, match=r"hands\[1\] holds other cards than hands\[0\]"):
        evaluate_settings([hands[0], LOCK], samples=10)
    with pytest.raises(ValueError, match="evaluate_settings takes 1 to 100 settings, got 0"):
        evaluate_settings([], samples=10)
    with pytest.raises(TypeError, match="hands must be a sequence of settings, got Hand"):
        evaluate_settings(hands[0], samples=10)


@pytest.mark.parametrize("field", ["strongest", "expected"])
def test_a_lock_hand_wins_every_row_it_must(field) -> None:
    # All four aces and both unbeatable flushes: no opponent can beat the front or the back, and the best
    # middle left to them is a king-high straight flush, which only ties.
    assert not LOCK.is_foul()
    value = evaluate_setting(LOCK, samples=300, seed=1, field=field)
    front, middle, back = value.rows
    assert (front.win, front.tie, front.loss) == (1.0, 0.0, 0.0)
    assert (back.win, back.tie, back.loss) == (1.0, 0.0, 0.0)
    assert middle.loss == 0.0
    assert value.scooped == 0.0
    assert value.scoop == middle.win
    assert value.expected_units >= 3 * 2  # pagat: at least two rows won from each of three opponents
    assert value.interval[0] <= value.expected_units <= value.interval[1]


def test_the_interval_shrinks_as_one_over_the_square_root_of_the_samples() -> None:
    small = evaluate_setting(PAIRS_HAND, samples=400, seed=2, field="strongest")
    large = evaluate_setting(PAIRS_HAND, samples=6400, seed=2, field="strongest")
    ratio = (small.interval[1] - small.interval[0]) / (large.interval[1] - large.interval[0])
    assert 3.2 < ratio < 4.8  # sqrt(6400 / 400) = 4
    assert large.interval[0] < large.expected_units < large.interval[1]
    assert large.interval[1] - large.interval[0] == pytest.approx(
        2 * 1.959963984540054 * large.standard_error
    )


def test_a_foul_is_settled_as_the_rules_say() -> None:
    foul = Hand("Ah Qc Qh", "As 5s 4h 3c 2s", "Kd Ks 7c 7d 9d")  # middle straight over back two pair
    value = evaluate_setting(foul, samples=200, seed=4, field="strongest")
    assert value.foul
    assert value.foul_reasons == ("middle_beats_back",)
    # pagat "lose_all_rows": three units to each of three opponents who never foul, every deal.
    assert value.total_units == -9 * 200
    assert value.standard_error == 0.0
    # "as_laid": nothing for the foul itself, the rows are compared as laid.
    laid = evaluate_setting(foul, Rules(foul_policy="as_laid"), samples=200, seed=4, field="strongest")
    assert laid.total_units > value.total_units
    assert laid.rows == value.rows


def test_a_value_serialises_to_json() -> None:
    value = evaluate_setting(PAIRS_HAND, samples=50, seed=1, field="strongest", compare_to_best=True)
    data = json.loads(json.dumps(value.to_dict()))
    assert data["hand"] == str(PAIRS_HAND)
    assert data["total_units"] == value.total_units
    assert set(data["rows"]) == {"front", "middle", "back"}
    assert data["best"]["hand"] == str(PAIRS_HAND)
    assert data["interval"] == list(value.interval)


def test_a_setting_is_accepted_in_every_form_hands_take() -> None:
    expected = evaluate_setting(PAIRS_HAND, samples=40, seed=1, field="strongest")
    for form in (
        str(PAIRS_HAND),
        ("Ah Kd Ks", "Qc Qh 7c 7d 9d", "As 5s 4h 3c 2s"),
        list(PAIRS_HAND.cards),
        np.asarray(PAIRS_HAND.cards, dtype=np.uint8),
    ):
        assert evaluate_setting(form, samples=40, seed=1, field="strongest") == expected


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"hand": "Ah Qc Qh / Kd Ks 7c 7d / As 5s 4h 3c 2s"}, "the middle takes 5 cards, got 4"),
        ({"hand": "Ah Qc Qh / Kd Ks 7c 7d 9d / Ah 5s 4h 3c 2s"}, "card Ah appears twice"),
        ({"hand": list(range(12))}, "a hand takes 13 cards"),
        ({"hand": Hand.declared(PAIRS)}, "not a declared natural"),
        ({"opponents": 0}, "opponents must be 1, 2 or 3, got 0"),
        ({"opponents": 4}, "opponents must be 1, 2 or 3, got 4"),
        ({"field": "greedy"}, "field must be one of 'expected', 'strongest', got 'greedy'"),
        ({"samples": 0}, r"samples must be in 1\.\.10000000, got 0"),
        ({"seed": -1}, r"seed must be in 0\.\.18446744073709551615, got -1"),
        ({"start": -5}, r"start must be in 0\.\."),
        ({"threads": -1}, "threads must be 0"),
        ({"rules": "no-such-preset"}, "no-such-preset"),
    ],
)
def test_evaluate_setting_refuses_bad_input(arguments, message) -> None:
    call = {"hand": PAIRS_HAND, "samples": 10, **arguments}
    hand = call.pop("hand")
    with pytest.raises(ValueError, match=message):
        evaluate_setting(hand, **call)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"hand": 7}, "hand must be a Hand"),
        ({"samples": 1.5}, "samples must be an int, got float"),
        ({"compare_to_best": 1}, "compare_to_best must be a bool, got int"),
    ],
)
def test_evaluate_setting_refuses_wrong_types(arguments, message) -> None:
    call = {"hand": PAIRS_HAND, "samples": 10, **arguments}
    hand = call.pop("hand")
    with pytest.raises(TypeError, match=message):
        evaluate_setting(hand, **call)


# ----- the documentation's examples -----------------------------------------------------------------------


def test_the_arranging_examples_print_what_the_library_returns() -> None:
    blocks = re.findall(r"```\{doctest\}\n(.*?)```", ARRANGING.read_text(encoding="utf-8"), flags=re.DOTALL)
    assert len(blocks) >= 2, "ARRANGING.md shows suggest and evaluate_setting"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1)
    globs: dict = {}
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"ARRANGING.md block {number}", str(ARRANGING), 0)
        runner.run(test, clear_globs=False)
        globs.update(test.globs)  # the blocks share one namespace, as in Sphinx's default group
    assert runner.failures == 0
    assert runner.tries > 0


def test_a_suggestion_declares_the_natural_when_it_pays_more_than_playing() -> None:
    cards = "As Ah Ks Kh Qs Qh Js Jh Ts Th 9s 9h 2c"  # six pairs, and two royal flushes to play
    rules = Rules.preset("pagat-bonus")  # six pairs pay 3, declared
    found = suggest(cards, rules, k=3)
    assert arrange(cards, rules).declare is None
    assert [s.declare for s in found] == [None, None, "six_pairs"]
    assert [round(s.expected_units / 3, 2) for s in found] == [10.85, 10.29, 0.31]
    # Under "auto" the natural counts whatever is played.
    auto = suggest(cards, rules.replace(natural_declaration="auto"), k=3)
    assert [s.declare for s in auto] == ["six_pairs"] * 3


# ----- the command line -----------------------------------------------------------------------------------


def test_the_suggest_command_prints_the_suggestions_and_their_measurements(capsys) -> None:
    assert main(["suggest", *PAIRS.split(), "-k", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    found = suggest(PAIRS, k=2)
    assert lines[0] == f"1. {found[0].hand}   +1.208 units v. 3"
    assert lines[1] == f"   {found[0].why}"
    assert lines[2] == f"2. {found[1].hand}   +0.980 units v. 3"
    assert len(lines) == 4
    assert (
        main(["suggest", PAIRS, "-k", "2", "--evaluate", "300", "--seed", "13", "--field", "strongest"]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    value = evaluate_setting(found[1].hand, samples=300, seed=13, field="strongest")
    low, high = value.interval
    assert lines[5].startswith(
        f"   measured: {value.expected_units:+.3f} ({low:+.3f} to {high:+.3f}) over 300"
    )
    assert main(["suggest", PAIRS, "-k", "1", "--format", "json", "--evaluate", "50"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["suggestions"][0]["hand"] == str(found[0].hand)
    assert data["suggestions"][0]["measured"]["samples"] == 50
    assert data["rules"] == "pagat"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["As", "Ah"], "arranging takes 13 cards, got 2"),
        ([PAIRS, "-k", "0"], r"k must be in 1\.\.100, got 0"),
        ([PAIRS, "--evaluate", "-1"], "--evaluate must be 0"),
        ([PAIRS, "--opponents", "4"], "opponents must be 1, 2 or 3, got 4"),
    ],
)
def test_the_suggest_command_refuses_bad_input(capsys, arguments, message) -> None:
    assert main(["suggest", *arguments]) == 2
    assert re.search(message, capsys.readouterr().err)
