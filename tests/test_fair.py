"""The provably fair deal (``chinese_poker.fair``, docs/FAIR.md): the commitment, the deal against its test
vectors and against the JavaScript and Go re-implementations, the rejection step on a forced stream, every
pack (jokers, added suits, 2 to 6 seats), ``verify_deal`` and its detail, bad input, and (slow) the
uniformity of a million deals by chi-square."""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import re
import shutil
import struct
import subprocess
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from chinese_poker import _core, fair
from chinese_poker.cards import format_card
from chinese_poker.rules import Rules
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
VECTORS_FILE = ROOT / "tests" / "data" / "fair-vectors.json"
VECTORS = json.loads(VECTORS_FILE.read_text(encoding="utf-8"))
SEED = bytes(range(32))
CLIENTS = [b"alice", b"bob"]


def vector_rules(vector: dict[str, object]) -> Rules:
    return Rules().replace(extra_suits=vector["extra_suits"], jokers=vector["jokers"])


def vector_deal(vector: dict[str, object]) -> list[list[int]]:
    cards = fair.deal(
        bytes.fromhex(str(vector["server_seed"])),
        [bytes.fromhex(seed) for seed in vector["client_seeds"]],  # type: ignore[attr-defined]
        int(str(vector["nonce"])),
        vector_rules(vector),
        int(str(vector["players"])),
    )
    return [[int(c) for c in seat] for seat in cards]


# ----- the commitment and the stream -------------------------------------------------------------------


def test_commitment_is_the_sha256_of_the_seed() -> None:
    assert fair.commitment(SEED) == hashlib.sha256(SEED).hexdigest()
    assert fair.commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"


def test_stream_blocks_are_hmacs_of_the_documented_message() -> None:
    blocks = fair.deal_stream(SEED, CLIENTS, 5)
    message = b"chinese-poker/deal/v1" + b"\x02" + b"\x05alice" + b"\x03bob" + (5).to_bytes(8, "big")
    for counter in range(3):
        expected = hmac.new(SEED, message + counter.to_bytes(4, "big"), hashlib.sha256).digest()
        assert next(blocks) == expected


# ----- test vectors and other languages ----------------------------------------------------------------


def test_vectors_cover_every_pack_and_seat_count() -> None:
    assert {(v["extra_suits"], v["jokers"]) for v in VECTORS} >= {("", 0), ("", 2), ("s", 0), ("hs", 0)}
    assert {v["players"] for v in VECTORS} == {2, 3, 4, 5, 6}


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_the_library_deals_the_vectors(vector: dict[str, object]) -> None:
    cards = vector_deal(vector)
    assert cards == vector["deal"]
    assert [" ".join(format_card(c) for c in seat) for seat in cards] == vector["deal_text"]
    assert fair.commitment(bytes.fromhex(str(vector["server_seed"]))) == vector["commitment"]


def test_a_vector_exercises_the_rejection_step() -> None:
    """The vector named for it has a word at or past its draw's limit in its stream: the other languages
    are checked on the rejection path too."""
    vector = next(v for v in VECTORS if v["name"] == "a rejected word")
    blocks = fair.deal_stream(
        bytes.fromhex(vector["server_seed"]), [bytes.fromhex(s) for s in vector["client_seeds"]],
        int(vector["nonce"]),
    )  # fmt: skip
    n = len(fair.pack(vector_rules(vector)))
    words = [w for _ in range(12) for w in struct.unpack(">8I", next(blocks))]
    # Walk the draws as the shuffle does and count the words it rejects.
    rejected, w = 0, 0
    for i in range(13 * vector["players"]):
        m = n - i
        while words[w] >= 2**32 - 2**32 % m:
            rejected += 1
            w += 1
        w += 1
    assert rejected >= 1


def _run_other(command: list[str], cwd: Path) -> list[list[list[int]]]:
    inputs = [{k: v[k] for k in ("server_seed", "client_seeds", "nonce", "extra_suits", "jokers", "players")}
              for v in VECTORS]  # fmt: skip
    # Go keeps its build cache and module path in the temporary directory and never fetches a toolchain.
    scratch = Path(tempfile.gettempdir()) / "chinese-poker-go"
    env = {**os.environ, "GOCACHE": str(scratch / "cache"), "GOPATH": str(scratch / "path"), "GOFLAGS": "",
           "GOTOOLCHAIN": "local", "GO111MODULE": "off"}  # fmt: skip
    done = subprocess.run(
        command,
        input=json.dumps(inputs),
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: list[list[list[int]]] = json.loads(done.stdout)
    return result


def test_the_javascript_deal_agrees_on_the_vectors() -> None:
    node = shutil.which("node")
    assert node is not None, "node is needed to check docs/fair/deal.js"
    assert _run_other([node, "deal.js"], ROOT / "docs" / "fair") == [v["deal"] for v in VECTORS]


def test_the_go_deal_agrees_on_the_vectors() -> None:
    go = shutil.which("go")
    if go is None:
        # CI installs Go (.ci/run sets CP_REQUIRE_GO=1): there, a missing toolchain fails instead of skipping.
        assert os.environ.get("CP_REQUIRE_GO") != "1", "CP_REQUIRE_GO=1 but go is not on PATH"
        pytest.skip("no Go toolchain on this machine (go not on PATH): docs/fair/deal.go is not run")
    assert _run_other([go, "run", "deal.go"], ROOT / "docs" / "fair") == [v["deal"] for v in VECTORS]


@pytest.mark.parametrize("name", ["deal.js", "deal.go"])
def test_fair_md_shows_the_files_that_are_run(name: str) -> None:
    page = (ROOT / "docs" / "FAIR.md").read_text(encoding="utf-8")
    language = "javascript" if name.endswith(".js") else "go"
    blocks = re.findall(rf"```{language}\n(.*?)```", page, flags=re.DOTALL)
    assert (ROOT / "docs" / "fair" / name).read_text(encoding="utf-8") in blocks


# ----- the shuffle: rejection sampling on a forced stream ----------------------------------------------


def forced(words: list[int]) -> Iterator[bytes]:
    """A stream of the given 32-bit words (then zeros), in blocks of 8 words."""
    padded = words + [0] * (-len(words) % 8)
    for start in range(0, len(padded), 8):
        yield struct.pack(">8I", *padded[start : start + 8])
    while True:
        yield bytes(32)


def test_a_word_past_the_limit_is_rejected_and_the_next_one_drawn() -> None:
    # 2**32 % 52 == 48: the words 2**32 - 48 .. 2**32 - 1 are the incomplete band for the first draw.
    limit = 2**32 - 48
    assert fair.shuffle(range(52), forced([limit, 7]), 1)[0] == 7
    assert fair.shuffle(range(52), forced([2**32 - 1, limit + 3, 7]), 1)[0] == 7
    # Without rejection, 2**32 - 1 would have drawn (2**32 - 1) % 52 == 47.
    assert fair.shuffle(range(52), forced([2**32 - 1, 0]), 1)[0] == 0
    # The last word below the limit is a draw, modulo 52.
    assert fair.shuffle(range(52), forced([limit - 1]), 1)[0] == (limit - 1) % 52 == 51


def test_a_rejection_shifts_every_later_draw_by_one_word() -> None:
    words = [3, 2**32 - 1, 5, 9]  # draw 0 takes 3, draw 1 rejects 2**32-1 (2**32 % 51 == 1) and takes 5
    order = fair.shuffle(range(52), forced(words), 3)
    assert order[:3] == [3, 6, 11]  # 1 + 5 % 51 = 6; 2 + 9 % 50 = 11
    assert 2**32 % 51 == 1


def test_every_draw_is_the_forward_fisher_yates_step() -> None:
    order = fair.shuffle(range(5), forced([4, 0, 2, 1]))
    # i=0: m=5, 4 -> swap 0,4: 4 1 2 3 0; i=1: m=4, 0 -> no swap; i=2: m=3, 2 -> swap 2,4: 4 1 0 3 2;
    # i=3: m=2, 1 -> swap 3,4: 4 1 0 2 3
    assert order == [4, 1, 0, 2, 3]


def test_stopping_early_keeps_the_cards_of_the_whole_permutation() -> None:
    whole = fair.shuffle(fair.pack("pagat"), fair.deal_stream(SEED, CLIENTS, 3))
    part = fair.shuffle(fair.pack("pagat"), fair.deal_stream(SEED, CLIENTS, 3), 26)
    assert part[:26] == whole[:26]
    assert [int(c) for c in fair.deal(SEED, CLIENTS, 3, "pagat", 2).ravel()] == whole[:26]


# ----- every pack ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "jokers", "seats"),
    [("", 0, 2), ("", 0, 3), ("", 0, 4), ("", 1, 4), ("", 2, 4), ("s", 0, 5), ("cd", 0, 6), ("hs", 2, 6)],
)
def test_a_deal_is_distinct_cards_of_the_pack(extra: str, jokers: int, seats: int) -> None:
    rules = Rules().replace(extra_suits=extra, jokers=jokers)
    pack = Counter(fair.pack(rules))
    assert sum(pack.values()) == 52 + 13 * len(extra) + jokers
    for nonce in range(50):
        cards = fair.deal(SEED, CLIENTS, nonce, rules, seats)
        assert cards.shape == (seats, 13)
        assert cards.dtype == np.uint8
        held = Counter(int(c) for c in cards.ravel())
        assert all(held[c] <= pack[c] for c in held)


def test_jokers_and_added_cards_are_dealt() -> None:
    rules = Rules().replace(extra_suits="s", jokers=2)
    seen = Counter(int(c) for n in range(200) for c in fair.deal(SEED, CLIENTS, n, rules, 5).ravel())
    assert seen[52] > 0
    assert seen[53] > 0
    doubled = [
        n for n in range(300) if max(Counter(fair.deal(SEED, CLIENTS, n, rules, 5).ravel()).values()) == 2
    ]
    assert doubled  # a spade held twice in some deal


def test_seeds_and_nonce_each_change_the_deal() -> None:
    base = fair.deal(SEED, CLIENTS, 0, "pagat", 4)
    assert (fair.deal(SEED, CLIENTS, 0, "pagat", 4) == base).all()
    assert not (fair.deal(SEED, CLIENTS, 1, "pagat", 4) == base).all()
    assert not (fair.deal(SEED, [b"alice", b"bob!"], 0, "pagat", 4) == base).all()
    assert not (fair.deal(SEED, [b"bob", b"alice"], 0, "pagat", 4) == base).all()
    assert not (fair.deal(bytes(32), CLIENTS, 0, "pagat", 4) == base).all()
    # The length prefixes keep two splittings of the same bytes apart.
    assert not (
        fair.deal(SEED, [b"ab", b"c"], 0, "pagat", 4) == fair.deal(SEED, [b"a", b"bc"], 0, "pagat", 4)
    ).all()


# ----- verify_deal ---------------------------------------------------------------------------------------


def test_verify_deal_accepts_the_deal_in_any_order_within_a_seat() -> None:
    cards = fair.deal(SEED, CLIENTS, 9, "pagat", 4)
    published = fair.commitment(SEED)
    assert fair.verify_deal(published, SEED, CLIENTS, 9, "pagat", cards)
    text = [" ".join(format_card(int(c)) for c in reversed(seat)) for seat in cards]
    assert fair.verify_deal(published.upper(), SEED, CLIENTS, 9, Rules(), text)
    assert fair.verify_deal_detail(published, SEED, CLIENTS, 9, "pagat", cards) == fair.DealCheck(True)


def test_verify_deal_detail_names_the_failed_check() -> None:
    cards = fair.deal(SEED, CLIENTS, 9, "pagat", 4)
    published = fair.commitment(SEED)
    wrong = fair.verify_deal_detail(fair.commitment(bytes(32)), SEED, CLIENTS, 9, "pagat", cards)
    assert (wrong.ok, wrong.failed) == (False, "commitment")
    assert not fair.verify_deal(published, SEED, CLIENTS, 10, "pagat", cards)
    swapped = cards.copy()
    swapped[2, 0], swapped[3, 0] = cards[3, 0], cards[2, 0]
    detail = fair.verify_deal_detail(published, SEED, CLIENTS, 9, "pagat", swapped)
    assert (detail.failed, detail.seat) == ("cards", 2)
    short = fair.verify_deal_detail(published, SEED, CLIENTS, 9, "pagat", cards[:1])
    assert (short.failed, short.message) == (
        "players",
        "dealt holds 1 seats, a pack of 52 cards deals 2 to 4",
    )
    more = np.concatenate([cards, cards[:1]])
    assert fair.verify_deal_detail(published, SEED, CLIENTS, 9, "pagat", more).failed == "players"
    assert fair.verify_deal_detail(
        published, SEED, CLIENTS, 9, "pagat", cards[:3]
    ).ok  # 3 seats deal the same


# ----- bad input -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("server", "clients", "nonce", "error", "text"),
    [
        ("seed" * 8, CLIENTS, 0, TypeError, "server_seed must be bytes, got str (encode text first"),
        (bytes(15), CLIENTS, 0, ValueError, "server_seed must be 16 to 64 bytes, got 15"),
        (bytes(65), CLIENTS, 0, ValueError, "server_seed must be 16 to 64 bytes, got 65"),
        (SEED, b"alice", 0, TypeError, "client_seeds must be a sequence of bytes values, got bytes"),
        (SEED, [], 0, ValueError, "client_seeds must hold 1 to 16 seeds, got 0"),
        (SEED, [b"a"] * 17, 0, ValueError, "client_seeds must hold 1 to 16 seeds, got 17"),
        (SEED, [b"alice", ""], 0, TypeError, "client_seeds[1] must be bytes, got str"),
        (SEED, [b"alice", b""], 0, ValueError, "client_seeds[1] must be 1 to 64 bytes, got 0"),
        (SEED, [b"x" * 65], 0, ValueError, "client_seeds[0] must be 1 to 64 bytes, got 65"),
        (SEED, CLIENTS, -1, ValueError, "nonce must be in 0..2**64-1, got -1"),
        (SEED, CLIENTS, 2**64, ValueError, "nonce must be in 0..2**64-1, got 18446744073709551616"),
        (SEED, CLIENTS, True, TypeError, "nonce must be an int, got bool"),
        (SEED, CLIENTS, 1.0, TypeError, "nonce must be an int, got float"),
        (SEED, CLIENTS, "1", TypeError, "nonce must be an int, got str"),
    ],
)
def test_bad_seeds_and_nonces_are_named(
    server: object, clients: object, nonce: object, error: type[Exception], text: str
) -> None:
    with pytest.raises(error) as caught:
        fair.deal(server, clients, nonce, "pagat", 4)  # type: ignore[arg-type]
    assert str(caught.value).startswith(text)


@pytest.mark.parametrize(
    ("rules", "players", "error", "text"),
    [
        ("pagat", 1, ValueError, "a pack of 52 cards deals 2 to 4 seats of 13, got 1"),
        ("pagat", 5, ValueError, "a pack of 52 cards deals 2 to 4 seats of 13, got 5"),
        (Rules().replace(jokers=2), 5, ValueError, "a pack of 54 cards deals 2 to 4 seats of 13, got 5"),
        (
            Rules().replace(extra_suits="s"),
            6,
            ValueError,
            "a pack of 65 cards deals 2 to 5 seats of 13, got 6",
        ),
        ("pagat", 4.0, TypeError, "players must be an int, got float"),
        ("pagat", True, TypeError, "players must be an int, got bool"),
        (None, 4, TypeError, "rules must be Rules or a preset name, got NoneType"),
    ],
)
def test_bad_rules_and_seat_counts_are_named(
    rules: object, players: object, error: type[Exception], text: str
) -> None:
    with pytest.raises(error, match=re.escape(text)):
        fair.deal(SEED, CLIENTS, 0, rules, players)  # type: ignore[arg-type]


def test_verify_deal_refuses_malformed_arguments() -> None:
    cards = fair.deal(SEED, CLIENTS, 0, "pagat", 4)
    with pytest.raises(TypeError, match="commitment must be a hex string, got bytes"):
        fair.verify_deal(b"00", SEED, CLIENTS, 0, "pagat", cards)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"dealt seat 1: .*Zz"):
        fair.verify_deal(fair.commitment(SEED), SEED, CLIENTS, 0, "pagat", ["As", "Zz"])
    with pytest.raises(TypeError, match="server_seed must be bytes"):
        fair.verify_deal(fair.commitment(SEED), "seed", CLIENTS, 0, "pagat", cards)  # type: ignore[arg-type]


# ----- the compiled kernel against hashlib and the Python shuffle ----------------------------------------


@given(st.binary(max_size=300))
def test_the_cores_sha256_is_hashlibs(data: bytes) -> None:
    assert _core.fair_sha256(data) == hashlib.sha256(data).digest()


@pytest.mark.parametrize("size", [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000])
def test_the_cores_sha256_at_every_padding_boundary(size: int) -> None:
    data = bytes(range(256)) * 4
    assert _core.fair_sha256(data[:size]) == hashlib.sha256(data[:size]).digest()


@given(st.binary(max_size=200), st.binary(max_size=200))
def test_the_cores_hmac_is_the_standard_librarys(key: bytes, data: bytes) -> None:
    assert _core.fair_hmac_sha256(key, data) == hmac.digest(key, data, "sha256")


@given(
    st.binary(min_size=16, max_size=64),
    st.lists(st.binary(min_size=1, max_size=64), min_size=1, max_size=16),
    st.integers(0, 2**64 - 1),
    st.sampled_from([("", 0, 4), ("", 2, 4), ("", 0, 2), ("s", 0, 5), ("hs", 2, 6), ("cd", 1, 3)]),
)
def test_the_cores_deal_is_the_python_shuffle(
    server: bytes, clients: list[bytes], nonce: int, pack: tuple[str, int, int]
) -> None:
    extra, jokers, seats = pack
    rules = Rules().replace(extra_suits=extra, jokers=jokers)
    by_python = fair.shuffle(fair.pack(rules), fair.deal_stream(server, clients, nonce), 13 * seats)
    assert [int(c) for c in fair.deal(server, clients, nonce, rules, seats).ravel()] == by_python[
        : 13 * seats
    ]


def test_deal_many_is_deal_for_each_nonce() -> None:
    rules = Rules().replace(extra_suits="s")
    many = fair.deal_many(SEED, CLIENTS, range(100, 140), rules, 5)
    assert many.shape == (40, 5, 13)
    assert many.dtype == np.uint8
    for k, nonce in enumerate(range(100, 140)):
        assert (many[k] == fair.deal(SEED, CLIENTS, nonce, rules, 5)).all()
    listed = fair.deal_many(SEED, CLIENTS, [2**64 - 1, 0], "pagat", 4)
    assert (listed[0] == fair.deal(SEED, CLIENTS, 2**64 - 1, "pagat", 4)).all()
    assert fair.deal_many(SEED, CLIENTS, range(0), "pagat", 4).shape == (0, 4, 13)
    with pytest.raises(ValueError, match=re.escape("nonces must be in 0..2**64-1, got -1")):
        fair.deal_many(SEED, CLIENTS, [-1, 2], "pagat", 4)
    with pytest.raises(TypeError, match="nonces must be a range or a 1-D sequence of ints"):
        fair.deal_many(SEED, CLIENTS, [[1]], "pagat", 4)
    with pytest.raises(TypeError, match="nonces must be a range or a 1-D sequence of ints"):
        fair.deal_many(SEED, CLIENTS, [1.5], "pagat", 4)


# ----- uniformity (slow) -------------------------------------------------------------------------------

DEALS = 1_000_000
Z_999 = 3.2905  # the standard normal's 0.9995 quantile: a two-sided 99.9 % band


def chi_square_band(df: int) -> tuple[float, float]:
    """The two-sided 99.9 % band of a chi-square with ``df`` degrees of freedom (Wilson-Hilferty)."""
    spread = math.sqrt(2 / (9 * df))
    return tuple(df * (1 - 2 / (9 * df) + z * spread) ** 3 for z in (-Z_999, Z_999))  # type: ignore[return-value]


@pytest.fixture(scope="module")
def million_deals() -> np.ndarray:
    return fair.deal_many(SEED, CLIENTS, range(DEALS), Rules(), 4).reshape(DEALS, 52)


@pytest.mark.slow
def test_every_card_is_equally_likely_at_every_position(million_deals: np.ndarray) -> None:
    counts = np.zeros((52, 52), dtype=np.int64)  # [card, position]
    for position in range(52):
        counts[:, position] = np.bincount(million_deals[:, position], minlength=52)
    expected = DEALS / 52
    statistic = float(((counts - expected) ** 2 / expected).sum())
    low, high = chi_square_band(51 * 51)  # a 52 x 52 table whose rows and columns each sum to DEALS
    assert low < statistic < high, (low, statistic, high)


@pytest.mark.slow
def test_the_first_seats_rank_counts_are_hypergeometric(million_deals: np.ndarray) -> None:
    ranks = million_deals[:, :13] // 4
    per_rank = np.stack([(ranks == r).sum(axis=1) for r in range(13)], axis=1)  # (DEALS, 13), each 0..4
    probability = np.array([math.comb(4, k) * math.comb(48, 13 - k) / math.comb(52, 13) for k in range(5)])
    statistic = 0.0
    for r in range(13):
        observed = np.bincount(per_rank[:, r], minlength=5)
        statistic += float(((observed - DEALS * probability) ** 2 / (DEALS * probability)).sum())
    # 13 ranks of 4 degrees of freedom each (summed as if independent: the weak dependence through the
    # fixed 13 cards narrows the spread slightly, so the band is, if anything, wide).
    low, high = chi_square_band(13 * 4)
    assert low < statistic < high, (low, statistic, high)
