"""The JSON round format (docs/JSON_FORMAT.md): reading records, rounds, conformance vectors, verifying.

``records`` splits a file's text into JSON records; ``rounds`` checks a round object (``players`` checks
its players and stakes) and builds its output; ``vectors`` makes conformance vectors; ``verify`` compares
another implementation's output with them, each round field by field with ``compare``; ``schema/`` holds
the JSON Schemas of the input and output formats.
"""

__all__: list[str] = []


def __dir__() -> list[str]:
    return list(__all__)
