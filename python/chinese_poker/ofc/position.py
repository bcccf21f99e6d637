"""An open-face position from what a seat sees (docs/OFC.md): the boards, its cards to place, its discards.

``position`` checks it as ``GameState.apply`` checks an action: every card at most as often as the pack
holds it (a card placed twice names both places), no row over its width, the hand the size the street
deals, as many discards as the streets so far have taken, and every other board on the same street
(still to act, or acted). The state it returns is for advice: it knows no deck, so it deals no streets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chinese_poker.cards import CardsLike, format_card, parse_cards
from chinese_poker.ofc.state import ROW_SIZES, ROWS, GameState, check_fantasyland_size
from chinese_poker.rules import Rules

__all__ = ["position"]


def _rows(board: object, player: int, rules: Rules) -> tuple[tuple[int, ...], ...]:
    if isinstance(board, Mapping):
        unknown = sorted(set(board) - set(ROWS))
        if unknown:
            raise ValueError(f"player {player}: unknown row {unknown[0]!r}; rows: front, middle, back")
        rows = [board.get(name, ()) for name in ROWS]
    elif isinstance(board, Sequence) and not isinstance(board, (str, bytes)) and len(board) == 3:
        rows = list(board)
    else:
        raise ValueError(f"player {player}: a board is its front, middle and back rows")
    out = []
    for name, size, row in zip(ROWS, ROW_SIZES, rows):
        try:
            codes = parse_cards(row, rules.extra_suits, rules.jokers) if row else ()
        except ValueError as error:
            raise ValueError(f"player {player}, row {name}: {error}") from None
        if len(codes) > size:
            raise ValueError(f"player {player}: row {name} overfull: {len(codes)} cards, it takes {size}")
        out.append(tuple(codes))
    return tuple(out)


def _street_of(placed: int, rules: Rules) -> tuple[int, int, int]:
    """(street, cards dealt, cards placed) for a seat that has placed ``placed`` cards, or ValueError."""
    if placed == 0:
        return 0, 5, 5
    if rules.ofc_variant == "classic":
        return (placed - 4, 1, 1) if 5 <= placed <= 12 else (-1, 0, 0)
    return ((placed - 5) // 2 + 1, 3, 2) if placed in (5, 7, 9, 11) else (-1, 0, 0)


def position(
    rules: Rules | str,
    boards: Sequence[Any],
    hand: CardsLike,
    discards: CardsLike = (),
    player: int = 0,
    *,
    fantasyland: Sequence[bool | int] | None = None,
) -> GameState:
    """The state of seat ``player`` holding ``hand`` with ``boards`` (per seat: a (front, middle, back)
    triple or a mapping of row names, each row card texts or codes) and its own ``discards`` so far.
    ``fantasyland``: per seat, whether it plays this hand in fantasyland: False (or 0), True (a hand of 14
    cards) or its hand's size, one the rules allow (14 under ``fantasyland="standard"``, 14 to 17 under
    ``"progressive"``); its board is then set (13 cards) or not yet (empty, its cards unseen); the
    advised seat never. ValueError naming the player, row or card for anything
    inconsistent."""
    chosen = Rules.preset(rules) if isinstance(rules, str) else rules
    if not isinstance(chosen, Rules):
        raise TypeError(f"rules must be Rules or a preset name, got {type(rules).__name__}")
    if isinstance(boards, (str, bytes, Mapping)) or not isinstance(boards, Sequence):
        raise ValueError("boards: give one board per player")
    players = len(boards)
    if players not in (2, 3):
        raise ValueError(f"boards: an open-face hand has 2 or 3 players, got {players}")
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
        raise ValueError(f"player must be 0..{players - 1}, got {player!r}")
    if fantasyland is not None and (
        isinstance(fantasyland, (str, bytes, Mapping)) or not isinstance(fantasyland, Sequence)
    ):
        raise ValueError("fantasyland: give one flag per player")
    flags = (
        [0] * players
        if fantasyland is None
        else [_fantasyland_count(f, p) for p, f in enumerate(fantasyland)]
    )
    if len(flags) != players:
        raise ValueError(f"fantasyland: give one flag per player ({players}), got {len(flags)}")
    if any(flags) and chosen.fantasyland == "off":
        raise ValueError('fantasyland: no seat plays in fantasyland under fantasyland="off"')
    for p, count in enumerate(flags):
        if count:
            check_fantasyland_size(chosen, count, f"fantasyland: player {p}")
    if flags[player]:
        raise ValueError(f"player {player} plays in fantasyland: set the hand with fantasyland()")
    rows = [_rows(board, p, chosen) for p, board in enumerate(boards)]
    held = tuple(parse_cards(hand, chosen.extra_suits, chosen.jokers))
    thrown = tuple(parse_cards(discards, chosen.extra_suits, chosen.jokers)) if discards else ()
    _check_copies(rows, held, thrown, player, chosen)
    placed = sum(len(r) for r in rows[player])
    street, dealt, kept = _street_of(placed, chosen)
    if street < 0:
        raise ValueError(
            f"player {player}: {placed} cards placed is no street's start under {chosen.ofc_variant}"
        )
    if len(held) != dealt:
        raise ValueError(f"player {player}: street {street} deals {dealt} cards, the hand holds {len(held)}")
    earlier = street - 1 if chosen.ofc_variant == "pineapple" and street > 0 else 0
    if len(thrown) != earlier:
        raise ValueError(f"player {player}: street {street} follows {earlier} discard(s), got {len(thrown)}")
    for p in range(players):
        if p == player:
            continue
        count = sum(len(r) for r in rows[p])
        if flags[p]:
            if count not in (0, 13):
                raise ValueError(
                    f"player {p} plays in fantasyland: its board is set (13 cards) or empty, got {count}"
                )
            continue
        if count not in (placed, placed + kept):
            raise ValueError(
                f"player {p}: {count} cards placed is not street {street} (player {player} has {placed})"
            )
    return GameState(
        chosen,
        0,
        0,
        b"",
        tuple(flags),
        tuple((r[0], r[1], r[2]) for r in rows),
        tuple(held if p == player else () for p in range(players)),
        tuple(thrown if p == player else () for p in range(players)),
        street,
    )


def _fantasyland_count(flag: object, player: int) -> int:
    """Cards of seat ``player``'s fantasyland hand from its flag: 0 (not in fantasyland), 14 for True, or
    the size given (``position`` checks it against the rules)."""
    if flag is True or flag is False:
        return 14 if flag else 0
    if isinstance(flag, int):
        return flag
    raise ValueError(f"fantasyland: player {player}: a flag is a bool or a hand size, got {flag!r}")


def _check_copies(
    rows: list[tuple[tuple[int, ...], ...]],
    held: tuple[int, ...],
    thrown: tuple[int, ...],
    player: int,
    rules: Rules,
) -> None:
    where: dict[int, list[str]] = {}
    for p, board in enumerate(rows):
        for name, row in zip(ROWS, board):
            for card in row:
                where.setdefault(card, []).append(f"player {p} {name}")
    for card in held:
        where.setdefault(card, []).append(f"player {player}'s hand")
    for card in thrown:
        where.setdefault(card, []).append(f"player {player}'s discards")
    for card, places in where.items():
        copies = 2 if card < 52 and "cdhs"[card % 4] in rules.extra_suits else 1
        if len(places) > copies:
            raise ValueError(f"card {format_card(card)} placed twice: {' and '.join(places)}")
