"""Data files shipped with chinese_poker (read with importlib.resources)."""
