"""The presets of RULES.md section 6, one TOML file each (data read by ``chinese_poker.rules``).

Each file holds ``source`` and ``description`` strings and the knobs that differ from the defaults of
RULES.md section 6 (optionally ``preset = "..."`` naming a base preset); every knob not listed takes its
default. A preset file is itself a valid rules document for ``Rules.load``.
"""
