"""The hand checker: is a setting legal (and if not, why), and which naturals do its 13 cards hold.

``check_hand(hand, rules)`` returns a ``HandCheck``; its ``lines()`` are what ``chinese-poker check`` prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chinese_poker._render import sorted_text, text_table
from chinese_poker.arrange import arrange
from chinese_poker.cards import format_card
from chinese_poker.evaluation import describe
from chinese_poker.hand import ROW_NAMES, Hand, detect_natural, held_naturals
from chinese_poker.rules import Rules

__all__ = ["HandCheck", "check_hand", "held_patterns"]


def held_patterns(cards: Sequence[int], rules: Rules | None = None) -> list[str]:
    """Every natural kind (RULES.md 5) the 13 cards hold under the default knobs, whatever any rules list;
    in the pack of ``rules`` (its added suits and jokers: RULES.md 1.1, 1.2) when given."""
    pack = Rules() if rules is None else Rules(extra_suits=rules.extra_suits, jokers=rules.jokers)
    return list(held_naturals(cards, pack))


def _foul_reasons(why: Sequence[str], strengths: Sequence[int]) -> list[str]:
    front, middle, back = strengths
    reasons = []
    if "front_beats_middle" in why:
        reasons.append(f"the front ({describe(front)}) beats the middle ({describe(middle)})")
    if "middle_beats_back" in why:
        reasons.append(f"the middle ({describe(middle)}) beats the back ({describe(back)})")
    if "middle_equals_back" in why:
        reasons.append(f"the middle equals the back ({describe(back)}) and middle_vs_back is strict")
    return reasons


@dataclass(frozen=True)
class HandCheck:
    """The verdict on one hand: ``foul`` and its readable ``reasons``, the ``natural`` the rules count (or
    ``None``), every natural kind ``held``, and ``lines``: the report ``chinese-poker check`` prints."""

    foul: bool
    reasons: tuple[str, ...]
    natural: str | None
    held: tuple[str, ...]
    lines: tuple[str, ...]


def check_hand(hand: Hand, rules: Rules) -> HandCheck:
    """Check one hand under ``rules``: rows, legality (and a legal setting when fouled), naturals."""
    rules_name = rules.name or "these rules"
    facts = hand.facts(rules)
    lines = []
    foul = False
    reasons: list[str] = []
    if hand.is_declared:
        lines.append(f"declares a natural: {' '.join(format_card(c) for c in hand.cards)}")
    else:
        assert facts.strengths is not None  # a setting has strengths
        strengths = list(facts.strengths)
        rows = []
        for row, codes, strength, royalty in zip(
            ROW_NAMES, (hand.front, hand.middle, hand.back), strengths, facts.royalties
        ):
            extra = f"  (royalty {royalty})" if royalty else ""
            rows.append([row, " ".join(format_card(c) for c in codes or ()), describe(strength) + extra])
        lines += text_table(["row", "cards", "hand"], rows)[1:]
        foul = facts.foul
        if foul:
            reasons = _foul_reasons(facts.foul_reasons, strengths)
            lines.append(f"FOUL under {rules_name}: " + "; ".join(reasons))
            suggestion = arrange(hand.cards, rules).hand
            rows_text = [
                sorted_text(codes or ()) for codes in (suggestion.front, suggestion.middle, suggestion.back)
            ]
            lines.append(f"a legal setting (by arrange): {' / '.join(rows_text)}")
        else:
            lines.append(f"legal under {rules_name}: back >= middle >= front")
    natural = detect_natural(hand.cards, rules) if rules.naturals else None
    if natural is not None:
        how = "counts when declared" if rules.natural_declaration == "must_declare" else "counts (auto)"
        units = dict(rules.naturals)[natural]
        lines.append(f"natural under {rules_name}: {natural} ({units} units; {how})")
    elif rules.naturals:
        lines.append(f"natural under {rules_name}: none")
    else:
        lines.append(f"natural under {rules_name}: none ({rules_name} counts no naturals)")
    held = held_patterns(hand.cards, rules)
    lines.append("13-card patterns held: " + (", ".join(held) if held else "none"))
    return HandCheck(foul=foul, reasons=tuple(reasons), natural=natural, held=tuple(held), lines=tuple(lines))


def __dir__() -> list[str]:
    return list(__all__)
