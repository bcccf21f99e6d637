"""What the service tells about itself and its rules: version and engine, the presets and one preset's
every knob (the JSON ``chinese-poker rules NAME --format json`` prints), a dealt round (the round
``chinese-poker deal --format input`` prints) and health."""

from __future__ import annotations

import platform
import random
from collections.abc import Mapping

from chinese_poker._version import __version__
from chinese_poker.cli.common import dumps
from chinese_poker.cli.deal import deal_round
from chinese_poker.formats.rounds import ENGINE, parse_round, round_input
from chinese_poker.presets import DEFAULT_PRESET, PRESET_NAMES
from chinese_poker.rules import KNOBS, Rules
from chinese_poker.serve.bodies import Reply, query_int, query_rules
from chinese_poker.serve.config import Limits
from chinese_poker.serve.errors import ApiError

__all__ = ["API_VERSION", "deal", "health", "preset_rules", "presets", "version"]

#: The version of the HTTP interface (the ``/v1`` of every path).
API_VERSION = "v1"

_MAX_SEED = 2**63 - 1


def _json(data: object, indent: int | None = None) -> Reply:
    return Reply((dumps(data, indent) + "\n").encode("utf-8"))


def health() -> Reply:
    """``GET /v1/health``: ``{"status": "ok"}`` while the service answers."""
    return _json({"status": "ok"})


def version(limits: Limits) -> Reply:
    """``GET /v1/version``: the engine (as every output carries it), the API version, the Python running
    the service, the presets, the knobs and the limits in force."""
    return _json(
        {
            "engine": dict(ENGINE),
            "api": API_VERSION,
            "version": __version__,
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "presets": list(PRESET_NAMES),
            "default_preset": DEFAULT_PRESET,
            "knobs": list(KNOBS),
            "limits": limits.to_dict(),
        }
    )


def presets() -> Reply:
    """``GET /v1/rules``: every preset with its description and source; the first is the default."""
    return _json(
        {
            "default": DEFAULT_PRESET,
            "presets": [
                {
                    "name": name,
                    "description": Rules.preset_description(name),
                    "source": Rules.preset_source(name),
                }
                for name in PRESET_NAMES
            ],
        }
    )


def preset_rules(name: str) -> Reply:
    """``GET /v1/rules/{name}``: every knob of preset ``name``, the bytes ``chinese-poker rules NAME
    --format json`` prints."""
    rules = query_rules({"rules": name})
    assert rules is not None
    return Reply((rules.to_json() + "\n").encode("utf-8"))


def deal(query: Mapping[str, str]) -> Reply:
    """``GET /v1/deal?players=4&seed=7&rules=pagat``: a random round, each hand arranged by ``arrange``,
    as the input object ``chinese-poker deal --format input`` prints for the same seed and rules."""
    rules = query_rules(query) or Rules.preset()
    # The rules' pack: 4 players, one more per added suit (RULES.md 1.1); jokers seat nobody.
    players = query_int(query, "players", 4, 2, 4 + len(rules.extra_suits))
    seed = query_int(query, "seed", None, 0, _MAX_SEED)
    assert players is not None
    if seed is None:
        seed = random.SystemRandom().randrange(10**6)
    try:
        data = deal_round(rules, players, seed)
    except ValueError as error:  # pragma: no cover - players and seed are checked above
        raise ApiError(422, "bad_request", str(error)) from None
    rnd = parse_round(data, rules=rules, override_rules=True)
    return _json(round_input(rnd), 2)


def __dir__() -> list[str]:
    return list(__all__)
