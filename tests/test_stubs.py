"""The compiled module's stub file names every public function and class the module has, and no more."""

from __future__ import annotations

import ast
from pathlib import Path

import chinese_poker
from chinese_poker import _core


def test_core_stub_matches_the_module() -> None:
    stub = Path(chinese_poker.__file__).with_name("_core.pyi")
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    stubbed = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    public = {name for name in dir(_core) if not name.startswith("_")}
    assert stubbed == public
    assert (Path(chinese_poker.__file__).with_name("py.typed")).exists()


def test_public_api_is_documented() -> None:
    for name in chinese_poker.__all__:
        obj = getattr(chinese_poker, name)
        if callable(obj):
            assert obj.__doc__ and obj.__doc__.strip(), name
