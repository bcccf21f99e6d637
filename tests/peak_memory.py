"""The peak memory of a ``chinese-poker score`` child process, for the tests that memory stays flat."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# A parent that reads the child's output as it comes (so the pipe never holds it) and reports the child's
# exit code, its output's line count and its peak resident set in KiB.
_PROBE = (
    "import resource, subprocess, sys\n"
    "child = subprocess.Popen([sys.executable, '-m', 'chinese_poker', 'score', *sys.argv[1:]],"
    " stdout=subprocess.PIPE)\n"
    "lines = 0\n"
    "for chunk in iter(lambda: child.stdout.read(1 << 20), b''):\n"
    "    lines += chunk.count(b'\\n')\n"
    "code = child.wait()\n"
    "print(code, lines, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def score_peak_memory(path: Path, *options: str) -> tuple[int, int, int]:
    """``chinese-poker score PATH OPTIONS...`` run in a child: (exit code, output lines, peak RSS in KiB)."""
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, str(path), *options],
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    code, lines, peak_kib = (int(field) for field in result.stdout.split())
    return code, lines, peak_kib
