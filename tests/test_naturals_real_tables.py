"""What counts as a natural at real tables (RULES.md section 10): the three-straights ace and wheel knobs,
three flushes in three suits, quads_as_trips, natural_tiebreak="none" and the kinds five_consecutive_pairs,
two_trips_three_pairs, one_red, one_black, twelve_royals_ten and twelve_royals_and_one. Every example is
checked on the C++ core and on the pure-Python reference, and a property test compares the two under
random knobs."""

from __future__ import annotations

import json
import os
import random

import pytest
from chinese_poker import Hand, Rules, held_naturals, settle
from chinese_poker import reference as ref
from chinese_poker.knobs import NATURAL_NAMES
from chinese_poker.reference.naturals import NATURAL_KINDS
from chinese_poker.reference.naturals import holds as ref_holds
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st


def held_by_both(cards: str | list[int], rules: Rules) -> set[str]:
    """The kinds the 13 cards hold, asserting first that the core and the reference agree on each."""
    core = set(held_naturals(cards, rules))
    reference = {kind for kind in NATURAL_KINDS if ref_holds(kind, cards, rules.resolved())}
    assert core == reference, (cards, core ^ reference)
    return core


A23 = "Ac 2d 3h 9s Tc Jd Qh Ks 9c Td Jh Qs Kd"  # the only three-straights split has A-2-3 in front
QKA = "Qc Kd Ah 5s 6c 7d 8h 9s 5c 6d 7h 8s 9c"  # ... Q-K-A in front
WHEEL = "Ac 2d 3h 4s 5c 7d 8h 9s 9c Td Jh Qs Kd"  # ... A-2-3-4-5 in the middle or the back
SF_TWO_SUITS = "Ac 2c 3c 4c 5c 7d 8d 9d 9c Tc Jc Qc Kc"  # three straight flushes, clubs used twice
EIGHT_FIVE = "2h 3h 4h 5h 7h 9h Jh Kh 2s 4s 6s 8s Ts"  # three flushes from 8 hearts and 5 spades
THREE_SUITS = "2h 7h 9h 3s 6s 8s Ts Qs 4d 5d Jd Kd 9d"  # three flushes in hearts, spades, diamonds

# (cards, knobs changed from the defaults, kind, held): the worked examples of RULES.md section 10.
EXAMPLES = [
    (A23, {}, "three_straights", True),
    (A23, {"three_straights_front_a23": False}, "three_straights", False),
    (A23, {"three_straights_front_qka": False}, "three_straights", True),
    (QKA, {}, "three_straights", True),
    (QKA, {"three_straights_front_qka": False}, "three_straights", False),
    (QKA, {"three_straights_wheel": False}, "three_straights", True),
    (WHEEL, {}, "three_straights", True),
    (WHEEL, {"three_straights_wheel": False}, "three_straights", False),
    (WHEEL, {"three_straights_front_a23": False}, "three_straights", True),
    (SF_TWO_SUITS, {}, "three_straight_flushes", True),
    (SF_TWO_SUITS, {"three_flushes_distinct_suits": True}, "three_straight_flushes", False),
    (SF_TWO_SUITS, {"three_straights_wheel": False}, "three_straight_flushes", False),
    (EIGHT_FIVE, {}, "three_flushes", True),
    (EIGHT_FIVE, {"three_flushes_distinct_suits": True}, "three_flushes", False),
    (THREE_SUITS, {"three_flushes_distinct_suits": True}, "three_flushes", True),
    ("2c 2d 2h 2s 5c 5d 5h 7h 7s 7c 9c 9d 9h", {}, "four_trips", True),
    ("2c 2d 2h 2s 5c 5d 5h 7h 7s 7c 9c 9d 9h", {"quads_as_trips": False}, "four_trips", False),
    ("2c 2d 2h 5c 5d 5h 7h 7s 7c 9c 9d 9h Ks", {"quads_as_trips": False}, "four_trips", True),
    ("3c 3d 4h 4s 5c 5d 6h 6s 7c 7d 9h Js Ac", {}, "five_consecutive_pairs", True),
    ("3c 3d 3h 4s 4c 4d 4h 5s 5c 6d 6h 7s 7c", {"quads_as_two_pairs": False}, "five_consecutive_pairs", True),
    ("Ac Ad 2h 2s 3c 3d 4h 4s 5c 5d 9h Js Kc", {}, "five_consecutive_pairs", False),  # the ace is high
    ("2c 2d 2h 5c 5d 5h 7h 7s 9c 9d Jh Js Ac", {}, "two_trips_three_pairs", True),
    ("2c 2d 2h 2s 5c 5d 5h 7h 7s 9c 9d Jh Js", {}, "two_trips_three_pairs", True),  # quads as trips + single
    ("2c 2d 2h 2s 5c 5d 5h 7h 7s 9c 9d Jh Js", {"quads_as_trips": False}, "two_trips_three_pairs", False),
    ("2c 2d 2h 2s 5c 5d 5h 7h 7s 7c 9d 9h Js", {"quads_as_trips": False}, "two_trips_three_pairs", True),
    ("2c 2d 2h 2s 5c 5d 5h 7h 7s 7c 9d 9h Js", {"quads_as_two_pairs": False}, "two_trips_three_pairs", False),
    ("2c 3c 4c 5c 6c 7s 8s 9s Ts Js Qs Ks Ah", {}, "one_red", True),
    ("2c 3c 4c 5c 6c 7s 8s 9s Ts Js Qs Ks Ac", {}, "one_red", False),  # no red card at all
    ("2h 3h 4h 5h 6h 7d 8d 9d Td Jd Qd Kd As", {}, "one_black", True),
    ("Tc Td Th Jc Jd Jh Qc Qd Qh Kc Kd Kh 2s", {}, "twelve_royals_ten", True),
    ("Tc Td Th Ts Jc Jd Jh Js Qc Qd Qh Kc Ah", {}, "twelve_royals_ten", True),
    ("Tc Td Th Jc Jd Jh Qc Qd Qh Kc Kd 3h 2s", {}, "twelve_royals_ten", False),
    ("Jc Jd Qc Qd Qh Kc Kd Kh Ks Ac Ad Ah 2c", {}, "twelve_royals_and_one", True),
    ("Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks Ac", {}, "twelve_royals_and_one", True),  # all 13 court cards
    ("Jc Tc Qc Qd Qh Kc Kd Kh Ks Ac Ad Ah 2c", {}, "twelve_royals_and_one", False),  # a ten and a deuce
    ("Jc Jd Qc Qd Qh Kc Kd Kh Ks Ac Ad Ah 2c", {}, "twelve_royals", False),
]


@pytest.mark.parametrize(("cards", "knobs", "kind", "held"), EXAMPLES)
def test_worked_examples_on_both_engines(cards: str, knobs: dict, kind: str, held: bool) -> None:
    assert (kind in held_by_both(cards, Rules(**knobs))) is held


def test_new_kinds_are_appended_in_the_plan_order() -> None:
    assert NATURAL_NAMES[-10:-4] == (
        "five_consecutive_pairs", "two_trips_three_pairs", "one_red", "one_black", "twelve_royals_ten",
        "twelve_royals_and_one",
    )  # fmt: skip
    # The kinds of packs with added suits, after them
    assert NATURAL_NAMES[-4:] == (
        "six_of_a_kind",
        "seven_of_a_kind",
        "eight_of_a_kind",
        "two_fives_and_trips",
    )
    assert NATURAL_KINDS == NATURAL_NAMES


def _pair_units(hands: list[Hand], rules: Rules) -> int:
    """Net of player 0 in a two-player round, asserting that both engines agree."""
    ours = settle(hands, rules).net
    players = [{"declared": list(h.cards)} for h in hands]
    assert list(ours) == ref.settle(players, rules.resolved())["net"]
    return ours[0]


def test_five_consecutive_pairs_tie_break_and_natural_tiebreak_none() -> None:
    high = Hand.declared("Tc Td Jh Js Qc Qd Kh Ks Ac Ad 2h 5s 9c")  # tens to aces
    low = Hand.declared("3c 3d 4h 4s 5c 5d 6h 6s 7c 7h 8h 8s As")  # threes to eights (and to sevens)
    rules = Rules(naturals=[["five_consecutive_pairs", 6]])
    assert _pair_units([high, low], rules) == 6
    assert _pair_units([low, high], rules) == -6
    assert _pair_units([high, low], rules.replace(natural_tiebreak="none")) == 0


def test_natural_tiebreak_none_ties_every_kind() -> None:
    pairs_high = Hand.declared("3c 3d 5c 5d 7h 7s 9c 9d Jh Js Ah As Kc")
    pairs_low = Hand.declared("2c 2d 5h 5s 7c 7d 9h 9s Jc Jd Kh Ks Ac")
    rules = Rules.preset("pagat-bonus")
    assert _pair_units([pairs_high, pairs_low], rules) == 3
    assert _pair_units([pairs_high, pairs_low], rules.replace(natural_tiebreak="none")) == 0
    # Different kinds still go by the list: three flushes over six pairs.
    flushes = Hand.declared("2h 3h 4h 3s 4s 6s 8s Ts 3d 4d 6d 8d Td")
    assert _pair_units([flushes, pairs_low], rules.replace(natural_tiebreak="none")) == 3


def test_new_kinds_tie_between_two_holders() -> None:
    one_red = Hand.declared("2c 3c 4c 5c 6c 7s 8s 9s Ts Js Qs Ks Ah")
    other = Hand.declared("2s 3s 4s 5s 6s 7c 8c 9c Tc Jc Qc Kc Ad")
    assert _pair_units([one_red, other], Rules(naturals=[["one_red", 4]])) == 0


REPLACEMENTS = "'three_straights_front_a23'.*'three_straights_front_qka'"


def test_front_straight_ace_is_removed_naming_its_replacements() -> None:
    with pytest.raises(ValueError, match=f"'front_straight_ace' was removed.*{REPLACEMENTS}"):
        Rules(front_straight_ace=False)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match=REPLACEMENTS):
        Rules().replace(front_straight_ace=True)
    with pytest.raises(ValueError, match=REPLACEMENTS):
        Rules.from_dict({"preset": "pagat-bonus", "front_straight_ace": True})
    with pytest.raises(ValueError, match=REPLACEMENTS):
        Rules.from_json(json.dumps({"front_straight_ace": False}))
    with pytest.raises(ValueError, match=REPLACEMENTS):
        Rules.from_toml("front_straight_ace = true\n")
    assert "front_straight_ace" not in Rules().to_dict()


def test_natural_tiebreak_none_is_a_value() -> None:
    assert Rules(natural_tiebreak="none").to_dict()["natural_tiebreak"] == "none"
    assert Rules.from_toml('natural_tiebreak = "none"\n') == Rules(natural_tiebreak="none")
    with pytest.raises(ValueError, match=r"'natural_tiebreak'.*'full', 'top_pair_only', 'none'"):
        Rules(natural_tiebreak="never")  # type: ignore[arg-type]


# --- the core and the reference agree under random knobs --------------------------------------------------

# Rank-count shapes of 13 cards near the kinds that count groups (trips, pairs and quads).
SHAPES = [
    (3, 3, 2, 2, 2, 1), (4, 3, 2, 2, 2), (4, 4, 3, 2), (4, 3, 3, 2, 1), (3, 3, 3, 3, 1), (4, 3, 3, 3),
    (3, 2, 2, 2, 2, 2), (4, 2, 2, 2, 2, 1), (2, 2, 2, 2, 2, 2, 1), (3, 3, 2, 2, 1, 1, 1), (4, 4, 4, 1),
]  # fmt: skip


def _from_shape(
    shape: tuple[int, ...], rng: random.Random, consecutive: bool, free: set[int]
) -> list[int] | None:
    sizes = list(shape)
    if consecutive:  # the groups on consecutive ranks, in a random order
        start = rng.randrange(0, 13 - len(sizes) + 1)
        ranks = list(range(start, start + len(sizes)))
        rng.shuffle(sizes)
    else:
        ranks = rng.sample(range(13), len(sizes))
    cards: list[int] = []
    for rank, size in zip(ranks, sizes):
        options = [c for c in range(4 * rank, 4 * rank + 4) if c in free]
        if len(options) < size:
            return None
        cards += rng.sample(options, size)
    return cards


def _straights(rng: random.Random, free: set[int]) -> list[int] | None:
    # Runs of 3, 5 and 5 ranks (start -1 is the ace played low), each run often of one suit.
    cards: list[int] = []
    for length in (3, 5, 5):
        start, suit = rng.randrange(-1, 14 - length), rng.randrange(4)
        for r in range(start, start + length):
            rank = 12 if r == -1 else r
            options = [c for c in range(4 * rank, 4 * rank + 4) if c in free and c not in cards]
            if not options:
                return None
            cards.append(
                4 * rank + suit if 4 * rank + suit in options and rng.random() < 0.7 else rng.choice(options)
            )
    return cards


def _suits(rng: random.Random, free: set[int]) -> list[int] | None:
    counts = rng.choice([(3, 5, 5, 0), (8, 5, 0, 0), (10, 3, 0, 0), (13, 0, 0, 0), (3, 5, 4, 1)])
    cards: list[int] = []
    for suit, n in zip(rng.sample(range(4), 4), counts):
        options = [c for c in range(suit, 52, 4) if c in free]
        if len(options) < n:
            return None
        cards += rng.sample(options, n)
    return cards


def _two_groups(rng: random.Random, free: set[int], major: list[int], minor: list[int]) -> list[int] | None:
    odd = rng.choice([0, 1, 1, 2])
    major, minor = [c for c in major if c in free], [c for c in minor if c in free]
    if len(major) < 13 - odd or len(minor) < odd:
        return None
    return rng.sample(major, 13 - odd) + rng.sample(minor, odd)


def _colours(rng: random.Random, free: set[int]) -> list[int] | None:
    black = [c for c in range(52) if c % 4 in (0, 3)]
    red = [c for c in range(52) if c % 4 in (1, 2)]
    return _two_groups(rng, free, *((black, red) if rng.random() < 0.5 else (red, black)))


def _royals(rng: random.Random, free: set[int]) -> list[int] | None:
    return _two_groups(rng, free, list(range(32, 52)), list(range(32)))  # tens to aces, and the rest


MAKERS = ["shape", "consecutive", "straights", "suits", "colours", "royals", "any"]


def _natural_like(maker: str, rng: random.Random, free: set[int]) -> list[int] | None:
    """13 of the ``free`` cards shaped by ``maker`` to hold (or nearly hold) a kind, or None."""
    if maker in ("shape", "consecutive"):
        return _from_shape(rng.choice(SHAPES), rng, maker == "consecutive", free)
    makers = {"straights": _straights, "suits": _suits, "colours": _colours, "royals": _royals}
    if maker in makers:
        return makers[maker](rng, free)
    return rng.sample(sorted(free), 13)


@st.composite
def natural_like_hands(draw: st.DrawFn) -> list[int]:
    """13 distinct cards, most of them shaped to hold (or nearly hold) one of the kinds."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    cards = _natural_like(draw(st.sampled_from(MAKERS)), rng, set(range(52)))
    if cards is None:
        cards = rng.sample(range(52), 13)
    assert len(set(cards)) == 13
    return cards


natural_knobs = st.fixed_dictionaries(
    {
        "wheel": st.sampled_from(["low", "second"]),
        "quads_as_two_pairs": st.booleans(),
        "trips_as_pair_plus_single": st.booleans(),
        "natural_tiebreak": st.sampled_from(["full", "top_pair_only", "none"]),
        "three_straights_front_a23": st.booleans(),
        "three_straights_front_qka": st.booleans(),
        "three_straights_wheel": st.booleans(),
        "three_flushes_distinct_suits": st.booleans(),
        "quads_as_trips": st.booleans(),
    }
)


# The two agreements below are claims about the core's answers: the plain runs (every CI run, on two
# Pythons) draw the full budgets. Under the sanitizers (.ci/sanitized_pytest) nearly all the time went to
# the reference's pure-Python search, which they do not check (301 s and 173 s measured); there a quarter
# of the budgets still sends each drawn hand through the core's detection of every kind.
SANITIZED = os.environ.get("CP_SANITIZED") == "1"


@pytest.mark.slow  # 250 hands, each searched by the reference for every kind: 20 to 45 s
@settings(max_examples=60 if SANITIZED else 250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards=natural_like_hands(), knobs=natural_knobs)
def test_core_and_reference_hold_the_same_kinds(cards: list[int], knobs: dict) -> None:
    held_by_both(cards, Rules(**knobs))


@pytest.mark.slow  # both engines settle each pair, the reference searching both hands: 5 to 10 s
@settings(
    max_examples=15 if SANITIZED else 50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    seed=st.integers(0, 2**32 - 1), maker=st.sampled_from(MAKERS[:-1]), knobs=natural_knobs, data=st.data()
)
def test_core_and_reference_break_ties_alike(seed: int, maker: str, knobs: dict, data: st.DataObject) -> None:
    """Two declared players whose hands come from one maker (one deck) and hold a common kind, that kind
    listed alone: both engines pay the same."""
    rng = random.Random(seed)
    first = _natural_like(maker, rng, set(range(52)))
    assume(first is not None)
    assert first is not None
    second = _natural_like(maker, rng, set(range(52)) - set(first))
    assume(second is not None)
    assert second is not None
    rules = Rules(**knobs)
    common = sorted(set(held_naturals(first, rules)) & set(held_naturals(second, rules)))
    assume(common)
    kind = data.draw(st.sampled_from(common))
    _pair_units([Hand.declared(first), Hand.declared(second)], rules.replace(naturals=[[kind, 5]]))
