"""The package's version: this line is its one source (the build reads it into the metadata)."""

__version__ = "0.2.0"

__all__ = ["__version__"]
