# Type stubs of the compiled core (private: use the chinese_poker package).

import enum
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

class InputError(ValueError):
    kind: str
    item: int | None
    player: int | None
    other: int | None
    position: int | None
    card: int | None

def parse_card(card: object) -> int: ...
def parse_cards(cards: object, extra_suits: str = "", jokers: int = 0) -> tuple[int, ...]: ...
def format_card(card: int) -> str: ...
def card_copies(extra_suits: str = "", jokers: int = 0) -> tuple[int, ...]: ...
def evaluate(
    cards: str | Iterable[str | int], wheel: str = "low", extra_suits: str = "", jokers: int = 0
) -> int: ...
def evaluate_batch(
    cards: npt.NDArray[np.uint8],
    wheel: str = "low",
    threads: int = 1,
    extra_suits: str = "",
    jokers: int = 0,
) -> npt.NDArray[np.int32]: ...
def pack_strengths(
    width: int, wheel: str = "low", extra_suits: str = "", jokers: int = 0
) -> npt.NDArray[np.int32]: ...
def row_strengths(width: int, wheel: str = "low") -> npt.NDArray[np.int32]: ...

class RoyaltyCategory(enum.Enum):
    high_card = 0
    one_pair = 1
    two_pair = 2
    three_of_a_kind = 3
    straight = 4
    flush = 5
    full_house = 6
    four_of_a_kind = 7
    straight_flush = 8
    five_of_a_kind = 9
    royal_flush = 10
    wheel_straight_flush = 11

class NaturalKind(enum.Enum):
    six_pairs = 0
    three_straights = 1
    three_flushes = 2
    dragon = 3
    clean_dragon = 4
    five_pairs_and_trips = 5
    four_trips = 6
    all_one_colour = 7
    all_small = 8
    all_big = 9
    three_quads = 10
    three_straight_flushes = 11
    twelve_royals = 12
    five_consecutive_pairs = 13
    two_trips_three_pairs = 14
    one_red = 15
    one_black = 16
    twelve_royals_ten = 17
    twelve_royals_and_one = 18
    six_of_a_kind = 19
    seven_of_a_kind = 20
    eight_of_a_kind = 21
    two_fives_and_trips = 22

class DecidedBy(enum.Enum):
    natural = 0
    surrender = 1
    foul = 2
    rows = 3
    false_declaration = 4
    not_played = 5

def knob_table() -> tuple[dict[str, Any], ...]: ...

class RulesSpec:
    # The plain knobs are properties made from the knob table (see knob_table()): an enum-like knob a
    # str, a flag a bool, a count an int. The compound knobs are typed below.
    KNOBS: tuple[str, ...]
    def __getattr__(self, knob: str) -> str | int | bool: ...
    def __setattr__(self, knob: str, value: object) -> None: ...
    suit_order: str
    royalties: list[tuple[int, RoyaltyCategory, int]]
    rank_royalties: list[tuple[int, RoyaltyCategory, int, int]]
    naturals: list[tuple[NaturalKind, int]]
    @property
    def row_base(self) -> tuple[int, int, int]: ...
    @row_base.setter
    def row_base(self, value: Sequence[int]) -> None: ...
    horse_card: int | None
    extra_suits: str
    def __init__(self) -> None: ...

class PlayerFacts:
    @property
    def has_setting(self) -> bool: ...
    @property
    def foul(self) -> bool: ...
    @property
    def foul_reasons(self) -> int: ...
    @property
    def natural(self) -> NaturalKind | None: ...
    @property
    def strengths(self) -> tuple[int, int, int]: ...
    @property
    def royalties(self) -> tuple[int, int, int]: ...
    @property
    def false_declaration(self) -> bool: ...
    @property
    def aces(self) -> int: ...
    @property
    def horse(self) -> bool: ...
    @property
    def fantasyland_cards(self) -> int: ...
    @property
    def ace_units(self) -> int: ...
    @property
    def joker_cards(self) -> tuple[int | None, int | None]: ...

class PairResult:
    @property
    def i(self) -> int: ...
    @property
    def j(self) -> int: ...
    @property
    def decided_by(self) -> DecidedBy: ...
    @property
    def rows(self) -> tuple[int, int, int] | None: ...
    @property
    def natural_units(self) -> int: ...
    @property
    def surrender_units(self) -> int: ...
    @property
    def row_units(self) -> int: ...
    @property
    def royalty_units(self) -> int: ...
    @property
    def overall_units(self) -> int: ...
    @property
    def scoop(self) -> int: ...
    @property
    def scoop_bonus_units(self) -> int: ...
    @property
    def multiplier(self) -> int: ...
    @property
    def subtotal(self) -> int: ...
    @property
    def stake(self) -> int: ...
    @property
    def home_run(self) -> int: ...
    @property
    def units(self) -> int: ...
    @property
    def false_declaration_units(self) -> int: ...
    @property
    def ace_units(self) -> int: ...
    @property
    def capped(self) -> bool: ...
    @property
    def home_run_bonus_units(self) -> int: ...
    @property
    def home_run_capped(self) -> bool: ...
    @property
    def horse(self) -> int: ...
    @property
    def bet(self) -> int: ...

class RoundResult:
    @property
    def players(self) -> int: ...
    @property
    def banker(self) -> int | None: ...
    @property
    def net(self) -> tuple[int, ...]: ...
    @property
    def home_run(self) -> tuple[bool, ...]: ...
    @property
    def facts(self) -> tuple[PlayerFacts, ...]: ...
    @property
    def pairs(self) -> tuple[PairResult, ...]: ...

def player_facts(cards: bytes, declared: bool, rules: RulesSpec) -> PlayerFacts: ...
def detect_natural(cards: bytes, rules: RulesSpec) -> NaturalKind | None: ...
def held_naturals(cards: bytes, rules: RulesSpec) -> tuple[NaturalKind, ...]: ...

MAX_STAKE: int
FOUL_REASONS: tuple[tuple[int, str], ...]

def settle_round(
    cards: bytes,
    declared: Sequence[bool],
    surrendered: Sequence[bool],
    stakes: npt.NDArray[np.int64] | None,
    rules: RulesSpec,
    banker: int | None = None,
    bets: Sequence[int] | None = None,
    fantasyland: Sequence[bool] | None = None,
) -> RoundResult: ...
def settle_batch(
    rounds: npt.NDArray[np.uint8],
    rules: RulesSpec,
    stakes: npt.NDArray[np.int64] | None = None,
    declared: npt.NDArray[np.bool_] | None = None,
    surrender: npt.NDArray[np.bool_] | None = None,
    banker: npt.NDArray[np.int64] | None = None,
    bets: npt.NDArray[np.int64] | None = None,
    fantasyland: npt.NDArray[np.bool_] | None = None,
    threads: int = 1,
) -> npt.NDArray[np.int64]: ...
def settle_seats(
    codes: npt.NDArray[np.uint8],
    offsets: npt.NDArray[np.int64],
    rules_index: npt.NDArray[np.int64] | None,
    rules: Sequence[RulesSpec],
    threads: int = 1,
    *,
    stakes: npt.NDArray[np.int64] | None = None,
    declared: npt.NDArray[np.bool_] | None = None,
    surrender: npt.NDArray[np.bool_] | None = None,
    banker: npt.NDArray[np.int64] | None = None,
    bets: npt.NDArray[np.int64] | None = None,
    fantasyland: npt.NDArray[np.bool_] | None = None,
) -> npt.NDArray[np.int64]: ...
def settle_batch_detail(
    rounds: npt.NDArray[np.uint8],
    rules: RulesSpec,
    stakes: npt.NDArray[np.int64] | None = None,
    declared: npt.NDArray[np.bool_] | None = None,
    surrender: npt.NDArray[np.bool_] | None = None,
    banker: npt.NDArray[np.int64] | None = None,
    bets: npt.NDArray[np.int64] | None = None,
    fantasyland: npt.NDArray[np.bool_] | None = None,
    threads: int = 1,
) -> dict[str, npt.NDArray[Any]]: ...

class ExpectedModel:
    def __init__(
        self,
        strengths: Sequence[npt.NDArray[np.uint32]],
        prob: Sequence[npt.NDArray[np.float64]],
        rules: RulesSpec,
        sample: Sequence[npt.NDArray[np.uint32]] | None = None,
        top: int = 0,
    ) -> None: ...
    @property
    def wheel(self) -> str: ...
    @property
    def top(self) -> int: ...
    @property
    def sample_size(self) -> int: ...
    def __getstate__(self) -> tuple[Any, ...]: ...
    def __setstate__(self, state: tuple[Any, ...]) -> None: ...

class ArrangeResult:
    @property
    def cards(self) -> tuple[int, ...]: ...
    @property
    def strengths(self) -> tuple[int, int, int]: ...
    @property
    def expected_units(self) -> float: ...
    @property
    def natural_index(self) -> int: ...

def arrange_hand(
    cards: bytes, rules: RulesSpec, model: ExpectedModel, by_expected: bool
) -> ArrangeResult: ...
def expected_units(strengths: Sequence[int], model: ExpectedModel) -> float: ...
def expected_rows(
    strengths: npt.NDArray[np.int32], model: ExpectedModel
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
def legal_arrangements(
    cards: bytes, rules: RulesSpec, distinct_strengths: bool, drop_dominated: bool
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32]]: ...
def arrange_batch(
    hands: npt.NDArray[np.uint8], rules: RulesSpec, model: ExpectedModel | None, threads: int = 1
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]: ...
def read_round_lines(
    body: bytes, max_rounds: int, max_players: int
) -> tuple[npt.NDArray[np.uint8], list[int | str], bool] | None: ...
def settle_net_lines(
    body: bytes, rules: RulesSpec, max_rounds: int, max_players: int, threads: int = 1
) -> tuple[bytes, bool] | None: ...

class FairAudit:
    def __init__(
        self,
        names: Sequence[str],
        specs: Sequence[RulesSpec],
        digests: Sequence[str],
        engine_name: str,
        engine_version: str,
        receipt_format: str,
        key: bytes,
    ) -> None: ...
    def lines(self, text: bytes, begin: int = 0, end: int = -1) -> npt.NDArray[np.uint8]: ...

class NetChunkWriter:
    def __init__(
        self,
        resolve: Callable[[list[bytes]], list[RulesSpec | None]],
        fallback: RulesSpec,
        max_players: int = 6,
        read_rules: bool = True,
        ascii_ids: bool = False,
        threads: int = 1,
    ) -> None: ...
    def write(
        self, chunk: bytes | bytearray | memoryview, first_position: int
    ) -> tuple[bytes, bytes, list[tuple[int, int, int, int]], int]: ...

class FullChunkWriter:
    def __init__(
        self,
        resolve: Callable[[list[bytes]], list[OutputRules | None]],
        fallback: OutputRules,
        engine_version: str,
        ascii_only: bool = False,
        indented: bool = False,
        max_players: int = 6,
        read_rules: bool = True,
        threads: int = 1,
    ) -> None: ...
    def write(
        self, chunk: bytes | bytearray | memoryview, first_position: int
    ) -> tuple[bytes, bytes, list[tuple[int, int, int, int]], int]: ...

class OutputRules:
    def __init__(
        self,
        spec: RulesSpec,
        rules_json: str,
        digest: str,
        fantasyland_cards: bool,
        ace_units: bool,
        jokers: bool,
        extended: bool,
    ) -> None: ...

class RoundOutputWriter:
    def __init__(self, engine_version: str, ascii_only: bool, indented: bool) -> None: ...
    def add_rules(self, rules: OutputRules) -> int: ...
    def add_round(
        self,
        rules_index: int,
        id: str | int,
        names: Sequence[str],
        cards: bytes,
        declared: bytes,
        surrender: Sequence[bool] | None = None,
        fantasyland: Sequence[bool] | None = None,
        stakes: Sequence[Sequence[int]] | None = None,
        banker: int | None = None,
        bets: Sequence[int] | None = None,
    ) -> None: ...
    def write(self, start: int = 0) -> tuple[bytes, int]: ...
    def clear(self) -> None: ...
    def __len__(self) -> int: ...

def strength_text(strength: int) -> str: ...
def fair_sha256(data: bytes) -> bytes: ...
def fair_hmac_sha256(key: bytes, data: bytes) -> bytes: ...
def fair_deal(key: bytes, prefix: bytes, pack: bytes, count: int, nonce: int) -> bytes: ...
def fair_deals(
    key: bytes, prefix: bytes, pack: bytes, count: int, nonces: npt.NDArray[np.uint64]
) -> npt.NDArray[np.uint8]: ...
def fair_deal_seats(
    server_seed: object, client_seeds: object, nonce: object, pack: object, players: object, most: int
) -> npt.NDArray[np.uint8] | None: ...
def fair_sha256_accelerated() -> bool: ...
def fair_audit_lines(
    text: bytes,
    names: Sequence[str],
    specs: Sequence[RulesSpec],
    digests: Sequence[str],
    engine_name: str,
    engine_version: str,
    receipt_format: str,
    key: bytes,
    begin: int = 0,
    end: int = -1,
) -> npt.NDArray[np.uint8]: ...
def fantasyland_solve(
    cards: bytes, rules: RulesSpec, stay_value: float
) -> tuple[bytes, bytes, tuple[int, int, int], tuple[int, int, int], bool, float]: ...
def fantasyland_batch(
    hands: npt.NDArray[np.uint8], rules: RulesSpec, stay_value: float, threads: int = 1
) -> tuple[
    npt.NDArray[np.uint8],
    npt.NDArray[np.uint8],
    npt.NDArray[np.int32],
    npt.NDArray[np.int64],
    npt.NDArray[np.uint8],
    npt.NDArray[np.float64],
]: ...
def ofc_greedy(
    rules: RulesSpec, board: Sequence[bytes], cards: bytes, keep: int, fl_value: Sequence[float]
) -> tuple[tuple[tuple[int, int], ...], bytes]: ...
def ofc_advise(
    rules: RulesSpec,
    seat: int,
    boards: Sequence[Sequence[bytes]],
    in_fantasyland: Sequence[bool],
    acted: Sequence[bool],
    streets: Sequence[int],
    unseen: bytes,
    fl_value: Sequence[float],
    options: Sequence[Sequence[tuple[int, int]]],
    samples: int,
    seed: int,
    pooled: Sequence[bool],
    pool_cards: bytes,
    pool_boards: bytes,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.int64], bool]: ...
