"""JSON Schemas of the round format (docs/JSON_FORMAT.md): ``round.schema.json`` (input: one round or a list
of rounds; a JSON Lines file is one round per line) and ``output.schema.json`` (one settled round, as
``chinese-poker score --format json`` writes a list of them). Read them with
``chinese_poker.formats.rounds.load_schema``."""

__all__: list[str] = []


def __dir__() -> list[str]:
    return list(__all__)
