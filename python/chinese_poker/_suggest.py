"""The one "did you mean" helper: every message about an unknown name suggests the closest known one."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["did_you_mean"]


def did_you_mean(word: object, known: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"`` for the known name closest to ``word``, or ``""`` when none is close."""
    if not isinstance(word, str):
        return ""
    import difflib  # noqa: PLC0415 - only an error needs it, and a command's start-up should not

    close = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def __dir__() -> list[str]:
    return list(__all__)
