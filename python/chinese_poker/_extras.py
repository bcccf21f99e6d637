"""How to install an optional extra: the one line every message and page gives, from a checkout and from
the package index once the package is published there."""

from __future__ import annotations

__all__ = ["OPTIONAL_EXTRAS", "install_hint"]

#: The extras that add run-time features (the others, test, dev, bench and docs, serve a checkout).
OPTIONAL_EXTRAS = ("serve", "dask", "arrow")


def install_hint(extra: str) -> str:
    """The command for ``extra``: ``pip install '.[EXTRA]'`` from a checkout, or ``pip install
    'chinese-poker[EXTRA]'`` once the package is published."""
    if extra not in OPTIONAL_EXTRAS:
        raise ValueError(f"no optional extra {extra!r}; the extras are {', '.join(OPTIONAL_EXTRAS)}")
    return (
        f"pip install '.[{extra}]' from a checkout, or pip install 'chinese-poker[{extra}]' once the "
        "package is published"
    )
