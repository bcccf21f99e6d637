"""Random rounds for the tests that compare the core's readers and writers with the general path: rules
drawn from the knob table, names and ids of every kind, rounds broken where only the core checks them, and
lines damaged for one reader or the other."""

from __future__ import annotations

import random
from typing import Any

from chinese_poker.presets import PRESET_NAMES
from chinese_poker.rules import Rules
from knob_draws import draw_knobs

NAMES = (
    'say "hi"',
    "back\\slash",
    "tab\there",
    "line\nbreak",
    "bell\x07 and \x7f",
    "Zoë",
    "北家",
    "🂡 spade",
    "lone \ud800 high",
    "lone \udc12",
    "sep\u2028",
    "/slash",
)
IDS: tuple[str | int, ...] = ("r-1", 'quote"id', "ü-id", "😀", -7, 10**30, 0, "\udfff")


def random_rules(rng: random.Random) -> Rules:
    """A preset, or every knob drawn from the knob table."""
    if rng.random() < 0.3:
        return Rules.preset(rng.choice(PRESET_NAMES))
    return Rules(**draw_knobs(lambda options: options[rng.randrange(len(options))]))


def spoil(rng: random.Random, data: dict[str, Any]) -> None:
    """Break the round now and then in a way only the core checks."""
    players = data["players"]
    how = rng.random()
    if how < 0.03 and "front" in players[0] and "front" in players[1]:
        players[1]["front"] = players[0]["front"]  # cards held twice (across players)
    elif how < 0.05:
        size = len(players)
        data["stakes"] = [[2_000_000 if i != j else 1 for j in range(size)] for i in range(size)]
    elif how < 0.07 and "banker" in data:
        data["bets"] = [1001] * len(players)
    elif how < 0.09 and "front" in players[0]:
        entry = players[0]
        entry["cards"] = " ".join(entry.pop(row) for row in ("front", "middle", "back"))
        entry["declare_natural"] = True  # most often not a natural: the core refuses it


def damage(rng: random.Random, line: str) -> str:
    """One line made subtly wrong (or merely odd) for one reader or the other."""
    choice = rng.randrange(9)
    if choice == 0:
        return line.replace('"front"', '"frnt"', 1)
    if choice == 1:
        return line.replace("s", "x", 1)
    if choice == 2:
        return line[: rng.randrange(1, len(line))]
    if choice == 3:
        return line.replace('"rules":"', '"rules":"no-such-', 1)
    if choice == 4:
        return line.replace("}", ',"players":[]}', 1)
    if choice == 5:
        return line.replace("[", "[\u00a0", 1)
    if choice == 6:
        return line.replace('"P1"', '"P\\u0032"', 1)
    if choice == 7:
        return line.replace("Ks", "Kh", 1)
    return line + " \t"
