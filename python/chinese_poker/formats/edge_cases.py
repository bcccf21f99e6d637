"""The edge-case rounds of the conformance vectors (``edge_cases``): RULES.md's examples E1-E4, ties,
wheels, fouls on both sides, naturals against naturals, royalties on both sides, stakes, a home run,
fantasyland, each as an input object of the JSON round format with its ``id``, ``rules``, ``tags`` and
``note``; ``formats.vectors`` adds their expected output.
"""

from __future__ import annotations

from typing import Any

from chinese_poker.arrange import strongest_codes
from chinese_poker.cards import CARD_TEXT, format_card, parse_cards
from chinese_poker.formats.rounds import rules_reference
from chinese_poker.hand import detect_natural
from chinese_poker.rules import Rules

__all__ = ["ACE_TABLE_PLAYERS", "E4_RULES", "edge_cases", "strongest_rows"]

#: The custom rules of RULES.md's example E4.
E4_RULES = Rules().replace(
    scoop_multiplier=2, royalties_in_multiplier=True, foul_policy="as_scooped",
    royalties={"middle": {"full_house": 2}, "back": {"four_of_a_kind": 8}},
    suit_tiebreak="highest_card", suit_order="shcd",
)  # fmt: skip

Setting = tuple[str, str, str]

# The most players a round may have under fantasyland rules (RULES.md 4.2).
_FANTASYLAND_PLAYERS = 3
#: The players a round must have under ace_basis "table" (RULES.md 11.9).
ACE_TABLE_PLAYERS = 4

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
# Fantasyland: P1 enters with queens in front; P2 played in fantasyland and stays with trips in
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


def strongest_rows(cards: list[int] | tuple[int, ...], rules: Rules) -> tuple[str, str, str]:
    """The front, middle and back text of the strongest setting of ``cards`` (``arrange``'s
    ``"strongest"``)."""
    codes = strongest_codes(cards, rules)
    text = [CARD_TEXT[c] for c in codes]
    return " ".join(text[:3]), " ".join(text[3:8]), " ".join(text[8:])


def _natural_player(name: str, cards: str, rules: Rules) -> dict[str, Any]:
    """A player holding 13 cards that may be a natural: declared when the rules count it and need a
    declaration, else laid out as the strongest setting (under ``auto`` a natural is found in the setting)."""
    codes = parse_cards(cards, rules.extra_suits, rules.jokers)
    if rules.natural_declaration == "must_declare" and detect_natural(codes, rules) is not None:
        return {"name": name, "cards": cards, "declare_natural": True}
    front, middle, back = strongest_rows(codes, rules)
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
    for index in range(ACE_TABLE_PLAYERS - len(players)):
        codes = unused[13 * index : 13 * index + 13]
        front, middle, back = strongest_rows(codes, rules)
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
        if case_rules is ref and rules.ace_basis == "table" and len(players) < ACE_TABLE_PLAYERS:
            # ace_basis "table" takes 4 players holding the whole deck (RULES.md 11.9): the
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
        # The full table of a pack with added suits, each player the next 13 cards
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
        # RULES.md 1.2's example, a joker in front (trips of queens) and in the back
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


def __dir__() -> list[str]:
    return list(__all__)
