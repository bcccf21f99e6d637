"""The engine recipes of docs/SCALING.md run as written, each on a local engine (DuckDB, Polars, a Dask
LocalCluster, a local Ray, pyspark local[2]) over one Parquet file of rounds that mixes rules, player counts,
jokers and added suits: every round's net equals one process's settle_arrow.

An engine that is not installed skips its test, unless ``CP_REQUIRE_ENGINES`` names it (a comma-separated
list, or ``1`` for all): CI sets it, so there a missing engine fails instead of skipping.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
from pathlib import Path
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest

pa = pytest.importorskip("pyarrow", reason="needs the arrow extra: pip install '.[arrow]'")

from chinese_poker import arrow as cpa  # noqa: E402
from chinese_poker.dealing import deal_batch  # noqa: E402

SCALING = Path(__file__).resolve().parent.parent / "docs" / "SCALING.md"
ENGINES = ("duckdb", "polars", "dask", "ray", "spark")
MODULES = {"duckdb": "duckdb", "polars": "polars", "dask": "dask.dataframe", "ray": "ray", "spark": "pyspark"}


def recipes() -> dict[str, str]:
    """SCALING.md's Python blocks whose first line is ``# recipe: NAME``, by name."""
    text = SCALING.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n# recipe: ([a-z-]+)\n(.*?)```", text, flags=re.DOTALL)
    return dict(blocks)


def _required(engine: str) -> bool:
    wanted = os.environ.get("CP_REQUIRE_ENGINES", "")
    return wanted == "1" or engine in {name.strip() for name in wanted.split(",")}


def _engine(engine: str) -> None:
    try:
        importlib.import_module(MODULES[engine])
    except ImportError:
        if _required(engine):
            pytest.fail(f"CP_REQUIRE_ENGINES names {engine} but {MODULES[engine]} is not installed")
        pytest.skip(f"{MODULES[engine]} is not installed; CI requires it")
    if engine == "spark" and shutil.which("java") is None:
        if _required(engine):
            pytest.fail(
                "CP_REQUIRE_ENGINES names spark but there is no java (apt-get install default-jre-headless)"
            )
        pytest.skip("pyspark needs a Java runtime")


#: (preset, players, rounds): a 4-player table, a 3-player one, jokers, and six players of an added suit.
TABLES = (
    ("pagat", 4, 900),
    ("pagat-bonus", 3, 700),
    ("shisanshui-puxian-ghost", 4, 400),
    ("shisanshui-puxian-six", 6, 300),
)


@pytest.fixture(scope="module")
def parquet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rounds: list[list[list[int]]] = []
    names: list[str] = []
    for seed, (preset, players, count) in enumerate(TABLES):
        rules = cp.Rules.preset(preset)
        hands = deal_batch(seed, 0, count, players, extra_suits=rules.extra_suits, jokers=rules.jokers)
        settings = cp.arrange_batch(hands.reshape(-1, 13), rules, "strongest").reshape(count, players, 13)
        rounds.extend(settings.tolist())
        names.extend([preset] * count)
    order = np.random.default_rng(5).permutation(len(rounds))
    table = pa.table(
        {
            "id": pa.array(np.arange(len(rounds), dtype=np.int64)),
            "rules": pa.array([names[k] for k in order]),
            "cards": pa.array([rounds[k] for k in order], cpa.CARDS_TYPE),
        }
    )
    path = tmp_path_factory.mktemp("engines") / "rounds.parquet"
    cpa.write_parquet(table, path, row_group_size=500)
    return path


def _run(name: str, path: Path) -> Any:
    namespace: dict[str, Any] = {"path": str(path)}
    exec(compile(recipes()[name], f"{SCALING}:{name}", "exec"), namespace)  # the document's own code
    return namespace["settled"]


def _by_id(settled: Any) -> list[list[int]]:
    table = settled.sort_by("id")
    assert table.column("id").to_pylist() == list(range(table.num_rows))
    return list(table.column("net").to_pylist())


def test_every_engine_has_a_recipe() -> None:
    assert set(recipes()) == {"one-process", *ENGINES}


def test_one_process_recipe_is_settle_batch(parquet: Path) -> None:
    nets = _by_id(_run("one-process", parquet))
    assert len(nets) == sum(count for _, _, count in TABLES)
    table = cpa.read_parquet(parquet)
    for preset in {p for p, _, _ in TABLES}:
        rows = [k for k, r in enumerate(table.column("rules").to_pylist()) if r == preset]
        cards = np.array([table.column("cards")[k].as_py() for k in rows], dtype=np.uint8)
        ids = [table.column("id")[k].as_py() for k in rows]
        assert [nets[i] for i in ids] == cp.settle_batch(cards, preset).tolist()
    assert all(sum(net) == 0 for net in nets)


@pytest.mark.parametrize(
    "engine",
    [
        "duckdb",
        "polars",
        pytest.param("dask", marks=pytest.mark.slow),
        # Ray and pyspark warn about their own deprecations and the pandas they find, not about this code.
        pytest.param(
            "ray", marks=[pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
        ),
        pytest.param("spark", marks=[pytest.mark.slow, pytest.mark.filterwarnings("ignore::FutureWarning")]),
    ],
)
def test_engine_recipe_equals_one_process(engine: str, parquet: Path) -> None:
    _engine(engine)
    expected = _by_id(_run("one-process", parquet))
    assert _by_id(_run(engine, parquet)) == expected


def _functions(code: str) -> dict[str, str]:
    """The module-level ``def`` blocks of ``code``, by name, as written (up to the next unindented line)."""
    pattern = re.compile(r"^def (\w+)\(.*?(?=^\S|\Z)", flags=re.DOTALL | re.MULTILINE)
    return {match.group(1): match.group(0).rstrip() for match in pattern.finditer(code)}


def test_cluster_jobs_use_the_recipes_functions() -> None:
    # The cluster scripts are not run here (no cluster); what they give the engine is the recipe's own code.
    text = SCALING.read_text(encoding="utf-8")
    jobs = dict(re.findall(r"```python\n# job: ([a-z-]+)\n(.*?)```", text, flags=re.DOTALL))
    assert set(jobs) == {"spark-submit", "ray-job-submit"}
    for job, engine in (("spark-submit", "spark"), ("ray-job-submit", "ray")):
        functions = _functions(jobs[job])
        assert functions, job
        recipe = _functions(recipes()[engine])
        for name, code in functions.items():
            assert recipe.get(name) == code, (job, name)
        compile(jobs[job], f"{SCALING}:{job}", "exec")
