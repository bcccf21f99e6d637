"""Pure-Python reference: 13-card natural hands (RULES.md section 5, RULES.md section 10).

Every kind is a plain predicate on the 13 cards; the three split-based kinds (three_straights,
three_flushes, three_straight_flushes) search every split into back (5), middle (5) and front (3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from itertools import combinations, product
from typing import Any

from chinese_poker.reference.cards import CardsInput
from chinese_poker.reference.evaluate import (
    SUBSTITUTED,
    card_codes,
    evaluate,
    knob,
    rank_value,
    substitutions,
    suit_of,
)

__all__ = [
    "NATURAL_KINDS",
    "detect_natural",
    "holds",
    "natural_key",
    "natural_list",
]

NaturalKey = tuple[int, ...]


def _rank_counts(cards: Sequence[int]) -> Counter[int]:
    return Counter(rank_value(card) for card in cards)


def _front_straight_top(front: Sequence[int], rules: Mapping[str, Any]) -> int | None:
    """Top card of a 3-card straight (A-2-3 = 3, Q-K-A = 14), or None when the front is not one.

    A-2-3 counts only with ``three_straights_front_a23``, Q-K-A only with ``three_straights_front_qka``
    (RULES.md 10).
    """
    ranks = sorted({rank_value(card) for card in front})
    if len(ranks) != 3:
        return None
    if ranks == [2, 3, 14]:
        return 3 if knob(rules, "three_straights_front_a23") else None
    if ranks[2] - ranks[0] != 2:
        return None
    if ranks == [12, 13, 14] and not knob(rules, "three_straights_front_qka"):
        return None
    return ranks[2]


def _one_suit(cards: Sequence[int]) -> bool:
    return len({suit_of(card) for card in cards}) == 1


def _splits(
    cards: Sequence[int], rows: Iterable[tuple[int, ...]]
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
    """Every (back, middle, front) split whose back and middle are both among ``rows`` (five positions in
    ``cards`` each, in any order).

    Back and middle are ordered (both orders are produced), the front is the three cards left.
    """
    # By positions, not card values: a card held twice (a pack with added suits) is two positions.
    valid = {tuple(sorted(row)) for row in rows}
    for back_at in sorted(valid):
        back = tuple(cards[k] for k in back_at)
        rest = [k for k in range(len(cards)) if k not in back_at]
        for middle_at in combinations(rest, 5):
            if middle_at not in valid:
                continue
            middle = tuple(cards[k] for k in middle_at)
            front = tuple(cards[k] for k in rest if k not in middle_at)
            yield back, middle, front


def _straight_rows(cards: Sequence[int], wheel_counts: bool) -> Iterator[tuple[int, ...]]:
    """The positions of every five of ``cards`` that make a straight: five consecutive ranks (ace high),
    and A-2-3-4-5 when ``wheel_counts`` (whether the wheel counts for three straights is the knob
    three_straights_wheel; K-A-2-3-4 is never a straight). One card of each rank, taken every way."""
    at_rank: dict[int, list[int]] = {}
    for position, card in enumerate(cards):
        at_rank.setdefault(rank_value(card), []).append(position)
    windows = [list(range(low, low + 5)) for low in range(2, 11)]
    if wheel_counts:
        windows.append([14, 2, 3, 4, 5])
    for window in windows:
        yield from product(*(at_rank.get(rank, []) for rank in window))


def _one_suit_rows(cards: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """The positions of every five of ``cards`` of one suit."""
    at_suit: dict[int, list[int]] = {}
    for position, card in enumerate(cards):
        at_suit.setdefault(suit_of(card), []).append(position)
    for positions in at_suit.values():
        yield from combinations(positions, 5)


def _three_suits(*rows: tuple[int, ...]) -> bool:
    """Whether rows that are each of one suit are of three different suits."""
    return len({suit_of(row[0]) for row in rows}) == 3


def _row_strength(rules: Mapping[str, Any]) -> Callable[[tuple[int, ...]], int]:
    """``evaluate`` under the rules' wheel and pack, each row evaluated once: a split search meets the same
    rows again and again (a hand of one suit has 72,072 splits of 1,287 fives)."""
    wheel = knob(rules, "wheel")
    pack = knob(rules, "extra_suits")

    @cache
    def strength(row: tuple[int, ...]) -> int:
        return evaluate(row, wheel, pack)

    return strength


def _three_straights_key(cards: Sequence[int], rules: Mapping[str, Any], one_suit: bool) -> NaturalKey | None:
    """Largest (back, middle, front-top) over three-straight splits, or None if there is none.

    With ``one_suit`` (three straight flushes) every row must be of one suit, and of three different
    suits under ``three_flushes_distinct_suits``.
    """
    strength = _row_strength(rules)
    wheel_counts = bool(knob(rules, "three_straights_wheel"))
    distinct = bool(knob(rules, "three_flushes_distinct_suits"))
    rows = [
        row
        for row in _straight_rows(cards, wheel_counts)
        if not one_suit or _one_suit([cards[k] for k in row])
    ]
    best: NaturalKey | None = None
    for back, middle, front in _splits(cards, rows):
        top = _front_straight_top(front, rules)
        if top is None or (one_suit and not _one_suit(front)):
            continue
        if one_suit and distinct and not _three_suits(back, middle, front):
            continue
        key = (strength(back), strength(middle), top)
        if best is None or key > best:
            best = key
    return best


def _three_flushes_key(cards: Sequence[int], rules: Mapping[str, Any]) -> NaturalKey | None:
    """Largest (back, middle, front) strengths over three-flush splits, or None if there is none."""
    strength = _row_strength(rules)
    distinct = bool(knob(rules, "three_flushes_distinct_suits"))
    best: NaturalKey | None = None
    for back, middle, front in _splits(cards, _one_suit_rows(cards)):
        if not _one_suit(front) or (distinct and not _three_suits(back, middle, front)):
            continue
        key = (strength(back), strength(middle), strength(front))
        if best is None or key > best:
            best = key
    return best


def _six_pairs_parts(cards: Sequence[int], rules: Mapping[str, Any]) -> tuple[list[int], list[int]] | None:
    """(pair ranks, leftover ranks) counting trips and quads per the knobs, or None if disqualified."""
    pairs: list[int] = []
    leftover: list[int] = []
    for rank, count in _rank_counts(cards).items():
        if count == 1:
            leftover.append(rank)
        elif count == 2:
            pairs.append(rank)
        elif count == 3:
            if not knob(rules, "trips_as_pair_plus_single"):
                return None
            pairs.append(rank)
            leftover.append(rank)
        elif count >= 5:
            return None  # five or six of a rank (a pack with added suits): no six pairs [decided]
        else:
            if not knob(rules, "quads_as_two_pairs"):
                return None
            pairs.extend([rank, rank])
    return sorted(pairs, reverse=True), leftover


def _holds_six_pairs(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    parts = _six_pairs_parts(cards, rules)
    return parts is not None and len(parts[0]) == 6


def _holds_dragon(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return len(_rank_counts(cards)) == 13


def _holds_clean_dragon(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return _holds_dragon(cards, rules) and _one_suit(cards)


def _holds_five_pairs_and_trips(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    counts = _rank_counts(cards)
    for trips_rank, count in counts.items():
        if count != 3:
            continue
        pairs = 0
        ok = True
        for rank, other in counts.items():
            if rank == trips_rank:
                continue
            if other == 2:
                pairs += 1
            elif other == 4 and knob(rules, "quads_as_two_pairs"):
                pairs += 2
            else:
                ok = False
        if ok and pairs == 5:
            return True
    return False


def _holds_four_trips(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    # A four of a kind counts as trips (its fourth card the odd one) only under quads_as_trips.
    trip_sizes = (3, 4) if knob(rules, "quads_as_trips") else (3,)
    return sum(1 for count in _rank_counts(cards).values() if count in trip_sizes) == 4


def _holds_all_one_colour(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    red = {1, 2}  # diamonds, hearts
    colours = {suit_of(card) in red for card in cards}
    return len(colours) == 1


def _holds_all_small(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return all(2 <= rank_value(card) <= 8 for card in cards)


def _holds_all_big(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return all(8 <= rank_value(card) <= 14 for card in cards)


def _holds_three_quads(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return sum(1 for count in _rank_counts(cards).values() if count == 4) == 3


def _holds_twelve_royals(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return all(rank_value(card) >= 11 for card in cards)


# ----- the kinds of real tables (RULES.md 10) -----


def _consecutive_pair_tops(cards: Sequence[int]) -> list[int]:
    """Top rank of every run of five consecutive ranks (ace high only) each held at least twice."""
    paired = {rank for rank, count in _rank_counts(cards).items() if count >= 2}
    return [low + 4 for low in range(2, 11) if all(rank in paired for rank in range(low, low + 5))]


def _holds_five_consecutive_pairs(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return bool(_consecutive_pair_tops(cards))


def _holds_two_trips_three_pairs(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    """Two trips, three pairs and a single, trying every way to read each four of a kind."""
    counts = list(_rank_counts(cards).values())
    readings: list[list[tuple[int, ...]]] = []  # per rank, the group sizes it may be read as
    for count in counts:
        options: list[tuple[int, ...]] = [(count,)] if count < 4 else []
        if count == 4 and knob(rules, "quads_as_trips"):
            options.append((3, 1))
        if count == 4 and knob(rules, "quads_as_two_pairs"):
            options.append((2, 2))
        readings.append(options)
    wanted = sorted([3, 3, 2, 2, 2, 1])
    return any(sorted(size for group in choice for size in group) == wanted for choice in product(*readings))


def _red_cards(cards: Sequence[int]) -> int:
    return sum(1 for card in cards if suit_of(card) in (1, 2))  # diamonds, hearts


def _holds_one_red(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return _red_cards(cards) == 1


def _holds_one_black(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return _red_cards(cards) == 12


def _holds_twelve_royals_ten(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return sum(1 for card in cards if rank_value(card) < 10) <= 1


def _holds_twelve_royals_and_one(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return sum(1 for card in cards if rank_value(card) < 11) <= 1


# ----- kinds only a pack with added suits holds (RULES.md 10) -----


def _most_of_a_rank(cards: Sequence[int]) -> int:
    return max(_rank_counts(cards).values())


def _holds_six_of_a_kind(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return _most_of_a_rank(cards) >= 6


def _holds_seven_of_a_kind(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return _most_of_a_rank(cards) >= 7


def _holds_eight_of_a_kind(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return _most_of_a_rank(cards) >= 8


def _holds_two_fives_and_trips(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    """三皇五帝: two ranks held exactly five times and one exactly three times (5 + 5 + 3 = 13)."""
    return sorted(_rank_counts(cards).values()) == [3, 5, 5]


def _holds_three_straights(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return _three_straights_key(cards, rules, one_suit=False) is not None


def _holds_three_flushes(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return _three_flushes_key(cards, rules) is not None


def _holds_three_straight_flushes(cards: Sequence[int], rules: Mapping[str, Any]) -> bool:
    return _three_straights_key(cards, rules, one_suit=True) is not None


_HOLDS: dict[str, Callable[[Sequence[int], Mapping[str, Any]], bool]] = {
    "six_pairs": _holds_six_pairs,
    "three_straights": _holds_three_straights,
    "three_flushes": _holds_three_flushes,
    "dragon": _holds_dragon,
    "clean_dragon": _holds_clean_dragon,
    "five_pairs_and_trips": _holds_five_pairs_and_trips,
    "four_trips": _holds_four_trips,
    "all_one_colour": _holds_all_one_colour,
    "all_small": _holds_all_small,
    "all_big": _holds_all_big,
    "three_quads": _holds_three_quads,
    "three_straight_flushes": _holds_three_straight_flushes,
    "twelve_royals": _holds_twelve_royals,
    # the kinds of real tables
    "five_consecutive_pairs": _holds_five_consecutive_pairs,
    "two_trips_three_pairs": _holds_two_trips_three_pairs,
    "one_red": _holds_one_red,
    "one_black": _holds_one_black,
    "twelve_royals_ten": _holds_twelve_royals_ten,
    "twelve_royals_and_one": _holds_twelve_royals_and_one,
    # kinds only a pack with added suits holds
    "six_of_a_kind": _holds_six_of_a_kind,
    "seven_of_a_kind": _holds_seven_of_a_kind,
    "eight_of_a_kind": _holds_eight_of_a_kind,
    "two_fives_and_trips": _holds_two_fives_and_trips,
}

#: Every natural kind this module knows.
NATURAL_KINDS: tuple[str, ...] = tuple(_HOLDS)


def _thirteen(cards13: CardsInput, rules: Mapping[str, Any] | None = None) -> tuple[int, ...]:
    return card_codes(
        cards13, counts=(13,), extra_suits=knob(rules, "extra_suits"), jokers=knob(rules, "jokers")
    )


def _substituted_rules(rules: Mapping[str, Any] | None) -> dict[str, Any]:
    """``rules`` for a hand whose jokers were replaced: any card may then repeat (RULES.md 1.2)."""
    return {**(rules or {}), "extra_suits": SUBSTITUTED, "jokers": 0}


def _best_natural(cards: tuple[int, ...], rules: Mapping[str, Any]) -> tuple[str | None, tuple[int, ...]]:
    """The best listed natural over every substitution of the hand's jokers (RULES.md 1.2): the highest
    kind of the ladder, then the greatest tie-break key; with the substitution that makes it (the first in
    the order of ``substitutions`` among equals). A hand without jokers is its own substitution."""
    listed = [name for name, _units in natural_list(rules)]
    plain = _substituted_rules(rules)
    best: tuple[int, NaturalKey] | None = None
    best_cards = cards
    for trial in substitutions(cards):
        for level in range(len(listed) - 1, -1, -1):
            if _HOLDS[listed[level]](trial, plain):
                candidate = (level, natural_key(listed[level], trial, plain))
                if best is None or candidate > best:
                    best, best_cards = candidate, trial
                break
    return (None if best is None else listed[best[0]]), best_cards


def _check_kind(kind: str) -> None:
    if kind not in _HOLDS:
        raise ValueError(f"unknown natural kind {kind!r}; known: {', '.join(NATURAL_KINDS)}")


def natural_list(rules: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The rules' ``naturals`` as (name, units) pairs, lowest kind first, names checked."""
    result: list[tuple[str, int]] = []
    for entry in knob(rules, "naturals"):
        name, units = entry
        _check_kind(name)
        result.append((str(name), int(units)))
    return result


def holds(kind: str, cards13: CardsInput, rules: Mapping[str, Any] | None = None) -> bool:
    """Whether the 13 cards hold the natural ``kind`` (whether or not the rules list it)."""
    _check_kind(kind)
    cards = _thirteen(cards13, rules)
    plain = _substituted_rules(rules) if any(card >= 52 for card in cards) else (rules or {})
    return any(_HOLDS[kind](trial, plain) for trial in substitutions(cards))


def detect_natural(cards13: CardsInput, rules: Mapping[str, Any]) -> str | None:
    """The highest kind in ``rules["naturals"]`` (listed lowest first) that the 13 cards hold, or None.

    Args:
        cards13: 13 distinct card codes (or card text).
        rules: a rules mapping; uses ``naturals`` and the knobs ``quads_as_two_pairs``,
            ``trips_as_pair_plus_single``, ``quads_as_trips``, ``three_straights_front_a23``,
            ``three_straights_front_qka``, ``three_straights_wheel``, ``three_flushes_distinct_suits``.

    Raises:
        ValueError: on anything but 13 distinct valid cards, or an unknown kind in ``naturals``.
    """
    cards = _thirteen(cards13, rules)
    if any(card >= 52 for card in cards):
        return _best_natural(cards, rules)[0]
    for name, _units in reversed(natural_list(rules)):
        if _HOLDS[name](cards, rules):
            return name
    return None


def natural_key(kind: str, cards13: CardsInput, rules: Mapping[str, Any]) -> NaturalKey:
    """Tie-break key of a natural ``kind`` held by ``cards13``: the larger key wins, equal keys tie.

    - six_pairs: the six pair ranks high to low (a quad rank twice), then the leftover card's rank; with
      ``natural_tiebreak="top_pair_only"`` only the highest pair rank.
    - three_straights: the largest (back strength, middle strength, front top card) over all splits.
    - three_flushes: the largest (back, middle, front) strengths over all splits.
    - five_consecutive_pairs: the top rank of the highest run.
    - every other kind: ``()`` (two of the same kind tie).

    Under ``natural_tiebreak="none"`` every key is ``()``: two naturals of one kind always tie.

    Raises:
        ValueError: if the cards do not hold ``kind``, or on bad cards or an unknown kind.
    """
    _check_kind(kind)
    cards = _thirteen(cards13, rules)
    if any(card >= 52 for card in cards):
        # Jokers: the greatest key among the substitutions that hold the kind (RULES.md 1.2).
        plain = _substituted_rules(rules)
        keys = [
            natural_key(kind, trial, plain) for trial in substitutions(cards) if _HOLDS[kind](trial, plain)
        ]
        if not keys:
            raise ValueError(f"the cards do not hold {kind}")
        return max(keys)
    if not _HOLDS[kind](cards, rules):
        raise ValueError(f"the cards do not hold {kind}")
    if knob(rules, "natural_tiebreak") == "none":
        return ()
    if kind == "five_consecutive_pairs":
        return (max(_consecutive_pair_tops(cards)),)
    if kind == "six_pairs":
        parts = _six_pairs_parts(cards, rules)
        assert parts is not None
        pairs, leftover = parts
        if knob(rules, "natural_tiebreak") == "top_pair_only":
            return (pairs[0],)
        return tuple(pairs) + tuple(leftover)
    if kind == "three_straights":
        key = _three_straights_key(cards, rules, one_suit=False)
        assert key is not None
        return key
    if kind == "three_flushes":
        key = _three_flushes_key(cards, rules)
        assert key is not None
        return key
    return ()


def __dir__() -> list[str]:
    return list(__all__)
