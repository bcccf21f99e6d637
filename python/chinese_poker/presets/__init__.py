"""The presets of RULES.md section 6: one TOML file each, and the loader that reads them.

The TOML files are the source; the loader reads ``presets.json``, all of them parsed once by
``scripts/make_presets_json.py`` (importing ``tomllib`` would add about 8 % to a command's start-up; JSON is
parsed in C), and a test fails when it differs from the TOML files. Each file holds ``source`` and
``description`` strings and the knobs that differ from the defaults of RULES.md section 6 (optionally
``preset = "..."`` naming a base preset); every knob not listed takes its default. A preset file is itself
a valid rules document for ``Rules.load``. This module reads the files; ``chinese_poker.rules`` turns a
document into ``Rules``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import cache
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

#: The file holding every preset's TOML document as JSON (made by ``scripts/make_presets_json.py``).
_JSON_FILE = "presets.json"

#: The preset ``Rules()`` equals.
DEFAULT_PRESET = "pagat"


def check_preset_name(name: object) -> str:
    """``name`` when it names a preset, else a ``ValueError`` suggesting the closest one."""
    if not isinstance(name, str) or name not in PRESET_NAMES:
        hint = did_you_mean(name, PRESET_NAMES)
        raise ValueError(f"unknown preset {name!r}{hint}; presets: {', '.join(PRESET_NAMES)}")
    return name


def preset_document(name: str) -> Mapping[str, Any]:
    """The parsed TOML file of preset ``name`` (cached, read-only at the top level)."""
    return _read_preset_file(check_preset_name(name))


@cache
def _read_preset_file(name: str) -> Mapping[str, Any]:
    document: dict[str, Any] = _all_documents()[name]
    return MappingProxyType(document)


@cache
def _all_documents() -> dict[str, Any]:
    path = os.path.join(os.path.dirname(__file__), _JSON_FILE)
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError:  # not a folder on disk (a zip, say): the resource reader finds it
        from importlib import resources  # noqa: PLC0415 - its import is a fifth of a start-up

        text = resources.files(__name__).joinpath(_JSON_FILE).read_text(encoding="utf-8")
    documents: dict[str, Any] = json.loads(text)
    return documents


def __dir__() -> list[str]:
    return list(__all__)
