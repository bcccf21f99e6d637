"""Conformance vectors: rounds with the output this package gives them, for checking another scorer.

``generate_vectors(rules, count, seed)`` yields the edge cases (``edge_cases``: RULES.md's examples E1-E4,
ties, wheels, fouls on both sides, naturals against naturals, royalties on both sides, stakes, a home run)
and then ``count`` random rounds. Each vector is a round object of the JSON round format (so ``chinese-poker
score`` reads it) with its ``rules`` spelled out, ``tags`` saying what it tests, and ``expected``: the output
object ``chinese-poker score`` writes for it. The same rules, count and seed give the same vectors, whatever
the default strategy of ``arrange`` (random rounds are arranged with ``strategy="strongest"`` or picked among
``arrangements``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from chinese_poker.arrange import arrange, arrangements
from chinese_poker.cards import format_card, parse_cards
from chinese_poker.dealing import deal_hands
from chinese_poker.formats.rounds import parse_round, round_output, rules_reference, settle_round
from chinese_poker.hand import detect_natural
from chinese_poker.rules import Rules

__all__ = ["E4_RULES", "edge_cases", "generate_vectors", "make_vector", "random_round"]

#: The custom rules of RULES.md's example E4.
E4_RULES = Rules().replace(
    scoop_multiplier=2, royalties_in_multiplier=True, foul_policy="as_scooped",
    royalties={"middle": {"full_house": 2}, "back": {"four_of_a_kind": 8}},
    suit_tiebreak="highest_card", suit_order="shcd",
)  # fmt: skip

Setting = tuple[str, str, str]

# The most players a round may have under fantasyland rules (RULES.md 4.2).
_FANTASYLAND_PLAYERS = 3
# [presets group] The players a round must have under ace_basis "table" (RULES.md 11.9).
_ACE_TABLE_PLAYERS = 4

_E1: list[tuple[str, Setting]] = [
    ("A", ("6s 6h 6d", "4s 4h 4d 9s 9h", "Ks Kh Kd 8s 8h")),
    ("B", ("Qs Qh 7s", "Js Jh Jd 2s 2h", "Ac 5s 5h 5d 5c")),
]
_E2: list[tuple[str, Setting]] = [
    ("North", ("Ts Th Qs", "6s 5s 4s 3s 2h", "Ks Kh Kd 3h 3d")),
    ("East", ("Ac Kc 7s", "Td Tc 9s 8s 6c", "Jh Jd Jc 7h 7d")),
    ("South", ("Qd Qc 2c", "8h 7c 6d 5c 4c", "9h 9d 9c 8d 8c")),
    ("West", ("Qh Js 6h", "5h 5d 4h 4d 3c", "As Ah Ad 2s 2d")),
]
# E3 (Wikipedia's Amy and Bob; RULES.md gives no cards): Amy wins the front and the back, Bob the middle.
_E3: list[tuple[str, Setting]] = [
    ("Amy", ("Kh Kd 4c", "7s 7d 3h 3d 9c", "Qs Js Ts 9s 2s")),
    ("Bob", ("Qh Qd 5c", "5h 6d 7c 8c 9d", "Th Jc Qc Kc Ac")),
]
_E4: list[tuple[str, Setting]] = [
    ("N", ("Kc Ts 2c", "9h 8d 7h 6d 5d", "Qd Js Tc 9d 8c")),
    ("E", ("Qh Qc 9c", "8s 8h 3s 3d 5s", "Jh Jc 2h 2d 4c")),
    ("S", ("Jd Kh Ks", "6c 9s Td Th Qs", "2s 3c 4d 5c 6s")),
    ("W", ("Kd 6h 5h", "7s 7d 7c 4s 4h", "As Ah Ad Ac 3h")),
]
# A and B hold the same ranks in every row (all rows tie unless suits break ties); C ties the front only.
_TIES: list[tuple[str, Setting]] = [
    ("A", ("2c 5d 9h", "3c 3d 8h Tc Jd", "Ks Kh 4s 4h Qc")),
    ("B", ("2d 5c 9c", "3h 3s 8c Th Js", "Kc Kd 4c 4d Qd")),
    ("C", ("2h 5s 9s", "8d 8s Ac Ad 6c", "7c 7d 7h 7s 6d")),
]
# RULES.md E5: the wheel against the six-high straight in the back; the other rows tie.
_WHEEL: list[tuple[str, Setting]] = [
    ("A", ("7c 8d Tc", "9c 9d Kh Qd Jc", "As 2d 3c 4h 5s")),
    ("B", ("7d 8c Th", "9h 9s Kd Qh Jd", "2s 3d 4c 5h 6s")),
]
# A wheel straight flush in A's middle and a wheel straight in B's middle: legal with wheel="low", both
# fouls with wheel="second" (the wheel then outranks the ten- and six-high backs).
_WHEEL_FLUSH: list[tuple[str, Setting]] = [
    ("A", ("Kc Qd 7h", "Ah 2h 3h 4h 5h", "6s 7s 8s 9s Ts")),
    ("B", ("Ks Qh 6c", "As 2d 3c 4s 5d", "2s 3d 4c 5c 6d")),
]
# A and B both foul (front over middle); C is legal.
_FOULS: list[tuple[str, Setting]] = [
    ("A", ("Kh Ks 2c", "Td Th 3c 4d 6s", "Ac Ad 5c 7d 8h")),
    ("B", ("Qc Qd Qh", "9c 9d 8c 7c 6c", "Js Jd 2d 3d 4c")),
    ("C", ("5d 6d 7s", "2h 2s 3h 3s Jc", "4s 5s 8s 9s Ts")),
]
# Royalty-grade hands in every row on both sides (trips, full house, quads; trips, straight flushes).
_ROYALTIES: list[tuple[str, Setting]] = [
    ("A", ("2c 2d 2h", "3c 3d 3h 4c 4d", "5c 5d 5h 5s 6c")),
    ("B", ("Ac Ad Ah", "7h 8h 9h Th Jh", "9s Ts Js Qs Ks")),
]
# P1 scoops all three others (RULES.md E6: a home run under shisanzhang-hk).
_HOME_RUN: list[tuple[str, Setting]] = [
    ("P1", ("Ac Ad Ah", "2s 3s 4s 5s 6s", "9h Th Jh Qh Kh")),
    ("P2", ("2c 3d 5h", "4c 4d 7s 8c 9c", "Ks Kc 6c 6d Jc")),
    ("P3", ("2d 3c 6h", "5c 5d 8s 9s Tc", "Qs Qc 7c 7d Jd")),
    ("P4", ("2h 3h 4h", "7h 8h 8d 9d Td", "Ts Js Qd Kd As")),
]
# 13-card hands holding naturals: low six pairs, high six pairs (all big), a dragon, three straights.
_NATURALS: list[tuple[str, str]] = [
    ("P1", "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s"),
    ("P2", "8c 8d 9c 9d Tc Td Jc Jd Qc Qd Kc Kd As"),
    ("P3", "2h 3s 4h 5s 6h 7s 8h 9h Ts Jh Qs Kh Ah"),
    ("P4", "2s 3h 4s 5h 6s 7h 8s Th Js Qh Ks Ac Ad"),
]
# [ofc group] Fantasyland: P1 enters with queens in front; P2 played in fantasyland and stays with trips in
# front; P3 played in fantasyland and leaves (jacks in front, a full house in the back: no stay).
_FANTASYLAND: list[tuple[str, Setting]] = [
    ("P1", ("Qs Qh 2c", "3d 4d 5d 6d 8d", "9c 9h 9s Kc Kd")),
    ("P2", ("7c 7d 7h", "Tc Jc Qc Ks Ad", "2s 3s 4s 5s 8s")),
    ("P3", ("Jh Jd 3c", "4c 4h 6c 6h 8c", "Ac Ah As Td Th")),
]
# Two dragons (they tie) and six pairs that are also all small.
_DRAGONS: list[tuple[str, str]] = [
    ("A", "2c 3d 4c 5d 6c 7d 8c 9d Tc Jd Qc Kd Ac"),
    ("B", "2h 3s 4h 5s 6h 7s 8h 9s Th Js Qh Ks Ah"),
    ("C", "2d 2s 3c 3h 4d 4s 5c 5h 6d 6s 7c 7h 8d"),
]


def _setting_players(players: list[tuple[str, Setting]]) -> list[dict[str, Any]]:
    return [{"name": name, "front": f, "middle": m, "back": b} for name, (f, m, b) in players]


def _strongest(cards: list[int] | tuple[int, ...], rules: Rules) -> tuple[str, str, str]:
    hand = arrange(cards, rules, strategy="strongest").hand
    return tuple(" ".join(format_card(c) for c in row or ()) for row in (hand.front, hand.middle, hand.back))  # type: ignore[return-value]


def _natural_player(name: str, cards: str, rules: Rules) -> dict[str, Any]:
    """A player holding 13 cards that may be a natural: declared when the rules count it and need a
    declaration, else laid out as the strongest setting (under ``auto`` a natural is found in the setting)."""
    codes = parse_cards(cards, rules.extra_suits, rules.jokers)
    if rules.natural_declaration == "must_declare" and detect_natural(codes, rules) is not None:
        return {"name": name, "cards": cards, "declare_natural": True}
    front, middle, back = _strongest(codes, rules)
    return {"name": name, "front": front, "middle": middle, "back": back}


def _completed(players: list[dict[str, Any]], rules: Rules) -> list[dict[str, Any]]:
    """``players`` and filler players ``F1``, ``F2``, ... of 13 unused cards each (lowest codes first), up to
    four, each laying its strongest setting."""
    used = {
        code
        for player in players
        for key in ("cards", "front", "middle", "back")
        if key in player
        for code in parse_cards(player[key])
    }
    unused = [code for code in range(52) if code not in used]
    out = list(players)
    for index in range(_ACE_TABLE_PLAYERS - len(players)):
        codes = unused[13 * index : 13 * index + 13]
        front, middle, back = _strongest(codes, rules)
        out.append({"name": f"F{index + 1}", "front": front, "middle": middle, "back": back})
    return out


def edge_cases(rules: Rules) -> list[dict[str, Any]]:
    """The edge-case rounds for ``rules``: input objects with ``id``, ``rules``, ``tags`` and ``note``."""
    ref = rules_reference(rules)
    cases: list[dict[str, Any]] = []

    def add(rid: str, tags: list[str], players: list[dict[str, Any]], note: str, **extra: Any) -> None:
        case_rules = extra.pop("rules", ref)
        if case_rules is ref and rules.fantasyland != "off" and len(players) > _FANTASYLAND_PLAYERS:
            # Fantasyland rules take 2 or 3 players (RULES.md 4.2): the case keeps its first three.
            players = players[:_FANTASYLAND_PLAYERS]
            tags = [tag for tag in tags if tag != "four-players"]
            note += " (its first three players: fantasyland rules take 3 at most)"
            if "stakes" in extra:
                extra["stakes"] = [
                    row[:_FANTASYLAND_PLAYERS] for row in extra["stakes"][:_FANTASYLAND_PLAYERS]
                ]
        if case_rules is ref and rules.ace_basis == "table" and len(players) < _ACE_TABLE_PLAYERS:
            # [presets group] ace_basis "table" takes 4 players holding the whole deck (RULES.md 11.9): the
            # case is completed with the unused cards, each filler laying its strongest setting.
            players = _completed(players, rules)
            tags = [*tags, "four-players"]
            note += " (completed to four players with the unused cards: ace_basis 'table' takes 4)"
        case: dict[str, Any] = {
            "id": rid,
            "rules": case_rules,
            "tags": tags,
            "note": note,
            "players": players,
        }
        case.update(extra)
        cases.append(case)

    add(
        "E1",
        ["rules-example", "royalties"],
        _setting_players(_E1),
        "RULES.md E1: A wins the front with trips, B the middle and the back",
    )
    add(
        "E2",
        ["rules-example", "four-players"],
        _setting_players(_E2),
        "RULES.md E2: the seed's four-player table",
    )
    add(
        "E3",
        ["rules-example"],
        _setting_players(_E3),
        "RULES.md E3: Amy wins the front and the back, Bob the middle",
    )
    add(
        "E4",
        ["rules-example", "foul", "suit-tiebreak"],
        _setting_players(_E4),
        "RULES.md E4 cards under these rules (S fouls)",
    )
    add(
        "E4-custom-rules",
        ["rules-example", "foul", "suit-tiebreak", "custom-rules"],
        _setting_players(_E4),
        "RULES.md E4 under its own rules: N -2, E -4, S -34, W +40",
        rules=E4_RULES.to_dict(),
    )
    add(
        "ties",
        ["ties"],
        _setting_players(_TIES),
        "A and B hold the same ranks in every row; C ties the front with both",
    )
    add(
        "wheel",
        ["wheel"],
        _setting_players(_WHEEL),
        "RULES.md E5: the wheel against the six-high straight in the back",
    )
    add(
        "wheel-straight-flush",
        ["wheel", "foul"],
        _setting_players(_WHEEL_FLUSH),
        "wheels in the middle: legal with wheel=low, fouls with wheel=second",
    )
    add(
        "fouls",
        ["foul", "foul-both-sides"],
        _setting_players(_FOULS),
        "A and B foul (front over middle), C is legal",
    )
    add(
        "royalties",
        ["royalties", "royalties-both-sides"],
        _setting_players(_ROYALTIES),
        "royalty-grade hands in every row on both sides",
    )
    add(
        "home-run",
        ["scoop", "home-run", "four-players"],
        _setting_players(_HOME_RUN),
        "P1 scoops every opponent",
    )
    add(
        "naturals",
        ["naturals", "natural-v-natural", "four-players"],
        [_natural_player(name, cards, rules) for name, cards in _NATURALS],
        "six pairs (low), six pairs / all big, a dragon, three straights",
    )
    add(
        "naturals-dragons",
        ["naturals", "natural-v-natural", "natural-tie"],
        [_natural_player(name, cards, rules) for name, cards in _DRAGONS],
        "two dragons (a tie) and six pairs that are all small",
    )
    add(
        "stakes",
        ["stakes", "four-players"],
        _setting_players(_E2),
        "RULES.md E2 with stakes",
        stakes=[[1, 2, 1, 3], [2, 1, 0, 1], [1, 0, 1, 2], [3, 1, 2, 1]],
    )
    if rules.surrender_units > 0:
        players = _setting_players(_E2)
        players[1]["surrender"] = True
        players[3]["surrender"] = True
        add("surrender", ["surrender"], players, "East and West surrender")
    if rules.extra_suits and rules.fantasyland == "off" and rules.ace_basis == "pairwise":
        # deck group (issue #15): the full table of a pack with added suits, each player the next 13 cards
        # of the pack in code order, so copies fall in one hand (five or six of a kind) and across hands.
        pack = sorted([*range(52), *(c for c in range(52) if "cdhs"[c % 4] in rules.extra_suits)])
        seats = 4 + len(rules.extra_suits)
        add(
            "added-suits",
            ["added-suits", f"{seats}-players"],
            [
                _natural_player(
                    f"P{p + 1}", " ".join(format_card(c) for c in pack[13 * p : 13 * p + 13]), rules
                )
                for p in range(seats)
            ],
            f"the whole {13 * seats}-card pack at {seats} players, the cards in code order",
        )
    if rules.jokers and rules.fantasyland == "off" and rules.ace_basis == "pairwise":
        # deck group (issue #15): RULES.md 1.2's example, a joker in front (trips of queens) and in the back
        # (a fifth seven: five of a kind with one deck), against a royal flush.
        other = {"name": "B", "front": "Kc Kd 2c", "middle": "8c 8d 8h 3c 3d", "back": "As Ks Qs Js Ts"}
        add(
            "jokers-front",
            ["jokers"],
            [{"name": "A", "front": "X1 Qh Qd", "middle": "9s 9h 9d 4c 4d", "back": "7s 7h 7d 7c 2s"}, other],
            "RULES.md 1.2: X1 as Qs in front (queens trips)",
        )
        add(
            "jokers-back",
            ["jokers"],
            [{"name": "A", "front": "Qh Qd 2s", "middle": "9s 9h 9d 4c 4d", "back": "7s 7h 7d 7c X1"}, other],
            "RULES.md 1.2: X1 as 7s in the back (five of a kind from one deck)",
        )
    if rules.fantasyland != "off":
        players = _setting_players(_FANTASYLAND)
        players[1]["fantasyland"] = True
        players[2]["fantasyland"] = True
        add(
            "fantasyland",
            ["fantasyland"],
            players,
            "P1 enters fantasyland (queens in front); P2 stays (trips in front); P3 leaves",
        )
    return cases


def random_round(rng: random.Random, rules: Rules, rid: str) -> dict[str, Any]:
    """A random round (input object): 2 to 4 players dealt from a shuffled deck, each laying the strongest
    setting (most often), a random legal setting, or the cards as dealt (usually a foul); a natural is
    declared when held and the rules need a declaration; now and then a stakes matrix."""
    players = rng.choice((2, 3, 3) if rules.fantasyland != "off" else (2, 3, 3, 4, 4, 4))
    if rules.ace_basis == "table":
        players = _ACE_TABLE_PLAYERS  # [presets group] RULES.md 11.9
    tags = {"random"}
    if rules.extra_suits and rules.fantasyland == "off":
        # deck group (issue #15): a pack with added suits seats up to 4 + one per suit; often full.
        players = rng.choice((players, *range(5, 5 + len(rules.extra_suits))))
        tags.add("added-suits")
    if rules.jokers:
        tags.add("jokers")
    entries = []
    for index, cards in enumerate(deal_hands(rng, players, rules.extra_suits, rules.jokers)):
        name = f"P{index + 1}"
        text = " ".join(format_card(c) for c in cards)
        how = rng.random()
        if (
            rules.naturals
            and rules.natural_declaration == "must_declare"
            and how < 0.9
            and detect_natural(cards, rules) is not None
        ):
            entries.append({"name": name, "cards": text, "declare_natural": True})
            tags.add("naturals")
            continue
        if how < 0.65:
            front, middle, back = _strongest(cards, rules)
        elif how < 0.8:
            settings = arrangements(cards, rules, drop_dominated=True)
            row = settings[rng.randrange(len(settings))]
            front, middle, back = (
                " ".join(format_card(int(c)) for c in part) for part in (row[:3], row[3:8], row[8:])
            )
        else:
            front, middle, back = text[:8], text[9:23], text[24:]
            tags.add("as-dealt")
        entries.append({"name": name, "front": front, "middle": middle, "back": back})
    data: dict[str, Any] = {
        "id": rid,
        "rules": rules_reference(rules),
        "tags": sorted(tags),
        "players": entries,
    }
    if rng.random() < 0.1:
        matrix = [[1] * players for _ in range(players)]
        for i in range(players):
            for j in range(i + 1, players):
                matrix[i][j] = matrix[j][i] = rng.choice((0, 1, 2, 3, 5))
        data["stakes"] = matrix
    _per_round_inputs(rng, rules, data)
    return data


def _per_round_inputs(rng: random.Random, rules: Rules, data: dict[str, Any]) -> None:
    """Now and then the per-round inputs of real tables, so vectors exercise them: a banker round with bets,
    a surrender (under ``surrender_units``), a false declaration (under ``false_declaration_units``)."""
    entries = data["players"]
    if rules.ace_basis != "table" and rng.random() < 0.12:
        data["banker"] = entries[rng.randrange(len(entries))]["name"]
        data["tags"] = sorted({*data["tags"], "banker"})
        if rng.random() < 0.5:
            data["bets"] = [rng.choice((1, 2, 3)) for _ in entries]
    if rules.surrender_units > 0 and rng.random() < 0.1:
        entries[rng.randrange(len(entries))]["surrender"] = True
        data["tags"] = sorted({*data["tags"], "surrender"})
    if rules.false_declaration_units > 0 and rng.random() < 0.1:
        entry = entries[rng.randrange(len(entries))]
        rows = ("front", "middle", "back")
        if all(row in entry for row in rows):
            cards = " ".join(entry[row] for row in rows)
            if detect_natural(cards, rules) is None:  # a declaration the cards do not back
                for row in rows:
                    del entry[row]
                entry["cards"] = cards
                entry["declare_natural"] = True
                data["tags"] = sorted({*data["tags"], "false-declaration"})


def make_vector(case: dict[str, Any]) -> dict[str, Any]:
    """A vector: the round object ``case`` with ``expected``, the output ``chinese-poker score`` gives it."""
    rnd = parse_round(case)
    expected = round_output(rnd, settle_round(rnd))
    vector = dict(case)
    vector["expected"] = expected
    return vector


def generate_vectors(
    rules: Rules, count: int, seed: int, *, edges: bool = True, progress: Callable[[int], None] | None = None
) -> Iterator[dict[str, Any]]:
    """The edge cases (unless ``edges`` is false), then ``count`` random rounds from ``seed``, each with its
    expected output. ``progress``, if given, is called with the number of vectors made so far."""
    made = 0
    if edges:
        for case in edge_cases(rules):
            made += 1
            yield make_vector(case)
            if progress is not None:
                progress(made)
    rng = random.Random(seed)
    width = max(4, len(str(count)))
    for k in range(1, count + 1):
        made += 1
        yield make_vector(random_round(rng, rules, f"random-{k:0{width}d}"))
        if progress is not None:
            progress(made)


def __dir__() -> list[str]:
    return list(__all__)
