"""The package's version, read once from the installed distribution's metadata (pyproject.toml)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("chinese-poker")  # the one version source: pyproject.toml
except PackageNotFoundError:  # pragma: no cover - running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
