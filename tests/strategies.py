"""Hypothesis strategies that draw rows and hands of packs with added suits and jokers on purpose.

Uniform draws from such packs rarely hold what only they can make (a flush holding three of a kind, five
of a kind, a flush with a repeated card, jokers in every row): these strategies build those deliberately,
and a uniform draw from the pack besides.
"""

from __future__ import annotations

from hypothesis import strategies as st

SUITS = "cdhs"
#: Packs' added suits: none, one, two (each suit and pair of suits behaves alike up to relabelling).
EXTRA_SUITS = ("", "s", "c", "dh", "hs")
#: The row shapes ``pack_rows`` draws.
SHAPES = ("uniform", "one_suit", "repeats_in_suit", "one_rank", "few_ranks", "jokers")


def pack_cards(extra_suits: str, jokers: int) -> list[int]:
    """Every card of the pack, a copy for each card of an added suit: the 52 cards, the added suits'
    cards again, then the jokers X1 (52) and X2 (53)."""
    cards = list(range(52)) + [c for c in range(52) if SUITS[c % 4] in extra_suits]
    return cards + [52 + k for k in range(jokers)]


@st.composite
def packs(draw: st.DrawFn, *, special: bool = False) -> tuple[str, int]:
    """A pack as the rules knobs ``(extra_suits, jokers)``; ``special``: never the plain 52-card deck."""
    extra_suits = draw(st.sampled_from(EXTRA_SUITS))
    jokers = draw(st.integers(1 if special and not extra_suits else 0, 2))
    return extra_suits, jokers


def _take(draw: st.DrawFn, pool: list[int], count: int) -> list[int]:
    """``count`` of the pool's entries (each entry a card of the pack: copies are separate entries)."""
    places = draw(st.permutations(range(len(pool))))
    return [pool[k] for k in places[:count]]


@st.composite
def pack_rows(draw: st.DrawFn, width: int | None = None) -> tuple[list[int], str, int]:
    """A row of 3 or 5 cards valid in a drawn pack, and the pack ``(row, extra_suits, jokers)``.

    Shapes, drawn evenly: any cards of the pack; one suit (an added one when there is one) over a few
    ranks, so that a card repeats or a joker joins a flush; one card of one suit with every copy of it
    and every joker, the rest of that suit (a flush holding a pair or three of a kind, or five of a kind;
    the card is an ace half the time);
    one rank (four or five of a kind); two ranks (full houses, quads); and rows holding every joker of
    the pack. The repeating shape gives the pack the jokers it needs to hold a card three times, and is
    always five cards wide; the jokers' shape gives the pack a joker when it has none.
    """
    extra_suits, jokers = draw(packs())
    width = draw(st.sampled_from((3, 5))) if width is None else width
    shape = draw(st.sampled_from(SHAPES))
    if shape == "jokers" and jokers == 0:
        jokers = draw(st.integers(1, 2))
    if shape == "repeats_in_suit":  # a card three times in one suit: copies and jokers enough for it
        jokers = max(jokers, 1 if extra_suits else 2)
        width = 5
    everything = pack_cards(extra_suits, jokers)
    held_jokers = [c for c in everything if c >= 52]
    if shape == "uniform":
        return _take(draw, everything, width), extra_suits, jokers
    if shape == "jokers":
        rest = _take(draw, [c for c in everything if c < 52], width - len(held_jokers))
        return draw(st.permutations([*rest, *held_jokers])), extra_suits, jokers
    if shape == "repeats_in_suit":
        suit = SUITS.index(draw(st.sampled_from(extra_suits or SUITS)))
        # An ace half the time: jokers rather make aces, so a joker repeats a card of a flush only when
        # no higher card is missing from it (an ace's copy, or a king's beside the ace).
        card = 4 * draw(st.one_of(st.just(12), st.integers(0, 12))) + suit
        repeated = [c for c in everything if c == card] + held_jokers
        others = _take(draw, [c for c in everything if c < 52 and c % 4 == suit and c != card], width)
        return draw(st.permutations([*repeated, *others][:width])), extra_suits, jokers
    if shape == "one_suit":
        suit = SUITS.index(draw(st.sampled_from(extra_suits or SUITS)))
        ranks = draw(st.lists(st.integers(0, 12), min_size=1, max_size=4, unique=True))
        pool = [c for c in everything if c < 52 and c % 4 == suit and c // 4 in ranks] + held_jokers
        if len(pool) < width:  # a flush needs five cards: more of the suit
            pool += [c for c in everything if c < 52 and c % 4 == suit and c // 4 not in ranks]
    else:
        count = 1 if shape == "one_rank" else 2
        ranks = draw(st.lists(st.integers(0, 12), min_size=count, max_size=count, unique=True))
        pool = [c for c in everything if c < 52 and c // 4 in ranks] + held_jokers
        if len(pool) < width:  # four of a rank and no copy or joker: a kicker
            pool += [c for c in everything if c < 52 and c // 4 not in ranks]
    return _take(draw, pool, width), extra_suits, jokers


@st.composite
def pack_hands(draw: st.DrawFn) -> tuple[list[int], str, int]:
    """13 cards valid in a pack with added suits or jokers (never the plain deck), and the pack.

    Built to hold what only such packs make: most of one suit (an added one when there is one, so that
    its cards may repeat) over few ranks, every joker of the pack most of the time, the rest of the pack
    drawn at random.
    """
    extra_suits, jokers = draw(packs(special=True))
    everything = pack_cards(extra_suits, jokers)
    suit = SUITS.index(draw(st.sampled_from(extra_suits or SUITS)))
    ranks = draw(st.lists(st.integers(0, 12), min_size=2, max_size=7, unique=True))
    places = list(range(len(everything)))
    suited = [
        k for k in places if everything[k] < 52 and everything[k] % 4 == suit and everything[k] // 4 in ranks
    ]
    jokers_at = [k for k in places if everything[k] >= 52]
    chosen = draw(st.permutations(suited))[: draw(st.integers(2, min(8, len(suited))))]
    if draw(st.integers(0, 3)) > 0:
        chosen += jokers_at
    rest = [k for k in places if k not in chosen]
    chosen += draw(st.permutations(rest))[: 13 - len(chosen)]
    hand = [everything[k] for k in chosen[:13]]
    return draw(st.permutations(hand)), extra_suits, jokers
