"""The presets of RULES.md section 6: one TOML file each, and the loader that reads them.

Each file holds ``source`` and ``description`` strings and the knobs that differ from the defaults of
RULES.md section 6 (optionally ``preset = "..."`` naming a base preset); every knob not listed takes its
default. A preset file is itself a valid rules document for ``Rules.load``. This module reads the files;
``chinese_poker.rules`` turns a document into ``Rules``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from chinese_poker._suggest import did_you_mean

__all__ = ["DEFAULT_PRESET", "PRESET_NAMES", "check_preset_name", "preset_document"]

#: The presets of RULES.md section 6, in its order; one TOML file each in this folder.
PRESET_NAMES: tuple[str, ...] = (
    "pagat", "pagat-bonus", "wikipedia-2-4", "wikipedia-1-6", "shisanzhang-hk", "shisanshui-app",
    "capsa-susun", "pusoy",
    "ofc",
    # Real tables
    "maubinh", "shisanshui-rtxux", "shisanshui-luosong", "shisanshui-puxian",
    # Packs with added suits
    "shisanshui-puxian-six",
    # Jokers
    "shisanshui-puxian-ghost",
)  # fmt: skip

#: The preset ``Rules()`` equals.
DEFAULT_PRESET = "pagat"


def check_preset_name(name: object) -> str:
    """``name`` when it names a preset, else a ``ValueError`` suggesting the closest one."""
    if not isinstance(name, str) or name not in PRESET_NAMES:
        hint = did_you_mean(name, PRESET_NAMES)
        raise ValueError(f"unknown preset {name!r}{hint}; presets: {', '.join(PRESET_NAMES)}")
    return name


def preset_document(name: str) -> Mapping[str, Any]:
    """The parsed TOML file of preset ``name`` (cached, read-only)."""
    return _read_preset_file(check_preset_name(name))


@cache
def _read_preset_file(name: str) -> Mapping[str, Any]:
    path = Path(__file__).with_name(f"{name}.toml")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:  # not a folder on disk (a zip, say): the resource reader finds it
        from importlib import resources  # noqa: PLC0415 - its import is a fifth of a start-up

        text = resources.files(__name__).joinpath(f"{name}.toml").read_text(encoding="utf-8")
    return MappingProxyType(tomllib.loads(text))


def __dir__() -> list[str]:
    return list(__all__)
