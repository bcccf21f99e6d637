"""Data files shipped with chinese_poker (read with importlib.resources)."""

__all__: list[str] = []


def __dir__() -> list[str]:
    return list(__all__)
