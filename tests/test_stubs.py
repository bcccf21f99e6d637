"""The compiled module's stub file: it names every public function, class and constant the module has, and
no more; its signatures are the module's; and mypy's stubtest finds nothing to report."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import chinese_poker
import pytest
from chinese_poker import _core


def test_core_stub_matches_the_module() -> None:
    stub = Path(chinese_poker.__file__).with_name("_core.pyi")
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    stubbed = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    # The module's constants, each an annotated name (``MAX_STAKE: int``).
    stubbed |= {
        node.target.id
        for node in tree.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    }
    public = {name for name in dir(_core) if not name.startswith("_")}
    assert stubbed == public
    assert (Path(chinese_poker.__file__).with_name("py.typed")).exists()


def test_public_api_is_documented() -> None:
    for name in chinese_poker.__all__:
        obj = getattr(chinese_poker, name)
        if callable(obj):
            assert obj.__doc__, name
            assert obj.__doc__.strip(), name


def _normal(annotation: ast.expr | None) -> str:
    """An annotation's text without module prefixes (``numpy.typing.NDArray[numpy.uint8]`` and
    ``npt.NDArray[np.uint8]`` both give ``NDArray[uint8]``)."""
    if annotation is None:
        return ""
    text = ast.unparse(annotation)
    for prefix in (
        "chinese_poker._core.",
        "numpy.typing.",
        "npt.",
        "numpy.",
        "np.",
        "collections.abc.",
        "typing.",
    ):
        text = text.replace(prefix, "")
    return text


REQUIRED = "<no default>"


def _parameters(function: ast.FunctionDef) -> list[tuple[str, str, object]]:
    """(kind, name, default) of each parameter but ``self``."""
    args = function.args
    positional = args.posonlyargs + args.args
    defaults: list[object] = [REQUIRED] * (len(positional) - len(args.defaults))
    defaults += [ast.literal_eval(d) for d in args.defaults]
    found = [
        ("positional only" if k < len(args.posonlyargs) else "positional", a.arg, default)
        for k, (a, default) in enumerate(zip(positional, defaults))
    ]
    found += [
        ("keyword only", a.arg, REQUIRED if d is None else ast.literal_eval(d))
        for a, d in zip(args.kwonlyargs, args.kw_defaults)
    ]
    if args.vararg:
        found.append(("*args", args.vararg.arg, None))
    if args.kwarg:
        found.append(("**kwargs", args.kwarg.arg, None))
    return [item for item in found if item[1] != "self"]


def _runtime_signature(obj: object) -> ast.FunctionDef:
    """The signature pybind11 writes as the first docstring line, parsed as a ``def``."""
    line = (obj.__doc__ or "").strip().splitlines()[0]
    (function,) = ast.parse(f"def {line}: ...").body
    assert isinstance(function, ast.FunctionDef)
    return function


def _stubbed_functions() -> dict[str, ast.FunctionDef]:
    """Each stubbed function, and each stubbed class's ``__init__`` under the class's name."""
    stub = ast.parse(Path(chinese_poker.__file__).with_name("_core.pyi").read_text(encoding="utf-8"))
    found: dict[str, ast.FunctionDef] = {}
    for node in stub.body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    found[node.name] = item
    return found


def test_core_stub_signatures_match_the_module() -> None:
    """Parameter names, kinds, order and defaults, and the return type, of every stubbed function and
    constructor against the signature the module reports. (pybind11 gives no ``__text_signature__``, so
    ``mypy.stubtest`` cannot compare these: it checks names, kinds of object and classes only.)"""
    stubbed = _stubbed_functions()
    # Enums and read-only result classes have no constructor to compare; the name check is above.
    assert set(stubbed) <= {name for name in dir(_core) if not name.startswith("_")}
    assert {"RulesSpec", "ExpectedModel", "settle_round", "arrange_hand", "parse_cards"} <= set(stubbed)
    differences = []
    for name, stub in sorted(stubbed.items()):
        obj = getattr(_core, name)
        runtime = _runtime_signature(obj.__init__ if isinstance(obj, type) else obj)
        if _parameters(stub) != _parameters(runtime):
            differences.append(f"{name}: stub {_parameters(stub)} != module {_parameters(runtime)}")
        returns, stub_returns = _normal(runtime.returns), _normal(stub.returns)
        if "[" not in returns:  # a bare dict or tuple at runtime: compare the outer type only
            stub_returns = stub_returns.split("[")[0]
        if returns != stub_returns:
            differences.append(f"{name}: returns {stub_returns} in the stub, {returns} in the module")
    assert differences == []


# The stub types RulesSpec's plain knobs through __getattr__ (their properties are made from the knob table,
# so the table is their one description); stubtest is told so, and this test checks them against the table.
_KIND_TYPES = {"flag": str, "enum": str, "bool": bool, "int": int}


def test_plain_knob_properties_match_the_knob_table() -> None:
    spec = _core.RulesSpec()
    plain = [row for row in _core.knob_table() if row["kind"] != "table"]
    assert plain, "the knob table lists plain knobs"
    for row in plain:
        value = getattr(spec, row["name"])
        assert type(value) is _KIND_TYPES[row["kind"]], row["name"]
        assert value == row["default"], row["name"]


@pytest.mark.slow  # about 20 s (mypy's own start); the signature test above checks the stub quickly
@pytest.mark.python_bound
def test_mypy_stubtest_passes_on_the_core(tmp_path: Path) -> None:
    allowlist = tmp_path / "allowlist.txt"
    plain = [row["name"] for row in _core.knob_table() if row["kind"] != "table"]
    allowlist.write_text(
        Path(__file__).with_name("stubtest-allowlist.txt").read_text(encoding="utf-8")
        + "".join(f"chinese_poker\\._core\\.RulesSpec\\.{name}\n" for name in plain),
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "chinese_poker._core", "--allowlist", str(allowlist)],
        capture_output=True, text=True, cwd=tmp_path, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
