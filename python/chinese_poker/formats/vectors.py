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

from chinese_poker.arrange import arrangements
from chinese_poker.cards import format_card
from chinese_poker.dealing import deal_hands
from chinese_poker.formats.edge_cases import ACE_TABLE_PLAYERS, E4_RULES, edge_cases, strongest_rows
from chinese_poker.formats.rounds import parse_round, round_output, rules_reference, settle_round
from chinese_poker.hand import detect_natural
from chinese_poker.rules import Rules

__all__ = ["E4_RULES", "edge_cases", "generate_cases", "generate_vectors", "make_vector", "random_round"]


def random_round(rng: random.Random, rules: Rules, rid: str) -> dict[str, Any]:
    """A random round (input object): 2 to 4 players dealt from a shuffled deck, each laying the strongest
    setting (most often), a random legal setting, or the cards as dealt (usually a foul); a natural is
    declared when held and the rules need a declaration; now and then a stakes matrix."""
    players = rng.choice((2, 3, 3) if rules.fantasyland != "off" else (2, 3, 3, 4, 4, 4))
    if rules.ace_basis == "table":
        players = ACE_TABLE_PLAYERS  # RULES.md 11.9
    tags = {"random"}
    if rules.extra_suits and rules.fantasyland == "off":
        # A pack with added suits seats up to 4 + one per suit; often full.
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
            front, middle, back = strongest_rows(cards, rules)
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


def generate_cases(rules: Rules, count: int, seed: int, *, edges: bool = True) -> Iterator[dict[str, Any]]:
    """The round objects of ``generate_vectors``, without their expected outputs."""
    if edges:
        yield from edge_cases(rules)
    rng = random.Random(seed)
    width = max(4, len(str(count)))
    for k in range(1, count + 1):
        yield random_round(rng, rules, f"random-{k:0{width}d}")


def generate_vectors(
    rules: Rules, count: int, seed: int, *, edges: bool = True, progress: Callable[[int], None] | None = None
) -> Iterator[dict[str, Any]]:
    """The edge cases (unless ``edges`` is false), then ``count`` random rounds from ``seed``, each with its
    expected output. ``progress``, if given, is called with the number of vectors made so far."""
    for made, case in enumerate(generate_cases(rules, count, seed, edges=edges), start=1):
        yield make_vector(case)
        if progress is not None:
            progress(made)


def __dir__() -> list[str]:
    return list(__all__)
