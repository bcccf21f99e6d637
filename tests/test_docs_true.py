"""What the README, the docs and every ``--help`` say is true of the code: module names, endpoints, install
lines, file names, player counts and the help text itself as printed."""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import io
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import chinese_poker as cp
import chinese_poker._core as core
import pytest
from chinese_poker._extras import OPTIONAL_EXTRAS
from chinese_poker.cli import main
from chinese_poker.rules import Rules
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
COMMANDS = (
    "deal", "score", "check", "suggest", "rules", "vectors", "verify", "simulate", "serve", "audit",
)  # fmt: skip


def help_text(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stopped:
        main([*argv, "--help"])
    assert stopped.value.code == 0
    return out.getvalue()


def readme_section(heading: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


# ----- --help as printed ---------------------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_help_prints_no_doubled_percent(command: str) -> None:
    assert "%%" not in help_text(command)


def test_simulate_help_states_the_interval() -> None:
    assert "95% interval" in " ".join(help_text("simulate").split())


def test_rules_help_lists_extra_suits_values_of_the_knob_table() -> None:
    text = " ".join(help_text("rules").split())
    phrase = text[text.index("extra_suits") :]
    assert "'' or one or two suit letters" in phrase
    assert "'s' | 'sh'" not in text


# ----- docstrings ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("function", [cp.settle, cp.settle_batch, cp.simulate])
def test_docstrings_say_up_to_six_players(function: object) -> None:
    doc = " ".join((function.__doc__ or "").split())
    assert "2 to 4 players" not in doc
    assert "P in 2..4" not in doc
    assert "2 to 6" in doc or "2..6" in doc or "one more per added suit" in doc


def core_docstrings() -> dict[str, str]:
    docs = {}
    for name in dir(core):
        value = getattr(core, name)
        docs[name] = value.__doc__ or ""
        for member in dir(value) if isinstance(value, type) else ():
            docs[f"{name}.{member}"] = getattr(getattr(value, member), "__doc__", None) or ""
    return docs


def test_core_docstrings_hold_no_escaped_characters() -> None:
    # A doubled backslash in a C++ literal reaches the docstring as the six characters \u2665, which the
    # API page renders as 'Tu2665'.
    escaped = {name: doc for name, doc in core_docstrings().items() if re.search(r"\\[uUx][0-9a-fA-F]", doc)}
    assert escaped == {}
    assert "'T\u2665'" in (core.evaluate.__doc__ or "")


# ----- Rules("pagat") --------------------------------------------------------------------------------------


def test_rules_with_a_positional_preset_name_points_at_rules_preset() -> None:
    with pytest.raises(TypeError, match=r"keyword only.*Rules\.preset\('pagat'\)"):
        Rules("pagat")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"got 2 positional arguments, 'low' first; .* Rules\.preset\(name\)"):
        Rules("low", "off")  # type: ignore[arg-type]
    assert Rules(wheel="second").wheel == "second"
    assert Rules.preset("pagat") == Rules()


# ----- module names and paths in the docs ------------------------------------------------------------------


def doc_texts() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in [README, *DOCS]}


def resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(value, attribute):
                return False
            value = getattr(value, attribute)
        return True
    return False


def test_every_dotted_name_in_the_docs_exists() -> None:
    named = {
        (page, name.rstrip("."))
        for page, text in doc_texts().items()
        for name in re.findall(r"\bchinese_poker(?:\.[A-Za-z_]\w*)+", text)
    }
    assert len(named) > 50
    missing = sorted((page, name) for page, name in named if not resolves(name))
    assert missing == []


def test_every_package_path_in_the_docs_exists() -> None:
    named = {
        (page, path.rstrip(".,)"))
        for page, text in doc_texts().items()
        for path in re.findall(r"(?<![\w/])chinese_poker/[\w./]+", text)
    }
    assert named
    missing = sorted((page, path) for page, path in named if not (ROOT / "python" / path).exists())
    assert missing == []


# ----- install lines ---------------------------------------------------------------------------------------


def missing_extra_message(module: str, blocked: str) -> str:
    """What ``import MODULE`` raises in a fresh interpreter where ``blocked`` cannot be imported."""
    code = (
        f"import sys; sys.modules[{blocked!r}] = None\n"
        f"try:\n    import {module}\nexcept ImportError as error:\n    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def install_texts() -> dict[str, str]:
    """Every page, ``serve --help`` and the message of each optional module whose extra is missing, with
    runs of white space made one space (a command may be wrapped)."""
    texts = {
        **doc_texts(),
        "serve --help": help_text("serve"),
        "convert --help": help_text("convert"),
        "chinese_poker.arrow": missing_extra_message("chinese_poker.arrow", "pyarrow"),
        "chinese_poker.dask": missing_extra_message("chinese_poker.dask", "dask"),
    }
    return {name: " ".join(text.split()) for name, text in texts.items()}


def test_every_optional_extra_says_what_to_run_from_a_checkout_and_once_published() -> None:
    texts = install_texts()
    assert "pip install '.[arrow]'" in texts["chinese_poker.arrow"]
    assert "pip install '.[dask]'" in texts["chinese_poker.dask"]
    assert "pip install '.[arrow]'" in texts["convert --help"]
    # Each line of install (paragraph, message) for an optional extra names both forms of the command.
    one_form = []
    for name, text in texts.items():
        for extra in OPTIONAL_EXTRAS:
            checkout = f"pip install '.[{extra}]'" in text
            published = f"pip install 'chinese-poker[{extra}]'" in text
            if checkout != published:
                one_form.append((name, extra))
    assert one_form == []
    paragraphs = [
        " ".join(paragraph.split())
        for text in [*doc_texts().values(), help_text("serve")]
        for paragraph in text.split("\n\n")
    ]
    for extra in OPTIONAL_EXTRAS:
        checkout, published = f"pip install '.[{extra}]'", f"pip install 'chinese-poker[{extra}]'"
        assert any(checkout in paragraph for paragraph in paragraphs), extra
        assert [p for p in paragraphs if (checkout in p) != (published in p)] == [], extra
    # The published form with any other spelling (no quotes, a bare name) is not an install line.
    assert not any(re.search(r"pip install chinese-poker\[", text) for text in texts.values())


# ----- endpoints -------------------------------------------------------------------------------------------


def service_paths() -> list[str]:
    serve = pytest.importorskip("chinese_poker.serve")
    paths = [getattr(route, "path", "") for route in serve.create_app(serve.Limits()).routes]
    # A path parameter reads as its name in capitals, as the docs write it: /v1/rules/NAME.
    return sorted({re.sub(r"\{(\w+)\}", lambda m: m.group(1).upper(), p) for p in paths if "/v1/" in p})


def test_readme_and_serve_help_list_every_endpoint() -> None:
    paths = service_paths()
    assert {"/v1/suggest", "/v1/deal", "/v1/settle/packed", "/v1/openapi.json"} <= set(paths)
    readme = readme_section("Service")
    described = " ".join(help_text("serve").split())
    for where, text in (("README", readme), ("serve --help", described)):
        listed = set(re.findall(r"/v1/[\w/.]*\w", text))
        assert [p for p in paths if p not in listed] == [], where


# ----- the README's commands name only files an earlier command makes --------------------------------------


def test_readme_commands_read_only_files_they_were_shown_how_to_make() -> None:
    text = readme_section("Command line")
    made: set[str] = set()
    unexplained = []
    for line in re.findall(r"```bash\n(.*?)```", text, flags=re.DOTALL)[0].splitlines():
        command = line.split("#", 1)[0]
        written = set(re.findall(r"(?:-o |> )(\S+\.jsonl)", command))
        read = set(re.findall(r"\S+\.jsonl", command)) - written
        unexplained += sorted(read - made)
        made |= written
    assert unexplained == []


# ----- the README's test command installs what the test extra does -----------------------------------------


def test_test_group_lists_the_test_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extra = project["project"]["optional-dependencies"]["test"]
    assert project["dependency-groups"]["test"] == extra
    assert any(line.startswith("pytest") for line in extra)
    readme = README.read_text(encoding="utf-8")
    assert "pip install --group test && pytest" in readme


def supported_pythons(project: dict[str, Any]) -> list[str]:
    """The minor versions ``requires-python`` admits, up to the newest the classifiers name."""
    classified = [
        line.rsplit(" ", 1)[1]
        for line in project["project"]["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", line)
    ]
    newest = max(int(version.split(".")[1]) for version in classified)
    admitted = SpecifierSet(project["project"]["requires-python"])
    return [f"3.{minor}" for minor in range(0, newest + 1) if f"3.{minor}" in admitted]


def test_no_dependency_marker_is_decided_alike_on_every_supported_python() -> None:
    # A marker true on every Python the package installs on says nothing; one false on all is a dead line.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pythons = supported_pythons(project)
    assert pythons[0] == "3.11"
    lists = {
        "dependencies": project["project"]["dependencies"],
        **{f"extra {name}": deps for name, deps in project["project"]["optional-dependencies"].items()},
        **{f"group {name}": deps for name, deps in project["dependency-groups"].items()},
    }
    constant = []
    for where, lines in lists.items():
        for line in lines:
            marker = Requirement(line).marker
            if marker is None:
                continue
            decided = {
                marker.evaluate({"python_version": v, "python_full_version": v + ".0"}) for v in pythons
            }
            if len(decided) == 1:
                constant.append((where, line))
    assert constant == []


# ----- one version -----------------------------------------------------------------------------------------


def test_the_version_file_is_the_installed_version() -> None:
    text = (ROOT / "python" / "chinese_poker" / "_version.py").read_text(encoding="utf-8")
    assert re.search(r'^__version__ = "(\d+\.\d+\.\d+)"$', text, flags=re.MULTILINE) is not None
    assert f'__version__ = "{cp.__version__}"' in text
    assert f"## [{cp.__version__}] - " in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    if not Path(cp.__file__).resolve().is_relative_to(ROOT):  # an installed package: its metadata agrees
        assert importlib.metadata.version("chinese-poker") == cp.__version__


# ----- chinese-poker rules NAME says where the preset comes from -------------------------------------------


@pytest.mark.parametrize("name", ["pagat", "shisanshui-puxian", "maubinh"])
def test_rules_command_prints_the_presets_source_and_loads_back(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", name]) == 0
    shown = capsys.readouterr().out
    assert Rules.preset_source(name)
    assert f"source = {json.dumps(Rules.preset_source(name), ensure_ascii=False)}" in shown
    assert Rules.from_toml(shown) == Rules.preset(name)
    assert main(["rules", name, "--format", "json"]) == 0
    assert Rules.from_dict(json.loads(capsys.readouterr().out)) == Rules.preset(name)


# ----- docs/CHOOSING.md -----------------------------------------------------------------------------------


def test_choosing_names_every_preset_with_its_source_and_real_knobs() -> None:
    page = (ROOT / "docs" / "CHOOSING.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([\w-]+)` \| [^|]+ \| (.+) \|$", page, flags=re.MULTILINE))
    assert {name: rows.get(name) for name in Rules.presets()} == {
        name: Rules.preset_source(name).replace("|", "/") for name in Rules.presets()
    }
    knobs = set(re.findall(r"`(\w+)`, |`(\w+)` \(", page))
    named = {knob for pair in knobs for knob in pair if knob}
    assert len(named) > 10
    assert named <= set(Rules().to_dict())
    for example in re.findall(r"`(?:Rules\.preset\(\"pagat\"\)\.)?(replace\([^`]*\))`", page):
        rules = eval(f"Rules.preset('pagat').{example}")  # the page's own example
        assert rules != Rules.preset("pagat")
