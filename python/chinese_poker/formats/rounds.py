"""The JSON round format (docs/JSON_FORMAT.md): reading rounds, settling them, writing the results.

A *round* is a JSON object::

    {"id": "r1", "rules": "pagat-bonus",
     "players": [
       {"name": "North", "front": "Ts Th Qs", "middle": "6s 5s 4s 3s 2h", "back": "Ks Kh Kd 3h 3d"},
       {"name": "East", "cards": "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s", "declare_natural": true}],
     "stakes": [[1, 2], [2, 1]]}

A file holds one round, a JSON list of rounds, or JSON Lines (one round per line). ``read_rounds`` splits a
text into raw rounds, ``parse_round`` checks one and builds a ``Round`` (its hands, names, stakes, id and
rules), ``settle_round`` settles it and ``round_output`` gives the output object: ``Settlement.to_dict()``
with the round's ``id`` and each player's ``name`` added. Every problem is a ``RoundError``: one line that
names the round and the player. The checks here and in ``formats.players`` (a player object, the stakes)
mirror ``schema/round.schema.json`` (no ``jsonschema`` needed at run time).
"""

from chinese_poker.formats.round_parse import (
    MAX_PLAYERS,
    METADATA_KEYS,
    ROUND_KEYS,
    Round,
    RoundError,
    default_names,
    load_schema,
    parse_round,
    rules_digest,
    rules_from_value,
    rules_reference,
)
from chinese_poker.formats.round_settle import (
    ENGINE,
    OUTPUT_SHAPES,
    iter_settled,
    round_input,
    round_net_output,
    round_output,
    settle_round,
)

__all__ = [
    "ENGINE",
    "MAX_PLAYERS",
    "METADATA_KEYS",
    "OUTPUT_SHAPES",
    "ROUND_KEYS",
    "Round",
    "RoundError",
    "default_names",
    "iter_settled",
    "load_schema",
    "parse_round",
    "round_input",
    "round_net_output",
    "round_output",
    "rules_digest",
    "rules_from_value",
    "rules_reference",
    "settle_round",
]


def __dir__() -> list[str]:
    return list(__all__)
