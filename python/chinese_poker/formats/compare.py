"""Comparing one output round with another, field by field.

``compare_round(expected, actual)`` lists every ``Disagreement``: the player or pair, the row, the field and
both values. Players are matched by index and pairs by ``(i, j)``.

Every field of the expected output that the actual output also has is compared. A field the actual output
lacks is a disagreement when it is required (``REQUIRED``: the round's ``net``, ``players`` and
``pairs``; each player's ``net``, ``foul``, ``natural``, ``fantasyland_cards`` and ``ace_units``; each
pair's ``rows`` and ``units``), or for every field with ``strict``; fields named in ``ignore`` are
skipped. The ``rules`` fields are compared as rules (a preset name equals the same knobs spelled out);
numbers compare by value (``3`` equals ``3.0``). The round's ``engine`` (which implementation, which
version) is never compared, and its ``rules_digest`` only when both sides have it.

The comparer's ``FIELDS`` table names, level by level (round, player, pair, row), the fields that are not
compared by value and the method that compares each.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from chinese_poker.formats.rounds import rules_from_value
from chinese_poker.hand import ROW_NAMES

__all__ = [
    "COMPARED_WHEN_BOTH",
    "MISSING",
    "NOT_COMPARED",
    "REQUIRED",
    "Disagreement",
    "compare_round",
]

#: Fields that must be present in the actual output, by level.
REQUIRED: Mapping[str, frozenset[str]] = {
    "round": frozenset({"net", "players", "pairs"}),
    "player": frozenset({"net", "foul", "natural", "fantasyland_cards", "ace_units"}),
    "pair": frozenset({"rows", "units"}),
}

#: Round fields never compared: which implementation (and version) wrote the output.
NOT_COMPARED: frozenset[str] = frozenset({"engine"})
#: Round fields compared only when both sides have them (never a disagreement for being missing).
COMPARED_WHEN_BOTH: frozenset[str] = frozenset({"rules_digest"})

#: Stands for a value one side lacks (shown as ``(missing)``).
MISSING = object()


@dataclass(frozen=True)
class Disagreement:
    """One field that differs: the round's ``round_id``, ``where`` in the round (``"player 2 (East)"``,
    ``"pair 0v1 (A v B)"``, plus ``", row middle"``; empty for the round itself), the ``field`` and the two
    values (``None`` for ``actual`` means missing when ``missing`` is true)."""

    round_id: Any
    where: str
    field: str
    expected: Any
    actual: Any
    missing: bool = False

    def __str__(self) -> str:
        place = f"round {json.dumps(self.round_id, ensure_ascii=False)}"
        if self.field == "round":
            return (
                f"{place}: missing from the actual output"
                if self.missing
                else f"{place}: not in the expected output"
            )
        if self.where:
            place += f", {self.where}"
        if self.missing:
            return f"{place}: {self.field}: expected {_show(self.expected)}, actual is missing it"
        return f"{place}: {self.field}: expected {_show(self.expected)}, actual {_show(self.actual)}"


def _show(value: Any) -> str:
    if value is MISSING:
        return "(missing)"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return f"{value:+d}" if value else "0"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _equal(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return expected == actual
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(_equal(e, a) for e, a in zip(expected, actual))
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        return expected.keys() == actual.keys() and all(_equal(expected[k], actual[k]) for k in expected)
    return type(expected) is type(actual) and expected == actual


def _same_rules(expected: Any, actual: Any) -> bool:
    if _equal(expected, actual):
        return True
    try:
        return rules_from_value(expected) == rules_from_value(actual)
    except (ValueError, TypeError):
        return False


Handler = Callable[["_Comparer", str, str, Any, Any], None]


class _Comparer:
    """The comparison of one round: ``fields`` walks a level's fields and hands each to the method that the
    level's table (``FIELDS``) names for it; a field the table does not name compares by value."""

    def __init__(self, expected: Mapping[str, Any], ignore: frozenset[str], strict: bool) -> None:
        self.round_id = expected.get("id")
        self.ignore = ignore
        self.strict = strict
        self.found: list[Disagreement] = []
        listed = expected.get("players")
        players = listed if isinstance(listed, list) else []
        self.names = [p.get("name") if isinstance(p, Mapping) else None for p in players]
        #: The labels of the two sides of the pair being compared (``"North"``, or ``"#1"`` unnamed).
        self.sides: list[str] = []

    # ----- labels ----------------------------------------------------------------------------------------

    def name(self, index: Any) -> str | None:
        names = self.names
        if isinstance(index, int) and 0 <= index < len(names) and isinstance(names[index], str):
            return names[index]
        return None

    def player_label(self, index: int) -> str:
        return f"player {self.name(index)}" if self.name(index) else f"player #{index}"

    def pair_label(self, i: Any, j: Any) -> str:
        if self.name(i) and self.name(j):
            return f"pair {self.name(i)} v {self.name(j)}"
        return f"pair {i}v{j}"

    # ----- the walk ----------------------------------------------------------------------------------------

    def report(self, where: str, field: str, expected: Any, actual: Any) -> None:
        missing = actual is MISSING
        self.found.append(
            Disagreement(self.round_id, where, field, expected, None if missing else actual, missing)
        )

    def fields(self, level: str, where: str, expected: Mapping[str, Any], actual: Mapping[str, Any]) -> None:
        """Every field of ``expected`` at ``level`` (``"round"``, ``"player"``, ``"pair"`` or ``"row"``)."""
        table = self.FIELDS[level]
        required = REQUIRED.get(level, frozenset())
        for key, value in expected.items():
            if key in self.ignore or (level == "round" and key in NOT_COMPARED):
                continue
            other = actual.get(key, MISSING)
            if other is MISSING:
                if level == "round" and key in COMPARED_WHEN_BOTH:
                    continue
                if self.strict or key in required:
                    self.report(where, key, value, MISSING)
                continue
            handler = table.get(key)
            if handler is not None:
                handler(self, where, key, value, other)
            elif not _equal(value, other):
                self.report(where, key, value, other)

    def leaf_list(self, where: str, field: str, expected: Any, actual: Any, labels: Sequence[str]) -> None:
        """A list compared entry by entry (``labels`` name the entries), or as a whole when shapes differ."""
        if (
            isinstance(expected, list)
            and isinstance(actual, list)
            and len(expected) == len(actual)
            and len(expected) == len(labels)
        ):
            for label, e, a in zip(labels, expected, actual):
                if not _equal(e, a):
                    self.report(f"{where}, {label}" if where else label, field, e, a)
        elif not _equal(expected, actual):
            self.report(where, field, expected, actual)

    # ----- round fields ------------------------------------------------------------------------------------

    def skip(self, where: str, key: str, e: Any, a: Any) -> None:
        """A field that is not compared (the round's ``id`` matched it; ``explain`` is prose)."""

    def rules(self, where: str, key: str, e: Any, a: Any) -> None:
        if not _same_rules(e, a):
            self.report(where, key, e, a)

    def net(self, where: str, key: str, e: Any, a: Any) -> None:
        if isinstance(e, list) and isinstance(a, list) and len(e) == len(a):
            for index, (ev, av) in enumerate(zip(e, a)):
                if not _equal(ev, av):
                    self.report(where, f"net of {self.name(index) or f'#{index}'}", ev, av)
        elif not _equal(e, a):
            self.report(where, key, e, a)

    def players(self, where: str, key: str, e: Any, a: Any) -> None:
        if not isinstance(e, list) or not isinstance(a, list):
            self.report(where, key, e, a)
            return
        if len(e) != len(a):
            self.report(where, "number of players", len(e), len(a))
        for index, (pe, pa) in enumerate(zip(e, a)):
            label = self.player_label(index)
            if not isinstance(pe, Mapping) or not isinstance(pa, Mapping):
                self.report(label, "player", pe, pa)
                continue
            self.fields("player", label, pe, pa)

    def pairs(self, where: str, key: str, e: Any, a: Any) -> None:
        if not isinstance(e, list) or not isinstance(a, list):
            self.report(where, key, e, a)
            return
        actual_by_pair = {}
        for pa in a:
            if isinstance(pa, Mapping):
                actual_by_pair[(pa.get("i"), pa.get("j"))] = pa
        for pe in e:
            if not isinstance(pe, Mapping):
                continue
            i, j = pe.get("i"), pe.get("j")
            label = self.pair_label(i, j)
            pa = actual_by_pair.pop((i, j), None)
            if pa is None:
                self.report(label, "pair", "present", MISSING)
                continue
            self.sides = [self.name(k) or f"#{k}" for k in (i, j)]
            self.fields("pair", label, pe, pa)
        for i, j in actual_by_pair:
            self.report(self.pair_label(i, j), "pair", MISSING, "present")

    # ----- player fields -----------------------------------------------------------------------------------

    def player_rows(self, where: str, key: str, e: Any, a: Any) -> None:
        if not isinstance(e, Mapping) or not isinstance(a, Mapping):
            if not _equal(e, a):
                self.report(where, key, e, a)
            return
        for row in ROW_NAMES:
            re, ra = e.get(row, MISSING), a.get(row, MISSING)
            if re is MISSING:
                continue
            row_where = f"{where}, row {row}"
            if ra is MISSING:
                self.report(row_where, key, re, MISSING)
            elif isinstance(re, Mapping) and isinstance(ra, Mapping):
                self.fields("row", row_where, re, ra)
            elif not _equal(re, ra):
                self.report(row_where, key, re, ra)

    # ----- pair fields -------------------------------------------------------------------------------------

    def pair_rows(self, where: str, key: str, e: Any, a: Any) -> None:
        self.leaf_list(where, key, e, a, [f"row {row}" for row in ROW_NAMES])

    def per_side(self, where: str, key: str, e: Any, a: Any) -> None:
        self.leaf_list(where, key, e, a, [f"side of {side}" for side in self.sides])

    def royalties(self, where: str, key: str, e: Any, a: Any) -> None:
        sides = self.sides
        if isinstance(e, list) and isinstance(a, list) and len(e) == len(a) == len(sides):
            for side, se, sa in zip(sides, e, a):
                self.leaf_list(where, key, se, sa, [f"row {row}, side of {side}" for row in ROW_NAMES])
        elif not _equal(e, a):
            self.report(where, key, e, a)

    #: Each level's fields that are not compared by value, and the method that compares each.
    FIELDS: ClassVar[Mapping[str, Mapping[str, Handler]]] = {
        "round": {
            "id": skip,
            "rules": rules,
            "net": net,
            "players": players,
            "pairs": pairs,
            "explain": skip,
        },
        "player": {"rows": player_rows},
        "pair": {
            "rows": pair_rows,
            "foul": per_side,
            "natural": per_side,
            "surrendered": per_side,
            "royalties": royalties,
        },
        "row": {},
    }


def compare_round(
    expected: Mapping[str, Any],
    actual: Mapping[str, Any],
    *,
    ignore: Iterable[str] = (),
    strict: bool = False,
) -> list[Disagreement]:
    """Every disagreement between one expected output round and the actual one (see the module docstring)."""
    comparer = _Comparer(expected, frozenset(ignore), strict)
    comparer.fields("round", "", expected, actual)
    return comparer.found


def __dir__() -> list[str]:
    return list(__all__)
