"""The core's fast JSON Lines reader (``_core.read_round_lines``) and net writer (``_core.settle_net_lines``,
behind ``score --output net`` and the service's ``output=net`` batches) against the general path of the
formats (``formats.records.stream_rounds``, then each round checked and settled as ``score`` does it, by
``cli.score.settle_record``, and written by ``formats.rounds.round_net_output`` and ``cli.common.dumps``).

A seeded fuzz builds JSON Lines bodies of random rounds, then damages them: byte flips, truncation,
escapes, huge and odd numbers, duplicate keys, other white space, byte order marks, keys the fast path
does not take. For every body:

- when the fast path answers, the general path settles the same rounds to the same bytes (and the same
  ``more``: whether rounds follow the limit);
- when the general path refuses a round, the fast path does not answer (the caller's general path then
  gives the error: the fast path never words one);
- the fast reader answers exactly when every line it reads is of the shape its header documents
  (cpp/include/chinese_poker/round_lines.hpp), checked here by a reading of that documentation of our own,
  and then gives the cards and ids the general path reads; ``settle_net_lines`` answers exactly when the
  reader does, the pack is one plain deck and the general path settles every round read.

So a refusal is always one the documentation names, and an answer is always the general path's answer.
The round-by-round reader (``formats.net_stream`` over ``_core.NetChunkWriter``) is compared on the same
bodies: with the general path in each left round's place it gives every round's line and every error.
``CP_FUZZ_CASES`` (default 40, more under ``.ci/sanitized_pytest``) scales the number of bodies: 75 a unit
(3,000 by default).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
from typing import Any, Self

import pytest
from chinese_poker import _core
from chinese_poker.cards import format_card, parse_card, parse_cards
from chinese_poker.cli.common import dumps
from chinese_poker.cli.score import settle_record
from chinese_poker.formats.core_stream import CoreLines
from chinese_poker.formats.net_stream import net_stream
from chinese_poker.formats.records import stream_rounds
from chinese_poker.formats.rounds import MAX_PLAYERS, RoundError, round_net_output
from chinese_poker.rules import Rules, core_spec

CASES = 75 * int(os.environ.get("CP_FUZZ_CASES", "40"))

ROWS = (("front", 3), ("middle", 5), ("back", 5))
BOM = b"\xef\xbb\xbf"
INT64 = (-(2**63), 2**63 - 1)
#: Rules the bodies are settled under: plain decks (one for 4 players only, one for at most 3), and packs
#: with jokers or added suits, which the fast path leaves to the general one.
PRESETS = ("pagat", "pagat-bonus", "shisanzhang-hk", "shisanshui-app", "maubinh", "ofc",
           "shisanshui-puxian-ghost", "shisanshui-puxian-six")  # fmt: skip


# ----- the general path -------------------------------------------------------------------------------------


def general_net_lines(body: bytes, rules: Rules, max_rounds: int) -> tuple[bytes, bool, list[Any]] | str:
    """What ``score --output net --rules ...`` writes for ``body`` read as JSON Lines, at most ``max_rounds``
    rounds: (the net lines, whether a further round follows, each round's (id, cards)), or the message of
    the first round it refuses."""
    out: list[str] = []
    read: list[Any] = []
    for raw in stream_rounds(io.BytesIO(body), json_lines=True).records:
        if len(out) >= max_rounds:
            return "".join(out).encode(), True, read
        try:
            rnd, settlement = settle_record(raw, rules)
        except RoundError as error:
            return f"{error}"
        cards = [[*hand.front, *hand.middle, *hand.back] for hand in rnd.hands]
        read.append((rnd.id, cards))
        out.append(dumps(round_net_output(rnd, settlement)) + "\n")
    return "".join(out).encode(), False, read


# ----- the documented shape, read from round_lines.hpp ------------------------------------------------------


class NotSimpleError(Exception):
    """A line is not of the fast reader's shape."""


class Literal(int):
    """A JSON integer that remembers how it was written."""

    text: str

    def __new__(cls, text: str) -> Self:
        value = super().__new__(cls, int(text))
        value.text = text
        return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise NotSimpleError("a key twice")
    return dict(pairs)


def _not_simple(text: str) -> Any:
    raise NotSimpleError(f"the number {text}")


def _printable_ascii(text: str) -> bool:
    return all(" " <= char <= "~" for char in text)


def _row(value: Any, size: int) -> list[int]:
    """A row's codes: a card text string or a list of card strings and codes 0..51, no joker."""
    if isinstance(value, str):
        try:
            codes = list(parse_cards(value, "s", 2))  # repeats are checked over the round below
        except ValueError:
            raise NotSimpleError("card text") from None
    elif isinstance(value, list):
        codes = []
        for item in value:
            if isinstance(item, str):
                try:
                    codes.append(parse_card(item))
                except ValueError:
                    raise NotSimpleError("a card string") from None
            elif isinstance(item, Literal) and item.text.isdigit() and 0 <= item <= 51:
                codes.append(int(item))  # JSON's grammar: no sign, no leading zero (json refuses those)
            else:
                raise NotSimpleError("a card code")
    else:
        raise NotSimpleError("a row")
    if len(codes) != size or any(code >= 52 for code in codes):
        raise NotSimpleError("a row's cards")
    return codes


def simple_round(line: bytes, max_players: int) -> tuple[int | str | None, list[list[int]]]:
    """The id (None: none given) and the cards of a line of the documented shape; NotSimpleError otherwise."""
    if b"\\" in line:
        raise NotSimpleError("an escape")  # a backslash can only stand in a JSON string, as an escape
    try:
        data = json.loads(
            line.decode("utf-8"),
            object_pairs_hook=_unique_keys,
            parse_int=Literal,
            parse_float=_not_simple,
            parse_constant=_not_simple,
        )
    except (ValueError, RecursionError):
        raise NotSimpleError("not JSON") from None
    if not isinstance(data, dict) or set(data) - {"id", "players"} or "players" not in data:
        raise NotSimpleError("the round's keys")
    rid = data.get("id")
    if isinstance(rid, Literal):
        if not INT64[0] <= rid <= INT64[1]:
            raise NotSimpleError("an id past int64")
        rid = int(rid)
    elif "id" in data and not (isinstance(rid, str) and _printable_ascii(rid)):
        raise NotSimpleError("an id")
    players = data["players"]
    if not isinstance(players, list) or not 2 <= len(players) <= max_players:
        raise NotSimpleError("players")
    names: list[str] = []
    cards: list[list[int]] = []
    for seat, player in enumerate(players):
        if not isinstance(player, dict) or set(player) - {"name", "front", "middle", "back"}:
            raise NotSimpleError("a player's keys")
        name = player.get("name", f"P{seat + 1}")
        if not isinstance(name, str) or not _printable_ascii(name) or not name.strip(" "):
            raise NotSimpleError("a name")
        names.append(name)
        cards.append([code for row, size in ROWS for code in _row(player.get(row), size)])
    if len(set(names)) != len(names):
        raise NotSimpleError("a name twice")
    every = [code for hand in cards for code in hand]
    if len(set(every)) != len(every):
        raise NotSimpleError("a card twice")
    return rid, cards


def documented_read(
    body: bytes, max_rounds: int, max_players: int
) -> tuple[list[tuple[int | str, list[list[int]]]], bool] | None:
    """What the header says ``read_round_lines`` reads: the rounds' ids (position when none) and cards and
    whether a round follows; None where it says the reader refuses."""
    text = body[len(BOM) :] if body.startswith(BOM) else body
    lines = [line for line in text.split(b"\n") if line.strip(b" \t\r\x0b\x0c")]
    rounds = []
    for position, line in enumerate(lines[:max_rounds], start=1):
        try:
            rid, cards = simple_round(line, max_players)
        except NotSimpleError:
            return None
        rounds.append((position if rid is None else rid, cards))
    if not rounds or len({len(cards) for _, cards in rounds}) != 1:
        return None
    return rounds, len(lines) > max_rounds


# ----- bodies and their damage ------------------------------------------------------------------------------


def random_round(rng: random.Random, players: int, *, named: bool = True) -> dict[str, Any]:
    """A round dealt from a shuffled deck, each row as codes, card strings or text in one of its spellings,
    laid as dealt or sorted (so mostly legal, sometimes fouled)."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = []
    for seat in range(players):
        cards = deck[13 * seat : 13 * seat + 13]
        if rng.random() < 0.5:
            cards.sort()
        hand: dict[str, Any] = {}
        start = 0
        for row, size in ROWS:
            codes = cards[start : start + size]
            start += size
            texts = [format_card(code) for code in codes]
            form = rng.randrange(6)
            if form == 0:
                hand[row] = codes
            elif form == 1:
                hand[row] = [rng.choice([text, code]) for text, code in zip(texts, codes)]
            elif form == 2:
                hand[row] = " ".join(texts)
            elif form == 3:
                hand[row] = ",".join(text.replace("T", "10").lower() for text in texts)
            elif form == 4:
                hand[row] = "".join(texts)
            else:
                symbols = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
                hand[row] = " ".join(text[0] + symbols[text[1]] for text in texts)
        if rng.random() < 0.3:
            names = [f"Ann {seat}", f"Bo{seat}", f" x{seat}", f"P{seat + 1}"]  # each seat its own
            hand["name"] = rng.choice([*names, "Ann", "P1", "P2", "Zoé", ""] if named else names)
        hands.append(hand)
    data: dict[str, Any] = {"players": hands}
    if rng.random() < 0.7:
        data["id"] = rng.choice(
            [rng.randrange(-1000, 1000), rng.randrange(*INT64), rng.choice(INT64), "r-1", "a b", "", "x:y/z"]
        )
    return data


#: Numbers a JSON integer may be replaced by: int64's edges and past them, fractions, exponents, a sign.
ODD_NUMBERS = ("9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
               "123456789012345678901234567890", "1" * 5000, "-0", "0", "1.0", "1e2", "1E400", "-1", "51",
               "52", "007", "NaN", "Infinity", "true", "null", "[]", "{}", '"1"')  # fmt: skip
#: What may replace one character of a JSON string: escapes, of a plain letter too, control characters,
#: quotes, lone surrogates, non-ASCII, and the card text's own symbols and separators.
ODD_CHARACTERS = ("\\u0041", "\\n", "\\t", '\\"', "\\\\", "\\/", "\\ud800", "\\udc00", "\\u2660",
                  "\t", "\x00", "\x7f", "é", "€", "\U0001f0cf", "♠", "\u00a0", "\u3000", ";", ",", "10",
                  "X1", '"')  # fmt: skip


def damage_round(rng: random.Random, data: dict[str, Any], others: int) -> str:
    """The round's JSON line, compact or spaced, changed in a few ways (or not at all)."""
    data = json.loads(json.dumps(data))
    for _ in range(rng.choice([0, 1, 1, 2])):
        hands = data.get("players")
        if not isinstance(hands, list) or not hands or not all(isinstance(hand, dict) for hand in hands):
            break  # an earlier change took the players apart
        with contextlib.suppress(
            ValueError, KeyError, TypeError, IndexError
        ):  # a row an earlier change made unreadable
            damage_players(rng, data, hands, others)
    if rng.random() < 0.4:
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=rng.random() < 0.2)
    else:
        text = json.dumps(
            data, ensure_ascii=rng.random() < 0.2, separators=rng.choice([(", ", ": "), (" ,\t", " :\r ")])
        )
    return damage_text(rng, text)


def damage_players(
    rng: random.Random, data: dict[str, Any], hands: list[dict[str, Any]], others: int
) -> None:
    """One change to a round's keys, players or rows."""
    hand = rng.choice(hands)
    kind = rng.randrange(12)
    if kind == 0:
        data[rng.choice(["note", "rules", "stakes", "idd", "Players"])] = rng.choice(["pagat", None, 1])
    elif kind == 1:
        hand[rng.choice(["surrender", "declare_natural", "cards", "Front", "fantasyland"])] = False
    elif kind == 2:  # a card held twice, in a row or across the table
        row = rng.choice(["front", "middle", "back"])
        donor = rng.choice(hands)
        taken = parse_cards(donor["back"]) if not isinstance(donor["back"], list) else donor["back"]
        codes = list(parse_cards(hand[row])) if not isinstance(hand[row], list) else list(hand[row])
        codes[0] = taken[rng.randrange(len(taken))]
        hand[row] = codes
    elif kind == 3:  # a row one card short or long
        row = rng.choice(["front", "middle", "back"])
        codes = list(parse_cards(hand[row])) if not isinstance(hand[row], list) else list(hand[row])
        hand[row] = codes[:-1] if rng.random() < 0.5 else [*codes, codes[0]]
    elif kind == 4:  # jokers and codes past the deck
        hand["front"] = rng.choice(["X1 2c 2d", "\U0001f0cf 2c 2d", [52, 0, 1], [0, 1, 53], "x2,2c,2d"])
    elif kind == 5:
        hand["back"] = rng.choice(["Zz 2c 2d 2h 2s", "", "2c 2d 2h 2s", [0, 1, 2, 3, True], "2c2d2h2s2"])
    elif kind == 6:
        data["players"] = hands[:1] if rng.random() < 0.5 else [hands]
    elif kind == 7:
        hand["name"] = rng.choice(["tab\there", "", "   ", "P1", "P4", "x" * 70, "\u0000", 'a"b'])
    elif kind == 8:
        data["id"] = rng.choice([1.5, None, True, [1], {"a": 1}, 2**63, -(2**63) - 1, 10**30, 'a"b', "é"])
    elif kind == 9:
        if rng.random() < 0.3:
            data.pop("players", None)
        else:
            hand.pop("middle", None)
    elif kind == 10:
        if rng.random() < 0.2:
            del hands[rng.randrange(len(hands)) :]
        else:
            hands.append(dict(hands[0]))
    else:  # the player count of the other rounds: one more or one less
        data["players"] = hands[: max(2, min(len(hands), others - 1))]


def damage_text(rng: random.Random, text: str) -> str:
    """JSON text damaged at the level of its characters: a number or a string's character replaced, a
    key repeated, the line cut short."""
    for _ in range(rng.choice([0, 0, 1, 2])):
        if not text:
            break
        kind = rng.randrange(5)
        if kind == 0:  # a number replaced
            spans = [
                (k, k + 1) for k, char in enumerate(text) if char.isdigit() and not text[k - 1].isdigit()
            ]
            if spans:
                start, _ = rng.choice(spans)
                end = start
                while end < len(text) and text[end].isdigit():
                    end += 1
                text = text[:start] + rng.choice(ODD_NUMBERS) + text[end:]
        elif kind == 1:  # a character of a string replaced
            places = [k for k, char in enumerate(text) if char.isalnum()]
            if places:
                k = rng.choice(places)
                text = text[:k] + rng.choice(ODD_CHARACTERS) + text[k + 1 :]
        elif kind == 2:  # a key given twice
            key = rng.choice(['"id": 7, ', '"players": [], ', '"front": "2c 3c 4c", ', '"name": "Q", '])
            at = text.find("{", rng.randrange(len(text)))
            if at >= 0:
                text = text[: at + 1] + key.replace(" ", rng.choice(["", " "])) + text[at + 1 :]
        elif kind == 3:
            text = text[: rng.randrange(len(text) + 1)]
        else:  # other white space between tokens
            k = rng.randrange(len(text) + 1)
            text = text[:k] + rng.choice([" ", "\t", "\r", "\x0b", "\x0c", "\u00a0"]) + text[k:]
    return text


def random_body(rng: random.Random) -> bytes:
    """A JSON Lines body of 1 to 6 rounds, blank lines among them: a third of the bodies left whole, the
    others damaged in their rounds, their text or their bytes."""
    players = rng.randint(2, 4)
    whole = rng.random() < 0.35
    lines = []
    for _ in range(rng.choice([1, 1, 2, 3, 4, 6])):
        count = players if whole or rng.random() < 0.85 else rng.randint(2, 4)
        data = random_round(rng, count, named=not whole)
        lines.append(json.dumps(data, ensure_ascii=False) if whole else damage_round(rng, data, players))
        if rng.random() < 0.15:
            lines.append(rng.choice(["", " ", "\t\r", "\x0b\x0c", "\r"]))
    newline = rng.choice(["\n", "\n", "\r\n", "\n\n"])
    body = newline.join(lines).encode("utf-8", "surrogatepass") + rng.choice([b"\n", b"", b"\r\n"])
    if rng.random() < 0.1:
        body = BOM + body
    for _ in range(0 if whole else rng.choice([0, 0, 0, 1, 2])):  # a byte replaced, a bit flipped, cut short
        if not body:
            break
        k = rng.randrange(len(body))
        kind = rng.randrange(3)
        if kind == 0:
            body = body[:k] + bytes([rng.randrange(256)]) + body[k + 1 :]
        elif kind == 1:
            body = body[:k] + bytes([body[k] ^ (1 << rng.randrange(8))]) + body[k + 1 :]
        else:
            body = body[:k]
    return body


# ----- the comparison ---------------------------------------------------------------------------------------


def check_body(body: bytes, preset: str, max_rounds: int, max_players: int) -> str:
    """Compare the fast path with the general path and the documentation on one body; say which case it
    was (for the test's count of cases)."""
    rules = Rules.preset(preset)
    read = _core.read_round_lines(body, max_rounds, max_players)
    fast = _core.settle_net_lines(body, core_spec(rules), max_rounds, max_players)
    documented = documented_read(body, max_rounds, max_players)
    general = general_net_lines(body, rules, max_rounds)
    plain_deck = rules.extra_suits == "" and rules.jokers == 0

    # The reader reads exactly what its header says it reads, to the same cards and ids.
    assert (read is None) == (documented is None), (body, documented)
    if read is not None and documented is not None:
        cards, ids, more = read
        assert ids == [rid for rid, _ in documented[0]]
        assert cards.tolist() == [hands for _, hands in documented[0]]
        assert more == documented[1]
        if not isinstance(general, str):  # the general path reads the same rounds
            assert [(rid, hands) for rid, hands in general[2]] == documented[0]
    # An answer is the general path's answer, byte for byte.
    if fast is not None:
        assert not isinstance(general, str), (body, general)
        assert fast == (general[0], general[1]), body
        assert _core.settle_net_lines(body, core_spec(rules), max_rounds, max_players, threads=2) == fast
        return "fast"
    # The fast path refuses: the body is not of its shape, the pack is not a plain deck, or a round is one
    # the general path refuses too.
    assert read is None or not plain_deck or isinstance(general, str), (body, general)
    if isinstance(general, str):
        return "refused, and an error"
    return "refused, settled by the general path"


def test_the_documented_reading_meets_known_lines() -> None:
    """The test's own reading of the documentation on lines whose answer is known (the fuzz relies on it)."""
    e2 = (
        b'{"id": "e2", "players": [{"name": "North", "front": "Ts Th Qs", "middle": "6s 5s 4s 3s 2h", '
        b'"back": "Ks Kh Kd 3h 3d"}, {"front": [0, 1, 24], "middle": ["2s", 4, "5c", "5d", "Jc"], '
        b'"back": "Jd,Jh,Js;7c 7d"}]}'
    )
    read = documented_read(e2 + b"\r\n\n", 10, 6)
    assert read is not None
    assert read[0][0][0] == "e2"
    assert read[0][0][1][1] == [0, 1, 24, 3, 4, 12, 13, 36, 37, 38, 39, 20, 21]
    assert _core.read_round_lines(e2, 10, 6) is not None
    bad_lines = [
        e2.replace(b'"e2"', b'"e\\u0032"'),  # an escape
        e2.replace(b'"e2"', b"1.0"),  # a fraction
        b'{"id": 1, ' + e2[1:],  # a key twice
        e2.replace(b"North", b"P2"),  # the second player's default name
        e2.replace(b"[0, 1, 24]", b"[0, 1, 24.0]"),
        e2[:-1],  # cut short
    ]
    for bad in bad_lines:
        assert documented_read(bad, 10, 6) is None, bad
        assert _core.read_round_lines(bad, 10, 6) is None, bad
    assert check_body(e2 + b"\n" + e2.replace(b'"e2"', b"-9223372036854775808"), "pagat", 10, 6) == "fast"
    assert check_body(e2 + b"\n" + e2, "pagat", 1, 6) == "fast"  # one round read, more follow


def test_fast_reader_fuzz_agrees_with_the_general_path() -> None:
    rng = random.Random(20260302)
    seen: dict[str, int] = {}
    for case in range(CASES):
        body = random_body(rng)
        preset = rng.choice(PRESETS)
        max_rounds = rng.choice([1, 2, 5, 100])
        max_players = rng.choice([MAX_PLAYERS, MAX_PLAYERS, 3])
        try:
            outcome = check_body(body, preset, max_rounds, max_players)
        except AssertionError as error:
            raise AssertionError(
                f"case {case} ({preset}, {max_rounds} rounds, {max_players} players)"
            ) from error
        seen[outcome] = seen.get(outcome, 0) + 1
    # The draw meets every case in good numbers.
    assert min(seen.values()) >= CASES // 20, seen
    assert len(seen) == 3, seen


@pytest.mark.parametrize("max_players", [2, 3, 4, 5, 6])
def test_fast_reader_player_limit(max_players: int) -> None:
    rng = random.Random(max_players)
    for _ in range(20):
        body = (json.dumps(random_round(rng, rng.randint(2, 4))) + "\n").encode()
        check_body(body, "pagat", 10, max_players)


# ----- round by round: every round the reader takes, the rest by the general path --------------------------


def each_round(records: Any, rules: Rules | None) -> list[str]:
    """Each round's net line, or its error message, as ``score --keep-going`` gives them."""
    answers: list[str] = []
    for item in records:
        if isinstance(item, CoreLines):
            lines = item.lines.decode("utf-8").splitlines(keepends=True)
            assert len(lines) == item.rounds
            answers.extend(lines)
            continue
        try:
            rnd, settlement = settle_record(item, rules)
        except RoundError as error:
            answers.append(f"error: {error}")
            continue
        answers.append(dumps(round_net_output(rnd, settlement)) + "\n")
    return answers


def test_round_by_round_reader_fuzz_agrees_with_the_general_path() -> None:
    """On the fuzz's bodies (damaged ones among them), the core's reader with the general path in each
    left round's place gives every round's line and every error of the general path, in order, over any
    chunking and thread count."""
    rng = random.Random(20261203)
    core_rounds = 0
    for case in range(CASES // 3):
        body = random_body(rng)
        rules = rng.choice([None, Rules.preset(rng.choice(PRESETS))])
        general = each_round(stream_rounds(io.BytesIO(body), json_lines=True).records, rules)
        chunk = rng.choice([1, 64, 1 << 20])
        stream = net_stream(io.BytesIO(body), rules, chunk_bytes=chunk, threads=rng.choice([1, 2]))
        items = list(stream)
        assert each_round(items, rules) == general, (case, body)
        core_rounds += sum(item.rounds for item in items if isinstance(item, CoreLines))
    assert core_rounds >= CASES // 6  # the core took rounds (most bodies are damaged: about one a body)
