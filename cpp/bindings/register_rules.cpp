// RulesSpec as a typed Python class: one property per knob of Rules, each enum-like knob a bound enum
// whose member names are the knob's values. Python fills one RulesSpec per Rules (chinese_poker.rules);
// nothing here reads a string or a dict.
#include <pybind11/native_enum.h>

#include <string>

#include "chinese_poker/naturals.hpp"
#include "chinese_poker/rules.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

// The enum-like knobs whose core form is a flag: member 0 is the knob's default, member 1 sets the flag.
// Member names are the knobs' values, exactly as chinese_poker.knobs.CHOICES lists them.
enum class SuitTiebreak : int { off = 0, highest_card = 1, by_card = 2 };
enum class MiddleVsBack : int { non_strict = 0, strict = 1 };
enum class OverallBasis : int { two_rows = 0, total = 1 };
enum class RoyaltyMode : int { replace = 0, add = 1 };
enum class RoyaltyCondition : int { win_row = 0, always = 1 };
enum class NaturalDeclaration : int { must_declare = 0, auto_ = 1 };
// --- settlement group (issue #10) ---
enum class FoulPolicy : int { lose_all_rows = 0, as_scooped = 1, as_laid = 2 };
enum class NaturalUnitsMode : int { table = 0, as_home_run = 1 };
enum class FoulVsFoul : int { push = 0, as_laid = 1 };
// ---- presets group ----
enum class AceBasis : int { pairwise = 0, table = 1 };
enum class Shooting : int { scoop = 0, no_lost_row = 1 };
enum class HomeRunScope : int { own_pairs = 0, table = 1 };

// Royalty table keys: the row's category, and royal_flush and wheel_straight_flush in their own slots.
enum class RoyaltyCategory : int {
  high_card, one_pair, two_pair, three_of_a_kind, straight, flush, full_house, four_of_a_kind,
  straight_flush, five_of_a_kind, royal_flush, wheel_straight_flush,
};
constexpr const char* kCategoryNames[kRoyaltySlots] = {
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
    "four_of_a_kind", "straight_flush", "five_of_a_kind", "royal_flush", "wheel_straight_flush"};
constexpr char kRankLetters[] = "23456789TJQKA";
constexpr const char* kRowNames[3] = {"front", "middle", "back"};

// The knobs in the order of chinese_poker.rules.KNOBS; a test checks both sides list the same.
constexpr const char* kKnobNames[] = {
    "wheel", "suit_tiebreak", "suit_order", "middle_vs_back", "overall_unit", "overall_basis", "scoop_bonus",
    "scoop_multiplier", "royalties_in_multiplier", "home_run_multiplier", "home_run_min_opponents",
    "royalties", "royalty_mode", "royalty_condition", "royalty_cancel", "foul_policy", "foul_pays_royalties",
    "naturals", "natural_declaration", "natural_tiebreak", "quads_as_two_pairs", "trips_as_pair_plus_single",
    "surrender_units",
    // naturals group (issue #10)
    "three_straights_front_a23", "three_straights_front_qka", "three_straights_wheel",
    "three_flushes_distinct_suits", "quads_as_trips",
    // --- settlement group (issue #10) ---
    "row_base", "ace_units", "pair_cap", "home_run_cap", "home_run_bonus", "home_run_counts_naturals",
    "natural_vs_natural", "natural_settles_table", "natural_units_mode", "false_declaration_units", "horse_card",
    "horse_multiplier", "foul_vs_foul",
    // ofc group
    "fantasyland",
    // presets group
    "ace_basis", "shooting", "home_run_scope",
    // deck group (issue #15)
    "extra_suits", "jokers"};

[[noreturn]] void bad_knob(const char* knob, const std::string& problem) {
  throw py::value_error(std::string("RulesSpec.") + knob + ": " + problem);
}

template <class Enum>
void flag_knob(py::class_<RulesSpec>& cls, const char* name, bool RulesSpec::*field) {
  cls.def_property(
      name, [field](const RulesSpec& s) { return static_cast<Enum>(s.*field ? 1 : 0); },
      [field](RulesSpec& s, Enum value) { s.*field = static_cast<int>(value) == 1; });
}

void bool_knob(py::class_<RulesSpec>& cls, const char* name, bool RulesSpec::*field) {
  cls.def_property(
      name, [field](const RulesSpec& s) { return s.*field; },
      [field, name](RulesSpec& s, const py::object& value) {
        if (!PyBool_Check(value.ptr())) bad_knob(name, "must be a bool");
        s.*field = value.ptr() == Py_True;
      });
}

std::int64_t checked_int(const char* name, const py::object& value, std::int64_t low, std::int64_t high) {
  if (PyBool_Check(value.ptr()) || !PyLong_Check(value.ptr())) bad_knob(name, "must be an int");
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow != 0 || v < low || v > high) {
    bad_knob(name, "must be an int from " + std::to_string(low) + " to " + std::to_string(high));
  }
  return static_cast<std::int64_t>(v);
}

template <class Field>
void int_knob(py::class_<RulesSpec>& cls, const char* name, Field RulesSpec::*field, std::int64_t low,
              std::int64_t high) {
  cls.def_property(
      name, [field](const RulesSpec& s) { return static_cast<std::int64_t>(s.*field); },
      [field, name, low, high](RulesSpec& s, const py::object& value) {
        s.*field = static_cast<Field>(checked_int(name, value, low, high));
      });
}

py::list royalty_entries(const RulesSpec& s) {
  py::list out;
  for (std::size_t row = 0; row < 3; ++row) {
    for (std::size_t slot = 0; slot < kRoyaltySlots; ++slot) {
      const bool listed = slot == kRoyalFlushSlot          ? s.royal_listed[row]
                          : slot == kWheelStraightFlushSlot ? s.wheel_sf_listed[row]
                                                            : s.royalty[row][slot] != 0;
      if (listed) out.append(py::make_tuple(row, static_cast<RoyaltyCategory>(slot), s.royalty[row][slot]));
    }
  }
  return out;
}

void set_royalties(RulesSpec& s, const py::iterable& entries) {
  decltype(RulesSpec::royalty) table{};
  std::array<bool, 3> royal{};
  std::array<bool, 3> wheel{};
  bool seen[3][kRoyaltySlots] = {};
  for (const py::handle item : entries) {
    const auto entry = py::cast<py::tuple>(item);
    if (entry.size() != 3) bad_knob("royalties", "each entry is (row, RoyaltyCategory, units)");
    const auto row = checked_int("royalties", entry[0], 0, 2);
    const int slot = static_cast<int>(py::cast<RoyaltyCategory>(entry[1]));
    const auto units = checked_int("royalties", entry[2], 0, kMaxUnits);
    const std::string where = std::string(kRowNames[row]) + " " + kCategoryNames[slot];
    if (row == kFront && slot != kHighCard && slot != kOnePair && slot != kThreeOfAKind) {
      bad_knob("royalties", "a front (3 cards) cannot hold " + std::string(kCategoryNames[slot]));
    }
    if (seen[row][slot]) bad_knob("royalties", where + " is listed twice");
    seen[row][slot] = true;
    table[static_cast<std::size_t>(row)][static_cast<std::size_t>(slot)] = units;
    if (slot == kRoyalFlushSlot) royal[static_cast<std::size_t>(row)] = true;
    if (slot == kWheelStraightFlushSlot) wheel[static_cast<std::size_t>(row)] = true;
  }
  s.royalty = table;
  s.royal_listed = royal;
  s.wheel_sf_listed = wheel;
}

// [ofc group] Rank-keyed royalties "category@R" as (row, RoyaltyCategory, rank value 2..14, units).
py::list rank_royalty_entries(const RulesSpec& s) {
  py::list out;
  for (std::size_t row = 0; row < 3; ++row) {
    for (std::size_t cat = 0; cat < static_cast<std::size_t>(kRoyaltyCategories); ++cat) {
      for (std::size_t k = 0; k < static_cast<std::size_t>(kRoyaltyRanks); ++k) {
        if (((unsigned{s.royalty_at_listed[row][cat]} >> k) & 1u) == 0) continue;
        out.append(py::make_tuple(row, static_cast<RoyaltyCategory>(cat), k + 2, int{s.royalty_at[row][cat][k]}));
      }
    }
  }
  return out;
}

void set_rank_royalties(RulesSpec& s, const py::iterable& entries) {
  decltype(RulesSpec::royalty_at_listed) listed{};
  decltype(RulesSpec::royalty_at) units{};
  for (const py::handle item : entries) {
    const auto entry = py::cast<py::tuple>(item);
    if (entry.size() != 4) bad_knob("rank_royalties", "each entry is (row, RoyaltyCategory, rank 2..14, units)");
    const auto row = checked_int("rank_royalties", entry[0], 0, 2);
    const int cat = static_cast<int>(py::cast<RoyaltyCategory>(entry[1]));
    const auto rank = checked_int("rank_royalties", entry[2], 2, 14);
    const auto value = checked_int("rank_royalties", entry[3], 0, kMaxUnits);
    // The category is checked before it indexes anything. royal_flush and wheel_straight_flush are
    // RoyaltyCategory members too (named, so the message can say which), but no rank key can name them.
    if (cat < 0 || cat >= kRoyaltySlots) bad_knob("rank_royalties", "an entry names no royalty category");
    const auto shift = static_cast<unsigned>(rank - 2);
    const std::string key = std::string(kCategoryNames[cat]) + "@" + kRankLetters[rank - 2];
    const std::string where = key + " in the " + kRowNames[row];
    if (cat >= kRoyaltyCategories || ((unsigned{royalty_ranks_allowed(static_cast<int>(row), cat)} >> shift) & 1u) == 0) {
      bad_knob("rank_royalties", where + " cannot occur");
    }
    auto& bits = listed[static_cast<std::size_t>(row)][static_cast<std::size_t>(cat)];
    if (((unsigned{bits} >> shift) & 1u) != 0) bad_knob("rank_royalties", where + " is listed twice");
    bits = static_cast<std::uint16_t>(bits | 1u << (rank - 2));
    units[static_cast<std::size_t>(row)][static_cast<std::size_t>(cat)][static_cast<std::size_t>(rank - 2)] =
        static_cast<std::int16_t>(value);
  }
  s.royalty_at_listed = listed;
  s.royalty_at = units;
}

// [ofc group] suit_order as its text, highest suit first: any order of the letters s, h, d, c.
constexpr char kSuitLetters[] = "cdhs";  // by suit code

std::string suit_order_text(const RulesSpec& s) {
  std::string out(4, '?');
  for (std::size_t suit = 0; suit < 4; ++suit) out[3 - s.suit_value[suit]] = kSuitLetters[suit];
  return out;
}

void set_suit_order(RulesSpec& s, const py::object& value) {
  if (!py::isinstance<py::str>(value)) bad_knob("suit_order", "must be a str");
  const auto text = py::cast<std::string>(value);
  std::array<std::uint8_t, 4> rank{};
  unsigned seen = 0;
  for (std::size_t k = 0; k < text.size() && text.size() == 4; ++k) {
    const char* at = std::char_traits<char>::find(kSuitLetters, 4, text[k]);
    if (at == nullptr) break;
    const auto suit = static_cast<std::size_t>(at - kSuitLetters);
    seen |= 1u << suit;
    rank[suit] = static_cast<std::uint8_t>(3 - k);  // the first letter is the highest suit
  }
  if (text.size() != 4 || seen != 0xFu) bad_knob("suit_order", "must be an order of the four letters s, h, d, c");
  s.suit_value = rank;
}

py::list natural_entries(const RulesSpec& s) {
  py::list out;
  for (std::size_t k = 0; k < static_cast<std::size_t>(s.num_naturals); ++k) {
    out.append(py::make_tuple(s.natural_kind[k], s.natural_units[k]));
  }
  return out;
}

void set_naturals(RulesSpec& s, const py::iterable& entries) {
  std::array<NaturalKind, kNumNaturalKinds> kinds{};
  std::array<std::int64_t, kNumNaturalKinds> units{};
  int count = 0;
  unsigned listed = 0;
  for (const py::handle item : entries) {
    const auto entry = py::cast<py::tuple>(item);
    if (entry.size() != 2) bad_knob("naturals", "each entry is (NaturalKind, units)");
    const auto kind = py::cast<NaturalKind>(entry[0]);
    const unsigned bit = 1u << static_cast<unsigned>(kind);
    if ((listed & bit) != 0) bad_knob("naturals", std::string(natural_name(kind)) + " is listed twice");
    listed |= bit;
    // Every kind at most once, so there are never more entries than kinds.
    kinds[static_cast<std::size_t>(count)] = kind;
    units[static_cast<std::size_t>(count)] = checked_int("naturals", entry[1], 1, kMaxUnits);
    ++count;
  }
  s.natural_kind = kinds;
  s.natural_units = units;
  s.num_naturals = count;
}

}  // namespace

void check_rules(const RulesSpec& rules) {
  // Every setter checks its value, so this fails only for a spec the core's own check disagrees with.
  if (const char* field = validate_rules(rules)) {
    throw py::value_error(std::string("RulesSpec: the core rejects field '") + field + "'");
  }
}

void register_rules(py::module_& m) {
  py::native_enum<Wheel>(m, "Wheel", "enum.Enum", "The wheel knob: where A-2-3-4-5 ranks among straights.")
      .value("low", Wheel::Low)
      .value("second", Wheel::Second)
      .finalize();
  py::native_enum<SuitTiebreak>(m, "SuitTiebreak", "enum.Enum", "The suit_tiebreak knob.")
      .value("off", SuitTiebreak::off)
      .value("highest_card", SuitTiebreak::highest_card)
      .value("by_card", SuitTiebreak::by_card)
      .finalize();
  py::native_enum<MiddleVsBack>(m, "MiddleVsBack", "enum.Enum", "The middle_vs_back knob.")
      .value("non_strict", MiddleVsBack::non_strict)
      .value("strict", MiddleVsBack::strict)
      .finalize();
  py::native_enum<OverallBasis>(m, "OverallBasis", "enum.Enum", "The overall_basis knob.")
      .value("two_rows", OverallBasis::two_rows)
      .value("total", OverallBasis::total)
      .finalize();
  py::native_enum<RoyaltyMode>(m, "RoyaltyMode", "enum.Enum", "The royalty_mode knob.")
      .value("replace", RoyaltyMode::replace)
      .value("add", RoyaltyMode::add)
      .finalize();
  py::native_enum<RoyaltyCondition>(m, "RoyaltyCondition", "enum.Enum", "The royalty_condition knob.")
      .value("win_row", RoyaltyCondition::win_row)
      .value("always", RoyaltyCondition::always)
      .finalize();
  py::native_enum<FoulPolicy>(m, "FoulPolicy", "enum.Enum", "The foul_policy knob.")
      .value("lose_all_rows", FoulPolicy::lose_all_rows)
      .value("as_scooped", FoulPolicy::as_scooped)
      .value("as_laid", FoulPolicy::as_laid)
      .finalize();
  py::native_enum<NaturalDeclaration>(m, "NaturalDeclaration", "enum.Enum", "The natural_declaration knob.")
      .value("must_declare", NaturalDeclaration::must_declare)
      .value("auto", NaturalDeclaration::auto_)
      .finalize();
  py::native_enum<NaturalTiebreak>(m, "NaturalTiebreak", "enum.Enum", "The natural_tiebreak knob.")
      .value("full", NaturalTiebreak::kFull)
      .value("top_pair_only", NaturalTiebreak::kTopPairOnly)
      .value("none", NaturalTiebreak::kNone)
      .finalize();
  // --- settlement group (issue #10) ---
  py::native_enum<NaturalVsNatural>(m, "NaturalVsNatural", "enum.Enum", "The natural_vs_natural knob.")
      .value("by_kind", NaturalVsNatural::kByKind)
      .value("by_units", NaturalVsNatural::kByUnits)
      .value("net", NaturalVsNatural::kNet)
      .value("push", NaturalVsNatural::kPush)
      .finalize();
  py::native_enum<NaturalUnitsMode>(m, "NaturalUnitsMode", "enum.Enum", "The natural_units_mode knob.")
      .value("table", NaturalUnitsMode::table)
      .value("as_home_run", NaturalUnitsMode::as_home_run)
      .finalize();
  py::native_enum<FoulVsFoul>(m, "FoulVsFoul", "enum.Enum", "The foul_vs_foul knob.")
      .value("push", FoulVsFoul::push)
      .value("as_laid", FoulVsFoul::as_laid)
      .finalize();
  py::native_enum<Fantasyland>(m, "Fantasyland", "enum.Enum", "The fantasyland knob.")
      .value("off", Fantasyland::kOff)
      .value("standard", Fantasyland::kStandard)
      .value("progressive", Fantasyland::kProgressive)
      .finalize();
  // ---- presets group ----
  py::native_enum<AceBasis>(m, "AceBasis", "enum.Enum", "The ace_basis knob.")
      .value("pairwise", AceBasis::pairwise)
      .value("table", AceBasis::table)
      .finalize();
  py::native_enum<Shooting>(m, "Shooting", "enum.Enum", "The shooting knob.")
      .value("scoop", Shooting::scoop)
      .value("no_lost_row", Shooting::no_lost_row)
      .finalize();
  py::native_enum<HomeRunScope>(m, "HomeRunScope", "enum.Enum", "The home_run_scope knob.")
      .value("own_pairs", HomeRunScope::own_pairs)
      .value("table", HomeRunScope::table)
      .finalize();
  {
    py::native_enum<RoyaltyCategory> e(m, "RoyaltyCategory", "enum.Enum",
                                       "A royalty table key: a row category, or royal_flush.");
    for (int k = 0; k < kRoyaltySlots; ++k) e.value(kCategoryNames[k], static_cast<RoyaltyCategory>(k));
    e.finalize();
  }
  {
    py::native_enum<NaturalKind> e(m, "NaturalKind", "enum.Enum", "A 13-card special hand (natural).");
    for (int k = 0; k < kNumNaturalKinds; ++k) {
      e.value(natural_name(static_cast<NaturalKind>(k)), static_cast<NaturalKind>(k));
    }
    e.finalize();
  }

  py::class_<RulesSpec> cls(m, "RulesSpec",
                            "Every knob of Rules as a typed field, in the core's form. chinese_poker.rules fills\n"
                            "one per Rules; each setter checks its value (ValueError/TypeError naming the knob).");
  cls.def(py::init<>());
  py::tuple knobs(std::size(kKnobNames));
  for (std::size_t k = 0; k < std::size(kKnobNames); ++k) knobs[k] = py::str(kKnobNames[k]);
  cls.attr("KNOBS") = knobs;
  cls.def_property("wheel", [](const RulesSpec& s) { return s.wheel; }, [](RulesSpec& s, Wheel w) { s.wheel = w; });
  cls.def_property(
      "suit_tiebreak",
      [](const RulesSpec& s) {
        return s.suit_by_card ? SuitTiebreak::by_card : (s.suit_tiebreak ? SuitTiebreak::highest_card : SuitTiebreak::off);
      },
      [](RulesSpec& s, SuitTiebreak value) {
        s.suit_tiebreak = value != SuitTiebreak::off;
        s.suit_by_card = value == SuitTiebreak::by_card;
      });
  cls.def_property("suit_order", &suit_order_text, &set_suit_order,
                   "The suits from highest to lowest: any order of the letters s, h, d, c (str).");
  flag_knob<MiddleVsBack>(cls, "middle_vs_back", &RulesSpec::strict_middle);
  int_knob(cls, "overall_unit", &RulesSpec::overall_unit, 0, kMaxUnits);
  flag_knob<OverallBasis>(cls, "overall_basis", &RulesSpec::overall_by_total);
  int_knob(cls, "scoop_bonus", &RulesSpec::scoop_bonus, 0, kMaxUnits);
  int_knob(cls, "scoop_multiplier", &RulesSpec::scoop_multiplier, 1, kMaxUnits);
  bool_knob(cls, "royalties_in_multiplier", &RulesSpec::royalties_in_multiplier);
  int_knob(cls, "home_run_multiplier", &RulesSpec::home_run_multiplier, 1, kMaxUnits);
  int_knob(cls, "home_run_min_opponents", &RulesSpec::home_run_min_opponents, 1, 3);
  cls.def_property("royalties", &royalty_entries, &set_royalties,
                   "The royalty table as (row index 0..2, RoyaltyCategory, units) entries.");
  flag_knob<RoyaltyMode>(cls, "royalty_mode", &RulesSpec::royalty_add);
  flag_knob<RoyaltyCondition>(cls, "royalty_condition", &RulesSpec::royalty_always);
  bool_knob(cls, "royalty_cancel", &RulesSpec::royalty_cancel);
  cls.def_property(
      "foul_policy",
      [](const RulesSpec& s) {
        return s.foul_as_laid ? FoulPolicy::as_laid : (s.foul_as_scooped ? FoulPolicy::as_scooped : FoulPolicy::lose_all_rows);
      },
      [](RulesSpec& s, FoulPolicy policy) {
        s.foul_as_scooped = policy == FoulPolicy::as_scooped;
        s.foul_as_laid = policy == FoulPolicy::as_laid;
      });
  bool_knob(cls, "foul_pays_royalties", &RulesSpec::foul_pays_royalties);
  cls.def_property("naturals", &natural_entries, &set_naturals,
                   "The naturals as (NaturalKind, units) entries, lowest kind first.");
  flag_knob<NaturalDeclaration>(cls, "natural_declaration", &RulesSpec::natural_auto);
  cls.def_property(
      "natural_tiebreak", [](const RulesSpec& s) { return s.natural_tiebreak; },
      [](RulesSpec& s, NaturalTiebreak t) { s.natural_tiebreak = t; });
  bool_knob(cls, "quads_as_two_pairs", &RulesSpec::quads_as_two_pairs);
  bool_knob(cls, "trips_as_pair_plus_single", &RulesSpec::trips_as_pair_plus_single);
  int_knob(cls, "surrender_units", &RulesSpec::surrender_units, 0, kMaxUnits);
  // naturals group (issue #10)
  bool_knob(cls, "three_straights_front_a23", &RulesSpec::three_straights_front_a23);
  bool_knob(cls, "three_straights_front_qka", &RulesSpec::three_straights_front_qka);
  bool_knob(cls, "three_straights_wheel", &RulesSpec::three_straights_wheel);
  bool_knob(cls, "three_flushes_distinct_suits", &RulesSpec::three_flushes_distinct_suits);
  bool_knob(cls, "quads_as_trips", &RulesSpec::quads_as_trips);
  // --- settlement group (issue #10) ---
  cls.def_property(
      "row_base",
      [](const RulesSpec& s) { return py::make_tuple(s.row_base[0], s.row_base[1], s.row_base[2]); },
      [](RulesSpec& s, const py::sequence& values) {
        if (py::isinstance<py::str>(values) || values.size() != 3) bad_knob("row_base", "must be three ints");
        std::array<std::int64_t, 3> base{};
        for (std::size_t row = 0; row < 3; ++row) base[row] = checked_int("row_base", values[row], 1, kMaxUnits);
        s.row_base = base;
      },
      "Units of a won row: (front, middle, back), each 1..1000.");
  int_knob(cls, "ace_units", &RulesSpec::ace_units, 0, kMaxUnits);
  int_knob(cls, "pair_cap", &RulesSpec::pair_cap, 0, kMaxUnits);
  int_knob(cls, "home_run_cap", &RulesSpec::home_run_cap, 0, kMaxUnits);
  int_knob(cls, "home_run_bonus", &RulesSpec::home_run_bonus, 0, kMaxUnits);
  bool_knob(cls, "home_run_counts_naturals", &RulesSpec::home_run_counts_naturals);
  cls.def_property(
      "natural_vs_natural", [](const RulesSpec& s) { return s.natural_vs_natural; },
      [](RulesSpec& s, NaturalVsNatural v) { s.natural_vs_natural = v; });
  bool_knob(cls, "natural_settles_table", &RulesSpec::natural_settles_table);
  flag_knob<NaturalUnitsMode>(cls, "natural_units_mode", &RulesSpec::natural_units_as_home_run);
  int_knob(cls, "false_declaration_units", &RulesSpec::false_declaration_units, 0, kMaxUnits);
  cls.def_property(
      "horse_card",
      [](const RulesSpec& s) -> py::object {
        if (s.horse_card < 0) return py::none();
        return py::int_(static_cast<int>(s.horse_card));
      },
      [](RulesSpec& s, const py::object& value) {
        s.horse_card = value.is_none() ? std::int8_t{-1}
                                       : static_cast<std::int8_t>(checked_int("horse_card", value, 0, kDeckSize - 1));
      },
      "The horse card's code 0..51, or None.");
  int_knob(cls, "horse_multiplier", &RulesSpec::horse_multiplier, 1, kMaxUnits);
  flag_knob<FoulVsFoul>(cls, "foul_vs_foul", &RulesSpec::foul_vs_foul_as_laid);
  // ---- ofc group ----
  cls.def_property("rank_royalties", &rank_royalty_entries, &set_rank_royalties,
                   "The rank-keyed royalties category@R as (row index 0..2, RoyaltyCategory, rank value 2..14,\n"
                   "units) entries (part of the royalties knob).");
  cls.def_property(
      "fantasyland", [](const RulesSpec& s) { return s.fantasyland; },
      [](RulesSpec& s, Fantasyland value) { s.fantasyland = value; });
  // ---- presets group ----
  flag_knob<AceBasis>(cls, "ace_basis", &RulesSpec::ace_basis_table);
  flag_knob<Shooting>(cls, "shooting", &RulesSpec::shooting_no_lost_row);
  flag_knob<HomeRunScope>(cls, "home_run_scope", &RulesSpec::home_run_scope_table);
  // ---- deck group (issue #15) ----
  cls.def_property(
      "extra_suits", [](const RulesSpec& s) { return suit_letters(s.extra_suits); },
      [](RulesSpec& s, const py::object& value) { s.extra_suits = static_cast<std::uint8_t>(suit_bits(value, "extra_suits")); },
      "The suits added to the pack once more, as letters in the order c d h s ('' for none, at most two).");
  // The jokers in the pack (0, 1 or 2; X1 and X2, codes 52 and 53), each standing for any card.
  int_knob(cls, "jokers", &RulesSpec::jokers, 0, kMaxJokers);
}

}  // namespace chinese_poker::bindings
