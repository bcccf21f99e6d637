"""Pure-Python reference: strength of a 3- or 5-card row, and comparison of two rows.

Written from RULES.md section 2 and RULES.md sections 1 and 5 only. Slow and plain on purpose.

A card code is ``4 * rank + suit`` with rank 0 = deuce .. 12 = ace and suit 0..3 = c, d, h, s. In this module
a card's *rank value* is ``rank + 2`` (2 = deuce .. 14 = ace), the numbers the strength encoding uses.

Strength encoding (RULES.md 8)::

    strength = category << 20 | v1 << 16 | v2 << 12 | v3 << 8 | v4 << 4 | v5

where ``v1..v5`` is the tie-break vector, padded with zeros to five entries.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from itertools import product
from typing import Any

from chinese_poker.reference.cards import CardsInput, format_card, parse_cards

__all__ = [
    "CATEGORY_NAMES",
    "DEFAULT_RULES",
    "FIVE_OF_A_KIND",
    "FLUSH",
    "FOUR_OF_A_KIND",
    "FULL_HOUSE",
    "HIGH_CARD",
    "JOKER_CODES",
    "ONE_PAIR",
    "STRAIGHT",
    "STRAIGHT_FLUSH",
    "SUBSTITUTED",
    "SUIT_LETTERS",
    "THREE_OF_A_KIND",
    "TWO_PAIR",
    "WHEELS",
    "card_by_card_sequence",
    "card_codes",
    "category_name",
    "category_of",
    "compare_rows",
    "copies_in_pack",
    "encode",
    "evaluate",
    "knob",
    "rank_value",
    "straight_ranks",
    "substitute",
    "substitutions",
    "suit_of",
    "suit_sequence",
    "tiebreak_vector",
]


HIGH_CARD = 0
ONE_PAIR = 1
TWO_PAIR = 2
THREE_OF_A_KIND = 3
STRAIGHT = 4
FLUSH = 5
FULL_HOUSE = 6
FOUR_OF_A_KIND = 7
STRAIGHT_FLUSH = 8
FIVE_OF_A_KIND = 9  # only with a card twice: a pack with added suits (RULES.md 1, 2.1)

CATEGORY_NAMES: tuple[str, ...] = (
    "high_card",
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "five_of_a_kind",
)

WHEELS = ("low", "second")

#: The knob defaults of RULES.md section 6 (used when a rules mapping leaves a knob out).
DEFAULT_RULES: dict[str, Any] = {
    "wheel": "low",
    "suit_tiebreak": "off",
    "suit_order": "shdc",
    "middle_vs_back": "non_strict",
    "overall_unit": 0,
    "overall_basis": "two_rows",
    "scoop_bonus": 0,
    "scoop_multiplier": 1,
    "royalties_in_multiplier": False,
    "home_run_multiplier": 1,
    "home_run_min_opponents": 3,
    "royalties": {},
    "royalty_mode": "replace",
    "royalty_condition": "win_row",
    "royalty_cancel": False,
    "foul_policy": "lose_all_rows",
    "foul_pays_royalties": True,
    "naturals": [],
    "natural_declaration": "must_declare",
    "natural_tiebreak": "full",
    "quads_as_two_pairs": True,
    "trips_as_pair_plus_single": True,
    "surrender_units": 0,
    # how natural kinds read the cards (RULES.md 5, 10)
    "three_straights_front_a23": True,
    "three_straights_front_qka": True,
    "three_straights_wheel": True,
    "three_flushes_distinct_suits": False,
    "quads_as_trips": True,
    # the settlement of real tables (RULES.md 3.1)
    "row_base": [1, 1, 1],
    "ace_units": 0,
    "pair_cap": 0,
    "home_run_cap": 0,
    "home_run_bonus": 0,
    "home_run_counts_naturals": False,
    "foul_counts_for_home_run": False,
    "natural_vs_natural": "by_kind",
    "natural_settles_table": False,
    "natural_units_mode": "table",
    "false_declaration_units": 0,
    "horse_card": None,
    "horse_multiplier": 2,
    "foul_vs_foul": "push",
    # open-face (RULES.md 4.2)
    "fantasyland": "off",
    "ace_basis": "pairwise",
    "shooting": "scoop",
    "home_run_scope": "own_pairs",
    # the pack (RULES.md 1.1, 1.2)
    "extra_suits": "",
    "jokers": 0,
    # open-face dealing (RULES.md 4.3): read by no settlement, so the reference accepts it and settles alike
    "ofc_variant": "classic",
}

#: The jokers X1 and X2 (RULES.md 1.2).
JOKER_CODES = (52, 53)
#: ``extra_suits`` of a row whose jokers were replaced: any card may then appear any number of times.
SUBSTITUTED = "*"

SUIT_LETTERS = "cdhs"
RANKS_TEXT = "23456789TJQKA"


def knob(rules: Mapping[str, Any] | None, name: str) -> Any:
    """Value of knob ``name`` in ``rules``, or its RULES.md default when ``rules`` leaves it out."""
    if rules is not None and name in rules:
        return rules[name]
    return DEFAULT_RULES[name]


def rank_value(card: int) -> int:
    """Rank of a card code as 2 (deuce) .. 14 (ace)."""
    return card // 4 + 2


def suit_of(card: int) -> int:
    """Suit of a card code: 0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades."""
    return card % 4


def copies_in_pack(card: int, extra_suits: str) -> int:
    """How many copies of ``card`` the pack holds (RULES.md 1): 2 when its suit is one of ``extra_suits``
    (the suits whose 13 cards are added once more), else 1."""
    return 2 if SUIT_LETTERS[suit_of(card)] in extra_suits else 1


def card_codes(
    cards: CardsInput, counts: Sequence[int] | None = None, extra_suits: str = "", jokers: int = 0
) -> tuple[int, ...]:
    """Card codes of ``cards`` (card text, or an iterable of card strings and ints), checked against the pack.

    ``counts`` optionally lists the allowed numbers of cards; another number raises ValueError.
    ``extra_suits``: the suits added to the pack (RULES.md 1.1); a card of those suits may appear twice;
    ``SUBSTITUTED``: cards whose jokers were replaced, any card any number of times. ``jokers``: the pack's
    jokers (RULES.md 1.2), X1 = 52 and X2 = 53, each once; another joker is a ValueError.
    """
    codes = parse_cards(cards, jokers=jokers)
    seen_at: dict[int, list[int]] = {}
    for position, card in enumerate(codes):
        if card >= 52 + jokers:
            raise ValueError(
                f"card {format_card(card)} (code {card}) at position {position} is a joker the pack does "
                f"not hold (rules knob 'jokers' is {jokers})"
            )
        places = seen_at.setdefault(card, [])
        places.append(position)
        if card >= 52:
            allowed = 1
        elif extra_suits == SUBSTITUTED:
            allowed = len(codes)
        else:
            allowed = copies_in_pack(card, extra_suits)
        if len(places) > allowed:
            text = format_card(card)
            if len(places) == 2:
                raise ValueError(f"card {text} appears twice (positions {places[0]} and {places[1]})")
            raise ValueError(
                f"card {text} appears three times (positions {places[0]}, {places[1]} and "
                f"{places[2]}): the pack holds it twice"
            )
    if counts is not None and len(codes) not in counts:
        allowed_counts = " or ".join(str(n) for n in counts)
        raise ValueError(f"expected {allowed_counts} cards, got {len(codes)}")
    return codes


def encode(category: int, vector: Sequence[int]) -> int:
    """Pack a category and a tie-break vector (at most five values 0..15) into a strength."""
    if len(vector) > 5:
        raise ValueError("a tie-break vector has at most five entries")
    padded = list(vector) + [0] * (5 - len(vector))
    strength = category
    for value in padded:
        strength = (strength << 4) | value
    return strength


def category_of(strength: int) -> int:
    """Category number (0 = high card .. 8 = straight flush) of a strength."""
    return strength >> 20


def category_name(strength: int) -> str:
    """Lower-case category name of a strength, e.g. ``"full_house"``."""
    return CATEGORY_NAMES[category_of(strength)]


def tiebreak_vector(strength: int) -> tuple[int, int, int, int, int]:
    """The five tie-break values ``v1..v5`` of a strength (zero padded)."""
    return (
        (strength >> 16) & 15,
        (strength >> 12) & 15,
        (strength >> 8) & 15,
        (strength >> 4) & 15,
        strength & 15,
    )


def _groups(ranks: Iterable[int]) -> list[tuple[int, int]]:
    """(count, rank) pairs, largest group first and, within a size, highest rank first."""
    return sorted(((count, rank) for rank, count in Counter(ranks).items()), reverse=True)


def straight_ranks(ranks: Sequence[int], wheel: str) -> list[int] | None:
    """The tie-break vector of five ranks if they form a straight, else None.

    A straight is five distinct consecutive ranks (ace high), or A-2-3-4-5 (the wheel). The wheel's vector
    is ``[5, 4, 3, 2, 1]`` under ``wheel="low"`` and ``[14, 5, 4, 3, 2]`` under ``wheel="second"``.
    K-A-2-3-4 is not a straight.
    """
    if wheel not in WHEELS:
        raise ValueError(f"wheel must be one of {WHEELS}, got {wheel!r}")
    distinct = sorted(set(ranks), reverse=True)
    if len(distinct) != 5 or len(ranks) != 5:
        return None
    if distinct[0] - distinct[4] == 4:
        return distinct
    if distinct == [14, 5, 4, 3, 2]:
        return [5, 4, 3, 2, 1] if wheel == "low" else [14, 5, 4, 3, 2]
    return None


def _evaluate_five(cards: Sequence[int], wheel: str) -> int:
    ranks = [rank_value(card) for card in cards]
    is_flush = len({suit_of(card) for card in cards}) == 1
    if len(set(ranks)) == 1:
        return encode(FIVE_OF_A_KIND, ranks[:1])
    straight = straight_ranks(ranks, wheel)
    if straight is not None:
        return encode(STRAIGHT_FLUSH if is_flush else STRAIGHT, straight)
    groups = _groups(ranks)
    sizes = [count for count, _ in groups]
    group_ranks = [rank for _, rank in groups]
    if sizes == [4, 1]:
        return encode(FOUR_OF_A_KIND, group_ranks)
    if sizes == [3, 2]:
        return encode(FULL_HOUSE, group_ranks)
    if is_flush:
        return encode(FLUSH, sorted(ranks, reverse=True))
    if sizes == [3, 1, 1]:
        return encode(THREE_OF_A_KIND, group_ranks)
    if sizes == [2, 2, 1]:
        return encode(TWO_PAIR, group_ranks)
    if sizes == [2, 1, 1, 1]:
        return encode(ONE_PAIR, group_ranks)
    return encode(HIGH_CARD, group_ranks)


def _evaluate_three(cards: Sequence[int]) -> int:
    groups = _groups(rank_value(card) for card in cards)
    sizes = [count for count, _ in groups]
    group_ranks = [rank for _, rank in groups]
    if sizes == [3]:
        return encode(THREE_OF_A_KIND, group_ranks)
    if sizes == [2, 1]:
        return encode(ONE_PAIR, group_ranks)
    return encode(HIGH_CARD, group_ranks)


def substitutions(cards: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way of replacing the jokers among ``cards`` by cards 0..51 (RULES.md 1.2: any card, a copy of
    one held included), X1's card then X2's, greatest codes first; ``cards`` itself when it holds none."""
    places = [cards.index(joker) for joker in JOKER_CODES if joker in cards]
    for chosen in product(range(51, -1, -1), repeat=len(places)):
        trial = list(cards)
        for place, card in zip(places, chosen):
            trial[place] = card
        yield tuple(trial)


def _strength(codes: Sequence[int], wheel: str) -> int:
    return _evaluate_three(codes) if len(codes) == 3 else _evaluate_five(codes, wheel)


def substitute(cards: CardsInput, rules: Mapping[str, Any] | None = None) -> tuple[int, ...]:
    """A row with each joker replaced by its card (RULES.md 1.2): the substitution that makes the row
    strongest by strength, then (with ``suit_tiebreak`` on) by the suit comparison; among equals the first
    in the order of ``substitutions`` (the greatest codes)."""
    row = card_codes(
        cards, counts=(3, 5), extra_suits=knob(rules, "extra_suits"), jokers=knob(rules, "jokers")
    )
    if not any(card >= 52 for card in row):
        return row
    return _best_substitute(
        row, knob(rules, "wheel"), knob(rules, "suit_tiebreak"), knob(rules, "suit_order")
    )


@lru_cache(maxsize=4096)
def _best_substitute(
    row: tuple[int, ...], wheel: str, suit_tiebreak: str, suit_order: str
) -> tuple[int, ...]:
    """``substitute`` by the knobs it reads (cached: a round asks for the same rows many times)."""
    rules = {"wheel": wheel, "suit_tiebreak": suit_tiebreak, "suit_order": suit_order}
    best: tuple[int, ...] | None = None
    for trial in substitutions(row):
        if best is None or _compare_codes(trial, best, rules) > 0:
            best = trial
    assert best is not None
    return best


def evaluate(cards: CardsInput, wheel: str = "low", extra_suits: str = "", jokers: int = 0) -> int:
    """Strength of a 3-card front or a 5-card middle/back, in the encoding of RULES.md section 8.

    Args:
        cards: three or five distinct card codes (ints 0..51) or card text such as ``"As Kd Qh"``.
        wheel: ``"low"`` (A-2-3-4-5 is the lowest straight) or ``"second"`` (it ranks just below
            T-J-Q-K-A).
        extra_suits: the suits added to the pack (RULES.md 1), whose cards may appear twice: then five
            of a kind (above the straight flush) and flushes holding a pair (a flush, its five ranks high
            to low) can occur.

    Returns:
        The strength; a larger strength is a better row, equal strengths tie. Fronts and five-card rows
        share one scale (three-card fronts count no straights or flushes).

    Raises:
        ValueError: on a card count other than 3 or 5, a repeated card, a bad card code, or a bad wheel.

    ``jokers``: the pack's jokers (RULES.md 1.2); a row holding one is worth its strongest substitution.
    """
    if wheel not in WHEELS:
        raise ValueError(f"wheel must be one of {WHEELS}, got {wheel!r}")
    codes = card_codes(cards, counts=(3, 5), extra_suits=extra_suits, jokers=jokers)
    return max(_strength(trial, wheel) for trial in substitutions(codes))


def _suit_strength(suit: int, suit_order: str) -> int:
    """How high a suit is under ``suit_order`` (written highest first): larger is higher."""
    if sorted(suit_order) != sorted(SUIT_LETTERS):
        raise ValueError(f"suit_order must name each of c, d, h, s once, got {suit_order!r}")
    return len(suit_order) - 1 - suit_order.index(SUIT_LETTERS[suit])


def suit_sequence(cards: Sequence[int], wheel: str, suit_order: str) -> list[int]:
    """Suit strengths of a row's cards in tie-break order (RULES.md 12).

    Cards are ordered by the size of their rank group (largest first), then rank (highest first, the ace low
    in a wheel), then suit (highest first by ``suit_order``); the result lists each card's suit strength.
    """
    ranks = [rank_value(card) for card in cards]
    is_wheel = len(cards) == 5 and straight_ranks(ranks, wheel) is not None and set(ranks) == {14, 2, 3, 4, 5}
    counts = Counter(ranks)

    def order_key(card: int) -> tuple[int, int, int]:
        rank = rank_value(card)
        if is_wheel and rank == 14:
            rank = 1
        return (counts[rank_value(card)], rank, _suit_strength(suit_of(card), suit_order))

    ordered = sorted(cards, key=order_key, reverse=True)
    return [_suit_strength(suit_of(card), suit_order) for card in ordered]


def card_by_card_sequence(cards: Sequence[int], suit_order: str) -> list[int]:
    """Suit strengths of a row's cards for ``suit_tiebreak="by_card"`` (RULES.md 12): the cards from the
    highest rank down (an ace is the highest card, in a wheel too), cards of one rank by suit, highest first.
    """
    ordered = sorted(cards, key=lambda card: (rank_value(card), _suit_strength(suit_of(card), suit_order)))
    return [_suit_strength(suit_of(card), suit_order) for card in reversed(ordered)]


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def compare_rows(a: CardsInput, b: CardsInput, rules: Mapping[str, Any] | None = None) -> int:
    """Compare two rows of the same length: +1 if ``a`` wins, -1 if ``b`` wins, 0 for a tie.

    Rows are compared by strength under ``rules["wheel"]``. When the strengths are equal and
    ``rules["suit_tiebreak"]`` is ``"highest_card"`` or ``"by_card"``, the suits decide (RULES.md 12,
    ``rules["suit_order"]``).

    Raises:
        ValueError: on bad cards or rows of different lengths.
    """
    pack = knob(rules, "extra_suits")
    jokers = knob(rules, "jokers")
    row_a = card_codes(a, counts=(3, 5), extra_suits=pack, jokers=jokers)
    row_b = card_codes(b, counts=(3, 5), extra_suits=pack, jokers=jokers)
    if len(row_a) != len(row_b):
        raise ValueError(f"rows of different lengths: {len(row_a)} and {len(row_b)} cards")
    # Jokers: each row as its best substitution (RULES.md 1.2).
    return _compare_codes(substitute(row_a, rules), substitute(row_b, rules), rules)


def _compare_codes(row_a: Sequence[int], row_b: Sequence[int], rules: Mapping[str, Any] | None) -> int:
    """``compare_rows`` of two checked rows without jokers (a card may repeat)."""
    wheel = knob(rules, "wheel")
    result = _sign(_strength(row_a, wheel) - _strength(row_b, wheel))
    if result != 0:
        return result
    tiebreak = knob(rules, "suit_tiebreak")
    if tiebreak == "off":
        return 0
    suit_order = knob(rules, "suit_order")
    if tiebreak == "highest_card":
        seq_a = suit_sequence(row_a, wheel, suit_order)
        seq_b = suit_sequence(row_b, wheel, suit_order)
    elif tiebreak == "by_card":
        seq_a = card_by_card_sequence(row_a, suit_order)
        seq_b = card_by_card_sequence(row_b, suit_order)
    else:
        raise ValueError(f"suit_tiebreak must be 'off', 'highest_card' or 'by_card', got {tiebreak!r}")
    for suit_a, suit_b in zip(seq_a, seq_b):
        if suit_a != suit_b:
            return _sign(suit_a - suit_b)
    return 0


def __dir__() -> list[str]:
    return list(__all__)
