"""What the core's path and the general path of the JSON round format (docs/JSON_FORMAT.md) both need, kept
apart from the general reader so that a command-line run on the core's path imports no more: the error of a
round, the most players a round holds, the output's shapes, how a round names its rules (``rules_from_value``,
``rules_reference``) and their digest (``rules_digest``), and whether the rules call for the real-table fields
of the output (``uses_settlement_knobs``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import chinese_poker._core as _core
from chinese_poker.knobs import KNOB_TABLE
from chinese_poker.rules import Rules

__all__ = [
    "DIGESTED_ALWAYS",
    "MAX_PLAYERS",
    "OUTPUT_SHAPES",
    "RoundError",
    "rules_digest",
    "rules_from_value",
    "rules_reference",
    "type_name",
    "uses_settlement_knobs",
]

#: The most players a round holds: 4 with one deck, plus one per added suit (RULES.md 1.1).
MAX_PLAYERS = 6

#: What an output round may hold: ``"full"`` (``round_output``, the default) or ``"net"``
#: (``round_net_output``, docs/JSON_FORMAT.md 2.1).
OUTPUT_SHAPES: tuple[str, ...] = ("full", "net")


class RoundError(ValueError):
    """A round that cannot be read or settled; ``str()`` is one line naming the round (and the player)."""

    def __init__(self, message: str, where: str = "", player: str = "") -> None:
        self.message = message
        self.where = where
        self.player = player
        parts = [part for part in (where, player) if part]
        super().__init__(": ".join([", ".join(parts), message]) if parts else message)

    def located(self, where: str) -> RoundError:
        """The same error, naming the round as ``where``."""
        return RoundError(self.message, where, self.player)


def type_name(value: object) -> str:
    """How a message names the JSON type of ``value``: "null", "a string", "an object", ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def rules_from_value(value: object) -> Rules:
    """Rules from a round's ``"rules"`` value: a preset name or a rules object (``Rules.from_dict``)."""
    if isinstance(value, str):
        return Rules.preset(value)
    if isinstance(value, Mapping):
        return Rules.from_dict(value)
    raise ValueError(f"rules must be a preset name or an object of knobs, got {type_name(value)}")


def rules_reference(rules: Rules) -> str | dict[str, Any]:
    """How a round names its rules: the preset name when the rules are a preset, else every knob."""
    return rules.name if rules.name is not None else rules.to_dict()


# The knobs the digest hashed when it was defined, each hashed whatever its value.
DIGESTED_ALWAYS: frozenset[str] = frozenset(
    {
        "wheel", "suit_tiebreak", "suit_order", "middle_vs_back", "overall_unit", "overall_basis",
        "scoop_bonus", "scoop_multiplier", "royalties_in_multiplier", "home_run_multiplier",
        "home_run_min_opponents", "royalties", "royalty_mode", "royalty_condition", "royalty_cancel",
        "foul_policy", "foul_pays_royalties", "naturals", "natural_declaration", "natural_tiebreak",
        "quads_as_two_pairs", "trips_as_pair_plus_single", "surrender_units", "three_straights_front_a23",
        "three_straights_front_qka", "three_straights_wheel", "three_flushes_distinct_suits",
        "quads_as_trips", "row_base", "ace_units", "pair_cap", "home_run_cap", "home_run_bonus",
        "home_run_counts_naturals", "natural_vs_natural", "natural_settles_table", "natural_units_mode",
        "false_declaration_units", "horse_card", "horse_multiplier", "foul_vs_foul", "fantasyland",
        "ace_basis", "shooting", "home_run_scope", "extra_suits",
    }
)  # fmt: skip


def rules_digest(rules: Rules) -> str:
    """The SHA-256 (hex) of the canonical rules: ``rules.to_dict()`` without ``"preset"``, and without each
    knob outside ``DIGESTED_ALWAYS`` that is at its default, as compact JSON with sorted keys; equal rules
    give the same digest whatever they were named or spelled as, and a knob added later changes no digest
    of rules that leave it at its default."""
    return _digest_of(rules)


# Every output round carries the digest of its rules, and a file's rounds mostly share one Rules: each
# distinct Rules (immutable and hashable) is hashed once.
@lru_cache(maxsize=256)
def _digest_of(rules: Rules) -> str:
    data = rules.to_dict()
    data.pop("preset", None)
    defaults = Rules().to_dict()
    # A knob newer than the digest hashes only away from its default, so rules that leave it alone keep the
    # digest they always had and a stored result's digest stays valid.
    for knob in [k for k in data if k not in DIGESTED_ALWAYS and data[k] == defaults[k]]:
        del data[knob]
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
    # The core's SHA-256, not hashlib's: loading OpenSSL for one digest is 3 % of a command's start-up.
    return _core.fair_sha256(canonical.encode("utf-8")).hex()


#: The real-table settlement knobs (the knob table's group "real_table") and the value at which each
#: changes nothing, its default; horse_multiplier changes nothing without a horse card, so it is left out.
_NEUTRAL_SETTLEMENT_KNOBS: dict[str, Any] = {
    knob.name: knob.default
    for knob in KNOB_TABLE
    if knob.group == "real_table" and knob.name != "horse_multiplier"
}


def uses_settlement_knobs(rules: Rules) -> bool:
    """Whether ``rules`` use any real-table settlement knob: then a pair's breakdown carries
    ``EXTENDED_PAIR_FIELDS`` in the output (and in ``explain``); otherwise the output is as before."""
    if rules.foul_policy == "as_laid":
        return True
    return any(getattr(rules, knob) != neutral for knob, neutral in _NEUTRAL_SETTLEMENT_KNOBS.items())


def __dir__() -> list[str]:
    return list(__all__)
