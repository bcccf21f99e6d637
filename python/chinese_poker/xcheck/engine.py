"""Driving an engine under test: one process started once, JSON Lines over its stdin and stdout.

``Engine(command)`` starts ``command`` (a shell-style command line, split with ``shlex``; its first answer
may take ``startup_timeout`` seconds, each later one ``timeout``); ``ask(lines)``
writes round objects, one per line, and reads one answer line per round. Answers may come in any order;
each names its round by ``id``. A writer thread feeds stdin and a reader thread drains stdout, so a
slow or stuck engine never blocks the tool: an answer that does not come within ``timeout`` seconds, an
engine that exits, a line that is not a JSON object or an answer naming no round asked raise
``EngineError`` naming the round. The engine's stderr is kept (its last ``STDERR_KEEP`` characters).
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["STDERR_KEEP", "Answer", "Engine", "EngineError", "Pending", "parse_answer"]

#: How much of the engine's stderr the report keeps (its end).
STDERR_KEEP = 20_000


class EngineError(RuntimeError):
    """The engine broke the protocol: no answer in time, an exit, a malformed or unexpected line."""


@dataclass(frozen=True)
class Answer:
    """One engine answer: ``net`` per player (``None`` when the engine refused the round with an
    ``error``), and the richer fields when the engine gave them (``None`` otherwise): per player ``foul``
    and ``natural`` (its name, ``None`` for none), per pair (in the order (0, 1), (0, 2), ... of the pairs
    settled; a banker round's pairs with the banker only) ``units`` and ``rows`` (the three comparisons
    from the first player's view, ``None`` where a side has no setting)."""

    net: tuple[int, ...] | None
    error: str | None = None
    foul: tuple[bool, ...] | None = None
    natural: tuple[str | None, ...] | None = None
    pair_units: tuple[int, ...] | None = None
    pair_rows: tuple[tuple[int, ...] | None, ...] | None = None

    @property
    def rich(self) -> bool:
        """Whether the answer has any field beyond the net."""
        return any(f is not None for f in (self.foul, self.natural, self.pair_units, self.pair_rows))


def _ints(value: object, what: str, count: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != count:
        raise ValueError(f"{what} must be a list of {count} integers, got {json.dumps(value)[:80]}")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ValueError(f"{what} must hold integers only, got {json.dumps(value)[:80]}")
    return tuple(value)


def _player_field(players: object, key: str, count: int) -> tuple[Any, ...] | None:
    if not isinstance(players, list) or len(players) != count:
        return None
    if not all(isinstance(p, Mapping) and key in p for p in players):
        return None
    return tuple(p[key] for p in players)


def parse_answer(data: Mapping[str, Any], players: int, pair_count: int | None = None) -> Answer:
    """An answer object of a round of ``players`` players (``pair_count`` pairs settled: every pair when
    ``None``); ``ValueError`` saying what is wrong. Richer fields that are not all well formed are left
    out (``None``): only the net is required."""
    if "error" in data and "net" not in data:
        return Answer(net=None, error=str(data["error"])[:500])
    if "net" not in data:
        raise ValueError('the answer has no "net" (nor an "error")')
    net = _ints(data["net"], '"net"', players)
    foul = _player_field(data.get("players"), "foul", players)
    if foul is not None and not all(isinstance(f, bool) for f in foul):
        foul = None
    natural = _player_field(data.get("players"), "natural", players)
    if natural is not None and not all(n is None or isinstance(n, str) for n in natural):
        natural = None
    pair_units: tuple[int, ...] | None = None
    pair_rows: tuple[tuple[int, ...] | None, ...] | None = None
    pairs = data.get("pairs")
    if isinstance(pairs, list) and len(pairs) == (pair_count if pair_count is not None else _pairs(players)):
        units = [p.get("units") if isinstance(p, Mapping) else None for p in pairs]
        if all(_is_int(u) for u in units):
            pair_units = tuple(units)  # type: ignore[arg-type]
        pair_rows = _pair_rows(pairs)
    return Answer(net=net, foul=foul, natural=natural, pair_units=pair_units, pair_rows=pair_rows)


def _pair_rows(pairs: list[Any]) -> tuple[tuple[int, ...] | None, ...] | None:
    """Every pair's ``rows`` (three of -1, 0, 1, or null), or None when one is missing or malformed."""
    out: list[tuple[int, ...] | None] = []
    for pair in pairs:
        rows = pair.get("rows", False) if isinstance(pair, Mapping) else False
        if rows is None:
            out.append(None)
        elif isinstance(rows, list) and len(rows) == 3 and all(_is_int(v) and v in (-1, 0, 1) for v in rows):
            out.append(tuple(rows))
        else:
            return None
    return tuple(out)


def _pairs(players: int) -> int:
    return players * (players - 1) // 2


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Pending:
    """The rounds of one request and the answers read so far; ``take`` reads one answer line."""

    def __init__(self, rounds: Sequence[Mapping[str, Any]]) -> None:
        self.rounds = rounds
        self.waiting = {str(r["id"]): index for index, r in enumerate(rounds)}
        self._answers: list[Answer | None] = [None] * len(rounds)
        self.payload = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in rounds).encode()

    @property
    def first(self) -> str:
        """The first round (in the order sent) not answered yet."""
        return min(self.waiting, key=self.waiting.__getitem__)

    def _next(self) -> str:
        # The round an error names: the first still waiting (the last sent when none is).
        return self.first if self.waiting else str(self.rounds[-1]["id"])

    def take(self, line: bytes, source: str = "engine") -> None:
        """Read one answer line (blank lines are skipped); ``EngineError`` naming the round when it is
        not an answer to a round still waiting."""
        text = line.decode("utf-8", "replace").strip()
        if not text:
            return
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise EngineError(
                f"round {self._next()}: the {source}'s answer is not JSON ({error.msg}): {text[:120]}"
            ) from None
        if not isinstance(data, dict) or "id" not in data:
            raise EngineError(
                f'round {self._next()}: the {source}\'s answer is not an object with an "id": {text[:120]}'
            )
        rid = str(data["id"])
        if rid not in self.waiting:
            raise EngineError(
                f"round {self._next()}: the {source} answered a round that was not asked (id {rid!r})"
            )
        self.settle(rid, data)

    def settle(self, rid: str, data: Mapping[str, Any]) -> None:
        """Record the answer object ``data`` of the waiting round ``rid``."""
        index = self.waiting.pop(rid)
        try:
            players = len(self.rounds[index]["players"])
            banker = self.rounds[index].get("banker") is not None
            self._answers[index] = parse_answer(data, players, players - 1 if banker else None)
        except ValueError as error:
            raise EngineError(f"round {rid}: malformed answer: {error}") from None

    def answers(self) -> list[Answer]:
        """The answers in the order of the rounds (once none is waiting)."""
        assert not self.waiting
        return [a for a in self._answers if a is not None]


class Engine:
    """An engine process speaking JSON Lines; start once, ``ask`` many times, then ``close``."""

    def __init__(self, command: str, *, timeout: float = 10.0, startup_timeout: float = 60.0) -> None:
        argv = shlex.split(command)
        if not argv:
            raise EngineError("the engine command is empty")
        self.command = command
        self.timeout = timeout
        self.startup_timeout = max(timeout, startup_timeout)
        self._answered = False
        self.rounds_sent = 0
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except OSError as error:
            raise EngineError(f"cannot start the engine {command!r}: {error}") from None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: list[str] = []
        self._stderr_size = 0
        self._readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _read_stdout(self) -> None:
        stream = self._process.stdout
        assert stream is not None
        for line in iter(stream.readline, b""):
            self._lines.put(line)
        self._lines.put(None)

    def _read_stderr(self) -> None:
        stream = self._process.stderr
        assert stream is not None
        for line in iter(stream.readline, b""):
            text = line.decode("utf-8", "replace")
            self._stderr.append(text)
            self._stderr_size += len(text)
            while self._stderr_size > STDERR_KEEP and len(self._stderr) > 1:
                self._stderr_size -= len(self._stderr.pop(0))

    @property
    def stderr(self) -> str:
        """The end of what the engine wrote on stderr so far."""
        return "".join(self._stderr)[-STDERR_KEEP:]

    def _write(self, payload: bytes) -> None:
        stream = self._process.stdin
        assert stream is not None
        try:
            stream.write(payload)
            stream.flush()
        except (BrokenPipeError, OSError):
            pass  # the reader sees the exit and names the round

    def _exit_text(self) -> str:
        try:
            code = self._process.wait(timeout=1.0)
            text = f"the engine exited with status {code}"
        except subprocess.TimeoutExpired:
            text = "the engine closed its stdout"
        time.sleep(0.05)  # let the stderr reader catch the last lines
        last = [line.strip() for line in self.stderr.splitlines() if line.strip()]
        return text + (f"; its stderr ends: {last[-1][:200]}" if last else "")

    def ask(self, rounds: Sequence[Mapping[str, Any]]) -> list[Answer]:
        """The answers to ``rounds`` (JSON round objects with distinct ``id`` and ``players``), in the
        order of ``rounds``."""
        if not rounds:
            return []
        pending = Pending(rounds)
        writer = threading.Thread(target=self._write, args=(pending.payload,), daemon=True)
        writer.start()
        while pending.waiting:
            # The first answer may wait for the engine to start (an interpreter, a JIT).
            wait = self.timeout if self._answered else self.startup_timeout
            try:
                line = self._lines.get(timeout=wait)
                self._answered = True
            except queue.Empty:
                raise EngineError(
                    f"round {pending.first}: no answer within {wait:g} s (the engine may be stuck or "
                    "buffering its output: flush stdout after each line)"
                ) from None
            if line is None:
                self._lines.put(None)
                raise EngineError(f"round {pending.first}: no answer: {self._exit_text()}")
            pending.take(line)
        writer.join(timeout=self.timeout)
        self.rounds_sent += len(rounds)
        return pending.answers()

    def close(self) -> None:
        """Close the engine's stdin and wait briefly for it to exit (killed if it does not)."""
        try:
            if self._process.stdin is not None:
                self._process.stdin.close()
        except OSError:
            pass
        try:
            self._process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        for reader in self._readers:
            reader.join(timeout=2.0)
        for stream in (self._process.stdout, self._process.stderr):
            if stream is not None:
                stream.close()

    def __enter__(self) -> Engine:  # noqa: PYI034 - the class is not meant to be subclassed
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def __dir__() -> list[str]:
    return list(__all__)
