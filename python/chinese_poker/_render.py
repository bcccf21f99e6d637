"""Text rendering: ``Settlement.explain`` (``explain_settlement``) and the tables and card lists the
command line and the hand checker print."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from chinese_poker.cards import format_card
from chinese_poker.evaluation import describe
from chinese_poker.hand import ROW_NAMES

if TYPE_CHECKING:
    from chinese_poker.settlement import Settlement

__all__ = ["explain_settlement", "signed", "sorted_text", "text_table"]


def text_table(
    headers: Sequence[str], rows: Sequence[Sequence[str] | str], right: Sequence[int] = ()
) -> list[str]:
    """Aligned text columns (two spaces apart); columns whose index is in ``right`` are right-aligned. A row
    given as one string spans the columns from the second one on (it does not widen them)."""
    widths = [len(h) for h in headers]
    for row in rows:
        if isinstance(row, str):
            continue
        for k, cell in enumerate(row):
            widths[k] = max(widths[k], len(cell))

    def line(cells: Sequence[str] | str) -> str:
        if isinstance(cells, str):
            return (" " * (widths[0] + 2) + cells).rstrip()
        parts = [
            cell.rjust(widths[k]) if k in right else cell.ljust(widths[k]) for k, cell in enumerate(cells)
        ]
        return "  ".join(parts).rstrip()

    return [line(headers)] + [line(row) for row in rows]


def signed(value: int) -> str:
    """``+3``, ``-2`` or ``0``."""
    return f"{value:+d}" if value else "0"


def sorted_text(codes: Sequence[int]) -> str:
    """Cards as text, the most numerous rank first, then by rank high to low (``"8d 8h Ks"``)."""
    counts: dict[int, int] = {}
    for code in codes:
        counts[code // 4] = counts.get(code // 4, 0) + 1
    ordered = sorted(codes, key=lambda code: (-counts[code // 4], -(code // 4), -(code % 4)))
    return " ".join(format_card(code) for code in ordered)


_LEGEND = (
    "(pair i v j, amounts from i's view. rows F M B: front, middle and back, +1 won, -1 lost, 0 tied; by: "
    "what decided the pair; rows, roy, ovr, scoop: units of the rows, royalties, overall unit and scoop "
    "bonus; x: scoop multiplier; nat, surr: natural and surrender units; stake; HR: home run "
    "multiplier; units: what j pays i)"
)


_EXTENDED_LEGEND = (
    "(false: false-declaration units; cap: pair_cap or home_run_cap clamped the pair; HR+: home-run bonus; "
    "aces: Chi A units (after the caps and the home run); horse: horse-card multiplier; bet: the "
    "non-banker's bet; units = (capped amount x HR + HR+ + aces) x horse x bet x stake)"
)


def explain_settlement(settlement: Settlement) -> str:
    """A readable account of ``settlement`` (``Settlement.explain``): each player's rows, each pair unit by
    unit, the net."""
    lines = [f"Settlement under {settlement.rules.name or 'custom rules'}, {len(settlement.players)} players"]
    for index, p in enumerate(settlement.players):
        tags = [
            t for t, on in (("FOUL", p.foul), ("surrendered", p.surrendered), ("HOME RUN", p.home_run)) if on
        ]
        if p.natural:
            tags.append(f"natural: {p.natural}")
        if p.fantasyland_cards:
            tags.append(f"fantasyland next hand: {p.fantasyland_cards} cards")
        if p.hand.is_declared and p.jokers_in(p.hand.cards):
            tags.append(p.jokers_in(p.hand.cards))
        lines.append(f"{settlement.names[index]}: {p.hand}" + (f"  [{', '.join(tags)}]" if tags else ""))
        if p.strengths is not None:
            cards = p.hand.cards
            row_cards = (cards[:3], cards[3:8], cards[8:])
            for name, codes, strength, royalty in zip(ROW_NAMES, row_cards, p.strengths, p.royalties):
                extra = f"  (royalty {royalty})" if royalty else ""
                jokers = p.jokers_in(codes)
                extra += f"  ({jokers})" if jokers else ""
                lines.append(f"    {name:<6} {describe(strength)}{extra}")
    lines.append("")
    headers = ["pair", "rows F M B", "by", "rows", "roy", "ovr", "scoop", "x", "nat", "surr", "stake",
               "HR", "units"]  # fmt: skip
    extended = settlement.extended
    if extended:
        headers[-1:] = ["false", "cap", "HR+", "aces", "horse", "bet", "units"]
    table: list[Sequence[str] | str] = []
    for pr in settlement.pairs:
        rows = " ".join(f"{r:+d}" for r in pr.rows) if pr.rows is not None else "-"
        cells = [
            f"{pr.i}v{pr.j}", rows, pr.decided_by, f"{pr.row_units:+d}", f"{pr.royalty_units:+d}",
            f"{pr.overall_units:+d}", f"{pr.scoop_bonus_units:+d}", str(pr.multiplier),
            f"{pr.natural_units:+d}", f"{pr.surrender_units:+d}", str(pr.stake), str(pr.home_run),
        ]  # fmt: skip
        if extended:
            capped = "yes" if pr.capped or pr.home_run_capped else "-"
            cells += [f"{pr.false_declaration_units:+d}", capped, f"{pr.home_run_bonus_units:+d}",
                      f"{pr.ace_units:+d}", str(pr.horse), str(pr.bet)]  # fmt: skip
        table.append([*cells, f"{pr.units:+d}"])
    lines += text_table(headers, table, right=range(3, len(headers)))
    lines += textwrap.wrap(_LEGEND, width=100, initial_indent="  ", subsequent_indent="  ")
    if extended:
        lines += textwrap.wrap(_EXTENDED_LEGEND, width=100, initial_indent="  ", subsequent_indent="  ")
    if settlement.banker is not None:
        bets = ", ".join(
            f"{name} {bet}"
            for name, bet in zip(settlement.names, settlement.bets or [1] * len(settlement.names))
        )
        lines.append(f"Banker: {settlement.names[settlement.banker]}; bets: {bets}")
    if settlement.rules.ace_basis == "table":
        aces = ", ".join(f"{name} {p.ace_units:+d}" for name, p in zip(settlement.names, settlement.players))
        lines.append(f"Chi A against the table (ace_units x (aces - 1), apart from the pairs): {aces}")
    lines.append("")
    lines.append("Net: " + ", ".join(f"{name} {n:+d}" for name, n in zip(settlement.names, settlement.net)))
    return "\n".join(lines)


def __dir__() -> list[str]:
    return list(__all__)
