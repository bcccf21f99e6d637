"""The progress bar of long commands: drawn on a terminal only, redrawn at most ten times a second."""

from __future__ import annotations

import codecs
import io
import os
import sys
import time
from typing import IO

__all__ = ["OutputWriter", "Progress", "progress_for", "writes_utf8"]


def _isatty(stream: IO[str]) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return False


def writes_utf8(stream: IO[str]) -> bool:
    """Whether ``stream`` encodes its text as UTF-8."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        return codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


def _duration(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


class Progress:
    """A one-line progress bar on a terminal: ``label [#####-----] done/total pct% eta``, or for a ``total``
    of ``None`` (a stream of unknown length) a count: ``label done unit, elapsed``.

    Drawn only when ``stream`` (default stderr) is a terminal (or ``enabled`` is true) and the run has lasted
    ``delay`` seconds, so short runs and pipes stay quiet; redrawn at most ten times a second. ``clear()``
    erases the line (before writing to the same terminal); ``close()`` erases it for good.
    """

    def __init__(
        self,
        total: int | None,
        label: str,
        stream: IO[str] | None = None,
        *,
        enabled: bool | None = None,
        delay: float = 0.5,
        width: int = 30,
        unit: str = "",
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = None if total is None else max(0, total)
        self.label = label
        self.unit = unit
        self.enabled = (_isatty(self.stream) if enabled is None else enabled) and self.total != 0
        self.delay = delay
        self.width = width
        self.start = time.monotonic()
        self.last_draw = -1.0
        self.done = 0
        self.visible = False

    def render(self, done: int, elapsed: float) -> str:
        """The bar's text for ``done`` of ``total`` after ``elapsed`` seconds (a count when the total is
        unknown)."""
        if self.total is None:
            unit = f" {self.unit}" if self.unit else ""
            return f"{self.label} {done}{unit}, {_duration(elapsed)}"
        done = min(done, self.total)
        fraction = done / self.total if self.total else 1.0
        filled = round(fraction * self.width)
        bar = "#" * filled + "-" * (self.width - filled)
        text = f"{self.label} [{bar}] {done}/{self.total} {fraction * 100:3.0f}%"
        if 0 < done < self.total and elapsed > 0:
            remaining = elapsed * (self.total - done) / done
            text += f" eta {_duration(remaining)}"
        elif done >= self.total:
            text += f" in {_duration(elapsed)}"
        return text

    def update(self, done: int) -> None:
        """Record progress; redraw when due."""
        self.done = done
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.delay:
            return
        if now - self.last_draw < 0.1 and (self.total is None or done < self.total):
            return
        self.last_draw = now
        self.stream.write("\r\x1b[K" + self.render(done, now - self.start))
        self.stream.flush()
        self.visible = True

    def clear(self) -> None:
        """Erase the bar (it comes back at the next due update)."""
        if self.visible:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.visible = False
            self.last_draw = -1.0

    def close(self) -> None:
        """Erase the bar for good."""
        self.clear()
        self.enabled = False


def progress_for(mode: str, total: int | None, label: str, unit: str = "") -> Progress:
    """The progress bar for ``--progress mode``: ``auto`` on a terminal after half a second, ``always`` from
    the start (even in a pipe), ``never``; ``total=None`` counts (a stream of unknown length)."""
    if mode == "auto":
        return Progress(total, label, unit=unit)
    return Progress(total, label, enabled=mode == "always", delay=0.0, unit=unit)


class OutputWriter:
    """Writes output to a stream (default stdout), erasing the progress bar first when both share a
    terminal."""

    def __init__(self, progress: Progress | None, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self.progress = progress
        self.share = progress is not None and progress.enabled and _isatty(self.stream)

    def write_utf8(self, data: bytes) -> None:
        """Write UTF-8 ``data`` (what the core wrote): to the stream's bytes as they are when it writes UTF-8
        and translates no line ends, else as text (``write``)."""
        buffer = getattr(self.stream, "buffer", None)
        if buffer is None or os.linesep != "\n" or not writes_utf8(self.stream):
            self.write(data.decode("utf-8"))
            return
        if self.share and self.progress is not None:
            self.progress.clear()
        self.stream.flush()  # what was written as text goes first
        buffer.write(data)

    def write(self, text: str) -> None:
        """Write ``text``, clearing the bar first when it shares the terminal; what the stream's encoding
        cannot write is written as backslash escapes rather than failing."""
        if self.share and self.progress is not None:
            self.progress.clear()
        try:
            self.stream.write(text)
        except UnicodeEncodeError:
            encoding = getattr(self.stream, "encoding", None) or "ascii"
            self.stream.write(text.encode(encoding, "backslashreplace").decode(encoding))


def __dir__() -> list[str]:
    return list(__all__)
