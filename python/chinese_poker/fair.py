"""Provably fair dealing: a deal that nobody, the server included, can choose after the fact.

The server draws a secret ``server_seed`` and publishes ``commitment(server_seed)`` (its SHA-256) before
the deal; the players give ``client_seeds``; ``deal`` derives the cards from all of them and a ``nonce``
(the round's number); after the round the server reveals its seed and anyone re-deals with
``verify_deal``. The algorithm (docs/FAIR.md, with test vectors and re-implementations in other
languages) needs HMAC-SHA256 and nothing else:

- the byte stream is ``HMAC-SHA256(server_seed, message(c))`` for the block counters ``c = 0, 1, 2, ...``
  concatenated, ``message(c) = DOMAIN || u8(k) || (u8(len(seed)) || seed for each of the k client seeds)
  || u64be(nonce) || u32be(c)``;
- the pack is the rules' pack in code order: the 52 cards, the cards of each added suit again, the jokers;
- a forward Fisher-Yates shuffle: for ``i = 0 .. n-2``, ``m = n - i``, read 4 bytes as a big-endian
  ``x``; while ``x >= 2**32 - 2**32 % m`` (the top, incomplete residue band) read the next 4 bytes
  instead; swap positions ``i`` and ``i + x % m``. Every draw is uniform on ``0..m-1`` (no modulo bias);
- seat ``s`` holds positions ``13 s .. 13 s + 12`` of the shuffled pack.

Positions below ``i`` never change after step ``i``, so a deal of ``p`` seats stops after ``13 p`` steps:
the cards are those of the whole permutation. ``deal`` and ``deal_many`` run in the compiled core (its
own SHA-256 and HMAC, tested against ``hashlib``); ``deal_stream`` and ``shuffle`` are the same algorithm
in Python, on the standard library's ``hmac``.
"""

from __future__ import annotations

import hashlib
import hmac
import operator
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

import chinese_poker._core as _core
from chinese_poker.cards import DECK_SIZE, SUITS, parse_cards
from chinese_poker.rules import Rules

__all__ = [
    "DOMAIN",
    "MAX_NONCE",
    "DealCheck",
    "commitment",
    "deal",
    "deal_many",
    "deal_stream",
    "pack",
    "shuffle",
    "verify_deal",
    "verify_deal_detail",
]

#: The first bytes of every HMAC message: names the algorithm and its version.
DOMAIN = b"chinese-poker/deal/v1"
#: Nonces are the unsigned 64-bit integers.
MAX_NONCE = 2**64 - 1
#: A server seed holds 16 to 64 bytes (32 recommended, from ``secrets.token_bytes(32)``).
SERVER_SEED_BYTES = (16, 64)
#: 1 to 16 client seeds of 1 to 64 bytes each.
CLIENT_SEEDS = (1, 16)
CLIENT_SEED_BYTES = (1, 64)

_HAND = 13
_WORD = 4
_BLOCK = 32
_SPAN = 2**32


def _seed(value: object, name: str, sizes: tuple[int, int]) -> bytes:
    if not isinstance(value, (bytes, bytearray, memoryview)):
        hint = " (encode text first, e.g. seed.encode())" if isinstance(value, str) else ""
        raise TypeError(f"{name} must be bytes, got {type(value).__name__}{hint}")
    data = bytes(value)
    if not sizes[0] <= len(data) <= sizes[1]:
        raise ValueError(f"{name} must be {sizes[0]} to {sizes[1]} bytes, got {len(data)}")
    return data


def _client_seeds(values: object) -> tuple[bytes, ...]:
    if isinstance(values, (bytes, bytearray, memoryview, str)) or not isinstance(values, Sequence):
        raise TypeError(f"client_seeds must be a sequence of bytes values, got {type(values).__name__}")
    if not CLIENT_SEEDS[0] <= len(values) <= CLIENT_SEEDS[1]:
        raise ValueError(
            f"client_seeds must hold {CLIENT_SEEDS[0]} to {CLIENT_SEEDS[1]} seeds, got {len(values)}"
        )
    return tuple(_seed(value, f"client_seeds[{k}]", CLIENT_SEED_BYTES) for k, value in enumerate(values))


def _nonce(value: object) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"nonce must be an int, got {type(value).__name__}")
    number = operator.index(value)
    if not 0 <= number <= MAX_NONCE:
        raise ValueError(f"nonce must be in 0..2**64-1, got {number}")
    return int(number)


def _rules(value: object) -> Rules:
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        return Rules.preset(value)
    raise TypeError(f"rules must be Rules or a preset name, got {type(value).__name__}")


def commitment(server_seed: bytes) -> str:
    """The SHA-256 (64 lowercase hex digits) of ``server_seed``: published before the deal, it binds the
    server to its seed without revealing it."""
    return _digest(server_seed)


def _digest(server_seed: object) -> str:
    return hashlib.sha256(_seed(server_seed, "server_seed", SERVER_SEED_BYTES)).hexdigest()


def pack(rules: Rules | str) -> list[int]:
    """The rules' pack in code order: the 52 cards, each card of an added suit again, then the jokers
    (52, 53): the order the shuffle starts from."""
    return list(_pack_bytes(_rules(rules)))


@lru_cache(maxsize=64)
def _pack_bytes(rules: Rules) -> bytes:
    cards = list(range(DECK_SIZE))
    cards += [c for c in range(DECK_SIZE) if SUITS[c % 4] in rules.extra_suits]
    return bytes(cards + [DECK_SIZE + k for k in range(rules.jokers)])


def _seeds_prefix(server_seed: object, client_seeds: object) -> tuple[bytes, bytes]:
    """The HMAC key and the message's start: the domain and the length-prefixed client seeds."""
    key = _seed(server_seed, "server_seed", SERVER_SEED_BYTES)
    seeds = _client_seeds(client_seeds)
    parts = [DOMAIN, bytes([len(seeds)])]
    for seed in seeds:
        parts += [bytes([len(seed)]), seed]
    return key, b"".join(parts)


def deal_stream(server_seed: bytes, client_seeds: Sequence[bytes], nonce: int) -> Iterator[bytes]:
    """The deal's byte stream, one 32-byte HMAC-SHA256 block per counter 0, 1, 2, ... (endless)."""
    key, start = _seeds_prefix(server_seed, client_seeds)
    prefix = start + _nonce(nonce).to_bytes(8, "big")
    counter = 0
    while True:
        yield hmac.digest(key, prefix + counter.to_bytes(4, "big"), "sha256")
        counter += 1


def shuffle(cards: Sequence[int], blocks: Iterator[bytes], count: int | None = None) -> list[int]:
    """The forward Fisher-Yates shuffle of ``cards`` by the byte stream ``blocks`` (rejection sampling on
    big-endian 32-bit words); only the first ``count`` positions are settled (default: all)."""
    order = list(cards)
    n = len(order)
    steps = n - 1 if count is None else max(0, min(count, n - 1))
    # The words of as many blocks as the draws take without a rejection (each rejection is below
    # 2**-25 likely); a rejection that runs past them reads further blocks.
    stream = b"".join(next(blocks) for _ in range(-(-steps * _WORD // _BLOCK)))
    words = list(struct.unpack(f">{len(stream) // _WORD}I", stream))
    w = 0
    for i in range(steps):
        m = n - i
        limit = _SPAN - _SPAN % m
        while True:
            if w == len(words):
                words += struct.unpack(f">{_BLOCK // _WORD}I", next(blocks))
            x = words[w]
            w += 1
            if x < limit:
                break
        j = i + x % m
        order[i], order[j] = order[j], order[i]
    return order


def _seats(rules: Rules, players: object, size: int) -> int:
    most = min(size // _HAND, 4 + len(rules.extra_suits))
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"players must be an int, got {type(players).__name__}")
    if not 2 <= players <= most:
        raise ValueError(f"a pack of {size} cards deals 2 to {most} seats of 13, got {players}")
    return players


def deal(
    server_seed: bytes, client_seeds: Sequence[bytes], nonce: int, rules: Rules | str, players: int
) -> npt.NDArray[np.uint8]:
    """Each seat's 13 card codes, a (players, 13) uint8 array: the first ``13 * players`` cards of the
    rules' pack shuffled by the HMAC-SHA256 stream of the seeds and the nonce (module docstring).

    ``server_seed``: 16 to 64 bytes; ``client_seeds``: 1 to 16 bytes values of 1 to 64 bytes each;
    ``nonce``: 0..2**64-1; ``rules``: ``Rules`` or a preset name (their ``extra_suits`` and ``jokers``
    make the pack); ``players``: 2 to 4, one more per added suit. Bad values raise TypeError/ValueError.
    """
    # The usual call (bytes seeds, int nonce and seats in range, rules seen before) is checked and dealt
    # by the core in one step; every other call takes the checks below, which name what is wrong.
    entry = _PACKS.get(id(rules))
    if entry is not None and entry[0] is rules:
        dealt = _core.fair_deal_seats(server_seed, client_seeds, nonce, entry[1], players, entry[2])
        if dealt is not None:
            return dealt
    return _deal_checked(server_seed, client_seeds, nonce, rules, players)


# Each rules object (or preset name) seen by ``deal``, by identity: the object itself (which keeps its id
# from being reused), its pack and its most seats. Looking it up by ``id`` skips hashing every knob.
_PACKS: dict[int, tuple[object, bytes, int]] = {}
_MAX_PACKS = 256


def _deal_checked(
    server_seed: object, client_seeds: object, nonce: object, rules: object, players: object
) -> npt.NDArray[np.uint8]:
    key, prefix = _seeds_prefix(server_seed, client_seeds)
    number = _nonce(nonce)
    given = rules
    rules = _rules(rules)
    cards = _pack_bytes(rules)
    seats = _seats(rules, players, len(cards))
    if len(_PACKS) >= _MAX_PACKS:
        _PACKS.clear()
    _PACKS[id(given)] = (given, cards, min(len(cards) // _HAND, 4 + len(rules.extra_suits)))
    dealt = _core.fair_deal(key, prefix, cards, _HAND * seats, number)
    return np.frombuffer(dealt, dtype=np.uint8).reshape(seats, _HAND).copy()


def _nonces(values: object) -> npt.NDArray[np.uint64]:
    bad = f"nonces must be a range or a 1-D sequence of ints, got {type(values).__name__}"
    if isinstance(values, range):
        if len(values) and not (min(values) >= 0 and max(values) <= MAX_NONCE):
            raise ValueError(f"nonces must be in 0..2**64-1, got {values}")
        return (
            np.arange(values.start, values.stop, values.step, dtype=np.uint64) if len(values) else _NO_NONCES
        )
    if isinstance(values, np.ndarray):
        if values.ndim != 1 or (values.size and values.dtype.kind not in "iu"):
            raise TypeError(bad)
        if values.size and values.dtype.kind == "i" and int(values.min()) < 0:
            raise ValueError(f"nonces must be in 0..2**64-1, got {int(values.min())}")
        return values.astype(np.uint64)
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise TypeError(bad)
    numbers = []
    for value in values:
        try:
            numbers.append(_nonce(value))
        except TypeError:
            raise TypeError(bad) from None
        except ValueError as error:
            raise ValueError(f"nonces: {error}".replace("nonces: nonce", "nonces")) from None
    return np.array(numbers, dtype=np.uint64)


_NO_NONCES: npt.NDArray[np.uint64] = np.zeros(0, dtype=np.uint64)


def deal_many(
    server_seed: bytes, client_seeds: Sequence[bytes], nonces: object, rules: Rules | str, players: int
) -> npt.NDArray[np.uint8]:
    """``deal`` for each of ``nonces`` (a range or a 1-D sequence of ints 0..2**64-1) with the same seeds:
    a (len(nonces), players, 13) uint8 array, made in the core with the GIL released."""
    key, prefix = _seeds_prefix(server_seed, client_seeds)
    numbers = _nonces(nonces)
    rules = _rules(rules)
    cards = _pack_bytes(rules)
    seats = _seats(rules, players, len(cards))
    dealt = _core.fair_deals(key, prefix, cards, _HAND * seats, numbers)
    return dealt.reshape(len(numbers), seats, _HAND)


@dataclass(frozen=True)
class DealCheck:
    """The outcome of ``verify_deal_detail``: ``ok``, else ``failed`` (``"commitment"``, ``"players"`` or
    ``"cards"``), the ``seat`` (0-based) whose cards differ, and a ``message`` saying what differs."""

    ok: bool
    failed: str | None = None
    seat: int | None = None
    message: str = ""


def _dealt_rows(dealt: object, rules: Rules) -> list[list[int]]:
    if isinstance(dealt, np.ndarray):
        if dealt.ndim != 2:
            raise ValueError(f"dealt must be a (players, 13) array, got shape {dealt.shape}")
        return [[int(c) for c in row] for row in dealt]
    if isinstance(dealt, (str, bytes)) or not isinstance(dealt, Sequence):
        raise TypeError(f"dealt must be a sequence of seats' cards, got {type(dealt).__name__}")
    rows = []
    for seat, row in enumerate(dealt):
        try:
            rows.append(list(parse_cards(row, rules.extra_suits, rules.jokers)))
        except (ValueError, TypeError) as error:
            raise type(error)(f"dealt seat {seat}: {error}") from None
    return rows


def verify_deal_detail(  # noqa: PLR0917 - the published order: commitment, seeds, nonce, rules, deal
    commitment: str,
    server_seed: bytes,
    client_seeds: Sequence[bytes],
    nonce: int,
    rules: Rules | str,
    dealt: object,
) -> DealCheck:
    """Which check of ``verify_deal`` fails, if any: the seed's SHA-256 against the published commitment,
    then the number of seats, then each seat's cards against the re-deal (compared as multisets: the order
    within a hand is free). ``dealt``: a (players, 13) array of codes or a sequence of seats' cards (text or
    codes). Malformed arguments raise TypeError/ValueError as ``deal`` does."""
    if not isinstance(commitment, str):
        raise TypeError(f"commitment must be a hex string, got {type(commitment).__name__}")
    expected = _digest(server_seed)
    if not hmac.compare_digest(commitment.strip().lower().encode("ascii", "replace"), expected.encode()):
        return DealCheck(False, "commitment", None, "the server seed's SHA-256 is not the commitment")
    rules = _rules(rules)
    rows = _dealt_rows(dealt, rules)
    size = len(_pack_bytes(rules))
    most = min(size // _HAND, 4 + len(rules.extra_suits))
    if not 2 <= len(rows) <= most:
        message = f"dealt holds {len(rows)} seats, a pack of {size} cards deals 2 to {most}"
        return DealCheck(False, "players", None, message)
    again = deal(server_seed, client_seeds, nonce, rules, len(rows))
    for seat, (given, fresh) in enumerate(zip(rows, again)):
        if sorted(given) != sorted(int(c) for c in fresh):
            return DealCheck(False, "cards", seat, f"seat {seat} was dealt other cards than the seeds deal")
    return DealCheck(True)


def verify_deal(  # noqa: PLR0917 - the published order: commitment, seeds, nonce, rules, deal
    commitment: str,
    server_seed: bytes,
    client_seeds: Sequence[bytes],
    nonce: int,
    rules: Rules | str,
    dealt: object,
) -> bool:
    """Whether ``server_seed`` matches the published ``commitment`` and deals exactly ``dealt`` (each
    seat's cards, in any order within the seat) with ``client_seeds`` and ``nonce`` under ``rules``;
    ``verify_deal_detail`` says which check failed."""
    return verify_deal_detail(commitment, server_seed, client_seeds, nonce, rules, dealt).ok


def __dir__() -> list[str]:
    return list(__all__)
