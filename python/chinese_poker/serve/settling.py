"""Settling rounds for the service: one round (``settle_one``), a JSON Lines batch (``settle_lines``) and
net units only from packed card codes (``settle_packed``).

The first two give, byte for byte, what ``chinese-poker score --format jsonl`` writes for the same rounds:
each round is checked and settled by the command's own ``settle_record`` and written by the same
``round_output`` (or, for ``output=net``, ``round_net_output``) and ``dumps``. Only the service's own
additions are handled here: a player's ``dealt`` cards (``serve.dealt``) and the limits (``serve.config``).

A batch (without ``explain`` or ``receipt``) goes through the core's reader (``formats.net_stream``,
``formats.full_stream``): it settles and writes every round it takes and hands each other round
back in its place, for the general path above, which gives its answer or its error. Both write the same
bytes and the same errors for the same rounds.
"""

from __future__ import annotations

import io
from collections.abc import Mapping

import numpy as np

from chinese_poker._core import InputError
from chinese_poker.cli.common import dumps, one_line
from chinese_poker.cli.score import settle_record
from chinese_poker.formats.core_stream import CoreLines
from chinese_poker.formats.full_stream import full_stream
from chinese_poker.formats.net_stream import net_stream
from chinese_poker.formats.records import RawRound, stream_rounds
from chinese_poker.formats.rounds import OUTPUT_SHAPES, RoundError, round_net_output, round_output
from chinese_poker.rules import Rules
from chinese_poker.serve.bodies import (
    JSON_LINES,
    Reply,
    json_object,
    query_choice,
    query_flag,
    query_int,
    query_rules,
)
from chinese_poker.serve.config import Limits
from chinese_poker.serve.dealt import check_dealt, split_dealt
from chinese_poker.serve.errors import ApiError
from chinese_poker.serve.verify import receipt_key
from chinese_poker.settle import settle_batch

__all__ = [
    "BATCH_PARAMS",
    "NET_MEDIA_TYPE",
    "ONE_PARAMS",
    "PACKED_MEDIA_TYPE",
    "PACKED_PARAMS",
    "output_shape",
    "settle_lines",
    "settle_one",
    "settle_packed",
    "settled_line",
]

#: The body of ``/v1/settle/packed``: R x P x 13 card codes, one byte each.
PACKED_MEDIA_TYPE = "application/octet-stream"
#: Its answer: R x P net units, little-endian signed 64-bit integers.
NET_MEDIA_TYPE = "application/octet-stream"

#: The query parameters each endpoint takes (any other is a 422; ``players`` is required by the packed one).
ONE_PARAMS = ("rules", "explain", "receipt")
BATCH_PARAMS = ("rules", "explain", "output", "receipt")
PACKED_PARAMS = ("players", "rules")

_CARDS_PER_HAND = 13


def settled_line(
    raw: RawRound,
    rules: Rules | None,
    limits: Limits,
    *,
    explain: bool = False,
    output: str = "full",
    receipt: bool = False,
) -> str:
    """One raw round checked, settled and written as the line ``score --format jsonl`` writes (``output``:
    ``"full"`` or ``"net"``, as ``score --output``; ``receipt``: with its receipt, as ``score --receipts``);
    a bad round is a ``RoundError`` with the command's message."""
    if raw.error is None:
        players = raw.data.get("players") if isinstance(raw.data, Mapping) else None
        if isinstance(players, list) and len(players) > limits.max_players:
            raise RoundError(
                f"this service settles rounds of at most {limits.max_players} players, got {len(players)}",
                raw.where,
            )
        data, dealt = split_dealt(raw.data)
        if dealt:
            raw = RawRound(raw.position, raw.line, data=data)
    else:
        dealt = {}
    rnd, settlement = settle_record(raw, rules)
    if dealt:
        check_dealt(dealt, rnd.names, rnd.hands, raw.where)
    if output == "net":
        return dumps(round_net_output(rnd, settlement)) + "\n"
    out = round_output(rnd, settlement, explain=explain)
    if receipt:
        out["receipt"] = settlement.receipt(receipt_key())
    return dumps(out) + "\n"


def settle_one(body: bytes, query: Mapping[str, str], limits: Limits) -> Reply:
    """``POST /v1/settle``: one round object; the answer is its output object (the one line ``score
    --format jsonl`` writes for a file holding that round)."""
    rules = query_rules(query)
    explain = query_flag(query, "explain")
    receipt = query_flag(query, "receipt")
    raw = RawRound(1, None, data=json_object(body, "a round"))
    try:
        return Reply(settled_line(raw, rules, limits, explain=explain, receipt=receipt).encode("utf-8"))
    except RoundError as error:
        raise ApiError.from_round_error(error, 0) from None


def output_shape(query: Mapping[str, str], explain: bool) -> str:
    """The ``output`` query parameter: ``full`` (default) or ``net``; the explanation is part of the full
    output only."""
    output = query_choice(query, "output", OUTPUT_SHAPES, "full")
    if output == "net" and explain:
        raise ApiError(
            422, "bad_request", "explain=true needs output=full: the net output has no explanation"
        )
    return output


def _core_lines(body: bytes, rules: Rules | None, limits: Limits, output: str) -> Reply:
    """A batch through the core's reader (``formats.net_stream``, ``formats.full_stream``): the
    rounds it takes settled and written there, every other round by ``settled_line`` in its place (a round
    with ``dealt`` cards or too many players among them), and the same answer and the same error as the
    general path, round for round (the first bad round fails the request)."""
    stream = io.BytesIO(body)
    threads = limits.batch_threads
    if output == "net":
        items = net_stream(stream, rules, max_players=limits.max_players, threads=threads)
    else:
        items = full_stream(stream, rules, max_players=limits.max_players, threads=threads)
    parts: list[bytes] = []
    count = 0
    for item in items:
        if isinstance(item, CoreLines):
            if count + item.rounds > limits.max_rounds:
                raise ApiError(413, "too_many_rounds", f"more than {limits.max_rounds} rounds in one request")
            count += item.rounds
            parts.append(item.lines)
            continue
        parts.append(_general_line(item, rules, limits, count, output=output).encode("utf-8"))
        count += 1
    if not count:
        raise ApiError(422, "no_rounds", "no rounds")
    return Reply(b"".join(parts), JSON_LINES)


def _general_line(
    raw: RawRound, rules: Rules | None, limits: Limits, count: int, *, explain: bool = False,
    output: str = "full", receipt: bool = False,
) -> str:  # fmt: skip
    """One round of a batch by the general path, after ``count`` rounds: its line, or the request's error."""
    if count >= limits.max_rounds:
        raise ApiError(413, "too_many_rounds", f"more than {limits.max_rounds} rounds in one request")
    if raw.error is not None:
        raise ApiError.from_round_error(
            RoundError(raw.error, raw.where), raw.position - 1, 400, "malformed_json"
        )
    try:
        return settled_line(raw, rules, limits, explain=explain, output=output, receipt=receipt)
    except RoundError as error:
        raise ApiError.from_round_error(error, raw.position - 1) from None


def settle_lines(body: bytes, query: Mapping[str, str], limits: Limits, *, fast: bool = True) -> Reply:
    """``POST /v1/settle/batch``: JSON Lines rounds; the answer is what ``score FILE.jsonl --format jsonl``
    writes (with ``output=net``, what ``score --output net`` writes). The first bad round fails the request
    (as ``score`` without ``--keep-going``): a malformed or non-UTF-8 line is a 400, any other bad round a
    422, more than ``limits.max_rounds`` rounds a 413. ``fast``: ``output=net`` through the core's reader,
    the full output (without explain or receipt) through the core's writer (tests turn it off to compare
    the paths)."""
    rules = query_rules(query)
    explain = query_flag(query, "explain")
    output = output_shape(query, explain)
    receipt = query_flag(query, "receipt")
    if receipt and output == "net":
        raise ApiError(422, "bad_request", "receipt=true needs output=full: the net output has no receipt")
    if fast and not explain and not receipt:
        return _core_lines(body, rules, limits, output)
    lines: list[str] = []
    for raw in stream_rounds(io.BytesIO(body), json_lines=True).records:
        lines.append(
            _general_line(raw, rules, limits, len(lines), explain=explain, output=output, receipt=receipt)
        )
    if not lines:
        raise ApiError(422, "no_rounds", "no rounds")
    return Reply("".join(lines).encode("utf-8"), JSON_LINES)


def settle_packed(body: bytes, query: Mapping[str, str], limits: Limits) -> Reply:
    """``POST /v1/settle/packed``: net units only, for throughput. The body is R rounds of P players (query
    ``players``, required) of 13 card codes (0..51, front 3, middle 5, back 5), one byte each; the answer
    is R x P little-endian int64 net units. Rules by the ``rules`` query (a preset; default ``pagat``).
    Settled by ``settle_batch`` (the GIL released); nobody declares a natural (under
    ``natural_declaration="auto"`` they are detected) and there are no stakes or surrenders."""
    players = query_int(query, "players", None, 2, limits.max_players)
    if players is None:
        raise ApiError(422, "bad_request", "query parameter 'players' missing")
    rules = query_rules(query) or Rules.preset()
    per_round = players * _CARDS_PER_HAND
    if not body or len(body) % per_round:
        raise ApiError(
            422,
            "bad_request",
            f"the body must be a whole number of rounds of {players} x {_CARDS_PER_HAND} card bytes "
            f"({per_round} bytes each), got {len(body)} bytes",
        )
    count = len(body) // per_round
    if count > limits.max_rounds:
        raise ApiError(413, "too_many_rounds", f"more than {limits.max_rounds} rounds in one request")
    rounds = np.frombuffer(body, dtype=np.uint8).reshape(count, players, _CARDS_PER_HAND)
    try:
        net = settle_batch(rounds, rules)
    except InputError as error:  # names the round, the seat and the card's place, 0-based
        raise ApiError(
            422, "bad_round", one_line(error), round=error.item, player=error.player, card=error.position
        ) from None
    except ValueError as error:
        raise ApiError(422, "bad_round", one_line(error)) from None
    return Reply(net.astype("<i8", copy=False).tobytes(), NET_MEDIA_TYPE)


def __dir__() -> list[str]:
    return list(__all__)
