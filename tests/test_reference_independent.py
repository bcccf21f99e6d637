"""The reference (chinese_poker.reference) stands alone: it imports nothing of the package outside
``reference/``, reads card text with a parser of its own that accepts what ``chinese_poker.cards`` accepts,
and holds the presets as data read from docs/RULES.md, equal to what ``Rules.preset(name).resolved()`` gives.
"""

from __future__ import annotations

import ast
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from chinese_poker import reference
from chinese_poker.cards import parse_card, parse_cards
from chinese_poker.reference import cards as ref_cards
from chinese_poker.reference.evaluate import SUBSTITUTED, card_codes
from chinese_poker.rules import Rules

REFERENCE_DIR = Path(reference.__file__).parent
PACKAGE_DIR = REFERENCE_DIR.parent

# --------------------------------------------------------------------------------------------------------
# Imports: every module of reference/ imports the standard library and reference/ only.


def _imported_modules(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            assert node.module is not None
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", sorted(REFERENCE_DIR.glob("*.py")), ids=lambda path: path.name)
def test_reference_modules_import_the_standard_library_and_the_reference_only(path: Path) -> None:
    for name in _imported_modules(path):
        top = name.split(".")[0]
        if top == "chinese_poker":
            assert name == "chinese_poker.reference" or name.startswith("chinese_poker.reference."), (
                f"{path.name} imports {name}"
            )
        else:
            assert top == "__future__" or top in sys.stdlib_module_names, f"{path.name} imports {name}"


# --------------------------------------------------------------------------------------------------------
# The reference alone, in a fresh interpreter with the rest of the package (and numpy) unimportable.
#
# `import chinese_poker.reference` first runs chinese_poker/__init__.py, the package face, which loads the
# compiled core: importing the reference the ordinary way can never show that it does without. The child
# process below therefore puts an empty stand-in module for `chinese_poker` in sys.modules, with the real
# package directory as its path and none of its attributes: Python then finds chinese_poker/reference/
# where it is installed, under its own name, and never runs the package face. A meta-path finder makes
# every other module of the package (`chinese_poker._core`, `chinese_poker.cards`, `chinese_poker.rules`,
# ...) and numpy raise ImportError, so the reference evaluates and settles only if it needs none of them;
# the child also checks that the finder does block the core, and lists what got imported.

ALONE = r"""
import importlib.abc
import json
import sys
import types

package_dir = sys.argv[1]


class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        inside = name.startswith("chinese_poker.")
        own = name == "chinese_poker.reference" or name.startswith("chinese_poker.reference.")
        if (inside and not own) or name == "numpy" or name.startswith("numpy."):
            raise ImportError(f"{name} is blocked: the reference must not need it")
        return None


sys.meta_path.insert(0, Blocked())
face = types.ModuleType("chinese_poker", "an empty stand-in for the package face")
face.__path__ = [package_dir]
sys.modules["chinese_poker"] = face

try:
    import chinese_poker._core  # noqa: F401
except ImportError:
    pass
else:
    raise SystemExit("the compiled core was importable")

import chinese_poker.reference as ref


def setting(front, middle, back):
    return {"front": front, "middle": middle, "back": back}


e1 = [
    setting("6s 6h 6d", "4s 4h 4d 9s 9h", "Ks Kh Kd 8s 8h"),
    setting("Qs Qh 7s", "Js Jh Jd 2s 2h", "Ac 5s 5h 5d 5c"),
]
e2 = [
    setting("Ts Th Qs", "6s 5s 4s 3s 2h", "Ks Kh Kd 3h 3d"),
    setting("Ac Kc 7s", "Td Tc 9s 8s 6c", "Jh Jd Jc 7h 7d"),
    setting("Qd Qc 2c", "8h 7c 6d 5c 4c", "9h 9d 9c 8d 8c"),
    setting("Qh Js 6h", "5h 5d 4h 4d 3c", "As Ah Ad 2s 2d"),
]
e4_rules = ref.resolve_rules(
    "pagat",
    scoop_multiplier=2,
    royalties_in_multiplier=True,
    foul_policy="as_scooped",
    royalties={"middle": {"full_house": 2}, "back": {"four_of_a_kind": 8}},
    suit_tiebreak="highest_card",
    suit_order="shcd",
)
# E4 written in the other spellings the card text allows: no spaces, commas, 10, lower case, suit symbols.
e4 = [
    setting("KcTs2c", "9h,8d,7h,6d,5d", "qd js 10c 9d 8c"),
    setting("Q♥ Q♣ 9♣", "8♠ 8♡ 3♤ 3♦ 5♠", "JH JC 2H 2D 4C"),
    setting("Jd Kh Ks", "6c 9s Td Th Qs", "2s 3c 4d 5c 6s"),
    setting("Kd 6h 5h", "7s 7d 7c 4s 4h", "As Ah Ad Ac 3h"),
]
e6_table = [
    setting("Ac Ad Kc", "Ks Qd Js Td 9s", "Ah Jh 9h 7h 5h"),
    setting("Kd Qc 2c", "Qs Qh 8c 6c 3d", "3c 4c 5c 6d 7d"),
    setting("Kh Jc 2d", "Tc Th 8d 6s 3s", "8h 8s 5d 5s 2h"),
    setting("As Jd Ts", "9c 9d 7c 7s 6h", "4d 4h 4s 3h 2s"),
]
e6_pair = [
    setting("Qs Qh Qd", "9h 8h 7h 6h 5h", "Kc Qc Jc Tc 9c"),
    setting("2c 3d 4h", "As Kd 7c 6s 2h", "Ad Kh 8c 7s 3s"),
]
# RULES.md 1.2: one joker (X1, then the joker glyph) under jokers=1; RULES.md 1.1: spades twice.
jokers_b = setting("Kc Kd 2c", "8c 8d 8h 3c 3d", "As Ks Qs Js Ts")
jokers_a = setting("X1 Qh Qd", "9s 9h 9d 4c 4d", "7s 7h 7d 7c 2s")
glyph_a = setting("Qh Qd 2s", "9s 9h 9d 4c 4d", "7s 7h 7d 7c \U0001f0cf")
suited_a = setting("Qc Jd 3h", "9s 9h 9d 4c 4d", "As As Ah Ad Ac")
one_joker = ref.resolve_rules("pagat", jokers=1)
suited_b = setting("Kc Kd 2c", "8c 8d 8h 3c 3d", "Ks Qs Js Ts 9s")
out = {
    "e1": {p: ref.settle(e1, p)["net"] for p in ("pagat-bonus", "pagat", "wikipedia-2-4")},
    "e2": {p: ref.settle(e2, p)["net"] for p in ("pagat", "wikipedia-2-4", "shisanzhang-hk")},
    "e4": ref.settle(e4, e4_rules)["net"],
    "e5": [
        ref.evaluate("As 2d 3c 4h 5s") < ref.evaluate("2s 3d 4c 5h 6s"),
        ref.evaluate("Kh Qd Jc Ts 9h", wheel="second") < ref.evaluate("As 2d 3c 4h 5s", wheel="second"),
        ref.evaluate("Kh Kd 5c 4s 2h") < ref.evaluate("Kc Ks Ah 3d 2c"),
    ],
    "e6": [
        ref.settle(e6_pair, ref.resolve_rules("pagat", royalties="eastern"))["net"],
    ],
    "e6_table": ref.settle(e6_table, ref.resolve_rules("shisanzhang-hk")),
    "jokers": [
        ref.settle([jokers_a, jokers_b], one_joker)["net"],
        ref.settle([glyph_a, jokers_b], one_joker)["net"],
    ],
    "extra_suits": ref.settle([suited_a, suited_b], ref.resolve_rules("pagat", extra_suits="s"))["net"],
    "modules": sorted(name for name in sys.modules if name.split(".")[0] in ("chinese_poker", "numpy")),
}
print(json.dumps(out))
"""


def test_reference_evaluates_and_settles_with_the_core_and_the_package_blocked() -> None:
    done = subprocess.run(
        [sys.executable, "-I", "-c", ALONE, str(PACKAGE_DIR)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    # The worked examples of RULES.md section 7, as the section gives them.
    assert out["e1"] == {"pagat-bonus": [-3, 3], "pagat": [-1, 1], "wikipedia-2-4": [-2, 2]}
    assert out["e2"] == {
        "pagat": [3, -5, 3, -1],
        "wikipedia-2-4": [4, -8, 6, -2],
        "shisanzhang-hk": [6, -8, 3, -1],
    }
    assert out["e4"] == [-2, -4, -34, 40]
    assert out["e5"] == [True, True, True]
    assert out["e6"] == [[18, -18]]
    table = out["e6_table"]
    assert table["home_run"] == [True, False, False, False]
    assert [pair["units"] for pair in table["pairs"][:3]] == [12, 12, 12]  # 3, shot 6, home run 12
    assert table["net"][0] == 36
    assert sum(table["net"]) == 0
    # RULES.md 1.2 and 1.1: A nets +1 in each.
    assert out["jokers"] == [[1, -1], [1, -1]]
    assert out["extra_suits"] == [1, -1]
    # Of the package, only the reference (and the empty stand-in for its face) was imported; no numpy.
    own = {f"chinese_poker.reference.{path.stem}" for path in REFERENCE_DIR.glob("*.py")} - {
        "chinese_poker.reference.__init__"
    }
    assert set(out["modules"]) == {"chinese_poker", "chinese_poker.reference", *own}


# --------------------------------------------------------------------------------------------------------
# The presets: the reference's table (from docs/RULES.md) against the presets the library ships.


def test_reference_has_every_preset() -> None:
    assert sorted(reference.PRESETS) == sorted(Rules.presets())


@pytest.mark.parametrize("name", Rules.presets())
def test_reference_preset_equals_the_resolved_rules(name: str) -> None:
    assert reference.resolve_rules(name) == Rules.preset(name).resolved()


# --------------------------------------------------------------------------------------------------------
# The card parser: the same accepted text, the same codes and the same errors as chinese_poker.cards.

PACKS = [("", 0), ("s", 0), ("", 1), ("", 2), ("ch", 2)]


def _core_reading(cards: object, extra_suits: str, jokers: int) -> tuple[int, ...] | str:
    try:
        return parse_cards(cards, extra_suits, jokers)  # type: ignore[arg-type]
    except ValueError as error:
        return f"ValueError: {error}"
    except TypeError:
        return "TypeError"  # the library's message names its own function


def _reference_reading(cards: object, extra_suits: str, jokers: int) -> tuple[int, ...] | str:
    try:
        return card_codes(cards, extra_suits=extra_suits, jokers=jokers)  # type: ignore[arg-type]
    except ValueError as error:
        return f"ValueError: {error}"
    except TypeError:
        return "TypeError"  # the library's message names its own function


@pytest.mark.parametrize(
    "cards",
    [
        "As Kd 10h 9c",
        "AsKd10h9c",
        "as,kd, 10H ;9C",
        "tS Td",
        "A♠ K♦ 10♥ 9♣ 2♤ 3♢ 4♡ 5♧",
        "X1 x2",
        "X1 \U0001f0cf",
        "\U0001f0cf \U0001f0cf",
        "\U0001f0cf\U0001f0cf\U0001f0cf",
        "As\u00a0Kd\u3000Qh\tJc\nTc",
        "",
        "  ,; ",
        "As As",
        "As As As",
        "As Kd Xx",
        "As 11h",
        "As 1h",
        "As K",
        "AsK",
        "Asx",
        "X3",
        "X0 As",
        "As \ud800",
        "A\u0131",
        [51, 50, "10h", " Kd ", 52],
        [0, 0],
        [52, 53],
        [53],
        [54],
        [-1],
        [True],
        [1.0],
        ["AsKd"],
        ["X1", "\U0001f0cf"],
        ["\U0001f0cf"],
        (card for card in [0, 1, 2]),
        b"As",
        7,
    ],
)
@pytest.mark.parametrize(("extra_suits", "jokers"), PACKS)
def test_reference_reads_cards_as_the_library_does(cards: object, extra_suits: str, jokers: int) -> None:
    if not isinstance(cards, (str, list, int, bytes)):
        cards = list(cards)  # type: ignore[call-overload]
    assert _reference_reading(cards, extra_suits, jokers) == _core_reading(cards, extra_suits, jokers)


# Pieces card text is made of, right and wrong: ranks, suits, jokers, separators, and a few that are none.
PIECES = [
    *"23456789TJQKAtjqka",
    "10",
    *"cdhsCDHS",
    *"♣♦♥♠♧♢♡♤",
    "X1", "x2", "X", "\U0001f0cf",
    " ", ",", ";", "\t", "\u00a0", "\u3000", "  ",
    "1", "0", "Z", "é", "\u2660\u0301",
]  # fmt: skip


def test_reference_reads_random_card_text_as_the_library_does() -> None:
    rng = random.Random(20260301)
    accepted = 0
    for _ in range(3000):
        if rng.random() < 0.6:
            # Mostly well-formed: real cards in random spellings and separators.
            parts = []
            for _ in range(rng.randint(1, 6)):
                rank = rng.choice(["2", "9", "T", "t", "10", "J", "q", "K", "A", "a"])
                suit = rng.choice(["c", "D", "h", "S", "♣", "♢", "♥", "♤"])
                card = rng.choice([rank + suit, rank + suit, "X1", "x2", "\U0001f0cf"])
                parts.append(card + rng.choice(["", " ", ",", " ; ", "\u00a0"]))
            text = "".join(parts)
        else:
            text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 10)))
        extra_suits, jokers = rng.choice(PACKS)
        core = _core_reading(text, extra_suits, jokers)
        assert _reference_reading(text, extra_suits, jokers) == core, text
        accepted += not isinstance(core, str)
    assert accepted > 300  # the draw does reach valid hands


def test_reference_parse_card_and_format_card() -> None:
    for token in ["As", "10h", "td", "K♠", "X1", "x2", "\U0001f0cf", " Qc ", 0, 51, 52, 53]:
        assert ref_cards.parse_card(token) == parse_card(token)
    for token in ["", "As Kd", "AsKd", "Xx", "1h"]:
        with pytest.raises(ValueError, match="unknown card"):
            ref_cards.parse_card(token)
    with pytest.raises(ValueError, match=r"card code 54 is not in 0\.\.53"):
        ref_cards.parse_card(54)
    with pytest.raises(TypeError):
        ref_cards.parse_card(True)
    texts = [ref_cards.format_card(code) for code in (0, 8 * 4 + 2, 51, 52, 53)]
    assert texts == ["2c", "Th", "As", "X1", "X2"]


def test_substituted_rows_may_repeat_any_card() -> None:
    assert card_codes("As As As Kd Kd", extra_suits=SUBSTITUTED) == (51, 51, 51, 45, 45)
    with pytest.raises(ValueError, match=r"card X1 appears twice \(positions 0 and 1\)"):
        card_codes("X1 X1 As", extra_suits=SUBSTITUTED, jokers=2)
