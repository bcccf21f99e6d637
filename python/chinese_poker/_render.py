"""Text rendering shared by ``Settlement.explain``, the command line and the hand checker."""

from __future__ import annotations

from collections.abc import Sequence

from chinese_poker.cards import format_card

__all__ = ["signed", "sorted_text", "text_table"]


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


def __dir__() -> list[str]:
    return list(__all__)
