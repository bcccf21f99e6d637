"""The rounds sent to an engine: targeted rounds for the knobs' boundaries, then random rounds.

A round here is an ``XRound`` (``chinese_poker.xcheck.xround``). ``targeted_rounds`` builds, from a seed,
rounds for what the knob table's knobs decide: rows that tie in rank (suit tie-breaks, suit orders),
wheels against other straights, fouls on one and both sides, every royalty category in every row at
several ranks, scoops and home runs at 2, 3 and 4 players, large amounts (caps), and 13-card naturals,
each laid out and declared, alone and against another of the same kind. ``random_rounds`` adds dealt
rounds of 2 to 4 players, mostly laid as their strongest setting. The same seed gives the same rounds.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from chinese_poker.cards import parse_cards
from chinese_poker.dealing import deal_hands
from chinese_poker.formats.edge_cases import edge_cases, strongest_rows
from chinese_poker.rules import Rules
from chinese_poker.xcheck.xround import XRound, round_from_json

__all__ = ["XRound", "random_rounds", "round_from_json", "targeted_rounds"]


def _rank_cards(rank: int) -> list[int]:
    return [4 * rank + suit for suit in range(4)]


class _Builder:
    """Rows of a chosen category drawn from the cards still free (``None`` when they cannot be)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.free = set(range(52))

    def take(self, cards: Sequence[int]) -> list[int] | None:
        if any(c not in self.free for c in cards) or len(set(cards)) != len(cards):
            return None
        self.free.difference_update(cards)
        return list(cards)

    def of_rank(self, rank: int, count: int) -> list[int] | None:
        have = [c for c in _rank_cards(rank) if c in self.free]
        return self.rng.sample(have, count) if len(have) >= count else None

    def row(self, category: str, size: int, rank: int | None = None) -> list[int] | None:
        rng = self.rng
        top = rank if rank is not None else rng.randrange(13)
        for _ in range(30):
            cards = self._attempt(category, size, top)
            if cards is not None and self.take(cards) is not None:
                return cards
            top = rng.randrange(13)
        return None

    def _singles(self, count: int, avoid: set[int]) -> list[int] | None:
        ranks = [r for r in range(13) if r not in avoid]
        self.rng.shuffle(ranks)
        out: list[int] = []
        for r in ranks:
            got = self.of_rank(r, 1)
            if got:
                out += got
                avoid.add(r)
            if len(out) == count:
                return out
        return None

    def _attempt(self, category: str, size: int, top: int) -> list[int] | None:
        rng = self.rng
        groups = {
            "high_card": (1,), "one_pair": (2,), "two_pair": (2, 2), "three_of_a_kind": (3,),
            "full_house": (3, 2), "four_of_a_kind": (4,),
        }  # fmt: skip
        if category in groups:
            cards: list[int] = []
            used: set[int] = set()
            for index, count in enumerate(groups[category]):
                rank = top if index == 0 else rng.choice([r for r in range(13) if r not in used])
                got = self.of_rank(rank, count)
                if got is None:
                    return None
                cards += got
                used.add(rank)
            rest = self._singles(size - len(cards), used)
            return None if rest is None else cards + rest
        if category in ("straight", "straight_flush", "wheel", "broadway"):
            high = {"wheel": 3, "broadway": 12}.get(category, max(3, top))
            ranks = [12, 0, 1, 2, 3] if high == 3 else list(range(high - 4, high + 1))
            suit = rng.randrange(4)
            if category == "straight_flush":
                return [4 * r + suit for r in ranks]
            suits = [rng.randrange(4) for _ in ranks]
            if len(set(suits)) == 1:
                suits[0] = (suits[0] + 1) % 4
            return [4 * r + s for r, s in zip(ranks, suits)]
        if category == "flush":
            suit = rng.randrange(4)
            ranks = sorted(rng.sample(range(13), 5))
            if ranks[4] - ranks[0] == 4 or ranks == [0, 1, 2, 3, 12]:
                return None
            return [4 * r + suit for r in ranks]
        return None

    def rest(self, count: int) -> list[int]:
        cards = self.rng.sample(sorted(self.free), count)
        self.free.difference_update(cards)
        return cards


_CATEGORIES5 = (
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
    "four_of_a_kind", "straight_flush",
)  # fmt: skip
_CATEGORIES3 = ("high_card", "one_pair", "three_of_a_kind")


def _pattern_round(
    rng: random.Random,
    rules: Rules,
    players: int,
    pattern: Sequence[Sequence[str | None]],
    tag: str,
) -> XRound | None:
    """Players whose rows have the given categories (``None``: the player's cards laid strongest)."""
    builder = _Builder(rng)
    made: list[list[int] | None] = []
    for p in range(players):
        cats = pattern[p] if p < len(pattern) else (None, None, None)
        if cats[0] is None:
            made.append(None)
            continue
        hand: list[int] = []
        for category, size in zip(cats, (3, 5, 5)):
            row = builder.row(str(category), size)
            if row is None:
                return None
            hand += row
        made.append(hand)
    hands: list[tuple[int, ...]] = []
    for laid in made:
        if laid is None:
            front, middle, back = strongest_rows(builder.rest(13), rules)
            laid = list(parse_cards(f"{front} {middle} {back}"))  # noqa: PLW2901 - the filler's setting
        hands.append(tuple(laid))
    return XRound("", tuple(hands), (False,) * players, tag)


def _mirror_round(rng: random.Random, rules: Rules, rows_tied: int, rid: str) -> XRound:
    """Two players holding the same ranks (suits permuted) in the first ``rows_tied`` rows."""
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        first = deck[:13]
        front, middle, back = strongest_rows(first, rules)
        a = parse_cards(f"{front} {middle} {back}")
        shift = rng.choice((1, 2, 3))
        b = [4 * (c // 4) + (c % 4 + shift) % 4 for c in a]
        cut = (0, 3, 8, 13)[rows_tied]
        free = [c for c in range(52) if c not in a and c not in b[:cut]]
        rng.shuffle(free)
        tail = free[: 13 - cut]
        if len(tail) == 13 - cut:
            b = b[:cut] + tail
            if len(set(a) | set(b)) == 26:
                return XRound(rid, (tuple(a), tuple(b)), (False, False), "tie")


_NATURAL_MAKERS = (
    "six_pairs",
    "dragon",
    "three_flushes",
    "three_straights",
    "all_small",
    "five_pairs_and_trips",
)


def _natural_hand(rng: random.Random, kind: str, taken: set[int]) -> list[int] | None:
    free = [c for c in range(52) if c not in taken]
    if kind == "dragon":
        out = [rng.choice([c for c in free if c // 4 == r] or [-1]) for r in range(13)]
        return None if -1 in out else out
    if kind in ("six_pairs", "five_pairs_and_trips", "all_small"):
        ranks = list(range(8)) if kind == "all_small" else list(range(13))
        ranks = [r for r in ranks if sum(1 for c in free if c // 4 == r) >= 3]
        if len(ranks) < 7:
            return None
        chosen = rng.sample(ranks, 7)
        counts = [2] * 6 + [1] if kind != "five_pairs_and_trips" else [2] * 5 + [3]
        out = []
        for r, n in zip(chosen, counts):
            out += rng.sample([c for c in free if c // 4 == r], n)
        return out if len(out) == 13 else None
    if kind == "three_flushes":
        suits = rng.sample(range(4), 3)
        out = []
        for suit, n in zip(suits, (3, 5, 5)):
            pool = [c for c in free if c % 4 == suit and c not in out]
            if len(pool) < n:
                return None
            out += rng.sample(pool, n)
        return out
    if kind == "three_straights":
        out = []
        for n in (3, 5, 5):
            low = rng.randrange(0, 14 - n)
            row = []
            for r in range(low, low + n):
                pool = [c for c in free if c // 4 == r and c not in out]
                if not pool:
                    return None
                row.append(rng.choice(pool))
            out += row
        return out
    return None


def _natural_round(
    rng: random.Random, rules: Rules, kinds: Sequence[str], declared: bool, rid: str
) -> XRound | None:
    taken: set[int] = set()
    hands: list[tuple[int, ...]] = []
    for kind in kinds:
        hand = _natural_hand(rng, kind, taken)
        if hand is None:
            return None
        taken.update(hand)
        if not declared:
            front, middle, back = strongest_rows(hand, rules)
            hand = list(parse_cards(f"{front} {middle} {back}"))
        hands.append(tuple(hand))
    others = [c for c in range(52) if c not in taken]
    rng.shuffle(others)
    front, middle, back = strongest_rows(others[:13], rules)
    hands.append(tuple(parse_cards(f"{front} {middle} {back}")))
    flags = (declared,) * len(kinds) + (False,)
    return XRound(rid, tuple(hands), flags, "natural" + ("-declared" if declared else ""))


def targeted_rounds(seed: int, rules: Rules | None = None) -> list[XRound]:
    """The targeted rounds of ``seed`` (the same seed, the same rounds)."""
    rules = rules or Rules()
    rng = random.Random(f"xcheck-targeted-{seed}")
    out: list[XRound] = []

    def add(made: XRound | None) -> None:
        if made is not None:
            out.append(made.with_id(f"t{len(out) + 1}-{made.tag}"))

    for preset in ("pagat", "shisanzhang-hk", "shisanshui-app"):
        for case in edge_cases(Rules.preset(preset)):
            add(round_from_json(case, "", f"edge-{case['id']}"))
    for rows_tied in (1, 2, 3, 3, 3):
        for _ in range(3):
            add(_mirror_round(rng, rules, rows_tied, ""))
    for _ in range(4):
        for kind in ("wheel", "broadway"):
            for other in ("straight", "wheel", "broadway", "straight_flush"):
                add(
                    _pattern_round(
                        rng,
                        rules,
                        2,
                        [("high_card", "one_pair", kind), ("high_card", "one_pair", other)],
                        "wheel",
                    )
                )
                add(
                    _pattern_round(
                        rng,
                        rules,
                        2,
                        [("high_card", kind, "flush"), ("one_pair", other, "full_house")],
                        "wheel",
                    )
                )
    for front in _CATEGORIES3:
        for middle in _CATEGORIES5:
            for back in _CATEGORIES5:
                if _CATEGORIES5.index(back) >= _CATEGORIES5.index(middle) - 1:
                    players = rng.choice((2, 2, 3, 4))
                    add(
                        _pattern_round(
                            rng, rules, players, [(front, middle, back)], f"rows-{front}-{middle}-{back}"
                        )
                    )
    for _ in range(12):
        for players in (2, 3, 4):
            strong = ("three_of_a_kind", rng.choice(_CATEGORIES5[4:]), rng.choice(_CATEGORIES5[6:]))
            add(_pattern_round(rng, rules, players, [strong], f"scoop-{players}"))
    for _ in range(3):
        for kind in _NATURAL_MAKERS:
            for declared in (False, True):
                add(_natural_round(rng, rules, [kind], declared, ""))
                add(_natural_round(rng, rules, [kind, kind], declared, ""))
                add(_natural_round(rng, rules, [kind, rng.choice(_NATURAL_MAKERS)], declared, ""))
    for _ in range(20):
        players = rng.choice((2, 3, 4))
        pattern = [
            (rng.choice(_CATEGORIES3), rng.choice(_CATEGORIES5), rng.choice(_CATEGORIES5)) for _ in range(2)
        ]
        add(_pattern_round(rng, rules, players, pattern, "foul"))
    return out


def random_rounds(seed: int, count: int, rules: Rules | None = None) -> Iterator[XRound]:
    """``count`` random rounds of 2 to 4 players from ``seed``: each player's dealt cards laid as their
    strongest setting (most often), with the middle and back swapped (a foul), or as dealt."""
    rules = rules or Rules()
    rng = random.Random(f"xcheck-random-{seed}")
    for made in range(1, count + 1):
        players = rng.choice((2, 3, 3, 4, 4))
        hands: list[tuple[int, ...]] = []
        for cards in deal_hands(rng, players):
            how = rng.random()
            if how < 0.8:
                front, middle, back = strongest_rows(cards, rules)
                if how > 0.72:
                    middle, back = back, middle
                hands.append(parse_cards(f"{front} {middle} {back}"))
            else:
                hands.append(tuple(cards))
        yield XRound(f"r{seed}-{made}", tuple(hands), (False,) * players, "random")


def __dir__() -> list[str]:
    return list(__all__)
