"""Settling a round: who pays whom, and why, unit by unit (RULES.md section 3, docs/RULES.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Union

import numpy as np

from chinese_poker import _core
from chinese_poker.hand import Hand, RulesLike, rules_or_default
from chinese_poker.rules import core_spec
from chinese_poker.settlement import Settlement

__all__ = ["MAX_STAKE", "HandLike", "settle", "settle_batch"]

#: The greatest stake of one pair (the core's cap): with it and the rules' caps no total overflows.
MAX_STAKE = 1_000_000

HandLike = Union[Hand, Sequence[Any]]


def _as_hand(value: HandLike, index: int) -> Hand:
    if isinstance(value, Hand):
        return value
    if isinstance(value, (bytes, bytearray, Mapping)) or not isinstance(value, (str, Sequence, np.ndarray)):
        raise TypeError(
            f"settle: hands[{index}] must be a Hand, a (front, middle, back) triple, 13 cards or hand text, "
            f"got {type(value).__name__}"
        )
    try:
        if isinstance(value, str):
            return Hand.parse(value)
        if len(value) == 3:
            return Hand(*value)
        return Hand.from_cards(value)
    except (ValueError, TypeError) as error:
        raise type(error)(f"player {index}: {error}") from None


def _stakes_matrix(stakes: Any, players: int) -> np.ndarray | None:
    """The stakes as the core takes them (int64, P x P), or None. Only the conversion is checked here (shape,
    integer dtype, and that every value survives the conversion); the core checks the values."""
    if stakes is None:
        return None
    if isinstance(stakes, (str, bytes, Mapping)) or not isinstance(stakes, (Sequence, np.ndarray)):
        raise TypeError(f"settle: stakes must be a matrix of integers, got {type(stakes).__name__}")
    matrix = np.asarray(stakes)
    if matrix.shape != (players, players):
        raise ValueError(f"stakes must be a {players} x {players} matrix, got shape {matrix.shape}")
    if matrix.dtype.kind not in "iu" and not (
        matrix.dtype == object and all(isinstance(v, int) and not isinstance(v, bool) for v in matrix.flat)
    ):
        raise TypeError(f"stakes must be integers, got dtype {matrix.dtype}")
    int64 = np.iinfo(np.int64)
    for (i, j), value in np.ndenumerate(matrix):
        # Only what would not survive the conversion to int64 is refused here; the core checks the range.
        if not int64.min <= int(value) <= int64.max:
            raise ValueError(f"stakes[{i}][{j}] = {int(value)} is not in 0..{MAX_STAKE}")
    return matrix.astype(np.int64)


def settle(
    hands: Sequence[HandLike],
    rules: RulesLike | None = None,
    stakes: Any = None,
    surrender: Sequence[bool] | None = None,
    names: Sequence[str] | None = None,
    *,
    banker: int | None = None,
    bets: Sequence[int] | None = None,
    fantasyland: Sequence[bool] | None = None,
) -> Settlement:
    """Settle one round between 2 to 4 players under ``rules`` (default: the ``pagat`` preset).

    ``hands``: ``Hand`` objects (or ``(front, middle, back)`` triples, 13 cards front-middle-back, or the
    text ``str(hand)`` gives). ``rules``: ``Rules``, a preset name or a rules mapping. ``stakes``: an
    optional symmetric P x P matrix of ints 0..``MAX_STAKE`` multiplying each pair's result.
    ``surrender``: optional bools per player (needs ``surrender_units > 0``). ``names``: optional player
    names for ``explain()``. ``banker``: optional seat of the banker (a banker round: only the pairs with
    the banker are settled); ``bets``: optional ints 1..1000 per player (banker rounds only), each pair
    with the banker multiplied by the other player's bet. ``fantasyland``: optional bools per player,
    whether the player played this hand in fantasyland (needs ``fantasyland`` rules other than ``"off"``;
    RULES.md 4.2); each player's ``fantasyland_cards`` says who is dealt a fantasyland hand next.
    """
    if isinstance(hands, (bytes, bytearray, Mapping)) or not isinstance(
        hands, (str, Hand, Sequence, np.ndarray)
    ):
        raise TypeError(f"settle: hands must be a sequence of 2 to 4 hands, got {type(hands).__name__}")
    try:
        rules = rules_or_default(rules)
    except TypeError as error:
        raise TypeError(f"settle: {error}") from None
    if isinstance(hands, (str, Hand)) or not 2 <= len(hands) <= 4:
        given = 1 if isinstance(hands, (str, Hand)) else len(hands)
        count = f"{given} hand" if given == 1 else f"{given} hands"
        raise ValueError(f"a round has 2 to 4 players, got {count}")
    players = tuple(_as_hand(h, k) for k, h in enumerate(hands))
    flags = tuple(_surrender_flags(surrender, len(players)))
    in_fantasyland = None if fantasyland is None else _flags(fantasyland, len(players), "fantasyland")
    if names is not None:
        if isinstance(names, (str, bytes, Mapping)) or not isinstance(names, Iterable):
            raise TypeError(f"settle: names must be a sequence of strings, got {type(names).__name__}")
        names = tuple(names)
        if not all(isinstance(n, str) for n in names):
            raise TypeError(
                f"settle: names must be strings, got {', '.join(type(n).__name__ for n in names)}"
            )
        if len(names) != len(players):
            raise ValueError(f"names needs one string per player ({len(players)})")
    bet_values = _bets(bets, banker, len(players))
    cards = b"".join(bytes(h.cards) for h in players)
    result = _core.settle_round(
        cards,
        [h.is_declared for h in players],
        flags,
        _stakes_matrix(stakes, len(players)),
        core_spec(rules),
        banker=_banker_seat(banker, len(players)),
        bets=bet_values,
        fantasyland=in_fantasyland,
    )
    return Settlement(rules, players, result, surrendered=flags, names=names, bets=bet_values)


def _banker_seat(banker: object, players: int) -> int | None:
    """The banker's seat as the core takes it (settlement group, issue #10); the core checks the range."""
    if banker is None:
        return None
    if isinstance(banker, (bool, np.bool_)) or not isinstance(banker, (int, np.integer)):
        raise TypeError(
            f"settle: banker must be a seat number 0..{players - 1} or None, got {type(banker).__name__}"
        )
    return int(banker)


def _bets(bets: object, banker: object, players: int) -> tuple[int, ...] | None:
    """The bets as a tuple of ints (or None); their range and the banker are checked by the core."""
    if bets is None:
        return None
    if isinstance(bets, (str, bytes, Mapping)) or not isinstance(bets, (Sequence, np.ndarray)):
        raise TypeError(f"settle: bets must be a sequence of ints, got {type(bets).__name__}")
    values = list(bets)
    if len(values) != players:
        raise ValueError(f"bets needs one int per player ({players}), got {len(values)}")
    for index, value in enumerate(values):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"settle: bets[{index}] must be an int, got {type(value).__name__}")
    if banker is None:
        raise ValueError("bets are given but the round names no banker")
    return tuple(int(value) for value in values)


def _surrender_flags(surrender: Sequence[bool] | None, players: int) -> list[bool]:
    if surrender is None:
        return [False] * players
    return _flags(surrender, players, "surrender")


def _flags(values: Sequence[bool], players: int, what: str) -> list[bool]:
    """One bool per player, checked (``what`` names the argument in errors)."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, (Sequence, np.ndarray)):
        raise TypeError(f"settle: {what} must be a sequence of bools, got {type(values).__name__}")
    flags = list(values)
    if len(flags) != players:
        raise ValueError(f"{what} needs one flag per player ({players}), got {len(flags)}")
    for index, flag in enumerate(flags):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"settle: {what}[{index}] must be a bool, got {type(flag).__name__}")
    return [bool(flag) for flag in flags]


def settle_batch(rounds: np.ndarray, rules: RulesLike | None = None) -> np.ndarray:
    """Net units of many rounds at once, in C++ with the GIL released.

    ``rounds``: a C-contiguous uint8 array of shape (R, P, 13), P in 2..4, each player's front 3, middle 5 and
    back 5 card codes. Returns an int64 array (R, P). Under ``natural_declaration="auto"`` naturals are
    detected; nobody declares. A card twice in a round raises ValueError naming the round.
    """
    if not isinstance(rounds, np.ndarray):
        raise TypeError(
            f"settle_batch: rounds must be a numpy array of uint8 card codes, got {type(rounds).__name__}"
        )
    try:
        resolved = rules_or_default(rules)
        # [presets group] The table's Chi A needs 4 players in every round, even in an empty batch.
        if resolved.ace_basis == "table" and rounds.ndim == 3 and rounds.shape[1] != 4:
            raise ValueError(
                "rules knob 'ace_basis' = \"table\" needs rounds of 4 players (each player's ace_units x "
                f"(aces - 1) sums to zero only when four players hold the whole deck); got {rounds.shape[1]} "
                'players; use ace_basis = "pairwise" otherwise'
            )
        spec = core_spec(resolved)
        return _core.settle_batch(rounds, spec)
    except TypeError as error:
        raise TypeError(f"settle_batch: {error}") from None


def __dir__() -> list[str]:
    return list(__all__)
