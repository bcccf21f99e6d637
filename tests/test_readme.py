"""The README's Python example runs as written, and the values its comments state are the real ones."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_readme_example_runs_and_its_comments_are_true() -> None:
    blocks = python_blocks()
    assert blocks, "the README has a Python example"
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for block in blocks:
            exec(compile(block, str(README), "exec"), namespace)  # the README's own code
    cp = namespace["cp"]
    assert cp.evaluate("Ks Kh Kd 8s 8h") == 7176192
    assert cp.describe(cp.evaluate("Qs Qh Ad")) == "Pair of queens, ace kicker"
    assert namespace["result"].net == (6, -6)
    assert namespace["rounds"].shape == (1000, 4, 13)


@pytest.mark.parametrize("value", ["7176192", "(6, -6)", "'Pair of queens, ace kicker'"])
def test_readme_states_the_checked_values(value: str) -> None:
    assert value in python_blocks()[0]
