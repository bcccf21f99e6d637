"""Sphinx configuration of the chinese-poker documentation (Markdown pages read by MyST).

Build from the repository root, with the package installed (``pip install '.[docs]'``):

    sphinx-build -W --keep-going -b html docs docs/_build/html
    sphinx-build -W -b doctest docs docs/_build/doctest

autodoc imports the installed package (its compiled core is not in the source tree), so the pages
document, and the doctests run against, exactly what ``pip install`` built.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import chinese_poker

DOCS = Path(__file__).resolve().parent

project = "chinese-poker"
author = "the chinese-poker authors"
copyright = "2026, the chinese-poker authors"
release = chinese_poker.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "README.md", "examples"]

# Markdown: GitHub-style heading anchors, so that links such as RULES.md#8-strength-encoding work both
# on the repository's web view and in the built site.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

# API reference: signatures from the code, types from its annotations, shown in the description.
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_member_order = "bysource"
add_module_names = False
autodoc_preserve_defaults = True

# Doctests: every example prints what the library really returns. Exception messages are compared too
# (no IGNORE_EXCEPTION_DETAIL); "..." stands for text left out.
doctest_default_flags = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1
doctest_global_setup = f"""
from pathlib import Path as _Path
EXAMPLES = _Path({str(DOCS / "examples")!r})
"""

html_theme = "alabaster"
html_title = f"chinese-poker {release}"
html_static_path: list[str] = []
