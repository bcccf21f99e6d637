"""Card codes and card text: chinese_poker.parse_card(s), format_card(s)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from chinese_poker import _core, format_card, format_cards, parse_card, parse_cards

AS_KD_TH_9C = (51, 45, 34, 28)
# Card codes 0..51 in order: 2c 2d 2h 2s 3c ... As.
DECK = (
    "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s 7c 7d 7h 7s 8c 8d 8h 8s "
    "9c 9d 9h 9s Tc Td Th Ts Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks Ac Ad Ah As"
)


@pytest.mark.parametrize(
    "text",
    [
        "As Kd 10h 9c",
        "As Kd Th 9c",
        "AsKd10h9c",
        "AsKdTh9c",
        "as kd th 9c",
        "AS KD TH 9C",
        "aS,kD,10H,9c",
        "As, Kd, 10h, 9c",
        "  As\tKd\n10h ;9c  ",
        "A♠ K♦ 10♥ 9♣",
        "A♠K♦T♥9♣",
        "a♤ k♢ t♡ 9♧",
    ],
)
def test_parse_cards_text_forms(text: str) -> None:
    assert parse_cards(text) == AS_KD_TH_9C


@pytest.mark.parametrize(
    "cards",
    [
        ["As", "Kd", "10h", "9c"],
        ("as", "KD", "T♥", "9c"),
        [51, 45, 34, 28],
        ["As", 45, "Th", 28],
        iter([51, 45, 34, 28]),
        (c for c in ["As", "Kd", "Th", "9c"]),
        np.array([51, 45, 34, 28]),
        np.array([51, 45, 34, 28], dtype=np.uint8),
        np.array([51, 45, 34, 28], dtype=np.int32),
        [np.int64(51), np.uint8(45), np.int16(34), 28],
        np.array(["As", "Kd", "10h", "9c"]),
    ],
)
def test_parse_cards_iterables(cards: object) -> None:
    result = parse_cards(cards)
    assert result == AS_KD_TH_9C
    assert type(result) is tuple
    assert all(type(code) is int for code in result)


def test_parse_cards_keeps_order_and_accepts_empty() -> None:
    assert parse_cards("2c As 3d") == (0, 51, 5)
    assert parse_cards("As 3d 2c") == (51, 5, 0)
    assert parse_cards("") == ()
    assert parse_cards([]) == ()


def test_code_mapping_is_four_times_rank_plus_suit() -> None:
    assert parse_card("2c") == 0
    assert parse_card("2d") == 1
    assert parse_card("2h") == 2
    assert parse_card("2s") == 3
    assert parse_card("3c") == 4
    assert parse_card("Tc") == 32
    assert parse_card("As") == 51
    assert format_cards(range(52)) == DECK
    for code, text in enumerate(DECK.split()):
        assert parse_card(text) == code
        assert parse_card(text[0].lower() + text[1].upper()) == code
        assert format_card(code) == text
        assert parse_card(code) == code
    assert parse_card("10d") == parse_card("Td") == 33


def test_code_mapping_equals_phevaluator_ids() -> None:
    phevaluator = pytest.importorskip("phevaluator", reason="phevaluator is not installed")
    for code in range(52):
        text = format_card(code)
        assert phevaluator.Card(text).id_ == code, text


def test_core_card_functions_agree_with_python() -> None:
    for code in range(52):
        assert _core.format_card(code) == format_card(code)
        assert _core.parse_card(format_card(code)) == code
    assert _core.parse_card("10h") == parse_card("10h") == 34
    with pytest.raises(ValueError, match="unknown card 'Xx'"):
        _core.parse_card("Xx")


def test_format_cards_is_canonical() -> None:
    assert format_cards("as kd 10h") == "As Kd Th"
    assert format_cards([51, 45, 34]) == "As Kd Th"
    assert format_cards("A♠K♦T♥2♣") == "As Kd Th 2c"
    assert format_cards(np.array([0, 1, 2, 3], dtype=np.uint8)) == "2c 2d 2h 2s"
    assert format_cards([]) == ""
    assert format_card(0) == "2c"
    assert format_card(51) == "As"
    assert format_card("td") == "Td"


def test_round_trip_whole_deck() -> None:
    deck = list(range(52))
    text = format_cards(deck)
    assert len(text.split()) == 52
    assert parse_cards(text) == tuple(deck)
    assert parse_cards(text.replace(" ", "")) == tuple(deck)
    assert parse_cards(text.replace("T", "10").lower()) == tuple(deck)


@pytest.mark.parametrize(
    ("cards", "token", "position"),
    [
        ("As Xd 9c", "Xd", 1),
        ("As Kd 1h", "1h", 2),
        ("Az", "Az", 0),
        ("As Kd 11h", "11h", 2),
        ("AsKx9c", "Kx9c", 1),
        ("As Kd Qh Jc 9", "9", 4),
        (["As", "Kd", "Qq"], "Qq", 2),
        (["As", "", "Qh"], "", 1),
        (["As", "Kd Qh"], "Kd Qh", 1),
    ],
)
def test_unknown_card_names_token_and_position(cards: object, token: str, position: int) -> None:
    with pytest.raises(ValueError, match=re.escape(repr(token))) as info:
        parse_cards(cards)
    assert f"position {position}" in str(info.value)


@pytest.mark.parametrize(
    ("cards", "code", "position"),
    [([0, 52], 52, 1), ([51, 45, -1], -1, 2), (np.array([3, 60, 5]), 60, 1), ([300], 300, 0)],
)
def test_out_of_range_code_names_code_and_position(cards: object, code: int, position: int) -> None:
    with pytest.raises(ValueError, match=rf"(?<![\d-]){code}(?!\d).*position {position}\b"):
        parse_cards(cards)


@pytest.mark.parametrize(
    ("cards", "card", "first", "second"),
    [
        ("As Kd As", "As", 0, 2),
        ("AsKdTh10h", "Th", 2, 3),
        ("a♠ As", "As", 0, 1),
        (["2c", 0], "2c", 0, 1),
        ([7, 8, 9, 8], "4c", 1, 3),
        (np.array([51, 51]), "As", 0, 1),
    ],
)
def test_duplicate_names_card_and_positions(cards: object, card: str, first: int, second: int) -> None:
    with pytest.raises(ValueError, match=re.escape(card)) as info:
        parse_cards(cards)
    message = str(info.value)
    assert "twice" in message
    assert re.search(rf"\b{first}\b.*\b{second}\b", message), message


@pytest.mark.parametrize(
    ("cards", "type_name", "position"),
    [
        ([51, True], "bool", 1),
        ([False, 3], "bool", 0),
        ([51, 1.0], "float", 1),
        (["As", None], "NoneType", 1),
        (np.array([1.0, 2.0]), "float64", 0),
        (np.array([True, False]), "bool", 0),
    ],
)
def test_bad_card_types_raise_type_error(cards: object, type_name: str, position: int) -> None:
    with pytest.raises(TypeError, match=rf"{type_name}.*position {position}"):
        parse_cards(cards)


@pytest.mark.parametrize("cards", [5, None, 3.5, True])
def test_non_iterable_raises_type_error(cards: object) -> None:
    with pytest.raises(TypeError, match=type(cards).__name__):
        parse_cards(cards)


def test_parse_card_errors() -> None:
    with pytest.raises(ValueError, match="'Ks Qd'"):
        parse_card("Ks Qd")
    with pytest.raises(ValueError, match="54"):
        parse_card(54)
    assert parse_card(52) == 52  # the joker X1 (RULES.md 1.2): a card code; the rules decide if it is held
    with pytest.raises(ValueError, match="-3"):
        format_card(-3)
    with pytest.raises(TypeError, match="bool"):
        parse_card(True)
    with pytest.raises(TypeError, match="float"):
        parse_card(3.0)


def test_the_pack_copies_come_from_the_core() -> None:
    # One deck: every card once, no joker; an added suit holds its 13 cards twice; each joker held once.
    assert _core.card_copies() == (1,) * 52 + (0, 0)
    copies = _core.card_copies("hs", 1)
    assert [copies[parse_card(c)] for c in ("2c", "2h", "As", "Ad", "X1", "X2")] == [1, 2, 2, 1, 1, 0]
    assert sum(copies) == 52 + 26 + 1
    with pytest.raises(ValueError, match="jokers must be 0, 1 or 2"):
        _core.card_copies("", 3)
    with pytest.raises(ValueError, match="extra_suits"):
        _core.card_copies("x")
