"""Settling a round: who pays whom, and why, unit by unit (RULES.md section 3, docs/RULES.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, overload

import numpy as np
import numpy.typing as npt

import chinese_poker._core as _core
from chinese_poker._threads import thread_count
from chinese_poker.hand import Hand, RulesLike, rules_or_default
from chinese_poker.rules import core_spec
from chinese_poker.settlement import Settlement

__all__ = ["DECIDED_BY", "MAX_STAKE", "HandLike", "SettleDetail", "settle", "settle_batch"]

#: The greatest stake of one pair (the core's cap): with it and the rules' caps no total overflows.
MAX_STAKE: int = _core.MAX_STAKE

HandLike = Hand | Sequence[Any]


def _as_hand(value: HandLike, index: int, extra_suits: str = "", jokers: int = 0) -> Hand:
    if isinstance(value, Hand):
        return value
    if isinstance(value, (bytes, bytearray, Mapping)) or not isinstance(value, (str, Sequence, np.ndarray)):
        raise TypeError(
            f"settle: hands[{index}] must be a Hand, a (front, middle, back) triple, 13 cards or hand text, "
            f"got {type(value).__name__}"
        )
    try:
        if isinstance(value, str):
            return Hand.parse(value, extra_suits=extra_suits, jokers=jokers)
        if len(value) == 3:
            return Hand(*value, extra_suits=extra_suits, jokers=jokers)
        return Hand.from_cards(value, extra_suits=extra_suits, jokers=jokers)
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
    """Settle one round between 2 to 6 players under ``rules`` (default: the ``pagat`` preset); 5 and 6
    players need rules whose pack adds suits (``extra_suits``).

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
        raise TypeError(f"settle: hands must be a sequence of 2 to 6 hands, got {type(hands).__name__}")
    try:
        rules = rules_or_default(rules)
    except TypeError as error:
        raise TypeError(f"settle: {error}") from None
    if isinstance(hands, (str, Hand)) or not 2 <= len(hands) <= 6:
        given = 1 if isinstance(hands, (str, Hand)) else len(hands)
        count = f"{given} hand" if given == 1 else f"{given} hands"
        raise ValueError(f"a round has 2 to 6 players (5 and 6 with added suits), got {count}")
    players = tuple(_as_hand(h, k, rules.extra_suits, rules.jokers) for k, h in enumerate(hands))
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
    """The banker's seat as the core takes it; the core checks the range."""
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


#: What ``SettleDetail.decided_by`` codes mean: ``DECIDED_BY[code]`` is the name ``settle`` reports.
DECIDED_BY: tuple[str, ...] = tuple(m.name for m in sorted(_core.DecidedBy, key=lambda m: m.value))


@dataclass(frozen=True)
class SettleDetail:
    """Every pair of every round of a ``settle_batch(..., detail=True)`` call, as columns (read-only numpy
    arrays): what a server stores to audit or replay a batch. R rounds of P players; the Q = P (P - 1) / 2
    pairs of a round are ``pairs`` ((0, 1), (0, 2), ... as in ``Settlement.pairs``), every amount from the
    pair's i's view, each value the one ``settle`` gives for that round and pair.

    - ``net`` (R, P) int64: each player's net units (what ``settle_batch`` returns without detail).
    - ``rows`` (R, Q, 3) int8: the rows as laid, +1 i wins, -1 j wins, 0 tie; 0 where ``rows_known`` is
      false (a side declared a natural: ``PairResult.rows`` is ``None`` there).
    - ``rows_known`` (R, Q) bool.
    - ``decided_by`` (R, Q) uint8: ``DECIDED_BY[code]`` is ``PairResult.decided_by``.
    - ``scoop`` (R, Q) int8: +1 i scooped j, -1 j scooped i, 0 neither.
    - ``subtotal``, ``stake``, ``home_run``, ``units`` (R, Q) int64: as in ``PairResult``; ``home_run`` is
      the home-run multiplier applied to the pair (1 when none), ``units = subtotal * stake * home_run``.
    - ``foul`` (R, Q, 2) bool: whether i, j fouled.
    - ``natural`` (R, Q, 2) int8: the natural i, j hold as an index into ``NATURAL_NAMES``, -1 for none.
    - ``royalties`` (R, Q, 2, 3) int64: the row royalties (front, middle, back) of i, j.
    - ``bet`` (R, Q) int64: the pair's bet (banker rounds; 1 otherwise).
    - ``fantasyland_cards`` (R, P) uint8: each player's ``fantasyland_cards``.
    - ``player_foul`` (R, P) bool, ``player_natural`` (R, P) int8 (as ``natural``) and ``player_home_run``
      (R, P) bool: each player's own foul, natural and home run (``PlayerResult.foul``, ``.natural``,
      ``.home_run``).

    In a banker round the pairs without the banker are not settled: ``decided_by`` there is
    ``DECIDED_BY.index("not_played")``, with ``rows`` 0, amounts, ``stake`` and ``bet`` 0, ``home_run`` 1.
    """

    pairs: tuple[tuple[int, int], ...]
    net: npt.NDArray[np.int64]
    rows: npt.NDArray[np.int8]
    rows_known: npt.NDArray[np.bool_]
    decided_by: npt.NDArray[np.uint8]
    scoop: npt.NDArray[np.int8]
    subtotal: npt.NDArray[np.int64]
    stake: npt.NDArray[np.int64]
    home_run: npt.NDArray[np.int64]
    units: npt.NDArray[np.int64]
    foul: npt.NDArray[np.bool_]
    natural: npt.NDArray[np.int8]
    royalties: npt.NDArray[np.int64]
    bet: npt.NDArray[np.int64]
    fantasyland_cards: npt.NDArray[np.uint8]
    player_foul: npt.NDArray[np.bool_]
    player_natural: npt.NDArray[np.int8]
    player_home_run: npt.NDArray[np.bool_]


def _batch_ints(values: Any, name: str) -> Any:
    """Integers of another dtype as int64 (a value that does not fit is refused here); anything else goes to
    the core as given, which checks dtype and shape."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iu" and values.dtype != np.int64:
        if values.size and values.dtype.kind == "u" and int(values.max()) > np.iinfo(np.int64).max:
            raise ValueError(f"{name}: {int(values.max())} does not fit an int64")
        return values.astype(np.int64)
    return values


def _batch_stakes(stakes: Any) -> Any:
    """Integer stakes of another dtype as int64 (a value that does not fit is refused here; the core checks
    the range); everything else goes to the core as given, which checks dtype and shape."""
    if isinstance(stakes, np.ndarray) and stakes.dtype.kind in "iu" and stakes.dtype != np.int64:
        if stakes.size and stakes.dtype.kind == "u" and int(stakes.max()) > np.iinfo(np.int64).max:
            raise ValueError(f"stakes: {int(stakes.max())} is not in 0..{MAX_STAKE}")
        return stakes.astype(np.int64)
    return stakes


@overload
def settle_batch(
    rounds: np.ndarray,
    rules: RulesLike | None = None,
    *,
    stakes: np.ndarray | None = None,
    declared: np.ndarray | None = None,
    surrender: np.ndarray | None = None,
    banker: np.ndarray | None = None,
    bets: np.ndarray | None = None,
    fantasyland: np.ndarray | None = None,
    detail: Literal[False] = False,
    threads: int = 1,
) -> npt.NDArray[np.int64]: ...
@overload
def settle_batch(
    rounds: np.ndarray,
    rules: RulesLike | None = None,
    *,
    stakes: np.ndarray | None = None,
    declared: np.ndarray | None = None,
    surrender: np.ndarray | None = None,
    banker: np.ndarray | None = None,
    bets: np.ndarray | None = None,
    fantasyland: np.ndarray | None = None,
    detail: Literal[True],
    threads: int = 1,
) -> SettleDetail: ...
def settle_batch(
    rounds: np.ndarray,
    rules: RulesLike | None = None,
    *,
    stakes: np.ndarray | None = None,
    declared: np.ndarray | None = None,
    surrender: np.ndarray | None = None,
    banker: np.ndarray | None = None,
    bets: np.ndarray | None = None,
    fantasyland: np.ndarray | None = None,
    detail: bool = False,
    threads: int = 1,
) -> npt.NDArray[np.int64] | SettleDetail:
    """Net units of many rounds at once, in C++ with the GIL released; each round settled as ``settle``
    settles it.

    ``rounds``: a C-contiguous uint8 array of shape (R, P, 13), P in 2..6 (5 and 6 need added suits), each
    player's front 3, middle 5 and back 5 card codes (a declared player's 13 in any order). Returns an int64
    array (R, P).

    The per-round inputs of ``settle``, each optional, as C-contiguous numpy arrays:
    ``stakes`` integers (R, P, P), or one (P, P) matrix for every round (symmetric, 0..``MAX_STAKE``;
    another integer dtype is converted to int64); ``declared`` bool (R, P): the player declares a natural
    (``Hand.declared``); ``surrender`` bool (R, P) (needs ``surrender_units > 0``). Without ``declared``
    nobody declares; under ``natural_declaration="auto"`` naturals are detected. Banker rounds: ``banker``
    integers (R,), the banker's seat in each round or -1 for a round without one, and ``bets`` integers
    (R, P), each player's bet 1..1000, read in banker rounds only. ``fantasyland`` bool (R, P): the player
    played this hand in fantasyland (needs ``fantasyland`` rules).

    ``detail=True`` returns a ``SettleDetail`` instead: every pair's rows, units, scoop, fouls, naturals,
    royalties, home run, bet and what decided it, as columns. ``threads``: how many threads share the
    rounds (1, the default: the calling thread only; 0: every core this process may use); the results are
    the same for any count.

    Every round is validated as ``settle`` validates it: a bad card, stake, declaration or surrender raises
    ``InputError`` (a ValueError) naming the round and player, that of the lowest bad round whatever
    ``threads``. A wrong dtype (TypeError) or shape (ValueError) names the argument, what it must be and
    what it is.
    """
    if not isinstance(rounds, np.ndarray):
        raise TypeError(
            f"settle_batch: rounds must be a numpy array of uint8 card codes, got {type(rounds).__name__}"
        )
    if not isinstance(detail, (bool, np.bool_)):
        raise TypeError(f"settle_batch: detail must be a bool, got {type(detail).__name__}")
    count = thread_count(threads, "settle_batch")
    try:
        resolved = rules_or_default(rules)
        # The table's Chi A needs 4 players in every round. The core says so per round
        # (after the round's cards, so a bad card is named first); an empty batch is refused here.
        if (
            resolved.ace_basis == "table"
            and rounds.ndim == 3
            and rounds.shape[0] == 0
            and rounds.shape[1] != 4
        ):
            raise ValueError(
                "rules knob 'ace_basis' = \"table\" needs rounds of 4 players (each player's ace_units x "
                f"(aces - 1) sums to zero only when four players hold the whole deck); got {rounds.shape[1]} "
                'players; use ace_basis = "pairwise" otherwise'
            )
        spec = core_spec(resolved)
        seats = _batch_ints(banker, "banker")
        arguments = (
            _batch_stakes(stakes),
            declared,
            surrender,
            seats,
            _batch_ints(bets, "bets"),
            fantasyland,
        )
        if not detail:
            return _core.settle_batch(rounds, spec, *arguments, count)
        columns = _core.settle_batch_detail(rounds, spec, *arguments, count)
    except TypeError as error:
        raise TypeError(f"settle_batch: {error}") from None
    for array in columns.values():
        array.setflags(write=False)
    players = rounds.shape[1]
    pairs = tuple((i, j) for i in range(players) for j in range(i + 1, players))
    return SettleDetail(pairs=pairs, **columns)


def __dir__() -> list[str]:
    return list(__all__)
