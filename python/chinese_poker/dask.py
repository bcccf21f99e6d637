"""chinese-poker on Dask: settle and arrange dask arrays block by block, deal as a dask array, and run a
simulation's chunks on a ``dask.distributed`` cluster.

Needs the optional extra ``dask``: ``pip install '.[dask]'`` from a checkout, ``pip install
'chinese-poker[dask]'`` once the package is published.

The block functions (``settle_block``, ``arrange_block``, ``deal_block``) are plain module-level functions of
numpy arrays and picklable arguments, so other engines can call them too: Ray's ``Dataset.map_batches`` or
Spark's ``mapInArrow`` hand each a batch and its offset (docs/SCALING.md shows both). Errors name the global
row: a repeated card in round 1,000,123 of a dask array says ``round 1000123``, whatever block it is in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

import chinese_poker._core as _core
from chinese_poker._extras import install_hint
from chinese_poker.arrange import DEFAULT_STRATEGY, arrange_batch
from chinese_poker.dealing import deal_batch
from chinese_poker.hand import RulesLike, rules_or_default
from chinese_poker.rules import Rules
from chinese_poker.settle import settle_batch
from chinese_poker.simulate import DEFAULT_CHUNK, Simulation, StrategyLike
from chinese_poker.simulate import simulate as simulate_local

try:
    import dask.array as da
    from dask.delayed import delayed
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"chinese_poker.dask needs Dask (dask[array] and distributed): {install_hint('dask')}"
    ) from error

__all__ = ["arrange", "arrange_block", "deal", "deal_block", "settle", "settle_block", "simulate"]


def _globally_located(error: _core.InputError, offset: int, noun: str) -> _core.InputError:
    """The same error with the block's row index made global (round 3 of a block at 1000: round 1003)."""
    local = error.item
    if local is None or offset == 0:
        return error
    message = str(error)
    prefix = f"{noun} {local}"
    if message.startswith(prefix):
        message = f"{noun} {offset + local}" + message[len(prefix) :]
    located = _core.InputError(message)
    for name in ("kind", "player", "other", "position", "card"):
        setattr(located, name, getattr(error, name))
    located.item = offset + local
    return located


def settle_block(rounds: npt.NDArray[np.uint8], rules: Rules, offset: int = 0) -> npt.NDArray[np.int64]:
    """``settle_batch`` of one block of rounds (B, P, 13) whose first round is round ``offset`` overall."""
    try:
        return settle_batch(np.ascontiguousarray(rounds), rules)
    except _core.InputError as error:
        raise _globally_located(error, offset, "round") from None


def arrange_block(
    hands: npt.NDArray[np.uint8], rules: Rules, strategy: str = DEFAULT_STRATEGY, offset: int = 0
) -> npt.NDArray[np.uint8]:
    """``arrange_batch`` of one block of hands (B, 13) whose first hand is hand ``offset`` overall."""
    try:
        return arrange_batch(np.ascontiguousarray(hands), rules, strategy)
    except _core.InputError as error:
        raise _globally_located(error, offset, "hand") from None


def deal_block(
    seed: int, start: int, stop: int, players: int, *, extra_suits: str = "", jokers: int = 0
) -> npt.NDArray[np.uint8]:
    """Deals ``start`` to ``stop - 1`` of ``seed`` from the pack of 52 cards, the ``extra_suits`` and the
    ``jokers`` (``dealing.deal_batch``): the same cards on any worker."""
    return deal_batch(seed, start, stop, players, extra_suits=extra_suits, jokers=jokers)


def _offset(block_info: dict[Any, Any] | None) -> int:
    if not block_info:
        return 0
    return int(block_info[0]["array-location"][0][0])


def _settle_located(
    rounds: npt.NDArray[np.uint8], rules: Rules, block_info: Any = None
) -> npt.NDArray[np.int64]:
    return settle_block(rounds, rules, _offset(block_info))


def _arrange_located(
    hands: npt.NDArray[np.uint8], rules: Rules, strategy: str, block_info: Any = None
) -> npt.NDArray[np.uint8]:
    return arrange_block(hands, rules, strategy, _offset(block_info))


def _check_dask_array(value: object, name: str, ndim: int, shape_text: str) -> da.Array:
    if not isinstance(value, da.Array):
        raise TypeError(
            f"{name}: expected a dask array {shape_text} of uint8 card codes, got {type(value).__name__}"
        )
    if value.dtype != np.uint8:
        raise TypeError(f"{name}: expected dtype uint8, got {value.dtype}")
    if value.ndim != ndim:
        raise ValueError(f"{name}: expected shape {shape_text}, got {value.shape}")
    return value


def settle(rounds: da.Array, rules: RulesLike | None = None) -> da.Array:
    """Net units of a dask array of rounds (R, P, 13) uint8: a dask array (R, P) int64, block by block
    along the rounds (the player and card axes are brought into one chunk first)."""
    rounds = _check_dask_array(rounds, "settle", 3, "(R, P, 13)")
    resolved = rules_or_default(rules)
    # Each added suit seats one more player (RULES.md 1.2).
    most = 4 + len(resolved.extra_suits)
    if rounds.shape[2] != 13 or not 2 <= rounds.shape[1] <= most:
        raise ValueError(
            f"settle: expected shape (R, P, 13) with P in 2..{most} under these rules, got {rounds.shape}"
        )
    whole = rounds.rechunk({1: -1, 2: -1})
    return whole.map_blocks(
        _settle_located, resolved, dtype=np.int64, drop_axis=2, chunks=(whole.chunks[0], (rounds.shape[1],))
    )


def arrange(hands: da.Array, rules: RulesLike | None = None, strategy: str = DEFAULT_STRATEGY) -> da.Array:
    """Settings of a dask array of hands (N, 13) uint8: a dask array (N, 13) uint8, block by block."""
    hands = _check_dask_array(hands, "arrange", 2, "(N, 13)")
    if hands.shape[1] != 13:
        raise ValueError(f"arrange: expected shape (N, 13), got {hands.shape}")
    resolved = rules_or_default(rules)
    whole = hands.rechunk({1: -1})
    return whole.map_blocks(_arrange_located, resolved, strategy, dtype=np.uint8)


def deal(
    deals: int, players: int = 4, seed: int = 0, chunk: int = 100_000, *, rules: RulesLike | None = None
) -> da.Array:
    """``deals`` random deals as a dask array (deals, players, 13) uint8 in blocks of ``chunk`` deals;
    deal ``d`` is the same cards as ``dealing.deal_batch(seed, d, d + 1, players)``. With ``rules`` the
    cards come from the rules' pack (their ``extra_suits`` and ``jokers``, up to one more player per added
    suit), as ``simulate`` deals them; without, from one 52-card deck."""
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"deal: chunk must be an int 1 or more, got {chunk!r}")
    pack = rules_or_default(rules) if rules is not None else None
    extra_suits = pack.extra_suits if pack is not None else ""
    jokers = pack.jokers if pack is not None else 0
    # Checks seed and players against the pack up front, on the client.
    deal_batch(seed, 0, 0, players, extra_suits=extra_suits, jokers=jokers)
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 0:
        raise ValueError(f"deal: deals must be an int 0 or more, got {deals!r}")
    blocks = [
        da.from_delayed(
            delayed(deal_block, pure=True)(
                seed, start, min(start + chunk, deals), players, extra_suits=extra_suits, jokers=jokers
            ),
            shape=(min(start + chunk, deals) - start, players, 13),
            dtype=np.uint8,
        )
        for start in range(0, deals, chunk)
    ]
    if not blocks:
        return da.zeros((0, players, 13), dtype=np.uint8)
    return da.concatenate(blocks, axis=0)


def simulate(
    rules: RulesLike | None = None,
    strategies: Sequence[StrategyLike] = ("expected", "expected", "expected", "expected"),
    deals: int = 10_000,
    seed: int = 0,
    *,
    client: Any = None,
    chunk: int = DEFAULT_CHUNK,
    rotate: bool = False,
    retries: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> Simulation:
    """``chinese_poker.simulate`` with its chunks submitted to a ``dask.distributed`` ``client`` (default:
    the current client). The totals are the chunks' exact integer sums: identical to a single-process run.
    A chunk lost with its worker is run again (Dask reschedules it; a chunk whose task still fails is
    submitted again up to ``retries`` times), and each chunk is counted exactly once. ``progress(done,
    total)`` is called on the client as chunks finish."""
    if client is None:
        from distributed import get_client  # noqa: PLC0415  (only a cluster run needs distributed)

        client = get_client()
    executor = client.get_executor(pure=False)
    return simulate_local(
        rules,
        strategies,
        deals,
        seed,
        chunk=chunk,
        executor=executor,
        rotate=rotate,
        retries=retries,
        progress=progress,
    )


def __dir__() -> list[str]:
    return list(__all__)
