"""Arranging 13 cards: legality, the strongest setting by hand, the expected strategy's properties, agreement
of the C++ enumeration with the brute-force reference, batch entry point and errors."""

from __future__ import annotations

import concurrent.futures
import random

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import Hand, Rules, _core, arrange, arrangements, describe, parse_cards, settle
from chinese_poker import reference as ref
from chinese_poker.arrange import (
    STRATEGIES,
    arrange_batch,
    build_expected_model,
    field_preset,
    field_tables,
)
from chinese_poker.presets import PRESET_NAMES
from chinese_poker.rules import core_spec
from hypothesis import given, settings
from hypothesis import strategies as st

hands13 = st.permutations(range(52)).map(lambda deck: tuple(deck[:13]))
presets = st.sampled_from(PRESET_NAMES).map(Rules.preset)


@settings(max_examples=60, deadline=None)
@given(cards=hands13, rules=presets, strategy=st.sampled_from(STRATEGIES))
def test_arrangement_is_legal_and_uses_exactly_the_cards(cards, rules, strategy) -> None:
    chosen = arrange(cards, rules, strategy)
    assert sorted(chosen.hand.cards) == sorted(cards)
    assert not chosen.hand.is_foul(rules)
    assert chosen.strengths == chosen.hand.facts(rules).strengths
    assert chosen.strategy == strategy


@pytest.mark.parametrize(
    ("cards", "front", "middle", "back"),
    [
        # A royal flush goes to the back, then the best middle left: nines full of deuces.
        (
            "As Ks Qs Js Ts 9h 9d 9c 2c 2d 7h 5s 3d",
            "Seven high, five-three",
            "Full house, nines over deuces",
            "Royal flush",
        ),
        # Quads take the ace as kicker; the best middle left is kings and fours; the rest in front.
        (
            "8c 8d 8h 8s Kc Kd 4h 4s Ah 7c 6d 3s 2c",
            "Six high, three-deuce",
            "Two pair, kings and fours, seven kicker",
            "Four of a kind, eights, ace kicker",
        ),
        # The five clubs beat every straight; without the 6c and 2c no straight is left for the middle.
        (
            "Ah Kd Qc 9s 8h 7d 6c 5s 4h 3d 2c Jc Tc",
            "Five high, four-three",
            "Ace high, king-nine-eight-seven",
            "Flush, queen-jack-ten-six-deuce",
        ),
    ],
)
def test_strongest_by_hand(cards, front, middle, back) -> None:
    chosen = arrange(cards, strategy="strongest")
    assert [describe(s) for s in chosen.strengths] == [front, middle, back]


def test_strongest_prefers_back_then_middle_then_front() -> None:
    cards = "Ah Ad Ac As Kh Kd Kc Ks Qh Qd Qc Qs 2c"
    chosen = arrange(cards, strategy="strongest")
    # The back takes aces with a king kicker, which breaks the kings: the middle is queens, king kicker.
    assert [describe(s) for s in chosen.strengths] == [
        "Pair of kings, deuce kicker",
        "Four of a kind, queens, king kicker",
        "Four of a kind, aces, king kicker",
    ]


@pytest.mark.slow
@pytest.mark.python_bound  # the brute force is the reference's; the enumeration is checked below too
@settings(max_examples=8, deadline=None)
@given(cards=hands13, preset=st.sampled_from(["pagat", "shisanshui-app"]))
def test_enumeration_agrees_with_brute_force_reference(cards, preset) -> None:
    rules = Rules.preset(preset)
    settings_, strengths = arrangements(cards, rules, with_strengths=True)
    expected = ref.legal_settings(cards, rules.resolved())
    assert {tuple(map(int, s)) for s in strengths} == set(expected)
    assert len(strengths) == len(expected)  # identical triples collapsed to one
    for setting, triple in zip(settings_, strengths):
        hand = Hand.from_cards(setting)
        assert sorted(hand.cards) == sorted(cards)
        assert hand.facts(rules).strengths == tuple(map(int, triple))
    _, front = arrangements(cards, rules, drop_dominated=True, with_strengths=True)
    assert {tuple(map(int, s)) for s in front} == ref.pareto_front(set(expected))
    only_settings = arrangements(cards, rules)
    assert only_settings.shape == (len(expected), 13)
    assert only_settings.dtype == np.uint8
    assert arrange(cards, rules, "strongest").strengths == ref.strongest(cards, rules.resolved())


def test_strict_middle_never_returns_an_equal_middle() -> None:
    rules = Rules().replace(middle_vs_back="strict")
    cards = "As Ks Qs Js 9s Ah Kh Qh Jh 9h 2c 3d 4c"  # two equal flushes: they cannot both be set
    _, strengths = arrangements(cards, rules, with_strengths=True)
    assert all(m < b for _, m, b in strengths)
    non_strict = arrangements(cards, Rules(), with_strengths=True)[1]
    assert any(m == b for _, m, b in non_strict)


@settings(max_examples=40, deadline=None)
@given(cards=hands13, preset=st.sampled_from(PRESET_NAMES))
def test_expected_is_never_dominated(cards, preset) -> None:
    rules = Rules.preset(preset)
    chosen = arrange(cards, rules, "expected")
    _, front = arrangements(cards, rules, drop_dominated=True, with_strengths=True)
    assert chosen.strengths in {tuple(map(int, s)) for s in front}


@settings(max_examples=40, deadline=None)
@given(cards=hands13, preset=st.sampled_from(["pagat", "wikipedia-1-6", "shisanzhang-hk"]))
def test_expected_maximises_its_own_estimate(cards, preset) -> None:
    rules = Rules.preset(preset)
    best = arrange(cards, rules, "expected")
    baseline = arrange(cards, rules, "strongest")
    # The model alone takes its best; the second stage plays one within 0.2 units per opponent of it.
    model_best = _model_alone_value(cards, rules)
    assert model_best >= baseline.expected_units / 3 - 1e-9
    one = arrange(cards, rules, "expected", opponents=1)
    assert model_best - 0.2 <= one.expected_units <= model_best
    assert one.expected_units == pytest.approx(best.expected_units / 3)


def _model_alone_value(cards, rules: Rules) -> float:
    """The expected units per opponent of the setting the model alone (no second stage) chooses."""
    model = build_expected_model(field_tables(field_preset(rules)), rules)
    _, ev = _core.arrange_batch(np.array([cards], dtype=np.uint8), core_spec(rules), model, 1)
    return float(ev[0])


def test_declare_a_natural_worth_more_than_playing() -> None:
    dragon = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad"
    assert arrange(dragon, Rules.preset("pagat-bonus")).declare == "dragon"
    assert arrange(dragon, Rules.preset("pagat")).declare is None  # no naturals in these rules
    # Six pairs pay 3 a player. These six set two straight flushes: playing expects far more, so no declaring.
    strong_pairs = "Ac Ad Kc Kd Qc Qd Jc Jd Tc Td 9c 9d 2s"
    chosen = arrange(strong_pairs, Rules.preset("pagat-bonus"))
    assert chosen.declare is None
    assert [describe(s) for s in chosen.strengths] == [
        "Pair of aces, deuce kicker",
        "Straight flush, king high",
        "Straight flush, king high",
    ]
    assert chosen.expected_units > 30
    # Scattered low pairs expect to lose by playing: declaring six pairs is worth more.
    weak_pairs = arrange("2c 2d 3h 3s 5c 5d 7h 7s 9c 9d Jh Js Kc", Rules.preset("pagat-bonus"))
    assert weak_pairs.declare == "six_pairs"
    assert weak_pairs.expected_units < 0
    # Under natural_declaration="auto" the natural counts whatever is set: it is reported.
    assert arrange(dragon, Rules.preset("shisanshui-app")).declare == "dragon"


def test_field_tables_are_distributions() -> None:
    tables = field_tables()
    for row, classes in (("front", 455), ("middle", 7462), ("back", 7462)):
        assert tables[f"{row}_strengths"].shape == (classes,)
        assert np.all(np.diff(tables[f"{row}_strengths"].astype(np.int64)) > 0)
        assert tables[f"{row}_prob"].sum() == pytest.approx(1.0)
        assert (tables[f"{row}_prob"] >= 0).all()
    assert tables["meta"]["hands_per_field"] >= 100_000


def test_arrange_batch_matches_arrange_and_is_thread_safe() -> None:
    rng = np.random.default_rng(5)
    hands = np.argsort(rng.random((40, 52)), axis=1)[:, :13].astype(np.uint8)
    for strategy in STRATEGIES:
        batch = arrange_batch(hands, Rules.preset("wikipedia-2-4"), strategy)
        assert batch.shape == (40, 13)
        assert batch.dtype == np.uint8
        for hand, setting in zip(hands[:10], batch[:10]):
            assert tuple(setting) == arrange(hand, Rules.preset("wikipedia-2-4"), strategy).hand.cards
    single = arrange_batch(hands)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: arrange_batch(hands), range(8)))
    assert all(np.array_equal(r, single) for r in results)


def test_expected_beats_strongest_on_a_small_sample() -> None:
    """A smoke test of quality (the benchmark measures it on 100,000 deals): over 600 deals, one player
    arranging by "expected" against three by "strongest" comes out ahead under pagat."""
    rng = random.Random(11)
    rules = Rules.preset("pagat")
    total = 0
    for _ in range(600):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [deck[13 * p : 13 * p + 13] for p in range(4)]
        seats = [arrange(hands[0], rules, "expected").hand]
        seats += [arrange(h, rules, "strongest").hand for h in hands[1:]]
        total += settle(seats, rules).net[0]
    assert total > 0


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: arrange("As Ks Qs"), ValueError, "13 cards, got 3"),
        (lambda: arrange((*parse_cards("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s"), 51)), ValueError, "twice"),
        (lambda: arrange(range(13), strategy="best"), ValueError, "strategy"),
        (lambda: arrange(range(13), opponents=0), ValueError, "opponents"),
        (lambda: arrange_batch(np.zeros((2, 13), dtype=np.int64)), TypeError, "uint8"),
        (lambda: arrange_batch(np.zeros((2, 12), dtype=np.uint8)), ValueError, "13 cards"),
        (
            lambda: arrange_batch(np.tile(np.arange(13, dtype=np.uint8), (3, 1))[:, ::-1]),
            ValueError,
            "contiguous",
        ),
        (
            lambda: arrange_batch(np.array([list(range(13)), [0] * 13], dtype=np.uint8)),
            ValueError,
            "hand 1, index 1",
        ),
        (lambda: arrange_batch(np.array([[*range(12), 60]], dtype=np.uint8)), ValueError, "60"),
    ],
)
def test_bad_input(call, error, message) -> None:
    with pytest.raises(error, match=message):
        call()


# Hands rich in what the search's bounds read (pairs, trips and quads from few ranks; flushes and straights
# from two suits), beside random ones.
def _thirteen_of(pack: list[int]) -> st.SearchStrategy[tuple[int, ...]]:
    return st.permutations(pack).map(lambda deck: tuple(deck[:13]))


few_ranks = _thirteen_of([r * 4 + s for r in range(7) for s in range(4)])
two_suits = _thirteen_of([r * 4 + s for r in range(13) for s in (1, 3)])


@settings(max_examples=80, deadline=None)
@given(cards=st.one_of(hands13, few_ranks, two_suits), preset=st.sampled_from(PRESET_NAMES))
def test_expected_finds_the_true_maximum(cards, preset) -> None:
    """The C++ search prunes backs by upper bounds and skips settings by a regrouped sum; its choice must
    still be the best of every legal setting under the model, as an exhaustive evaluation of all of them
    finds, to the last bit (the value it reports is the model's own). The model alone: the second stage
    then chooses among its best few (tests/test_second_stage.py)."""
    rules = Rules.preset(preset)
    model = build_expected_model(field_tables(field_preset(rules)), rules)
    _, strengths = arrangements(cards, rules, with_strengths=True)
    exhaustive = max(_core.expected_units([int(x) for x in triple], model) for triple in strengths)
    assert _model_alone_value(cards, rules) == exhaustive


# Two straight flushes of one height and two aces: several settings of exactly equal strengths, among which
# the arranger must keep the same one however the cards are ordered.
TIES = parse_cards("3c 4c 5c 6c 7c 3d 4d 5d 6d 7d Ah As Kh")


@settings(max_examples=40, deadline=None)
@given(cards=st.one_of(hands13, st.permutations(TIES).map(tuple)), seed=st.integers(0, 2**32 - 1))
def test_the_setting_depends_on_the_cards_not_their_order(cards, seed) -> None:
    shuffled = list(cards)
    random.Random(seed).shuffle(shuffled)
    rules = Rules.preset("pagat")
    for strategy in STRATEGIES:
        assert arrange(cards, rules, strategy).hand == arrange(shuffled, rules, strategy).hand
    assert np.array_equal(arrangements(cards, rules), arrangements(shuffled, rules))
    batch = np.array([cards, shuffled], dtype=np.uint8)
    assert np.array_equal(*arrange_batch(batch, rules, "strongest"))


def test_among_equal_strengths_the_highest_codes_go_behind() -> None:
    # The two 7-high straight flushes are equal: the diamonds (higher codes) make the back, the clubs the
    # middle; each row is written highest card first.
    chosen = arrange(TIES, Rules.preset("pagat"), "strongest")
    assert str(chosen.hand) == "As Ah Kh / 7c 6c 5c 4c 3c / 7d 6d 5d 4d 3d"


# --- Hands holding a card twice (a pack with added suits, RULES.md 1.1) ---------

DOUBLED = "As As Ah Ad Ac Ks Ks Qs Js Ts 2c 3d 4h"  # five aces, and two kings of spades


def test_arranging_a_hand_with_a_card_twice() -> None:
    rules = Rules(extra_suits="s", royalties={"back": {"five_of_a_kind": 10}})
    codes = sorted(cp.parse_cards(DOUBLED, "s"))
    strongest = arrange(DOUBLED, rules, strategy="strongest")
    assert sorted(strongest.hand.cards) == codes
    assert cp.category(strongest.strengths[2]) == cp.HandCategory.FIVE_OF_A_KIND
    assert not strongest.hand.is_foul(rules)
    expected = arrange(DOUBLED, rules)
    assert sorted(expected.hand.cards) == codes
    assert not expected.hand.is_foul(rules)
    settings, strengths = cp.arrangements(DOUBLED, rules, with_strengths=True)
    assert all(sorted(row.tolist()) == codes for row in settings)
    assert strengths[0][2] == cp.evaluate("As As Ah Ad Ac", extra_suits="s")
    batch = arrange_batch(np.array([codes, codes[::-1]], dtype=np.uint8), rules, "strongest")
    assert all(sorted(row.tolist()) == codes for row in batch)
    # A king-high straight flush K-Q-J-T-9 in spades is not in the hand; the back five of a kind stands
    # above any straight flush, so a setting with one in the middle would still be legal.
    assert not cp.Hand("2c 3d 4h", "Ks Qs Js Ts 9s", "As As Ah Ad Ac", extra_suits="s").is_foul(rules)
    assert cp.Hand("2c 3d 4h", "As As Ah Ad Ac", "Ks Qs Js Ts 9s", extra_suits="s").is_foul(rules)
    with pytest.raises(ValueError, match="As appears twice"):
        arrange(DOUBLED, Rules())
    with pytest.raises(ValueError, match="hand 0, index 7: card Ks appears twice"):
        arrange_batch(np.array([codes], dtype=np.uint8), Rules(), "strongest")


def _undominated_by_filtering(settings_: np.ndarray, strengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct settings (strongest back first) that no other one matches or beats in every row.

    Each is compared with the undominated ones found before it, strongest (back, middle, front) first: one
    that beats it in every row sorts before it, and so does an undominated one that beats that one, so
    that comparing with those alone finds it (all pairs would take seconds a hand)."""
    rows = [tuple(row) for row in strengths.tolist()]
    assert len(set(rows)) == len(rows)  # distinct strengths: no other one merely matches a setting
    undominated: list[int] = []
    for k in sorted(range(len(rows)), key=rows.__getitem__, reverse=True):
        back, middle, front = rows[k]
        if not any(b >= back and m >= middle and f >= front for b, m, f in (rows[j] for j in undominated)):
            undominated.append(k)
    keep = sorted(undominated)
    return settings_[keep], strengths[keep]


def test_undominated_settings_with_a_card_twice_keep_the_same_cards() -> None:
    # The queen of clubs twice: a front Qc-3c-2c can be made with either of them, and of two settings of
    # equal strengths whose fronts are those same bytes, the middle's bytes decide which one is kept
    # (the search once stopped at the fronts, which are different subsets, and kept the later one).
    rules = Rules.preset("shisanshui-puxian-six")
    cards = parse_cards("2c 3c 5s 6s 7h 9h Jh Qc Qc Qd Td Th Ts", rules.extra_suits)
    settings_, strengths = arrangements(cards, rules, drop_dominated=True, with_strengths=True)
    distinct = arrangements(cards, rules, with_strengths=True)
    want_settings, want_strengths = _undominated_by_filtering(*distinct)
    assert len(settings_) == 780
    assert np.array_equal(strengths, want_strengths)
    assert np.array_equal(settings_, want_settings)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(PRESET_NAMES), joker=st.booleans())
def test_undominated_settings_are_the_filtered_distinct_ones_in_order(seed, preset, joker) -> None:
    # The undominated search works back by back; filtering every distinct setting is its reference: the
    # same settings (each strengths' one whose cards come first), in the same order.
    rules = Rules.preset(preset)
    if joker:
        rules = rules.replace(jokers=1)
    from chinese_poker.dealing import deal_hands  # noqa: PLC0415

    cards = deal_hands(random.Random(seed), 1, rules.extra_suits, rules.jokers)[0]
    settings_, strengths = arrangements(cards, rules, drop_dominated=True, with_strengths=True)
    distinct = arrangements(cards, rules, with_strengths=True)
    want_settings, want_strengths = _undominated_by_filtering(*distinct)
    assert len(settings_) > 0
    assert np.array_equal(strengths, want_strengths)
    assert np.array_equal(settings_, want_settings)
