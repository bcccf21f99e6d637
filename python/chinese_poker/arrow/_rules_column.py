"""The ``rules`` column of a round batch: each round's rules as an index into the distinct rules the batch
names (a preset, the digest of a preset or of the default, or a JSON object of knobs)."""

from __future__ import annotations

import functools
import json
import re

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from chinese_poker.arrow._columns import bad
from chinese_poker.formats.round_parse import rules_digest
from chinese_poker.hand import rules_or_default
from chinese_poker.presets import PRESET_NAMES
from chinese_poker.rules import Rules

__all__ = ["default_rules", "rules_per_row"]

_DIGEST = re.compile(r"[0-9a-f]{64}")


def _rules_of_value(
    value: str, by_digest: dict[str, Rules], indices: npt.NDArray[np.int64], position: int
) -> Rules:
    """The rules a ``rules`` value (dictionary entry ``position``) names: a preset, the digest of a preset
    or of ``default``, or a JSON object of knobs."""
    if value in by_digest:
        return by_digest[value]
    try:
        if value.startswith("{"):
            return Rules.from_dict(json.loads(value))
        if _DIGEST.fullmatch(value):
            raise ValueError(f"digest {value[:12]}... is neither a preset's nor that of the rules given")
        return Rules.preset(value)
    except (ValueError, TypeError) as error:
        raise bad("rules", int(np.flatnonzero(indices == position)[0]), str(error)) from None


@functools.cache
def default_rules() -> Rules:
    """The rules of ``rules=None``, made once (Rules are frozen)."""
    return rules_or_default(None)


@functools.cache
def _preset_digests() -> dict[str, Rules]:
    """Every preset by its digest: made once, not once a batch (a fixed cost that small batches feel)."""
    out: dict[str, Rules] = {}
    for name in PRESET_NAMES:
        out.setdefault(rules_digest(Rules.preset(name)), Rules.preset(name))
    return out


def rules_per_row(batch: pa.RecordBatch, default: Rules) -> tuple[npt.NDArray[np.int64], list[Rules]]:
    """Each round's index into a list of distinct rules (a missing column or a null value: ``default``)."""
    if "rules" not in batch.schema.names:
        return np.zeros(batch.num_rows, dtype=np.int64), [default]
    column = batch.column("rules")
    kind = column.type.value_type if pa.types.is_dictionary(column.type) else column.type
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
        raise bad(
            "rules", None, f"must be a string (a preset name, a rules digest or rules JSON), got {kind}"
        )
    encoded = column.dictionary_encode() if not pa.types.is_dictionary(column.type) else column
    indices = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
    by_digest = {rules_digest(default): default}
    for digest, preset in _preset_digests().items():
        by_digest.setdefault(digest, preset)
    # One count of the values used; a value's first row is looked for only to name it in an error.
    counts = np.bincount(indices + 1, minlength=len(encoded.dictionary) + 1)[1:]
    values = encoded.dictionary.to_pylist()
    resolved: list[Rules] = [default]
    # Dictionary values that no round uses are skipped: the used ones map to their place in `resolved`.
    mapping = np.zeros(len(encoded.dictionary) + 1, dtype=np.int64)
    for position in np.flatnonzero(counts):
        mapping[position + 1] = len(resolved)
        resolved.append(_rules_of_value(values[position], by_digest, indices, int(position)))
    return mapping[indices + 1], resolved


def __dir__() -> list[str]:
    return list(__all__)
