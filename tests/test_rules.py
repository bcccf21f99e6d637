"""Tests of chinese_poker.rules: presets as RULES.md section 6 lists them, conversions, validation."""

from __future__ import annotations

import dataclasses
import itertools
import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from chinese_poker import presets as presets_module
from chinese_poker import rules as rules_module
from chinese_poker._record import field_names
from chinese_poker._toml import toml_value
from chinese_poker.knob_forms import ROYALTY_TABLES
from chinese_poker.knobs import (
    CHOICES,
    FRONT_CATEGORIES,
    NATURAL_NAMES,
    ROYALTY_CATEGORIES,
)
from chinese_poker.rules import KNOBS, Rules
from hypothesis import given, settings
from hypothesis import strategies as st

# ----- expectations written out from RULES.md section 6 -------------------------------------------

DEFAULTS: dict[str, Any] = {
    "wheel": "low",
    "suit_tiebreak": "off",
    "suit_order": "shdc",
    "middle_vs_back": "non_strict",
    "overall_unit": 0,
    "overall_basis": "two_rows",
    "scoop_bonus": 0,
    "scoop_multiplier": 1,
    "royalties_in_multiplier": False,
    "home_run_multiplier": 1,
    "home_run_min_opponents": 3,
    "royalties": {},
    "royalty_mode": "replace",
    "royalty_condition": "win_row",
    "royalty_cancel": False,
    "foul_policy": "lose_all_rows",
    "foul_pays_royalties": True,
    "naturals": [],
    "natural_declaration": "must_declare",
    "natural_tiebreak": "full",
    "quads_as_two_pairs": True,
    "trips_as_pair_plus_single": True,
    "surrender_units": 0,
    "three_straights_front_a23": True,
    "three_straights_front_qka": True,
    "three_straights_wheel": True,
    "three_flushes_distinct_suits": False,
    "quads_as_trips": True,
    "row_base": [1, 1, 1],
    "ace_units": 0,
    "pair_cap": 0,
    "home_run_cap": 0,
    "home_run_bonus": 0,
    "home_run_counts_naturals": False,
    "foul_counts_for_home_run": False,
    "natural_vs_natural": "by_kind",
    "natural_settles_table": False,
    "natural_units_mode": "table",
    "false_declaration_units": 0,
    "horse_card": None,
    "horse_multiplier": 2,
    "foul_vs_foul": "push",
    "fantasyland": "off",
    "ace_basis": "pairwise",
    "shooting": "scoop",
    "home_run_scope": "own_pairs",
    "extra_suits": "",
    "jokers": 0,
    "ofc_variant": "classic",
}

PAGAT_NATURALS = [["six_pairs", 3], ["three_straights", 3], ["three_flushes", 3], ["dragon", 13]]
HK_NATURALS = [
    ["three_straights", 3],
    ["three_flushes", 3],
    ["six_pairs", 3],
    ["all_small", 3],
    ["all_big", 3],
    ["dragon", 13],
]
HK = {
    "royalties": "eastern",
    "scoop_multiplier": 2,
    "royalties_in_multiplier": True,
    "home_run_multiplier": 2,
    "foul_policy": "as_scooped",
    "naturals": HK_NATURALS,
}
PRESET_KNOBS: dict[str, dict[str, Any]] = {
    "pagat": {},
    "pagat-bonus": {"royalties": "pagat", "naturals": PAGAT_NATURALS},
    "wikipedia-2-4": {"overall_unit": 1, "overall_basis": "two_rows", "foul_policy": "as_scooped"},
    "wikipedia-1-6": {"scoop_bonus": 3, "foul_policy": "as_scooped"},
    "shisanzhang-hk": HK,
    "shisanshui-app": {**HK, "wheel": "second", "natural_declaration": "auto"},
    "capsa-susun": {
        "suit_tiebreak": "highest_card",
        "suit_order": "shcd",
        "royalties": "eastern",
        "scoop_multiplier": 2,
        "royalties_in_multiplier": True,
        "foul_policy": "as_scooped",
        "naturals": PAGAT_NATURALS,
    },
    "pusoy": {},
    # The standard Open-Face Chinese Poker table, written out from RULES.md section 6.
    "ofc": {
        "scoop_bonus": 3,
        "royalty_mode": "add",
        "royalty_condition": "always",
        "foul_policy": "as_scooped",
        "fantasyland": "standard",
        "royalties": {
            "front": {
                "one_pair@6": 1,
                "one_pair@7": 2,
                "one_pair@8": 3,
                "one_pair@9": 4,
                "one_pair@T": 5,
                "one_pair@J": 6,
                "one_pair@Q": 7,
                "one_pair@K": 8,
                "one_pair@A": 9,
                "three_of_a_kind@2": 10,
                "three_of_a_kind@3": 11,
                "three_of_a_kind@4": 12,
                "three_of_a_kind@5": 13,
                "three_of_a_kind@6": 14,
                "three_of_a_kind@7": 15,
                "three_of_a_kind@8": 16,
                "three_of_a_kind@9": 17,
                "three_of_a_kind@T": 18,
                "three_of_a_kind@J": 19,
                "three_of_a_kind@Q": 20,
                "three_of_a_kind@K": 21,
                "three_of_a_kind@A": 22,
            },
            "middle": {
                "three_of_a_kind": 2,
                "straight": 4,
                "flush": 8,
                "full_house": 12,
                "four_of_a_kind": 20,
                "straight_flush": 30,
                "royal_flush": 50,
            },
            "back": {
                "straight": 2,
                "flush": 4,
                "full_house": 6,
                "four_of_a_kind": 10,
                "straight_flush": 15,
                "royal_flush": 25,
            },
        },
    },
}
# The real tables, written out from RULES.md section 6.
PRESET_KNOBS["maubinh"] = {
    "wheel": "second",
    "scoop_multiplier": 2,
    "royalties_in_multiplier": True,
    "home_run_multiplier": 2,
    "home_run_min_opponents": 1,
    "foul_policy": "as_scooped",
    "foul_vs_foul": "as_laid",
    "ace_units": 1,
    "ace_basis": "table",
    "natural_vs_natural": "net",
    "natural_tiebreak": "none",
    "natural_settles_table": True,
    "false_declaration_units": 6,
    "quads_as_two_pairs": False,
    "trips_as_pair_plus_single": False,
    "three_straights_front_a23": False,
    "three_straights_wheel": False,
    "naturals": [
        ["three_straights", 6],
        ["three_flushes", 6],
        ["five_consecutive_pairs", 6],
        ["six_pairs", 6],
        ["five_pairs_and_trips", 6],
        ["dragon", 12],
        ["clean_dragon", 24],
    ],
    "royalties": {
        "front": {"three_of_a_kind": 3, "three_of_a_kind@A": 12},
        "middle": {
            "full_house": 2,
            "four_of_a_kind": 8,
            "four_of_a_kind@A": 32,
            "straight_flush": 10,
            "royal_flush": 20,
            "wheel_straight_flush": 14,
        },
        "back": {
            "four_of_a_kind": 4,
            "four_of_a_kind@A": 16,
            "straight_flush": 5,
            "royal_flush": 10,
            "wheel_straight_flush": 7,
        },
    },
}
PRESET_KNOBS["shisanshui-rtxux"] = {
    "wheel": "second",
    "shooting": "no_lost_row",
    "scoop_multiplier": 2,
    "royalties_in_multiplier": True,
    "home_run_multiplier": 2,
    "home_run_min_opponents": 3,
    "home_run_counts_naturals": True,
    "natural_declaration": "auto",
    "natural_tiebreak": "none",
    "quads_as_two_pairs": False,
    "trips_as_pair_plus_single": False,
    "quads_as_trips": False,
    "three_flushes_distinct_suits": True,
    "naturals": [
        ["three_flushes", 3],
        ["three_straights", 3],
        ["six_pairs", 4],
        ["five_pairs_and_trips", 5],
        ["four_trips", 6],
        ["two_trips_three_pairs", 8],
        ["all_one_colour", 10],
        ["all_small", 12],
        ["all_big", 15],
        ["three_quads", 20],
        ["three_straight_flushes", 22],
        ["twelve_royals", 24],
        ["dragon", 26],
        ["clean_dragon", 52],
    ],
    "royalties": {
        "middle": {"full_house": 2, "four_of_a_kind": 8, "straight_flush": 10},
        "back": {"four_of_a_kind": 4, "straight_flush": 5},
    },
}
PRESET_KNOBS["shisanshui-luosong"] = {
    "suit_tiebreak": "highest_card",
    "scoop_multiplier": 2,
    "royalties_in_multiplier": True,
    "home_run_multiplier": 2,
    "home_run_min_opponents": 2,
    "pair_cap": 12,
    "home_run_cap": 24,
    "horse_card": "Ah",
    "horse_multiplier": 2,
    "foul_policy": "as_scooped",
    "naturals": [["dragon", 26]],
    "royalties": "eastern",  # the TOML file spells the table out; it is the eastern table
}
PRESET_KNOBS["shisanshui-puxian"] = {
    "wheel": "second",
    "scoop_multiplier": 2,
    "royalties_in_multiplier": True,
    "home_run_multiplier": 2,
    "home_run_min_opponents": 2,
    "home_run_scope": "table",
    "horse_card": "8h",
    "horse_multiplier": 2,
    "natural_vs_natural": "by_units",
    "naturals": [
        ["all_one_colour", 6],
        ["three_flushes", 6],
        ["three_straights", 6],
        ["six_pairs", 6],
        ["five_pairs_and_trips", 6],
        ["all_small", 6],
        ["all_big", 6],
        ["three_straight_flushes", 26],
        ["twelve_royals_and_one", 26],
        ["three_quads", 52],
        ["four_trips", 52],
        ["dragon", 52],
        ["clean_dragon", 104],
    ],
    "royalties": "eastern",  # the TOML file spells the table out; it is the eastern table
}
PRESET_KNOBS["shisanshui-puxian-six"] = {
    **{knob: value for knob, value in PRESET_KNOBS["shisanshui-puxian"].items() if knob != "royalties"},
    "extra_suits": "ch",
    "naturals": [
        ["all_one_colour", 6],
        ["three_flushes", 6],
        ["three_straights", 6],
        ["six_pairs", 6],
        ["five_pairs_and_trips", 6],
        ["all_small", 6],
        ["all_big", 6],
        ["six_of_a_kind", 20],
        ["three_straight_flushes", 26],
        ["twelve_royals_and_one", 26],
        ["two_fives_and_trips", 26],
        ["seven_of_a_kind", 40],
        ["three_quads", 52],
        ["four_trips", 52],
        ["dragon", 52],
        ["eight_of_a_kind", 80],
        ["clean_dragon", 104],
    ],
    "royalties": {
        "front": {"three_of_a_kind": 3},
        "middle": {"full_house": 2, "four_of_a_kind": 8, "straight_flush": 10, "five_of_a_kind": 20},
        "back": {"four_of_a_kind": 4, "straight_flush": 5, "five_of_a_kind": 10},
    },
}
PRESET_KNOBS["shisanshui-puxian-ghost"] = {
    **PRESET_KNOBS["shisanshui-puxian-six"],
    "extra_suits": "",
    "jokers": 2,
}
PRESET_SOURCES = {
    "pagat": "pagat.com, Chinese Poker",
    "pagat-bonus": "with its special hands",
    "wikipedia-2-4": "Chinese poker (en.wikipedia.org/wiki/Chinese_poker): 2-4 method",
    "wikipedia-1-6": "Chinese poker (en.wikipedia.org/wiki/Chinese_poker): 1-6 method",
    "shisanzhang-hk": "Hong Kong 十三張",
    "shisanshui-app": "mainland 十三水 apps",
    "capsa-susun": "Indonesian tables (low confidence)",
    "pusoy": "Philippine tables (low confidence)",
    "ofc": "soramamepiyo/OpenFaceChinesePoker",
    "maubinh": "cuctot/chinese_poker",
    "shisanshui-rtxux": "RTXUX/shisanshui-server",
    "shisanshui-luosong": "yongkangsssConfig",
    "shisanshui-puxian": "atom-chen/ShiSanShuiServer",
    "shisanshui-puxian-six": "atom-chen/ShiSanShuiServer, 莆仙 rules with 加二色",
    "shisanshui-puxian-ghost": "atom-chen/ShiSanShuiServer, 莆仙 rules with 鬼牌",
}
EMPTY_TABLE: dict[str, dict[str, int]] = {"front": {}, "middle": {}, "back": {}}
PAGAT_TABLE = {
    "front": {"three_of_a_kind": 3},
    "middle": {"full_house": 2, "four_of_a_kind": 4, "straight_flush": 5},
    "back": {"four_of_a_kind": 4, "straight_flush": 5},
}
EASTERN_TABLE = {
    "front": {"three_of_a_kind": 3},
    "middle": {"full_house": 2, "four_of_a_kind": 8, "straight_flush": 10},
    "back": {"four_of_a_kind": 4, "straight_flush": 5},
}
# RULES.md section 7, E4: a custom table.
E4_KNOBS = {
    "scoop_multiplier": 2,
    "royalties_in_multiplier": True,
    "foul_policy": "as_scooped",
    "royalties": {"middle": {"full_house": 2}, "back": {"four_of_a_kind": 8}},
    "suit_tiebreak": "highest_card",
    "suit_order": "shcd",
}


def expected_dict(name: str) -> dict[str, Any]:
    return {**DEFAULTS, **PRESET_KNOBS[name]}


def knob_dict(rules: Rules) -> dict[str, Any]:
    data = rules.to_dict()
    data.pop("preset", None)
    return data


# ----- presets ------------------------------------------------------------------------------------


def test_preset_names_in_rules_order() -> None:
    assert Rules.presets() == (
        "pagat",
        "pagat-bonus",
        "wikipedia-2-4",
        "wikipedia-1-6",
        "shisanzhang-hk",
        "shisanshui-app",
        "capsa-susun",
        "pusoy",
        "ofc",
        "maubinh",
        "shisanshui-rtxux",
        "shisanshui-luosong",
        "shisanshui-puxian",
        "shisanshui-puxian-six",
        "shisanshui-puxian-ghost",
    )
    assert set(Rules.presets()) == set(PRESET_KNOBS)


def test_one_toml_file_per_preset() -> None:
    directory = resources.files("chinese_poker.presets")
    files = {entry.name[: -len(".toml")] for entry in directory.iterdir() if entry.name.endswith(".toml")}
    assert files == set(Rules.presets())


def test_presets_json_is_the_toml_files_parsed() -> None:
    # The package reads presets.json; a TOML file edited without running scripts/make_presets_json.py
    # fails here.
    directory = resources.files("chinese_poker.presets")
    compiled = json.loads(directory.joinpath("presets.json").read_text(encoding="utf-8"))
    assert list(compiled) == list(Rules.presets())
    for name in Rules.presets():
        parsed = tomllib.loads(directory.joinpath(f"{name}.toml").read_text(encoding="utf-8"))
        assert compiled[name] == parsed, name
        assert presets_module.preset_document(name) == parsed


def test_knobs_are_those_of_rules_md() -> None:
    assert tuple(DEFAULTS) == KNOBS
    assert set(KNOBS) == set(field_names(Rules)) - {"name"}


@pytest.mark.parametrize("name", list(PRESET_KNOBS))
def test_preset_has_exactly_the_listed_knobs(name: str) -> None:
    rules = Rules.preset(name)
    assert knob_dict(rules) == expected_dict(name)
    assert rules.name == name
    assert rules.to_dict()["preset"] == name


@pytest.mark.parametrize("name", list(PRESET_KNOBS))
def test_preset_source_and_description(name: str) -> None:
    assert PRESET_SOURCES[name] in Rules.preset_source(name)
    assert len(Rules.preset_description(name)) > 20


def test_preset_attribute_forms() -> None:
    bonus = Rules.preset("pagat-bonus")
    assert bonus.royalties == "pagat"
    assert bonus.naturals == (("six_pairs", 3), ("three_straights", 3), ("three_flushes", 3), ("dragon", 13))
    hk = Rules.preset("shisanzhang-hk")
    assert hk.royalties == "eastern"
    assert [natural for natural, _ in hk.naturals] == [
        "three_straights",
        "three_flushes",
        "six_pairs",
        "all_small",
        "all_big",
        "dragon",
    ]
    assert Rules.preset("capsa-susun").naturals == bonus.naturals


def test_defaults_equal_pagat() -> None:
    assert knob_dict(Rules()) == DEFAULTS
    assert Rules() == Rules.preset("pagat")
    assert Rules() == Rules.preset()
    assert hash(Rules()) == hash(Rules.preset("pagat"))
    assert Rules().name is None
    assert Rules().royalties == ()
    assert Rules().naturals == ()


def test_name_is_not_part_of_equality() -> None:
    assert Rules.preset("pusoy") == Rules.preset("pagat")
    assert Rules.preset("pusoy").name == "pusoy"
    assert Rules.preset("pagat-bonus") != Rules.preset("pagat")
    assert len({Rules.preset(name) for name in Rules.presets()}) == len(Rules.presets()) - 1  # pagat = pusoy


def test_unknown_preset() -> None:
    with pytest.raises(ValueError, match="'pagat-bonus'") as info:
        Rules.preset("pagat_bonus")
    assert "unknown preset" in str(info.value)
    with pytest.raises(ValueError, match="unknown preset"):
        Rules.preset_source("nope")


def test_preset_file_loads_as_a_rules_file() -> None:
    path = resources.files("chinese_poker.presets").joinpath("capsa-susun.toml")
    text = path.read_text(encoding="utf-8")
    assert Rules.from_toml(text) == Rules.preset("capsa-susun")
    assert 'source = "Indonesian tables (low confidence)"' in text


def test_preset_cycle_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    documents = {"pagat": {"preset": "pusoy"}, "pusoy": {"preset": "pagat"}}
    monkeypatch.setattr(presets_module, "_read_preset_file", lambda name: documents[name])
    with pytest.raises(ValueError, match="based on itself"):
        rules_module._preset("pagat", ())


# ----- replace ------------------------------------------------------------------------------------


def test_replace() -> None:
    base = Rules.preset("wikipedia-2-4")
    changed = base.replace(royalties="pagat", wheel="second")
    assert changed.royalties == "pagat"
    assert changed.wheel == "second"
    assert changed.overall_unit == 1
    assert changed.name is None
    assert base.royalties == ()
    assert base.wheel == "low"
    assert base.name == "wikipedia-2-4"
    assert knob_dict(changed) == {**expected_dict("wikipedia-2-4"), "royalties": "pagat", "wheel": "second"}


def test_replace_without_change_keeps_name() -> None:
    base = Rules.preset("wikipedia-1-6")
    same = base.replace(scoop_bonus=3)
    assert same == base
    assert same.name == "wikipedia-1-6"
    assert base.replace().name == "wikipedia-1-6"


def test_replace_unknown_knob_suggests() -> None:
    with pytest.raises(ValueError, match="unknown rules knob 'scoop_bonuss'") as info:
        Rules().replace(scoop_bonuss=3)
    assert "did you mean 'scoop_bonus'" in str(info.value)
    with pytest.raises(ValueError, match="'name'"):
        Rules().replace(name="pagat")


def test_replace_validates() -> None:
    with pytest.raises(ValueError, match="scoop_multiplier"):
        Rules().replace(scoop_multiplier=0)


# ----- from_dict ----------------------------------------------------------------------------------


def test_from_dict_preset_and_overrides() -> None:
    rules = Rules.from_dict({"preset": "wikipedia-1-6", "scoop_bonus": 4, "surrender_units": 3})
    assert rules.scoop_bonus == 4
    assert rules.surrender_units == 3
    assert rules.foul_policy == "as_scooped"
    assert rules.name is None
    assert knob_dict(rules) == {**expected_dict("wikipedia-1-6"), "scoop_bonus": 4, "surrender_units": 3}


def test_from_dict_without_preset_uses_defaults() -> None:
    assert Rules.from_dict({}) == Rules()
    rules = Rules.from_dict({"overall_unit": 2, "overall_basis": "total"})
    assert knob_dict(rules) == {**DEFAULTS, "overall_unit": 2, "overall_basis": "total"}
    assert Rules.from_dict({"preset": "shisanzhang-hk"}).name == "shisanzhang-hk"
    assert Rules.from_dict({"preset": None}) == Rules()


def test_from_dict_metadata_keys_are_ignored() -> None:
    rules = Rules.from_dict({"description": "house rules", "source": "my club", "wheel": "second"})
    assert rules == Rules(wheel="second")
    with pytest.raises(ValueError, match="'description'"):
        Rules.from_dict({"description": 3})


def test_from_dict_unknown_key_names_it_and_suggests() -> None:
    with pytest.raises(ValueError, match="'royalty_modes'") as info:
        Rules.from_dict({"preset": "pagat", "royalty_modes": "add"})
    assert "did you mean 'royalty_mode'" in str(info.value)
    with pytest.raises(ValueError, match="'presett'") as info:
        Rules.from_dict({"presett": "pagat"})
    assert "did you mean 'preset'" in str(info.value)
    with pytest.raises(ValueError, match="'zzz'"):
        Rules.from_dict({"zzz": 1})


def test_from_dict_bad_preset_and_bad_shape() -> None:
    with pytest.raises(ValueError, match=r"'preset'.*'hongkong'"):
        Rules.from_dict({"preset": "hongkong"})
    with pytest.raises(ValueError, match="mapping"):
        Rules.from_dict([("wheel", "low")])  # type: ignore[arg-type]


# ----- round trips --------------------------------------------------------------------------------

CUSTOM = Rules(
    wheel="second",
    suit_tiebreak="highest_card",
    suit_order="shcd",
    middle_vs_back="strict",
    overall_unit=2,
    overall_basis="total",
    scoop_bonus=3,
    scoop_multiplier=2,
    royalties_in_multiplier=True,
    home_run_multiplier=3,
    home_run_min_opponents=2,
    royalties={"front": {"one_pair": 1, "three_of_a_kind": 5}, "back": {"royal_flush": 25, "flush": 1}},
    royalty_mode="add",
    royalty_condition="always",
    royalty_cancel=True,
    foul_policy="as_scooped",
    foul_pays_royalties=False,
    naturals=[["dragon", 13], ["twelve_royals", 24]],
    natural_declaration="auto",
    natural_tiebreak="top_pair_only",
    quads_as_two_pairs=False,
    trips_as_pair_plus_single=False,
    surrender_units=3,
    three_straights_front_a23=False,
    three_straights_front_qka=False,
    three_straights_wheel=False,
    three_flushes_distinct_suits=True,
    quads_as_trips=False,
)
ALL_RULES = [pytest.param(Rules.preset(name), id=name) for name in PRESET_KNOBS] + [
    pytest.param(CUSTOM, id="custom"),
    pytest.param(Rules(**E4_KNOBS), id="E4"),
    pytest.param(Rules.preset("pagat-bonus").replace(naturals=[]), id="changed-preset"),
]


def assert_same(a: Rules, b: Rules) -> None:
    assert a == b
    assert a.name == b.name
    assert knob_dict(a) == knob_dict(b)


@pytest.mark.parametrize("rules", ALL_RULES)
def test_dict_round_trip(rules: Rules) -> None:
    data = rules.to_dict()
    assert json.loads(json.dumps(data)) == data  # JSON-safe
    assert_same(Rules.from_dict(data), rules)


@pytest.mark.parametrize("rules", ALL_RULES)
def test_json_round_trip(rules: Rules) -> None:
    assert_same(Rules.from_json(rules.to_json()), rules)
    assert_same(Rules.from_json(rules.to_json(indent=None)), rules)


@pytest.mark.parametrize("rules", ALL_RULES)
def test_toml_round_trip(rules: Rules) -> None:
    text = rules.to_toml()
    # TOML has no null: knobs that are None (no horse card) are left out and read back as None.
    assert tomllib.loads(text) == {k: v for k, v in rules.to_dict().items() if v is not None}
    assert_same(Rules.from_toml(text), rules)


@pytest.mark.parametrize("rules", ALL_RULES)
@pytest.mark.parametrize("suffix", [".json", ".toml", ".TOML"])
def test_file_round_trip(rules: Rules, suffix: str, tmp_path: Path) -> None:
    path = tmp_path / f"rules{suffix}"
    rules.save(path)
    assert_same(Rules.load(path), rules)
    assert_same(Rules.load(str(path)), rules)


def test_saved_files_are_the_text_forms(tmp_path: Path) -> None:
    rules = Rules.preset("pagat-bonus")
    rules.save(tmp_path / "a.json")
    rules.save(tmp_path / "a.toml")
    assert json.loads((tmp_path / "a.json").read_text(encoding="utf-8")) == rules.to_dict()
    assert (tmp_path / "a.toml").read_text(encoding="utf-8") == rules.to_toml()


def test_file_extension_must_be_known(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.json or \.toml"):
        Rules().save(tmp_path / "rules.yaml")
    (tmp_path / "rules.txt").write_text("{}", encoding="utf-8")
    with pytest.raises(ValueError, match=r"rules\.txt"):
        Rules.load(tmp_path / "rules.txt")


def test_toml_text() -> None:
    text = Rules.preset("pagat-bonus").to_toml()
    lines = text.splitlines()
    assert 'preset = "pagat-bonus"' in lines
    assert 'royalties = "pagat"' in lines
    naturals = '[["six_pairs", 3], ["three_straights", 3], ["three_flushes", 3], ["dragon", 13]]'
    assert f"naturals = {naturals}" in lines
    assert "royalty_cancel = false" in lines
    assert "home_run_min_opponents = 3" in lines
    e4 = Rules(**E4_KNOBS).to_toml().splitlines()
    assert "royalties = { middle = { full_house = 2 }, back = { four_of_a_kind = 8 } }" in e4
    assert "royalties = {}" in Rules().to_toml().splitlines()


def test_to_dict_forms() -> None:
    data = Rules(**E4_KNOBS).to_dict()
    assert data["royalties"] == {"middle": {"full_house": 2}, "back": {"four_of_a_kind": 8}}
    assert "preset" not in data
    assert Rules.preset("shisanzhang-hk").to_dict()["naturals"] == HK_NATURALS


@pytest.mark.parametrize(
    "text",
    ['he said "hi"\\', "tab\there\nnewline", "\x01\x7f", "十三張 ♠", "'single'"],
)
def test_toml_string_emitter(text: str) -> None:
    value = {"k": text, "list": [text, 1, True], "table": {"a b": text}}
    emitted = "\n".join(f"{key} = {toml_value(item)}" for key, item in value.items())
    assert tomllib.loads(emitted) == value


@settings(max_examples=60, deadline=None)
@given(
    choices=st.fixed_dictionaries({knob: st.sampled_from(allowed) for knob, allowed in CHOICES.items()}),
    ints=st.fixed_dictionaries(
        {
            "overall_unit": st.integers(0, 1000),
            "scoop_bonus": st.integers(0, 1000),
            "scoop_multiplier": st.integers(1, 1000),
            "home_run_multiplier": st.integers(1, 1000),
            "home_run_min_opponents": st.integers(1, 3),
            "surrender_units": st.integers(0, 1000),
        }
    ),
    flags=st.fixed_dictionaries(
        {
            knob: st.booleans()
            for knob in (
                "royalties_in_multiplier",
                "royalty_cancel",
                "foul_pays_royalties",
                "quads_as_two_pairs",
                "trips_as_pair_plus_single",
                "three_straights_front_a23",
                "three_straights_front_qka",
                "three_straights_wheel",
                "three_flushes_distinct_suits",
                "quads_as_trips",
            )
        }
    ),
    royalties=st.one_of(
        st.sampled_from(["pagat", "eastern"]),
        st.dictionaries(
            st.sampled_from(["front", "middle", "back"]),
            st.dictionaries(st.sampled_from(ROYALTY_CATEGORIES), st.integers(0, 50)),
        ),
    ),
    naturals=st.lists(
        st.tuples(st.sampled_from(NATURAL_NAMES), st.integers(1, 100)), unique_by=lambda item: item[0]
    ),
)
def test_round_trip_property(
    choices: dict[str, str],
    ints: dict[str, int],
    flags: dict[str, bool],
    royalties: Any,
    naturals: list[tuple[str, int]],
) -> None:
    if isinstance(royalties, dict) and "front" in royalties:
        front = royalties["front"]
        royalties["front"] = {k: v for k, v in front.items() if k in FRONT_CATEGORIES}
    rules = Rules(**choices, **ints, **flags, royalties=royalties, naturals=naturals)
    assert Rules.from_toml(rules.to_toml()) == rules
    assert Rules.from_json(rules.to_json()) == rules
    assert Rules.from_dict(rules.resolved()) == rules
    assert Rules(**{knob: getattr(rules, knob) for knob in KNOBS}) == rules


# ----- validation ---------------------------------------------------------------------------------

BAD_VALUES = [
    ("wheel", "high"),
    ("wheel", "Low"),
    ("wheel", 1),
    ("suit_tiebreak", "on"),
    ("suit_tiebreak", True),
    ("suit_order", "sdh"),
    ("suit_order", "SHDC"),
    ("suit_order", "shhc"),
    ("suit_tiebreak", "by_rank"),
    ("fantasyland", "on"),
    ("fantasyland", True),
    ("middle_vs_back", "lenient"),
    ("overall_unit", -1),
    ("overall_unit", True),
    ("overall_unit", 1.0),
    ("overall_unit", "1"),
    ("overall_unit", 1001),
    ("overall_basis", "rows"),
    ("scoop_bonus", -3),
    ("scoop_bonus", None),
    ("scoop_multiplier", 0),
    ("scoop_multiplier", False),
    ("scoop_multiplier", 2.0),
    ("royalties_in_multiplier", 1),
    ("royalties_in_multiplier", "true"),
    ("home_run_multiplier", 0),
    ("home_run_multiplier", -2),
    ("home_run_min_opponents", 0),
    ("home_run_min_opponents", 4),
    ("home_run_min_opponents", True),
    ("royalties", "western"),
    ("royalties", None),
    ("royalties", 3),
    ("royalties", {"front": {"straight": 2}}),
    ("royalties", {"front": {"flush": 1}}),
    ("royalties", {"front": {"full_house": 1}}),
    ("royalties", {"middle": {"quads": 4}}),
    ("royalties", {"top": {"one_pair": 1}}),
    ("royalties", {"back": {"full_house": -1}}),
    ("royalties", {"back": {"full_house": True}}),
    ("royalties", {"back": {"full_house": 2.5}}),
    ("royalties", {"back": 3}),
    ("royalties", [("back", "flush")]),
    ("royalties", [("back", "flush", 1), ("back", "flush", 2)]),
    ("royalty_mode", "multiply"),
    ("royalty_condition", "lose_row"),
    ("royalty_cancel", "yes"),
    ("foul_policy", "lose"),
    ("foul_pays_royalties", None),
    ("naturals", [["seven_pairs", 3]]),
    ("naturals", [["dragon", 13], ["dragon", 13]]),
    ("naturals", [["dragon", 13], {"dragon": 26}]),
    ("naturals", [["dragon", 0]]),
    ("naturals", [["dragon", -1]]),
    ("naturals", [["dragon", True]]),
    ("naturals", [["dragon", 1001]]),
    ("naturals", "dragon"),
    ("naturals", [["dragon"]]),
    ("naturals", [{"dragon": 13, "six_pairs": 3}]),
    ("naturals", None),
    ("natural_declaration", "declare"),
    ("natural_tiebreak", "top"),
    ("quads_as_two_pairs", 1),
    ("trips_as_pair_plus_single", "true"),
    ("surrender_units", -3),
    ("surrender_units", 2.5),
    ("natural_tiebreak", "None"),
    ("three_straights_front_a23", None),
    ("three_straights_front_qka", 0),
    ("three_straights_wheel", "yes"),
    ("three_flushes_distinct_suits", 1),
    ("quads_as_trips", "false"),
]


def bad_id(item: tuple[str, Any]) -> str:
    return f"{item[0]}={item[1]!r}"


@pytest.mark.parametrize(("knob", "value"), BAD_VALUES, ids=[bad_id(item) for item in BAD_VALUES])
def test_bad_value_raises_naming_the_knob(knob: str, value: Any) -> None:
    with pytest.raises(ValueError, match=f"'{knob}'"):
        Rules(**{knob: value})
    with pytest.raises(ValueError, match=f"'{knob}'"):
        Rules.preset("shisanzhang-hk").replace(**{knob: value})
    with pytest.raises(ValueError, match=f"'{knob}'"):
        Rules.from_dict({"preset": "capsa-susun", knob: value})
    if value is not None:  # JSON can carry everything but None-as-absent; TOML has no null
        with pytest.raises(ValueError, match=f"'{knob}'"):
            Rules.from_json(json.dumps({knob: value}))


@pytest.mark.parametrize("knob", list(CHOICES))
def test_enum_error_lists_allowed_values(knob: str) -> None:
    with pytest.raises(ValueError, match="'bogus'") as info:
        Rules(**{knob: "bogus"})
    message = str(info.value)
    assert f"'{knob}'" in message
    assert "'bogus'" in message
    if knob == "suit_order":
        # 24 values: the error describes them instead of listing them.
        assert "any order of the four suit letters s, h, d, c" in message
        return
    for allowed in CHOICES[knob]:
        assert repr(allowed) in message


def test_enum_choices_are_those_of_rules_md() -> None:
    assert dict(CHOICES) == {
        "wheel": ("low", "second"),
        "suit_tiebreak": ("off", "highest_card", "by_card"),
        "suit_order": tuple("".join(order) for order in itertools.permutations("shdc")),
        "middle_vs_back": ("non_strict", "strict"),
        "overall_basis": ("two_rows", "total"),
        "royalty_mode": ("replace", "add"),
        "royalty_condition": ("win_row", "always"),
        "foul_policy": ("lose_all_rows", "as_scooped", "as_laid"),
        "natural_declaration": ("must_declare", "auto"),
        "natural_tiebreak": ("full", "top_pair_only", "none"),
        "natural_vs_natural": ("by_kind", "by_units", "net", "push"),
        "natural_units_mode": ("table", "as_home_run"),
        "foul_vs_foul": ("push", "as_laid"),
        "fantasyland": ("off", "standard", "progressive"),
        "ace_basis": ("pairwise", "table"),
        "shooting": ("scoop", "no_lost_row"),
        "home_run_scope": ("own_pairs", "table"),
        "ofc_variant": ("classic", "pineapple"),
    }


def test_error_messages_list_allowed_values() -> None:
    with pytest.raises(ValueError, match="an int from 1 to 3"):
        Rules(home_run_min_opponents=4)
    with pytest.raises(ValueError, match="an int from 1 to 1000"):
        Rules(scoop_multiplier=0)
    with pytest.raises(ValueError, match="'high_card', 'one_pair', 'three_of_a_kind'") as info:
        Rules(royalties={"front": {"straight": 2}})
    assert "front" in str(info.value)
    with pytest.raises(ValueError, match="'twelve_royals'"):
        Rules(naturals=[["seven_pairs", 3]])
    with pytest.raises(ValueError, match="'pagat', 'eastern'"):
        Rules(royalties="western")
    with pytest.raises(ValueError, match="listed twice"):
        Rules(naturals=[["dragon", 13], ["dragon", 13]])


def test_bad_text_raises_value_error() -> None:
    with pytest.raises(ValueError, match="Invalid value"):
        Rules.from_toml("wheel = ")
    with pytest.raises(ValueError, match="Expecting property name"):
        Rules.from_json("{wheel: low}")
    with pytest.raises(ValueError, match="object"):
        Rules.from_json("[1, 2]")
    with pytest.raises(ValueError, match="'scoop_multiplier'"):
        Rules.from_toml("scoop_multiplier = 1.5")
    with pytest.raises(ValueError, match="'wheel'"):
        Rules.from_toml('preset = "pagat"\nwheel = "ace_low"\n')


def test_name_must_be_a_preset() -> None:
    assert Rules(name="pusoy").name == "pusoy"
    with pytest.raises(ValueError, match="'my rules'"):
        Rules(name="my rules")


def test_harmless_combinations_are_accepted() -> None:
    # Decided: knobs that have nothing to act on are allowed (they are no-ops), not errors.
    assert Rules(natural_declaration="auto").naturals == ()
    assert Rules(royalty_cancel=True, royalties_in_multiplier=True).royalties == ()
    assert Rules(suit_order="shcd").suit_tiebreak == "off"
    rules = Rules(natural_tiebreak="top_pair_only", naturals=[["dragon", 13]])
    assert rules.natural_tiebreak == "top_pair_only"


# ----- stored forms and immutability --------------------------------------------------------------


def test_naturals_input_forms_are_equivalent() -> None:
    expected = (("six_pairs", 3), ("dragon", 13))
    assert Rules(naturals=[["six_pairs", 3], ["dragon", 13]]).naturals == expected
    assert Rules(naturals=[{"six_pairs": 3}, {"dragon": 13}]).naturals == expected
    assert Rules(naturals={"six_pairs": 3, "dragon": 13}).naturals == expected
    assert Rules(naturals=expected).naturals == expected
    assert Rules(naturals=[["dragon", 13], ["six_pairs", 3]]).naturals == (("dragon", 13), ("six_pairs", 3))


def test_royalty_tables_are_canonical() -> None:
    as_dict = Rules(royalties={"back": {"straight_flush": 5, "four_of_a_kind": 4}, "front": {"one_pair": 1}})
    assert as_dict.royalties == (
        ("front", "one_pair", 1),
        ("back", "four_of_a_kind", 4),
        ("back", "straight_flush", 5),
    )
    assert Rules(royalties=list(as_dict.royalties)) == as_dict
    assert Rules(royalties={**as_dict.royalty_table, "middle": {"flush": 0}}) == as_dict
    assert Rules(royalties=PAGAT_TABLE).royalties == "pagat"
    assert Rules(royalties=EASTERN_TABLE) == Rules(royalties="eastern")
    assert Rules(royalties={"front": {}, "middle": {}}).royalties == ()
    assert Rules(royalties={"middle": {"straight_flush": 0}}) == Rules()


def test_immutability() -> None:
    rules = Rules.preset("pagat-bonus")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.wheel = "second"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.name = None  # type: ignore[misc]
    assert isinstance(rules.naturals, tuple)
    assert all(isinstance(item, tuple) for item in rules.naturals)
    custom = Rules(**E4_KNOBS)
    assert isinstance(custom.royalties, tuple)
    assert all(isinstance(item, tuple) for item in custom.royalties)
    table = custom.royalty_table
    with pytest.raises(TypeError):
        table["middle"] = {}  # type: ignore[index]
    with pytest.raises(TypeError):
        table["middle"]["full_house"] = 9  # type: ignore[index]
    with pytest.raises(TypeError):
        ROYALTY_TABLES["pagat"]["front"]["three_of_a_kind"] = 9  # type: ignore[index]
    assert {custom: 1, Rules(**E4_KNOBS): 2} == {custom: 2}
    # resolved() and to_dict() hand out fresh copies
    resolved = rules.resolved()
    resolved["royalties"]["front"]["three_of_a_kind"] = 99
    resolved["naturals"].append(["all_big", 3])
    assert rules.resolved()["royalties"]["front"] == {"three_of_a_kind": 3}
    assert len(rules.resolved()["naturals"]) == 4
    assert Rules.preset("pagat-bonus").royalty_table["front"]["three_of_a_kind"] == 3


def test_input_lists_are_copied() -> None:
    naturals = [["dragon", 13]]
    table = {"middle": {"full_house": 2}}
    rules = Rules(naturals=naturals, royalties=table)
    naturals.append(["six_pairs", 3])
    table["middle"]["full_house"] = 7
    assert rules.naturals == (("dragon", 13),)
    assert rules.royalty_table["middle"] == {"full_house": 2}


def test_repr_shows_changed_knobs() -> None:
    assert repr(Rules()) == "Rules()"
    expected = "Rules(name='wikipedia-1-6', scoop_bonus=3, foul_policy='as_scooped')"
    assert repr(Rules.preset("wikipedia-1-6")) == expected
    rules = Rules(**E4_KNOBS)
    assert eval(repr(rules), {"Rules": Rules}) == rules


# ----- resolved() ---------------------------------------------------------------------------------


def test_resolved_pagat() -> None:
    resolved = Rules.preset("pagat").resolved()
    assert resolved == {**DEFAULTS, "royalties": EMPTY_TABLE}
    assert list(resolved) == list(KNOBS)


@pytest.mark.parametrize(
    ("name", "table"),
    [
        ("pagat-bonus", PAGAT_TABLE),
        ("shisanzhang-hk", EASTERN_TABLE),
        ("shisanshui-app", EASTERN_TABLE),
        ("capsa-susun", EASTERN_TABLE),
        ("wikipedia-2-4", EMPTY_TABLE),
    ],
)
def test_resolved_expands_tables(name: str, table: dict[str, dict[str, int]]) -> None:
    resolved = Rules.preset(name).resolved()
    assert resolved["royalties"] == table
    assert resolved == {**expected_dict(name), "royalties": table}
    assert json.loads(json.dumps(resolved)) == resolved


def test_resolved_pagat_and_eastern_differ_only_in_middle() -> None:
    pagat = Rules(royalties="pagat").resolved()["royalties"]
    eastern = Rules(royalties="eastern").resolved()["royalties"]
    assert pagat["middle"]["four_of_a_kind"] == 4
    assert eastern["middle"]["four_of_a_kind"] == 8
    assert pagat["middle"]["straight_flush"] == 5
    assert eastern["middle"]["straight_flush"] == 10
    assert pagat["front"] == eastern["front"]
    assert pagat["back"] == eastern["back"]


def test_resolved_custom_table_and_naturals() -> None:
    resolved = CUSTOM.resolved()
    assert resolved["royalties"] == {
        "front": {"one_pair": 1, "three_of_a_kind": 5},
        "middle": {},
        "back": {"flush": 1, "royal_flush": 25},
    }
    assert resolved["naturals"] == [["dragon", 13], ["twelve_royals", 24]]
    assert "preset" not in resolved
    assert set(resolved) == set(KNOBS)


@pytest.mark.parametrize(
    "text", ['{"naturals": ' + "[" * 40 + "]" * 40 + "}", "naturals = " + "[" * 40 + "]" * 40]
)
def test_rules_nested_past_the_limit_are_refused_on_every_python(text: str) -> None:
    # Deep enough to pass every Python's decoder, too deep for any rules document.
    load = Rules.from_json if text.startswith("{") else Rules.from_toml
    with pytest.raises(ValueError, match="nested too deeply"):
        load(text)
