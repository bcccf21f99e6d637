"""The optional ``dealt`` cards of a player: a game server sends the 13 cards it dealt beside the setting
the player submitted, and the service refuses the round unless the submitted 13 are exactly those.

``dealt`` is a key of the service's requests only: ``split_dealt`` takes it out of a round object before
the round is read by the format's own reader (which knows nothing of it), and ``check_dealt`` compares
afterwards, naming the player and the card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chinese_poker._core import parse_cards
from chinese_poker.cards import format_card
from chinese_poker.formats.players import cards_value
from chinese_poker.formats.rounds import RoundError, default_names
from chinese_poker.hand import Hand

__all__ = ["DEALT_KEY", "check_dealt", "dealt_codes", "split_dealt"]

#: The player key holding the cards the game server dealt.
DEALT_KEY = "dealt"

_HAND_SIZE = 13


def split_dealt(data: Any) -> tuple[Any, dict[int, Any]]:
    """``data`` without any player's ``dealt`` (a shallow copy when there was one), and the ``dealt``
    values by seat. Anything that is not a round with a list of players is returned as it is, for the
    round reader to report."""
    if not isinstance(data, Mapping) or not isinstance(data.get("players"), list):
        return data, {}
    dealt: dict[int, Any] = {}
    players: list[Any] = []
    for seat, player in enumerate(data["players"]):
        if isinstance(player, Mapping) and DEALT_KEY in player:
            dealt[seat] = player[DEALT_KEY]
            players.append({key: value for key, value in player.items() if key != DEALT_KEY})
        else:
            players.append(player)
    if not dealt:
        return data, {}
    return {**data, "players": players}, dealt


def dealt_codes(value: object) -> list[int]:
    """The 13 distinct card codes of a ``dealt`` value (a card string or a list of cards); a
    ``ValueError`` naming what is wrong."""
    given = cards_value(value, DEALT_KEY)
    try:
        codes = list(parse_cards(given, "", 2))  # the jokers X1 and X2 may be dealt (RULES.md 1.2)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{DEALT_KEY}: {error}") from None
    if len(codes) != _HAND_SIZE:
        raise ValueError(f"{DEALT_KEY} must be {_HAND_SIZE} cards, got {len(codes)}")
    return codes  # distinct: the parser refuses a card given twice


def _label(seat: int, names: Sequence[str]) -> str:
    name = names[seat] if seat < len(names) else default_names(4)[seat]
    return f"player {seat + 1} ({name})"


def check_dealt(dealt: Mapping[int, Any], names: Sequence[str], hands: Sequence[Hand], where: str) -> None:
    """Each player with ``dealt`` cards submitted exactly those 13; else a ``RoundError`` naming the round
    (``where``), the player and the first card that differs."""
    for seat in sorted(dealt):
        label = _label(seat, names)
        try:
            codes = dealt_codes(dealt[seat])
        except ValueError as error:
            raise RoundError(str(error), where, label) from None
        submitted = list(hands[seat].cards)
        expected = set(codes)
        extra = [code for code in submitted if code not in expected]
        if extra:
            raise RoundError(
                f"{DEALT_KEY}: card {format_card(extra[0])} was submitted but not dealt", where, label
            )
        held = set(submitted)
        missing = [code for code in codes if code not in held]
        if missing:  # a submitted card given twice leaves a dealt one out
            raise RoundError(
                f"{DEALT_KEY}: card {format_card(missing[0])} was dealt but not submitted", where, label
            )


def __dir__() -> list[str]:
    return list(__all__)
