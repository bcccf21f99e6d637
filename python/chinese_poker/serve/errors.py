"""The service's one error type and its JSON body.

Every failed request answers ``{"error": {"status": 422, "code": "bad_round", "message": "...", "round":
3, "player": 1}}``: ``message`` is the one line the command line prints for the same input (without the
``chinese-poker: error: <file>:`` prefix); ``round``, ``player`` and ``card`` are present when the error
names them, each a 0-based index as ``settle_batch`` counts: the round's place among the request's rounds
(0 for ``/v1/settle``), the player's seat, the card's place among the player's 13 (the packed layout:
front 3, middle 5, back 5).
"""

from __future__ import annotations

import re
from typing import Any

from chinese_poker.cli.common import dumps, one_line
from chinese_poker.formats.rounds import RoundError

__all__ = ["ApiError", "error_body", "seat_of"]

#: How the round format's messages name a player: ``player 2 (East)``, counting seats from 1 as a file's
#: reader does.
_PLAYER_LABEL = re.compile(r"player (\d+) \(")


def seat_of(label: str) -> int | None:
    """The 0-based seat of a player named ``player N (...)`` in a round's error, else None."""
    match = _PLAYER_LABEL.match(label)
    return int(match.group(1)) - 1 if match else None


class ApiError(Exception):
    """A request the service refuses: an HTTP ``status`` (4xx), a short machine-readable ``code`` and a
    one-line ``message``; the 0-based ``round``, ``player`` and ``card`` the error is about, when known;
    ``headers`` to add to the response (``Connection: close`` after a body that did not arrive)."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        round: int | None = None,
        player: int | None = None,
        card: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = " ".join(message.split())
        self.round = round
        self.player = player
        self.card = card
        self.headers = headers or {}

    @classmethod
    def from_round_error(
        cls, error: RoundError, round: int, status: int = 422, code: str = "bad_round"
    ) -> ApiError:
        """A round's error with the message the command line gives; ``round`` is the round's 0-based
        place in the request (when the error names a round at all)."""
        return cls(
            status,
            code,
            one_line(error),
            round=round if error.where else None,
            player=seat_of(error.player),
        )

    def to_dict(self) -> dict[str, Any]:
        """The ``"error"`` object of the response body."""
        data: dict[str, Any] = {"status": self.status, "code": self.code, "message": self.message}
        for key in ("round", "player", "card"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        return data


def error_body(error: ApiError) -> bytes:
    """The UTF-8 JSON body of an error response (lone surrogates escaped, so it always encodes)."""
    return (dumps({"error": error.to_dict()}) + "\n").encode("utf-8")


def __dir__() -> list[str]:
    return list(__all__)
