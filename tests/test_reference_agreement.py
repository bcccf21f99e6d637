"""The C++ core against the independent pure-Python reference, plus Hypothesis properties of evaluate."""

from __future__ import annotations

from collections import Counter
from itertools import chain, combinations, combinations_with_replacement
from math import comb, prod

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import HandCategory, category, evaluate, evaluate_batch, reference
from chinese_poker.evaluation import pack_strengths
from chinese_poker.reference.evaluate import SUBSTITUTED, substitute
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from strategies import pack_rows as built_pack_rows

WHEELS = ("low", "second")
wheels = st.sampled_from(WHEELS)


def hands(size: int) -> st.SearchStrategy[list[int]]:
    """``size`` distinct card codes, in random order."""
    return st.lists(st.integers(0, 51), min_size=size, max_size=size, unique=True)


# A-2-3-4-5 in any suits: rare among random hands, so drawn on purpose.
wheel_hands = st.lists(st.integers(0, 3), min_size=5, max_size=5).map(
    lambda suits: [4 * rank + suit for rank, suit in zip((12, 0, 1, 2, 3), suits)]
)
five_card = st.one_of(hands(5), wheel_hands)
any_hand = st.one_of(hands(3), five_card)


# --- agreement with the reference -----------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("wheel", WHEELS)
def test_reference_agrees_on_every_three_card_hand(three_card_hands: np.ndarray, wheel: str) -> None:
    core = evaluate_batch(three_card_hands, wheel).tolist()
    ref = [reference.evaluate(hand, wheel) for hand in three_card_hands.tolist()]
    assert len(ref) == 22_100
    mismatches = [(cp.format_cards(h), c, r) for h, c, r in zip(three_card_hands, core, ref) if c != r]
    assert mismatches == []


@pytest.fixture(scope="module")
def five_card_sample(five_card_hands: np.ndarray) -> np.ndarray:
    """200,000 random five-card hands (fixed seed), one hand of each of the 7,462 classes and every
    straight and straight flush."""
    rng = np.random.default_rng(7_462)
    rows = rng.choice(len(five_card_hands), size=200_000, replace=False)
    strengths = evaluate_batch(five_card_hands)
    representatives = np.unique(strengths, return_index=True)[1]
    straights = np.flatnonzero(np.isin(strengths >> 20, (4, 8)))
    sample = five_card_hands[np.union1d(np.union1d(rows, representatives), straights)]
    # Shuffle the cards inside each row so the reference also sees unsorted input.
    return np.ascontiguousarray(rng.permuted(sample, axis=1))


@pytest.mark.slow
@pytest.mark.python_bound  # the reference's time; the core's side is the exhaustive tests of test_evaluate.py
@pytest.mark.parametrize("wheel", WHEELS)
def test_reference_agrees_on_five_card_sample(five_card_sample: np.ndarray, wheel: str) -> None:
    core = evaluate_batch(five_card_sample, wheel).tolist()
    ref = [reference.evaluate(hand, wheel) for hand in five_card_sample.tolist()]
    assert len(set(ref)) == 7_462  # every class is in the sample
    mismatches = [(cp.format_cards(h), c, r) for h, c, r in zip(five_card_sample, core, ref) if c != r]
    assert mismatches[:10] == []


@given(cards=any_hand, wheel=wheels)
def test_reference_agrees_on_drawn_hands(cards: list, wheel: str) -> None:
    assert evaluate(cards, wheel) == reference.evaluate(cards, wheel)


# --- properties of evaluate -----------------------------------------------------------------------------


@given(cards=any_hand, wheel=wheels, data=st.data())
def test_card_order_never_matters(cards: list[int], wheel: str, data: st.DataObject) -> None:
    reordered = data.draw(st.permutations(cards))
    assert evaluate(reordered, wheel) == evaluate(cards, wheel)


@given(cards=any_hand, wheel=wheels, suit_map=st.permutations(range(4)))
def test_relabelling_suits_never_matters(cards: list[int], wheel: str, suit_map: list[int]) -> None:
    relabelled = [card - card % 4 + suit_map[card % 4] for card in cards]
    assert sorted(c // 4 for c in relabelled) == sorted(c // 4 for c in cards)
    assert evaluate(relabelled, wheel) == evaluate(cards, wheel)


NO_STRAIGHT_OR_FLUSH = {HandCategory.STRAIGHT, HandCategory.FLUSH, HandCategory.STRAIGHT_FLUSH}

# Rank groups (sizes) of rows that hold at least one kicker (a rank held once): high card, one pair, two pair,
# trips and quads; three or five cards.
KICKER_SHAPES = [(1, 1, 1), (2, 1), (1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (4, 1)]


@st.composite
def kicker_raises(draw: st.DrawFn) -> tuple[list[int], int, int]:
    """A row with a kicker, the kicker's index, and a higher rank the row does not hold."""
    shape = draw(st.sampled_from(KICKER_SHAPES))
    ranks = draw(st.lists(st.integers(0, 12), min_size=len(shape) + 1, max_size=len(shape) + 1, unique=True))
    kicker = draw(st.sampled_from([g for g, size in enumerate(shape) if size == 1]))
    # The spare rank and the kicker's trade places if need be, so the kicker has a higher rank to rise to.
    ranks[kicker], higher = sorted((ranks[kicker], ranks[-1]))
    cards: list[int] = []
    for group, (rank, size) in enumerate(zip(ranks, shape)):
        if group == kicker:
            index = len(cards)
        cards += [4 * rank + suit for suit in draw(st.permutations(range(4)))[:size]]
    return cards, index, higher


@settings(max_examples=300)
@given(drawn=kicker_raises(), wheel=wheels)
def test_raising_a_kicker_raises_the_hand(drawn: tuple[list[int], int, int], wheel: str) -> None:
    """Raise the rank of a card whose rank appears once (a kicker, or any card of a high-card hand) to a rank
    the hand does not hold, keeping its suit. In a hand that is no straight or flush the groups stay the
    same and one kicker rises, so the hand gets strictly stronger (or becomes a straight, stronger still);
    suits are unchanged, so no flush appears."""
    cards, k, higher = drawn
    before = evaluate(cards, wheel)
    assume(category(before) not in NO_STRAIGHT_OR_FLUSH)  # only five distinct ranks can be either
    raised = list(cards)
    raised[k] = 4 * higher + cards[k] % 4
    after = evaluate(raised, wheel)
    assert after > before
    assert category(after) == category(before) or category(after) == HandCategory.STRAIGHT


@given(
    ranks=st.lists(st.integers(0, 12), min_size=5, max_size=5, unique=True),
    suit=st.integers(0, 3),
    wheel=wheels,
    data=st.data(),
)
def test_breaking_a_flush_lowers_the_hand(
    ranks: list[int], suit: int, wheel: str, data: st.DataObject
) -> None:
    """A flush of five distinct ranks, then one card moved to another suit: strictly lower."""
    flush = [4 * r + suit for r in ranks]
    k = data.draw(st.integers(0, 4))
    broken = list(flush)
    broken[k] = 4 * ranks[k] + data.draw(st.sampled_from([s for s in range(4) if s != suit]))
    assert category(evaluate(flush, wheel)) in (HandCategory.FLUSH, HandCategory.STRAIGHT_FLUSH)
    assert evaluate(broken, wheel) < evaluate(flush, wheel)


@given(cards=five_card, wheel=wheels)
def test_front_is_below_any_middle_containing_it(cards: list[int], wheel: str) -> None:
    """RULES.md 2.5: a three-card front is worth less than every five-card hand made by adding two cards,
    also when the front holds the middle's three highest cards (same leading tie-break values)."""
    assert evaluate(cards[:3], wheel) < evaluate(cards, wheel)
    top_three = sorted(cards, reverse=True)[:3]
    assert evaluate(top_three, wheel) < evaluate(cards, wheel)


@given(cards=five_card)
def test_wheel_rules_differ_only_on_the_wheel(cards: list[int]) -> None:
    low, second = evaluate(cards, "low"), evaluate(cards, "second")
    if sorted(card // 4 for card in cards) == [0, 1, 2, 3, 12]:
        assert low < second
        assert category(low) == category(second)
    else:
        assert low == second


@given(cards=any_hand, wheel=wheels)
def test_batch_row_equals_single_call(cards: list[int], wheel: str) -> None:
    assert (
        evaluate_batch(np.array([cards, cards[::-1]], dtype=np.uint8), wheel).tolist()
        == [evaluate(cards, wheel)] * 2
    )


# --- packs with added suits (RULES.md 1.1): a card of an added suit may appear twice --------------------

EXTRA_SUITS = ("s", "h", "cd", "hs")


@st.composite
def pack_rows(draw: st.DrawFn) -> tuple[list[int], str]:
    """A pack (its added suits) and a row of 3 or 5 cards dealt from it, copies allowed."""
    extra_suits = draw(st.sampled_from(EXTRA_SUITS))
    pack = list(range(52)) + [c for c in range(52) if "cdhs"[c % 4] in extra_suits]
    size = draw(st.sampled_from([3, 5, 5]))
    # Often many cards of one rank or one suit, so that five of a kind and paired flushes come up.
    if draw(st.booleans()):
        rank = draw(st.integers(0, 12))
        pack = [c for c in pack if c // 4 == rank] + [c for c in pack if c // 4 != rank][:8]
    elif draw(st.booleans()):
        suit = "cdhs".index(draw(st.sampled_from(extra_suits)))
        pack = [c for c in pack if c % 4 == suit]
    positions = draw(st.lists(st.integers(0, len(pack) - 1), min_size=size, max_size=size, unique=True))
    return [pack[k] for k in positions], extra_suits


@settings(max_examples=400)
@given(drawn=pack_rows(), wheel=wheels)
def test_reference_agrees_on_rows_of_packs_with_added_suits(drawn: tuple[list[int], str], wheel: str) -> None:
    cards, extra_suits = drawn
    assert evaluate(cards, wheel, extra_suits=extra_suits) == reference.evaluate(cards, wheel, extra_suits)
    batch = evaluate_batch(np.array([cards], dtype=np.uint8), wheel, extra_suits=extra_suits)
    assert batch.tolist() == [evaluate(cards, wheel, extra_suits=extra_suits)]


@given(drawn=pack_rows(), wheel=wheels, suit_map=st.permutations(range(4)))
def test_relabelling_suits_never_matters_in_packs_with_added_suits(
    drawn: tuple[list[int], str], wheel: str, suit_map: list[int]
) -> None:
    """Renaming the suits renames the added suits with them; no hand changes its strength."""
    cards, extra_suits = drawn
    relabelled = [card - card % 4 + suit_map[card % 4] for card in cards]
    renamed = "".join("cdhs"[suit_map["cdhs".index(letter)]] for letter in extra_suits)
    assert evaluate(relabelled, wheel, extra_suits=renamed) == evaluate(cards, wheel, extra_suits=extra_suits)


@given(drawn=pack_rows(), wheel=wheels)
def test_a_copy_changes_nothing_for_a_distinct_row(drawn: tuple[list[int], str], wheel: str) -> None:
    """Rows without a repeated card evaluate as in one deck, whatever the pack."""
    cards, extra_suits = drawn
    assume(len(set(cards)) == len(cards))
    assert evaluate(cards, wheel, extra_suits=extra_suits) == evaluate(cards, wheel)


def test_five_of_a_kind_and_paired_flushes() -> None:
    five = evaluate("As As Ah Ad Ac", extra_suits="s")
    assert category(five) == HandCategory.FIVE_OF_A_KIND
    assert cp.describe(five) == "Five of a kind, aces"
    assert five > evaluate("As Ks Qs Js Ts") > evaluate("Ks Kh Kd Kc As")
    assert evaluate("2s 2s 2h 2d 2c", extra_suits="s") > evaluate("As Ks Qs Js Ts")
    paired = evaluate("As As Ks Qs Js", extra_suits="s")
    assert category(paired) == HandCategory.FLUSH
    assert cp.tiebreak_vector(paired) == (14, 14, 13, 12, 11)
    assert evaluate("Ks Qs Js 9s 8s") < paired < evaluate("2c 2d 2h 3c 3d")
    with pytest.raises(ValueError, match="appears twice"):
        evaluate("As As Ah Ad Ac")
    with pytest.raises(ValueError, match="appears three times"):
        evaluate("As As As Ad Ac", extra_suits="s")


def _independent_counts_65() -> dict[int, int]:
    """Five-card hands of the 65-card pack (spades twice) by category, counted without the engine: over every
    multiset of five ranks (each rank has five cards: c, d, h and two spades), the ways to pick its cards,
    and of those the ways that are one suit (one way in each single suit when the ranks are distinct; the
    product of C(2, count) in spades)."""
    counts: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(13), 5):
        per_rank = [ranks.count(r) for r in sorted(set(ranks))]
        ways = prod(comb(5, n) for n in per_rank)
        one_suit = (3 if max(per_rank) == 1 else 0) + prod(comb(2, n) for n in per_rank)
        distinct = sorted(set(ranks))
        straight = len(distinct) == 5 and (distinct[4] - distinct[0] == 4 or distinct == [0, 1, 2, 3, 12])
        shape = sorted(per_rank, reverse=True)
        plain = {
            (5,): HandCategory.FIVE_OF_A_KIND,
            (4, 1): HandCategory.FOUR_OF_A_KIND,
            (3, 2): HandCategory.FULL_HOUSE,
            (3, 1, 1): HandCategory.THREE_OF_A_KIND,
            (2, 2, 1): HandCategory.TWO_PAIR,
            (2, 1, 1, 1): HandCategory.ONE_PAIR,
            (1, 1, 1, 1, 1): HandCategory.STRAIGHT if straight else HandCategory.HIGH_CARD,
        }[tuple(shape)]
        flush = HandCategory.STRAIGHT_FLUSH if straight else HandCategory.FLUSH
        counts[plain] = counts.get(plain, 0) + ways - one_suit
        if one_suit:
            counts[flush] = counts.get(flush, 0) + one_suit
    return counts


@pytest.mark.slow
def test_every_five_card_hand_of_the_65_card_pack() -> None:
    """All C(65, 5) = 8,259,888 hands of the pack with spades twice, by category, against the independent
    count; and a stratified sample against the reference."""
    pack = np.array(list(range(52)) + [4 * r + 3 for r in range(13)], dtype=np.uint8)
    picks = np.fromiter(chain.from_iterable(combinations(range(65), 5)), dtype=np.uint8).reshape(-1, 5)
    hands = pack[picks]
    assert len(hands) == 8_259_888
    strengths = evaluate_batch(hands, extra_suits="s", threads=0)
    by_category = np.bincount(strengths >> 20, minlength=10)
    expected = _independent_counts_65()
    assert sum(expected.values()) == 8_259_888
    assert {HandCategory(c): int(n) for c, n in enumerate(by_category) if n} == expected
    assert expected[HandCategory.FIVE_OF_A_KIND] == 13
    # One hand of every strength the pack makes, checked against the reference.
    made, first = np.unique(strengths, return_index=True)
    for row in hands[first].tolist():
        assert evaluate(row, extra_suits="s") == reference.evaluate(row, "low", "s")
    # The strengths the core derives for the pack are exactly those its hands make.
    assert set(made.tolist()) == pack_strengths(5, extra_suits="s")


# --- jokers (RULES.md 1.2) ------------------------------------------------------------------------------


@st.composite
def joker_rows(draw: st.DrawFn) -> tuple[list[int], int]:
    """A 3- or 5-card row holding one or two jokers (X1 = 52, X2 = 53) among distinct cards, in any order,
    and the pack's jokers (at least the ones held)."""
    width = draw(st.sampled_from((3, 5)))
    held = draw(st.sampled_from(((52,), (53,), (52, 53))))
    cards = draw(
        st.lists(st.integers(0, 51), min_size=width - len(held), max_size=width - len(held), unique=True)
    )
    row = draw(st.permutations([*cards, *held]))
    return list(row), max(held) - 51


@settings(max_examples=60)
@given(drawn=joker_rows(), wheel=wheels)
def test_reference_agrees_on_rows_with_jokers(drawn: tuple[list[int], int], wheel: str) -> None:
    row, jokers = drawn
    core = evaluate(row, wheel, jokers=jokers)
    assert core == reference.evaluate(row, wheel, jokers=jokers)
    assert evaluate_batch(np.array([row], dtype=np.uint8), wheel, jokers=jokers).tolist() == [core]


@settings(max_examples=60)
@given(drawn=joker_rows(), wheel=wheels, data=st.data())
def test_a_joker_never_makes_a_row_weaker_than_a_card_it_could_be(
    drawn: tuple[list[int], int], wheel: str, data: st.DataObject
) -> None:
    """Whatever cards the jokers are replaced by (copies of held cards included), the row with its jokers is
    at least as strong; and it equals one such replacement."""
    row, jokers = drawn
    chosen = iter(data.draw(st.lists(st.integers(0, 51), min_size=2, max_size=2)))
    replaced = [next(chosen) if card >= 52 else card for card in row]
    plain = reference.evaluate(replaced, wheel, SUBSTITUTED)
    best = evaluate(row, wheel, jokers=jokers)
    assert best >= plain
    substituted = substitute(row, {"wheel": wheel, "jokers": jokers})
    assert reference.evaluate(substituted, wheel, SUBSTITUTED) == best


@settings(max_examples=60)
@given(drawn=joker_rows(), wheel=wheels, suit_map=st.permutations(range(4)))
def test_relabelling_suits_never_matters_with_jokers(
    drawn: tuple[list[int], int], wheel: str, suit_map: list[int]
) -> None:
    row, jokers = drawn
    relabelled = [card if card >= 52 else card - card % 4 + suit_map[card % 4] for card in row]
    assert evaluate(relabelled, wheel, jokers=jokers) == evaluate(row, wheel, jokers=jokers)


def _fits_a_straight(ranks: set[int]) -> bool:
    """Whether distinct ranks (0 = deuce .. 12 = ace) lie inside one straight, the wheel A-2-3-4-5 too."""
    windows = [set(range(low, low + 5)) for low in range(9)] + [{12, 0, 1, 2, 3}]
    return any(ranks <= window for window in windows)


def _joker_category(cards: tuple[int, ...], jokers: int) -> HandCategory:
    """The best category of 5 - jokers distinct cards and `jokers` jokers, reasoned out by hand (RULES.md
    1.2: a joker is any card, copies included): a joker joins the largest rank group, unless the cards
    can still make a straight or a flush, which beat what a joker adds to a pair or to single cards."""
    shape = sorted(Counter(card // 4 for card in cards).values(), reverse=True)
    one_suit = len({card % 4 for card in cards}) == 1
    ranks = {card // 4 for card in cards}
    distinct = len(ranks) == len(cards)
    straight = distinct and _fits_a_straight(ranks)
    if shape[0] + jokers == 5:
        return HandCategory.FIVE_OF_A_KIND
    if shape[0] + jokers == 4:
        return HandCategory.FOUR_OF_A_KIND
    if shape == [2, 2]:  # two pairs and a joker
        return HandCategory.FULL_HOUSE
    if distinct and one_suit:
        return HandCategory.STRAIGHT_FLUSH if straight else HandCategory.FLUSH
    if straight:
        return HandCategory.STRAIGHT
    return HandCategory.THREE_OF_A_KIND if shape[0] + jokers == 3 else HandCategory.ONE_PAIR


def _independent_counts_with_jokers(jokers: int) -> dict[HandCategory, int]:
    """Five-card hands of the 52-card deck plus `jokers` jokers by category, counted without the engine:
    the hands without a joker by their rank multisets (C(4, n) ways per rank, four of them one suit when
    the ranks are distinct), and every hand of 4 or 3 cards with its jokers by _joker_category."""
    counts: Counter[HandCategory] = Counter()
    for ranks in combinations_with_replacement(range(13), 5):
        per_rank = [ranks.count(r) for r in sorted(set(ranks))]
        if max(per_rank) > 4:
            continue
        ways = prod(comb(4, n) for n in per_rank)
        distinct = len(per_rank) == 5
        straight = distinct and _fits_a_straight(set(ranks))
        plain = {
            (4, 1): HandCategory.FOUR_OF_A_KIND,
            (3, 2): HandCategory.FULL_HOUSE,
            (3, 1, 1): HandCategory.THREE_OF_A_KIND,
            (2, 2, 1): HandCategory.TWO_PAIR,
            (2, 1, 1, 1): HandCategory.ONE_PAIR,
            (1, 1, 1, 1, 1): HandCategory.STRAIGHT if straight else HandCategory.HIGH_CARD,
        }[tuple(sorted(per_rank, reverse=True))]
        one_suit = 4 if distinct else 0
        counts[plain] += ways - one_suit
        if one_suit:
            counts[HandCategory.STRAIGHT_FLUSH if straight else HandCategory.FLUSH] += one_suit
    for held in range(1, jokers + 1):
        times = comb(jokers, held)  # which of the pack's jokers the hand holds
        for cards in combinations(range(52), 5 - held):
            counts[_joker_category(cards, held)] += times
    return dict(counts)


@pytest.mark.slow
@pytest.mark.parametrize("jokers", [1, 2])
def test_every_five_card_hand_of_the_packs_with_jokers(jokers: int) -> None:
    """All C(53, 5) = 2,869,685 hands of the pack with one joker and C(54, 5) = 3,162,510 with two, by
    category, against the independent count; and one hand of every strength against the reference."""
    size = 52 + jokers
    hands = np.fromiter(chain.from_iterable(combinations(range(size), 5)), dtype=np.uint8).reshape(-1, 5)
    assert len(hands) == comb(size, 5)
    strengths = evaluate_batch(hands, jokers=jokers, threads=0)
    expected = _independent_counts_with_jokers(jokers)
    by_category = np.bincount(strengths >> 20, minlength=10)
    assert {HandCategory(c): int(n) for c, n in enumerate(by_category) if n} == expected
    assert expected[HandCategory.FIVE_OF_A_KIND] == (
        13 if jokers == 1 else 13 * 2 + 13 * 4
    )  # four + X, trips + X1 X2
    made, first = np.unique(strengths, return_index=True)
    for row in hands[first][::7].tolist():
        assert evaluate(row, jokers=jokers) == reference.evaluate(row, "low", jokers=jokers)
    # The strengths the core derives for the pack are exactly those its hands make.
    assert set(made.tolist()) == pack_strengths(5, jokers=jokers)


# --- rows built on purpose from packs with added suits and jokers (tests/strategies.py) ---------------------


@settings(max_examples=150)
@given(drawn=built_pack_rows(), wheel=wheels)
def test_reference_agrees_on_rows_built_from_packs(drawn: tuple[list[int], str, int], wheel: str) -> None:
    """Flushes holding a pair or three of a kind, fives of a kind, jokers in the row: the core, its batch
    and the reference give one strength, which is one of the pack's, with a category and a text."""
    row, extra_suits, jokers = drawn
    core = evaluate(row, wheel, extra_suits=extra_suits, jokers=jokers)
    assert core == reference.evaluate(row, wheel, extra_suits, jokers)
    batch = evaluate_batch(np.array([row], dtype=np.uint8), wheel, extra_suits=extra_suits, jokers=jokers)
    assert batch.tolist() == [core]
    assert core in pack_strengths(len(row), wheel, extra_suits=extra_suits, jokers=jokers)
    assert category(core) == core >> 20
    assert cp.describe(core)
