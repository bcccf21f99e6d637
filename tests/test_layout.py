"""The package's layout: no module imports the package face, and modules stay small.

Inside ``python/chinese_poker`` a module imports the submodule that defines what it uses
(``from chinese_poker.rules import Rules``, ``import chinese_poker._core as _core``), never the package
face (``import chinese_poker``, ``from chinese_poker import ...`` or a relative ``from . import ...`` that
names the package itself): the face imports everything, so an import back up into it makes the import
order, not the code, decide what exists. Modules outside ``reference/`` stay under 400 lines.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
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


# ----- the face imports its names when first used ----------------------------------------------------------


def _fresh(code: str) -> str:
    """What ``code`` prints in a fresh interpreter (the package imported there for the first time)."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return done.stdout.strip()


def test_every_public_name_is_the_one_its_module_defines() -> None:
    import chinese_poker as cp  # noqa: PLC0415 - the face itself is under test

    lazy = cp._WHERE
    assert set(lazy) | {"InputError", "__version__"} == set(cp.__all__)
    for name, module in lazy.items():
        assert getattr(cp, name) is getattr(importlib.import_module(module), name), name
    assert sorted(dir(cp)) == sorted(cp.__all__)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = cp.nothing  # type: ignore[attr-defined]


def test_a_submodule_named_like_a_function_does_not_replace_it() -> None:
    """``chinese_poker.settle`` (and ``arrange``, ``simulate``) is the function, whether its module was
    imported before, after or not at all."""
    code = (
        "import chinese_poker.settle, chinese_poker.arrange, chinese_poker.simulate\n"
        "import chinese_poker as cp\n"
        "print(*(type(getattr(cp, n)).__name__ for n in ('settle', 'arrange', 'simulate')))"
    )
    assert _fresh(code) == "function function function"
    assert _fresh("import chinese_poker as cp; print(type(cp.settle).__name__)") == "function"


def test_importing_the_package_or_scoring_json_lines_needs_no_numpy(tmp_path: Path) -> None:
    """The face and the command line's core path import only what they use: numpy (a tenth of a second
    to import) only when an array is asked for."""
    assert _fresh("import sys, chinese_poker; print('numpy' in sys.modules)") == "False"
    assert (
        _fresh("import sys, chinese_poker as cp; cp.evaluate_batch; print('numpy' in sys.modules)") == "False"
    )
    path = tmp_path / "rounds.jsonl"
    hands = '[{"front":"As Ks Qs","middle":"2c 3c 4c 5c 7d","back":"2d 3d 4d 5d 7h"},' + (
        '{"front":"Ah Kh Qh","middle":"2h 3h 4h 5h 7s","back":"8c 8d 8h 9c 9d"}]'
    )
    path.write_text("".join(f'{{"id":{k},"players":{hands}}}\n' for k in range(3)), encoding="utf-8")
    for output in ("full", "net"):
        code = (
            "import contextlib, io, sys\n"
            "from chinese_poker.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            f"    code = main(['score', {str(path)!r}, '--format', 'jsonl', '--output', {output!r}])\n"
            "print(code, out.getvalue().count(chr(10)), 'numpy' in sys.modules)"
        )
        assert _fresh(code) == "0 3 False", output


# Modules a command's start-up does without: each costs 3 to 25 % of it (dataclasses with inspect; tomllib,
# the presets being read as JSON; OpenSSL through hashlib, the core having SHA-256; difflib, needed only by
# an error's suggestion; pathlib, shutil and textwrap, for which os.path, a formatter of our own and a
# greedy wrap stand in).
STARTUP_FREE = (
    "dataclasses",
    "inspect",
    "tomllib",
    "hashlib",
    "_hashlib",
    "difflib",
    "pathlib",
    "shutil",
    "textwrap",
)


@pytest.mark.parametrize("output", ["full", "net"])
def test_scoring_json_lines_imports_none_of_the_costly_modules(tmp_path: Path, output: str) -> None:
    path = tmp_path / "rounds.jsonl"
    hands = '[{"front":"As Ks Qs","middle":"2c 3c 4c 5c 7d","back":"2d 3d 4d 5d 7h"},' + (
        '{"front":"Ah Kh Qh","middle":"2h 3h 4h 5h 7s","back":"8c 8d 8h 9c 9d"}]'
    )
    rules = ['"capsa-susun"', '"pagat-bonus"', '{"preset":"pusoy","scoop_bonus":3}']
    path.write_text(
        "".join(f'{{"id":{k},"rules":{r},"players":{hands}}}\n' for k, r in enumerate(rules)),
        encoding="utf-8",
    )
    code = (
        "import contextlib, io, sys\n"
        "from chinese_poker.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    code = main(['score', {str(path)!r}, '--format', 'jsonl', '--output', {output!r}])\n"
        f"print(code, out.getvalue().count(chr(10)), *sorted(set({STARTUP_FREE!r}) & set(sys.modules)))"
    )
    assert _fresh(code) == "0 3"
