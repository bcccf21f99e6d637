"""The text of conformance vectors, their expected outputs settled and written by the core.

``vector_texts`` turns round objects (``formats.vectors.generate_cases``) into the text ``dumps`` gives their
vectors (``formats.vectors.make_vector``: the round with ``expected``, the output ``score`` writes for it),
byte for byte: each round's own members are dumped in Python, and its expected output, the core's full output
of it (``_core.FullChunkWriter``), is put in as the last member. A round the core does not take is made by
``make_vector`` instead, in its place.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

import chinese_poker._core as _core
from chinese_poker._version import __version__
from chinese_poker.cli.common import dumps
from chinese_poker.formats.full_stream import output_rules
from chinese_poker.formats.net_stream import resolved_rules
from chinese_poker.formats.vectors import make_vector
from chinese_poker.rules import Rules

__all__ = ["BATCH_VECTORS", "vector_texts"]

#: Rounds sent to the core at a time.
BATCH_VECTORS = 512


def vector_texts(cases: Iterable[dict[str, Any]], *, indented: bool = False) -> Iterator[str]:
    """Each case's vector as text, in order: compact, ``dumps(vector)`` (no line end), or ``indented``, the
    item that ``dumps(vectors, 2)`` writes for it in a list (its lines indented for their place, without the
    list's brackets and commas)."""

    def resolve(value: bytes) -> _core.OutputRules | None:
        named = resolved_rules(value)
        return None if named is None else output_rules(named, ascii_only=False, indented=indented)

    writer = _core.FullChunkWriter(
        lambda values: [resolve(value) for value in values],
        output_rules(Rules.preset(), ascii_only=False, indented=indented),
        __version__,
        False,
        indented,
    )
    items = iter(cases)
    position = 1
    while batch := list(islice(items, BATCH_VECTORS)):
        texts = [dumps(case) for case in batch]
        out, end_bytes, left, _ = writer.write(("\n".join(texts) + "\n").encode(), position)
        position += len(batch)
        ends = memoryview(end_bytes).cast("Q")
        general = {index for index, *_ in left}
        for index, case in enumerate(batch):
            if index in general:
                yield _general(case, indented)
                continue
            begin = ends[index - 1] if index else 0
            expected = out[begin : ends[index]].decode()
            yield _spliced(case, texts[index], expected, indented)


def _spliced(case: dict[str, Any], text: str, expected: str, indented: bool) -> str:
    """The vector of ``case`` (dumped compact as ``text``) with the core's output ``expected`` of it (a line,
    or a list's item) as its last member."""
    if not indented:
        return text[:-1] + ',"expected":' + expected[:-1] + "}"
    # The round's members one level deeper than a list's item, then the output, two levels deeper.
    item = dumps(case, 2).replace("\n", "\n  ")
    shifted = expected.removeprefix(",\n  ").replace("\n", "\n  ")
    return item[: -len("\n  }")] + ',\n    "expected": ' + shifted + "\n  }"


def _general(case: dict[str, Any], indented: bool) -> str:
    vector = make_vector(case)
    return dumps(vector, 2).replace("\n", "\n  ") if indented else dumps(vector)


def __dir__() -> list[str]:
    return list(__all__)
