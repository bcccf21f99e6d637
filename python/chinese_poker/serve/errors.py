"""The service's one error type and its JSON body.

Every failed request answers ``{"error": {"status": 422, "code": "bad_round", "message": "...", "round":
"line 3 (id \\"r3\\")", "player": "player 2 (East)"}}``: ``message`` is the one line the command line
prints for the same input (without the ``chinese-poker: error: <file>:`` prefix); ``round`` and ``player``
are present when the error names them.
"""

from __future__ import annotations

from typing import Any

from chinese_poker.cli.common import dumps, one_line
from chinese_poker.formats.rounds import RoundError

__all__ = ["ApiError", "error_body"]


class ApiError(Exception):
    """A request the service refuses: an HTTP ``status`` (4xx), a short machine-readable ``code`` and a
    one-line ``message``; ``round`` and ``player`` when a round's error names them."""

    def __init__(self, status: int, code: str, message: str, *, round: str = "", player: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = " ".join(message.split())
        self.round = round
        self.player = player

    @classmethod
    def from_round_error(cls, error: RoundError, status: int = 422, code: str = "bad_round") -> ApiError:
        """A round's error with the message the command line gives (round, player, what)."""
        return cls(status, code, one_line(error), round=error.where, player=error.player)

    def to_dict(self) -> dict[str, Any]:
        """The ``"error"`` object of the response body."""
        data: dict[str, Any] = {"status": self.status, "code": self.code, "message": self.message}
        if self.round:
            data["round"] = self.round
        if self.player:
            data["player"] = self.player
        return data


def error_body(error: ApiError) -> bytes:
    """The UTF-8 JSON body of an error response (lone surrogates escaped, so it always encodes)."""
    return (dumps({"error": error.to_dict()}) + "\n").encode("utf-8")


def __dir__() -> list[str]:
    return list(__all__)
