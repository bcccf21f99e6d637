"""The open-face game state (docs/RULES.md 4.3): boards so far, cards to place, discards, legal actions.

A game is dealt reproducibly from a seed by the counter-based dealer (docs/FAIR.md): the whole pack of the
rules is shuffled by the HMAC-SHA256 stream of server seed ``seed`` (32 bytes, big-endian), the one client
seed ``b"ofc"`` and ``nonce``, and each street's cards are taken from it in a fixed order (street 0: every
seat in turn, 5 cards, or all of a fantasyland hand; each later street: every seat not in fantasyland, 1
card under ``ofc_variant="classic"``, 3 under ``"pineapple"``). So the cards of every street are fixed by the
seed, whatever is placed. ``GameState`` is immutable: ``apply`` returns the next state.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations, product

import chinese_poker._core as _core
from chinese_poker.cards import CardLike, format_card, parse_card
from chinese_poker.rules import Rules

__all__ = ["ROWS", "ROW_SIZES", "Action", "GameState", "action", "new_game"]

#: The rows of a board, in order, and how many cards each takes.
ROWS = ("front", "middle", "back")
ROW_SIZES = (3, 5, 5)
_DOMAIN = b"chinese-poker/deal/v1"
_CLIENT_SEED = b"ofc"


@dataclass(frozen=True)
class Action:
    """What a player does with the cards of a street: ``placements`` (card code, row index) pairs, and the
    cards ``discarded`` (one on a Pineapple street after the first, the rest of a fantasyland hand)."""

    placements: tuple[tuple[int, int], ...]
    discarded: tuple[int, ...] = ()

    def __str__(self) -> str:
        placed = ", ".join(f"{format_card(c)} {ROWS[r]}" for c, r in self.placements)
        if self.discarded:
            placed += "; discard " + " ".join(format_card(c) for c in self.discarded)
        return placed


def action(placements: Sequence[tuple[CardLike, str | int]], discarded: Sequence[CardLike] = ()) -> Action:
    """An ``Action`` from card texts or codes and row names or indices, e.g. ``[("As", "back")]``."""
    moves = []
    for card, named in placements:
        if isinstance(named, str) and named not in ROWS:
            raise ValueError(f"unknown row {named!r}; rows: front, middle, back")
        row = ROWS.index(named) if isinstance(named, str) else named
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row <= 2:
            raise ValueError(f"row must be front, middle, back or 0..2, got {named!r}")
        moves.append((parse_card(card), row))
    return Action(tuple(moves), tuple(parse_card(c) for c in discarded))


def _pack(rules: Rules) -> bytes:
    cards = list(range(52)) + [c for c in range(52) if "cdhs"[c % 4] in rules.extra_suits]
    return bytes(cards + [52 + k for k in range(rules.jokers)])


def _street_sizes(rules: Rules, fantasyland_cards: Sequence[int]) -> list[list[int]]:
    """Cards dealt to each seat on each street (street x seat)."""
    later = 1 if rules.ofc_variant == "classic" else 3
    streets = 9 if rules.ofc_variant == "classic" else 5
    sizes = [[k if k else 5 for k in fantasyland_cards]]
    sizes += [[0 if k else later for k in fantasyland_cards] for _ in range(streets - 1)]
    return sizes


@dataclass(frozen=True)
class GameState:
    """One open-face hand in progress. ``boards[p][r]``: the cards of seat ``p`` in row ``r``;
    ``to_place[p]``: the cards seat ``p`` holds and must act on this street (empty once it has acted);
    ``discards[p]``: its discards so far (seen by seat ``p`` only); ``street``: 0 for the first five (or a
    fantasyland hand), then 1, 2, ...; ``fantasyland_cards[p]``: 0, or the cards of its fantasyland hand."""

    rules: Rules
    seed: int
    nonce: int
    deck: bytes = field(repr=False)
    fantasyland_cards: tuple[int, ...]
    boards: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    to_place: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    street: int

    @property
    def players(self) -> int:
        """How many seats the game has (2 or 3)."""
        return len(self.boards)

    @property
    def over(self) -> bool:
        """Every board is full."""
        return all(sum(len(r) for r in board) == 13 for board in self.boards)

    def seen_by(self, player: int) -> tuple[int, ...]:
        """Every card seat ``player`` has seen: all boards, its own cards to place and its discards."""
        self._seat(player)
        seen = [c for board in self.boards for row in board for c in row]
        return tuple(seen + list(self.to_place[player]) + list(self.discards[player]))

    def unseen_by(self, player: int) -> tuple[int, ...]:
        """The cards of the pack seat ``player`` has not seen (what may still come), in pack order."""
        left = list(_pack(self.rules))
        for card in self.seen_by(player):
            left.remove(card)
        return tuple(left)

    def _seat(self, player: int) -> None:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.players:
            raise ValueError(f"player must be 0..{self.players - 1}, got {player!r}")

    def room(self, player: int) -> tuple[int, int, int]:
        """Free places in seat ``player``'s front, middle and back."""
        self._seat(player)
        board = self.boards[player]
        return (3 - len(board[0]), 5 - len(board[1]), 5 - len(board[2]))

    def legal_actions(self, player: int) -> list[Action]:
        """Every distinct action seat ``player`` may take now (empty when it has nothing to place). A
        fantasyland hand has too many to list: use ``chinese_poker.ofc.fantasyland`` for it."""
        self._seat(player)
        held = self.to_place[player]
        if not held:
            return []
        if self.fantasyland_cards[player]:
            raise ValueError(
                f"player {player} holds a fantasyland hand of {len(held)} cards: set it with fantasyland()"
            )
        keep = 2 if len(held) == 3 else len(held)
        out: list[Action] = []
        seen: set[tuple[tuple[tuple[int, int], ...], tuple[int, ...]]] = set()
        for kept in combinations(range(len(held)), keep):
            thrown = tuple(held[k] for k in range(len(held)) if k not in kept)
            for rows in _row_choices(keep, self.room(player)):
                moves = tuple(sorted((held[k], r) for k, r in zip(kept, rows)))
                if (moves, thrown) not in seen:
                    seen.add((moves, thrown))
                    out.append(Action(moves, thrown))
        return out

    def apply(self, player: int, move: Action) -> GameState:
        """The state after seat ``player`` takes ``move``; ValueError naming what is wrong otherwise (a card
        placed twice, one not held, a row overfull, a discard not held, a discard the street has no room
        for, or cards left unplaced)."""
        self._seat(player)
        held = list(self.to_place[player])
        if not held:
            raise ValueError(f"player {player} has no cards to place on street {self.street}")
        if not isinstance(move, Action):
            raise TypeError(f"move must be an Action, got {type(move).__name__}")
        remaining = list(held)
        where = f"player {player}, street {self.street}"
        for placement in move.placements:
            if not isinstance(placement, tuple) or len(placement) != 2:
                raise ValueError(f"{where}: a placement is a (card, row) pair, got {placement!r}")
            row = placement[1]
            if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row <= 2:
                raise ValueError(f"{where}: row must be 0..2 (front, middle, back), got {row!r}")
        for card, _ in move.placements:
            if card not in remaining:
                text = _card_text(card)
                raise ValueError(
                    f"{where}: card {text} " + ("placed twice" if card in held else "is not held")
                )
            remaining.remove(card)
        for card in move.discarded:
            if card not in remaining:
                text = _card_text(card)
                raise ValueError(
                    f"{where}: discard {text} is not held" + (" (it is placed)" if card in held else "")
                )
            remaining.remove(card)
        board = [list(r) for r in self.boards[player]]
        for card, row in move.placements:
            board[row].append(card)
            if len(board[row]) > ROW_SIZES[row]:
                raise ValueError(
                    f"{where}: row {ROWS[row]} overfull: {len(board[row])} cards, it takes {ROW_SIZES[row]}"
                )
        discards = len(held) - 13 if self.fantasyland_cards[player] else (1 if len(held) == 3 else 0)
        if len(move.discarded) != discards:
            raise ValueError(f"{where}: this street takes {discards} discard(s), got {len(move.discarded)}")
        if remaining:
            unplaced = " ".join(format_card(c) for c in remaining)
            raise ValueError(f"{where}: every card must be placed or discarded; left: {unplaced}")
        boards = list(self.boards)
        boards[player] = (tuple(board[0]), tuple(board[1]), tuple(board[2]))
        to_place = list(self.to_place)
        to_place[player] = ()
        thrown = list(self.discards)
        thrown[player] = self.discards[player] + move.discarded
        state = replace(self, boards=tuple(boards), to_place=tuple(to_place), discards=tuple(thrown))
        # A fantasyland hand is set whenever its seat chooses (at the end, as a rule): it holds up no
        # street, and the next street comes once every other seat has acted, while one has room left.
        streets = [p for p in range(state.players) if not state.fantasyland_cards[p]]
        waiting = any(state.to_place[p] for p in streets)
        room = any(sum(len(r) for r in state.boards[p]) < 13 for p in streets)
        return state._next_street() if not waiting and room else state

    def _next_street(self) -> GameState:
        sizes = _street_sizes(self.rules, self.fantasyland_cards)
        street = self.street + 1
        start = sum(sum(row) for row in sizes[:street])
        to_place = []
        for seat, count in enumerate(sizes[street]):
            # A fantasyland hand not set yet stays in its seat's hands.
            to_place.append(tuple(self.deck[start : start + count]) if count else self.to_place[seat])
            start += count
        return replace(self, street=street, to_place=tuple(to_place))


def fantasyland_sizes(rules: Rules) -> tuple[int, ...]:
    """The sizes a fantasyland hand may have under ``rules`` (RULES.md 4.2): none under
    ``fantasyland="off"``, 14 under ``"standard"``, 14 to 17 under ``"progressive"``."""
    return {"off": (), "standard": (14,)}.get(rules.fantasyland, (14, 15, 16, 17))


def check_fantasyland_size(rules: Rules, count: int, where: str) -> None:
    """ValueError, starting with ``where``, unless ``rules`` deal a fantasyland hand of ``count`` cards."""
    sizes = fantasyland_sizes(rules)
    if count in sizes:
        return
    knob = f'fantasyland="{rules.fantasyland}"'
    if not sizes:
        raise ValueError(f"{where}: no fantasyland hand is dealt under {knob}, got {count!r} cards")
    allowed = str(sizes[0]) if len(sizes) == 1 else f"{sizes[0]} to {sizes[-1]}"
    raise ValueError(f"{where}: a fantasyland hand holds {allowed} cards under {knob}, got {count!r}")


def _card_text(card: object) -> str:
    """``card`` as text, or as given when it is no card at all (for a message about it)."""
    try:
        return format_card(card)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return repr(card)


def _row_choices(count: int, room: tuple[int, int, int]) -> Iterator[tuple[int, ...]]:
    for rows in product(range(3), repeat=count):
        if all(rows.count(r) <= room[r] for r in range(3)):
            yield rows


def new_game(
    rules: Rules | str = "ofc",
    players: int = 2,
    seed: int = 0,
    nonce: int = 0,
    fantasyland_cards: Sequence[int] | None = None,
) -> GameState:
    """A new open-face hand of ``players`` (2 or 3) seats under ``rules``, dealt from ``seed`` (an int
    0..2**256-1) and ``nonce`` (0..2**64-1) as the module docstring says. ``fantasyland_cards``: per seat 0,
    or the size of the fantasyland hand it is dealt, one the rules allow (``fantasyland_sizes``: 14
    under ``fantasyland="standard"``, 14 to 17 under ``"progressive"``)."""
    chosen = Rules.preset(rules) if isinstance(rules, str) else rules
    if not isinstance(chosen, Rules):
        raise TypeError(f"rules must be Rules or a preset name, got {type(rules).__name__}")
    if isinstance(players, bool) or not isinstance(players, int) or players not in (2, 3):
        raise ValueError(f"an open-face hand has 2 or 3 players, got {players!r}")
    for name, value, bits in (("seed", seed, 256), ("nonce", nonce, 64)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**bits:
            raise ValueError(f"{name} must be an int in 0..2**{bits}-1, got {value!r}")
    counts = tuple(fantasyland_cards) if fantasyland_cards is not None else (0,) * players
    if len(counts) != players:
        raise ValueError(f"fantasyland_cards must give one count per player ({players}), got {len(counts)}")
    for seat, count in enumerate(counts):
        if count:
            check_fantasyland_size(chosen, count, f"fantasyland_cards: player {seat}")
    pack = _pack(chosen)
    sizes = _street_sizes(chosen, counts)
    if sum(map(sum, sizes)) > len(pack):
        raise ValueError(
            f"{players} players of this variant need {sum(map(sum, sizes))} cards; the pack has {len(pack)}"
        )
    prefix = _DOMAIN + bytes([1, len(_CLIENT_SEED)]) + _CLIENT_SEED
    deck = _core.fair_deal(seed.to_bytes(32, "big"), prefix, pack, len(pack), nonce)
    empty: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())
    start = GameState(
        chosen, seed, nonce, deck, counts, (empty,) * players, ((),) * players, ((),) * players, -1
    )
    return start._next_street()
