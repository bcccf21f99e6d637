"""The typed boundary: both sides list the same knobs and values, errors say where, amounts are capped."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from chinese_poker import Hand, Rules, _core, settle
from chinese_poker import arrange as cp_arrange
from chinese_poker import arrange_batch as cp_arrange_batch
from chinese_poker import arrangements as cp_arrangements
from chinese_poker import held_naturals as cp_held
from chinese_poker.arrange import build_expected_model, field_tables
from chinese_poker.knobs import CHOICES, INT_RANGES, NATURAL_NAMES, ROYALTY_CATEGORIES
from chinese_poker.rules import KNOBS, core_spec

E1 = [
    Hand("6s 6h 6d", "4s 4h 4d 9s 9h", "Ks Kh Kd 8s 8h"),
    Hand("Qs Qh 7s", "Js Jh Jd 2s 2h", "Ac 5s 5h 5d 5c"),
]


def test_both_sides_list_the_same_knobs_and_values() -> None:
    assert _core.RulesSpec.KNOBS == KNOBS
    spec = _core.RulesSpec()
    for knob, values in CHOICES.items():
        assert getattr(spec, knob) == values[0], f"{knob}: the core's default is the first value"
        for value in values:
            setattr(spec, knob, value)
            assert getattr(spec, knob) == value, knob
    assert tuple(_core.NaturalKind.__members__) == NATURAL_NAMES
    assert tuple(_core.RoyaltyCategory.__members__) == ROYALTY_CATEGORIES


@pytest.mark.parametrize("knob", sorted(CHOICES))
def test_core_refuses_what_is_not_a_value_of_an_enum_like_knob(knob: str) -> None:
    spec = _core.RulesSpec()
    for bad in ("", "sceond", CHOICES[knob][0].upper(), CHOICES[knob][0] + " "):
        with pytest.raises(ValueError, match=knob):
            setattr(spec, knob, bad)
    for wrong_type in (0, None, True):
        with pytest.raises(TypeError, match=knob):
            setattr(spec, knob, wrong_type)
    assert getattr(spec, knob) == CHOICES[knob][0]  # nothing refused was stored


STRING_KNOBS = ("suit_order",)


@pytest.mark.parametrize("knob", STRING_KNOBS)
def test_core_accepts_exactly_the_python_values_of_a_string_knob(knob: str) -> None:
    # Every word of four letters from the suits and one stranger: the core takes exactly the 24 orders
    # Python allows, and gives each back as it was set.
    spec = _core.RulesSpec()
    accepted = []
    for letters in itertools.product("shdcx", repeat=4):
        word = "".join(letters)
        if word in CHOICES[knob]:
            setattr(spec, knob, word)
            assert getattr(spec, knob) == word
            accepted.append(word)
        else:
            with pytest.raises(ValueError, match=knob):
                setattr(spec, knob, word)
    assert sorted(accepted) == sorted(CHOICES[knob])
    for bad in ("", "shd", "shdcs", "SHDC", 4):
        with pytest.raises((ValueError, TypeError), match=knob):
            setattr(spec, knob, bad)


@pytest.mark.parametrize("knob", sorted(INT_RANGES))
def test_core_rejects_ints_outside_the_python_range(knob: str) -> None:
    low, high = INT_RANGES[knob]
    spec = _core.RulesSpec()
    setattr(spec, knob, low)
    setattr(spec, knob, high)
    for bad in (low - 1, high + 1, 2**70, True):
        with pytest.raises(ValueError, match=knob):
            setattr(spec, knob, bad)


def test_spec_of_every_preset_round_trips_its_knobs() -> None:
    for name in Rules.presets():
        rules = Rules.preset(name)
        spec = core_spec(rules)
        assert core_spec(rules) is spec  # cached per Rules
        for knob in CHOICES:
            value = getattr(spec, knob)
            assert value == getattr(rules, knob), (name, knob)
        assert [(kind.name, units) for kind, units in spec.naturals] == list(rules.naturals)
        rows = ("front", "middle", "back")
        table = {(rows[row], category.name): units for row, category, units in spec.royalties}
        for row, category, rank, units in spec.rank_royalties:
            table[rows[row], f"{category.name}@{'23456789TJQKA'[rank - 2]}"] = units
        expected = {(row, c): u for row, cats in rules.royalty_table.items() for c, u in cats.items()}
        assert table == expected


def test_typed_setters_refuse_strings_and_bad_entries() -> None:
    spec = _core.RulesSpec()
    with pytest.raises(ValueError, match="'sceond' is not one of 'low', 'second'"):
        spec.wheel = "sceond"
    with pytest.raises(ValueError, match="front"):
        spec.royalties = [(0, _core.RoyaltyCategory.flush, 3)]
    with pytest.raises(ValueError, match="listed twice"):
        spec.naturals = [(_core.NaturalKind.dragon, 3), (_core.NaturalKind.dragon, 4)]
    with pytest.raises(ValueError, match="must be a bool"):
        spec.royalty_cancel = 1
    # Rank keys the row cannot hold, and their shape.
    with pytest.raises(ValueError, match="four_of_a_kind@A in the front cannot occur"):
        spec.rank_royalties = [(0, _core.RoyaltyCategory.four_of_a_kind, 14, 3)]
    with pytest.raises(ValueError, match="straight@2 in the back cannot occur"):
        spec.rank_royalties = [(2, _core.RoyaltyCategory.straight, 2, 3)]
    with pytest.raises(ValueError, match="royal_flush@A in the back cannot occur"):
        spec.rank_royalties = [(2, _core.RoyaltyCategory.royal_flush, 14, 3)]
    with pytest.raises(ValueError, match="listed twice"):
        spec.rank_royalties = [
            (0, _core.RoyaltyCategory.one_pair, 6, 1),
            (0, _core.RoyaltyCategory.one_pair, 6, 2),
        ]
    with pytest.raises(ValueError, match="rank_royalties"):
        spec.rank_royalties = [(0, _core.RoyaltyCategory.one_pair, 15, 1)]
    spec.rank_royalties = [(0, _core.RoyaltyCategory.one_pair, 6, 0)]
    assert spec.rank_royalties == [(0, _core.RoyaltyCategory.one_pair, 6, 0)]  # listed at 0 stays listed


def test_huge_stakes_are_refused_not_wrapped() -> None:
    with pytest.raises(ValueError, match=r"not in 0\.\.1000000"):
        settle(E1, stakes=[[1, 2**62], [2**62, 1]])
    with pytest.raises(ValueError, match=r"not in 0\.\.1000000"):
        settle(E1, stakes=np.array([[1, 2**64 - 1], [2**64 - 1, 1]], dtype=np.uint64))
    assert settle(E1).net == (-1, 1)
    assert settle(E1, stakes=[[1, 10**6], [10**6, 1]]).net == (-(10**6), 10**6)


def test_core_errors_say_where_by_index() -> None:
    with pytest.raises(_core.InputError) as info:
        settle([E1[0], E1[0]])
    assert (info.value.kind, info.value.player, info.value.other) == ("card_repeated", 1, 0)
    assert info.value.card == 4 * 4 + 3  # 6s
    rounds = np.zeros((2, 2, 13), dtype=np.uint8)
    rounds[:, 0] = np.arange(13)
    rounds[:, 1] = np.arange(13, 26)
    rounds[1, 1, 4] = 77
    with pytest.raises(_core.InputError) as batch:
        _core.settle_batch(rounds, core_spec(Rules()))
    found = batch.value
    assert (found.kind, found.item, found.player, found.position, found.card) == (
        "card_out_of_range",
        1,
        1,
        4,
        77,
    )


def test_expected_units_refuses_a_strength_that_is_no_class() -> None:
    model = build_expected_model(field_tables(), Rules())
    with pytest.raises(ValueError, match="not one of its row's hand classes"):
        _core.expected_units([0x7FFFFFFF, 0, 0], model)


def test_rules_accepted_as_a_preset_name_or_a_mapping() -> None:
    by_name = settle(E1, "wikipedia-1-6")
    assert by_name.net == settle(E1, Rules.preset("wikipedia-1-6")).net
    assert settle(E1, {"preset": "wikipedia-1-6"}).net == by_name.net


def test_str_of_a_hand_parses_back() -> None:
    for hand in E1:
        assert Hand.parse(str(hand)) == hand
    assert settle([str(h) for h in E1]).net == settle(E1).net


def test_the_core_says_why_a_hand_fouls() -> None:
    both = Hand("Kh Ks 2c", "Td Th 3c 4d 6s", "Ac Ad 5c 7d 8h")  # front KK over middle TT
    facts = both.facts()
    assert facts.foul
    assert facts.foul_reasons == ("front_beats_middle",)
    back_weak = Hand("2c 3d 4h", "Ah Ad Ac 5s 5d", "Ks Kd 7c 8c 9c")  # full house middle over a pair back
    assert back_weak.facts().foul_reasons == ("middle_beats_back",)
    same = Hand("2c 3d 4h", "Ah Kd Tc 8s 6d", "As Kh Td 8c 6h")  # middle and back of equal strength
    assert same.facts().foul_reasons == ()
    assert same.facts(Rules(middle_vs_back="strict")).foul_reasons == ("middle_equals_back",)
    assert E1[0].facts().foul_reasons == ()


def test_held_naturals_whatever_the_rules_list() -> None:
    six_pairs = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s"
    assert cp_held(six_pairs) == ("six_pairs", "five_consecutive_pairs")  # deuces to sevens in a row
    small = "2c 2d 3c 3d 4c 4d 5c 5d 7c 7d 8c 8d 6s"  # every card 8 or lower; no five pairs in a row
    assert cp_held(small) == ("six_pairs", "all_small")
    assert cp_held(small, Rules.preset("pagat")) == cp_held(small, Rules.preset("pagat-bonus"))


def test_arranging_type_errors_name_the_public_function() -> None:
    with pytest.raises(TypeError, match=r"^arrange: cards must be a string or an iterable"):
        cp_arrange(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^arrangements: "):
        cp_arrangements(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^arrange_batch: hands must be a numpy array"):
        cp_arrange_batch([[0] * 13])  # type: ignore[arg-type]


def test_both_sides_allow_the_same_rank_keys() -> None:
    # A "category@R" key is accepted by Rules exactly when the core accepts it in that row.
    spec = _core.RulesSpec()
    rows = ("front", "middle", "back")
    for row_index, row in enumerate(rows):
        for category in ROYALTY_CATEGORIES[:9]:
            for rank_index, rank in enumerate("23456789TJQKA"):
                key = f"{category}@{rank}"
                try:
                    Rules(royalties={row: {key: 1}})
                    python_ok = True
                except ValueError:
                    python_ok = False
                try:
                    spec.rank_royalties = [(row_index, _core.RoyaltyCategory[category], rank_index + 2, 1)]
                    core_ok = True
                except ValueError:
                    core_ok = False
                assert python_ok == core_ok, (row, key)
