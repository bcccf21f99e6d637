"""Comparing another implementation's output file with the expected output, round by round.

``load_outputs(text)`` reads an output file (``chinese-poker score --format json|jsonl``, any other
implementation's file in the same format, or a conformance vectors file, whose ``expected`` objects are
used). ``compare_outputs(expected, actual)`` matches rounds by ``id`` (by position when ids are missing) and
compares each pair of rounds field by field (``formats.compare.compare_round``), listing every
``Disagreement``: the round, the player or pair, the row, the field and both values.

A comparison that would compare nothing fails: ``compare_outputs`` raises ``OutputFileError`` when the
expected list is empty or an expected round is not an output (it lacks ``net``, ``players`` or ``pairs``, as
a rounds file without expected results does).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from chinese_poker.formats.compare import MISSING, REQUIRED, Disagreement, compare_round
from chinese_poker.formats.records import OutputFileError, read_json_records

__all__ = [
    "OutputFileError",
    "compare_outputs",
    "load_outputs",
]


def load_outputs(text: str, source: str = "file") -> list[dict[str, Any]]:
    """The output rounds of a file's text: a JSON object, a list, or JSON Lines; a record with ``expected``
    (a conformance vector) stands for its ``expected`` object. Raises ``OutputFileError``."""
    if not text.strip():
        return []
    _, records = read_json_records(text)
    outputs = []
    for record in records:
        place = (
            f"{source} line {record.line}" if record.line is not None else f"{source} round {record.position}"
        )
        if record.error is not None:
            raise OutputFileError(f"{place}: {record.error}")
        data = record.data
        if isinstance(data, Mapping) and "expected" in data:
            data = data["expected"]
        if not isinstance(data, Mapping):
            raise OutputFileError(f"{place}: an output round must be an object, got {type(data).__name__}")
        outputs.append(dict(data))
    return outputs


def _round_key(output: Mapping[str, Any], position: int) -> Any:
    rid = output.get("id")
    if isinstance(rid, (str, int)) and not isinstance(rid, bool):
        return ("id", rid)
    return ("position", position)


def compare_outputs(
    expected: Sequence[Mapping[str, Any]],
    actual: Sequence[Mapping[str, Any]],
    *,
    ignore: Iterable[str] = (),
    strict: bool = False,
) -> list[Disagreement]:
    """Every disagreement between two lists of output rounds, rounds matched by ``id`` (else position).

    A round missing from ``actual`` or not in ``expected`` is a disagreement of field ``"round"``. Raises
    ``OutputFileError`` when ``expected`` is empty, holds a round that is not an output (no ``net``,
    ``players`` or ``pairs``) or holds an id twice.
    """
    ignore = frozenset(ignore)
    if not expected:
        raise OutputFileError("nothing to compare: the expected output holds no rounds")
    for position, output in enumerate(expected, start=1):
        lacking = [key for key in sorted(REQUIRED["round"]) if key not in output]
        if lacking:
            rid = output.get("id", f"#{position}")
            raise OutputFileError(
                f"expected round {json.dumps(rid, ensure_ascii=False)} is not an output: it has no "
                f"{', '.join(lacking)} (a rounds file without expected results?)"
            )
    actual_by_key: dict[Any, Mapping[str, Any]] = {}
    for position, output in enumerate(actual, start=1):
        actual_by_key.setdefault(_round_key(output, position), output)
    seen: set[Any] = set()
    found: list[Disagreement] = []
    for position, output in enumerate(expected, start=1):
        key = _round_key(output, position)
        if key in seen:
            raise OutputFileError(f"the expected file holds round {json.dumps(key[1])} twice")
        seen.add(key)
        rid = key[1] if key[0] == "id" else f"#{position}"
        other = actual_by_key.pop(key, None)
        if other is None:
            found.append(Disagreement(rid, "", "round", "present", None, missing=True))
            continue
        found.extend(compare_round({**output, "id": rid}, other, ignore=ignore, strict=strict))
    for key in actual_by_key:
        rid = key[1] if key[0] == "id" else f"#{key[1]}"
        found.append(Disagreement(rid, "", "round", MISSING, "present (not in the expected file)"))
    return found


def __dir__() -> list[str]:
    return list(__all__)
