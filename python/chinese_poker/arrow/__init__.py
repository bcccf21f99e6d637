"""Rounds as Arrow columns (docs/JSON_FORMAT.md 5): settle and arrange Arrow record batches and tables with
the batch kernels, and move round files between JSON Lines and Parquet. Every data engine that hands a
function Arrow batches (Spark's ``mapInArrow``, Ray Data, DuckDB's Arrow UDFs, Polars, Dask) calls the same
``settle_arrow`` (docs/SCALING.md).

Needs the optional extra ``arrow`` (pyarrow): ``pip install '.[arrow]'`` from a checkout, ``pip install
'chinese-poker[arrow]'`` once the package is published.
"""

from __future__ import annotations

from chinese_poker._extras import install_hint

try:
    import pyarrow  # noqa: F401  (only to say which extra is missing)
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(f"chinese_poker.arrow needs pyarrow: {install_hint('arrow')}") from error

from chinese_poker.arrow._columns import CARDS_TYPE
from chinese_poker.arrow._files import conform_rounds, from_jsonl, read_parquet, to_jsonl, write_parquet
from chinese_poker.arrow._settle import arrange_arrow, settle_arrow

__all__ = [
    "CARDS_TYPE",
    "arrange_arrow",
    "conform_rounds",
    "from_jsonl",
    "read_parquet",
    "settle_arrow",
    "to_jsonl",
    "write_parquet",
]


def __dir__() -> list[str]:
    return list(__all__)
