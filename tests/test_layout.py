"""The package's layout: no module imports the package face, and modules stay small.

Inside ``python/chinese_poker`` a module imports the submodule that defines what it uses
(``from chinese_poker.rules import Rules``, ``import chinese_poker._core as _core``), never the package
face (``import chinese_poker``, ``from chinese_poker import ...`` or a relative ``from . import ...`` that
names the package itself): the face imports everything, so an import back up into it makes the import
order, not the code, decide what exists. Modules outside ``reference/`` stay under 400 lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "chinese_poker"
MAX_LINES = 400
MODULES = sorted(PACKAGE.rglob("*.py"))


def _package_of(path: Path) -> list[str]:
    """The dotted package that holds the module at ``path`` (``["chinese_poker", "formats"]``)."""
    return ["chinese_poker", *path.relative_to(PACKAGE).parent.parts]


def face_imports(source: str, path: Path) -> list[str]:
    """Every import in ``source`` (the module at ``path``) that reads the package face, as ``line: text``."""
    found = []
    for node in ast.walk(ast.parse(source, filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
            found += [f"{node.lineno}: import {name}" for name in names if name == "chinese_poker"]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                target = node.module or ""
            else:
                base = _package_of(path)
                if node.level - 1 > len(base) - 1:
                    continue  # reaches above the package: not the face
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            if target == "chinese_poker":
                names = ", ".join(alias.name for alias in node.names)
                found.append(f"{node.lineno}: from chinese_poker import {names}")
    return found


def test_the_package_has_modules() -> None:
    assert PACKAGE.is_dir()
    assert len(MODULES) > 40
    assert PACKAGE / "__init__.py" in MODULES


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_imports_the_package_face(path: Path) -> None:
    assert face_imports(path.read_text(encoding="utf-8"), path) == []


def test_the_face_check_finds_every_form() -> None:
    module = PACKAGE / "formats" / "rounds.py"
    source = "\n".join(
        [
            "import chinese_poker",
            "from chinese_poker import _core",
            "from .. import Rules",
            "from . import vectors",  # chinese_poker.formats: a subpackage face, allowed
            "import chinese_poker._core as _core",
            "from chinese_poker.rules import Rules",
            "def late():",
            "    from chinese_poker import settle",
        ]
    )
    assert face_imports(source, module) == [
        "1: import chinese_poker",
        "2: from chinese_poker import _core",
        "3: from chinese_poker import Rules",
        "8: from chinese_poker import settle",
    ]


@pytest.mark.parametrize(
    "path",
    [path for path in MODULES if "reference" not in path.relative_to(PACKAGE).parts],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_module_stays_under_the_line_limit(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines < MAX_LINES, f"{path.relative_to(PACKAGE)} has {lines} lines (limit {MAX_LINES})"
