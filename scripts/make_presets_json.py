"""Make python/chinese_poker/presets/presets.json, the presets' TOML files read once, in one JSON file.

    python scripts/make_presets_json.py [--check]

The TOML files stay the presets' source (each says where its rules come from); the package reads their JSON
form because Python parses JSON in C, while importing ``tomllib`` alone would add about 8 % to a command's
start-up. ``--check`` writes nothing and exits 1 when the JSON file differs from what the TOML files give (the
test suite runs the same comparison).
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path

FOLDER = Path(__file__).resolve().parent.parent / "python" / "chinese_poker" / "presets"
OUTPUT = FOLDER / "presets.json"


def preset_names() -> list[str]:
    """The presets in the order of ``PRESET_NAMES`` (read from the package, which lists them)."""
    sys.path.insert(0, str(FOLDER.parent.parent))
    from chinese_poker.presets import PRESET_NAMES  # noqa: PLC0415 - after the path is set

    return list(PRESET_NAMES)


def presets_json() -> str:
    """The JSON text: one object, each preset's name to its TOML document, in ``PRESET_NAMES`` order."""
    documents = {
        name: tomllib.loads((FOLDER / f"{name}.toml").read_text(encoding="utf-8")) for name in preset_names()
    }
    return json.dumps(documents, ensure_ascii=False, indent=1) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 when they differ")
    args = parser.parse_args()
    text = presets_json()
    if args.check:
        same = OUTPUT.exists() and OUTPUT.read_text(encoding="utf-8") == text
        print(f"{OUTPUT}: {'up to date' if same else 'out of date: run scripts/make_presets_json.py'}")
        return 0 if same else 1
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
