// RulesSpec as a Python class: one property per knob of Rules. The plain knobs' properties are made in one
// pass over the knob table (an enum-like knob takes and gives its value's name, a str); the compound knobs
// (royalty tables, natural lists, the suit order, row bases, the horse card, the pack's added suits) have
// hand-written ones. _core.knob_table() gives the table itself. Python fills one RulesSpec per Rules
// (chinese_poker.rules).
#include <pybind11/native_enum.h>

#include <string>
#include <string_view>
#include <vector>

#include "chinese_poker/naturals.hpp"
#include "chinese_poker/rules.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

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

[[noreturn]] void bad_knob(const char* knob, const std::string& problem) {
  throw py::value_error(std::string("RulesSpec.") + knob + ": " + problem);
}

// The '|'-separated values of an enum-like knob.
std::vector<std::string> split_values(const char* values) {
  std::vector<std::string> out;
  std::string_view rest(values);
  while (!rest.empty()) {
    const std::size_t bar = rest.find('|');
    out.emplace_back(rest.substr(0, bar));
    rest = bar == std::string_view::npos ? std::string_view() : rest.substr(bar + 1);
  }
  return out;
}

std::string quoted_values(const std::vector<std::string>& values) {
  std::string out;
  for (const std::string& v : values) out += (out.empty() ? "'" : ", '") + v + "'";
  return out;
}

// The index of `value` among `values`; TypeError (not a str) or ValueError (no such value) naming the knob.
std::size_t value_index(const char* name, const std::vector<std::string>& values, const py::object& value) {
  if (!py::isinstance<py::str>(value)) {
    throw py::type_error(std::string("RulesSpec.") + name + ": must be a str, one of " + quoted_values(values));
  }
  const auto text = py::cast<std::string>(value);
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (values[k] == text) return k;
  }
  bad_knob(name, "'" + text + "' is not one of " + quoted_values(values));
}

// An enum-like knob stored as a bool: the first value is false, the second true.
void flag_knob(py::class_<RulesSpec>& cls, const char* name, bool RulesSpec::*field, const char* values) {
  const std::vector<std::string> names = split_values(values);
  cls.def_property(
      name, [field, names](const RulesSpec& s) { return names[s.*field ? 1 : 0]; },
      [field, name, names](RulesSpec& s, const py::object& value) { s.*field = value_index(name, names, value) == 1; });
}

// An enum-like knob stored as an enum class whose members are the values in order.
template <class Enum>
void enum_knob(py::class_<RulesSpec>& cls, const char* name, Enum RulesSpec::*field, const char* values) {
  const std::vector<std::string> names = split_values(values);
  cls.def_property(
      name, [field, names](const RulesSpec& s) { return names[static_cast<std::size_t>(s.*field)]; },
      [field, name, names](RulesSpec& s, const py::object& value) {
        s.*field = static_cast<Enum>(value_index(name, names, value));
      });
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

// Rank-keyed royalties "category@R" as (row, RoyaltyCategory, rank value 2..14, units).
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

// suit_order as its text, highest suit first: any order of the letters s, h, d, c.
constexpr char kSuitLetters[] = "cdhs";  // by suit code

std::string suit_order_text(const RulesSpec& s) {
  std::string out(4, '?');
  for (std::size_t suit = 0; suit < 4; ++suit) out[3 - s.suit_value[suit]] = kSuitLetters[suit];
  return out;
}

void set_suit_order(RulesSpec& s, const py::object& value) {
  if (!py::isinstance<py::str>(value)) throw py::type_error("RulesSpec.suit_order: must be a str");
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

const char* kind_name(KnobKind kind) {
  switch (kind) {
    case KnobKind::kFlag: return "flag";
    case KnobKind::kEnum: return "enum";
    case KnobKind::kBool: return "bool";
    case KnobKind::kInt: return "int";
    case KnobKind::kTable: return "table";
  }
  return "?";
}

#define CP_ROW_FLAG(name, Type, member, dflt, low, high, values, group, section, text) \
  KnobRow{#name, KnobKind::kFlag, #member, nullptr, dflt, low, high, values, group, section, text},
#define CP_ROW_ENUM(name, Type, member, dflt, low, high, values, group, section, text) \
  KnobRow{#name, KnobKind::kEnum, #member, nullptr, dflt, low, high, values, group, section, text},
#define CP_ROW_BOOL(name, Type, member, dflt, low, high, values, group, section, text) \
  KnobRow{#name, KnobKind::kBool, #member, nullptr, (dflt) ? 1 : 0, 0, 1, values, group, section, text},
#define CP_ROW_INT(name, Type, member, dflt, low, high, values, group, section, text) \
  KnobRow{#name, KnobKind::kInt, #member, nullptr, dflt, low, high, values, group, section, text},
#define CP_ROW_TABLE(name, Type, member, dflt, low, high, values, group, section, text) \
  KnobRow{#name, KnobKind::kTable, #member, dflt, 0, low, high, values, group, section, text},
#define CP_ROW(kind, ...) CP_ROW_##kind(__VA_ARGS__)
constexpr KnobRow kKnobRows[] = {CP_KNOB_TABLE(CP_ROW)};
#undef CP_ROW
#undef CP_ROW_TABLE
#undef CP_ROW_INT
#undef CP_ROW_BOOL
#undef CP_ROW_ENUM
#undef CP_ROW_FLAG

// The knob table as Python data: one dict per knob, in the order of Rules' fields.
py::tuple knob_table() {
  const py::object loads = py::module_::import("json").attr("loads");
  py::tuple out(std::size(kKnobRows));
  for (std::size_t k = 0; k < std::size(kKnobRows); ++k) {
    const KnobRow& row = kKnobRows[k];
    const std::vector<std::string> names = split_values(row.values);
    py::tuple values(names.size());
    for (std::size_t v = 0; v < names.size(); ++v) values[v] = py::str(names[v]);
    py::object default_value;
    py::object low = py::none();
    py::object high = py::none();
    switch (row.kind) {
      case KnobKind::kFlag:
      case KnobKind::kEnum: default_value = values[static_cast<std::size_t>(row.default_value)]; break;
      case KnobKind::kBool: default_value = py::bool_(row.default_value != 0); break;
      case KnobKind::kInt:
        default_value = py::int_(row.default_value);
        low = py::int_(row.low);
        high = py::int_(row.high);
        break;
      case KnobKind::kTable:
        default_value = loads(row.default_text);
        if (row.low != 0 || row.high != 0) {
          low = py::int_(row.low);
          high = py::int_(row.high);
        }
        break;
    }
    py::dict record;
    record["name"] = row.name;
    record["kind"] = kind_name(row.kind);
    record["values"] = values;
    record["default"] = default_value;
    record["low"] = low;
    record["high"] = high;
    record["member"] = row.member;
    record["group"] = row.group;
    record["section"] = row.section;
    record["description"] = row.description;
    out[k] = record;
  }
  return out;
}

void check_rules(const RulesSpec& rules) {
  // Every setter checks its value, so this fails only for a spec the core's own check disagrees with.
  if (const char* field = validate_rules(rules)) {
    throw py::value_error(std::string("RulesSpec: the core rejects field '") + field + "'");
  }
}

void register_rules(py::module_& m) {
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
  py::tuple knobs(std::size(kKnobRows));
  for (std::size_t k = 0; k < std::size(kKnobRows); ++k) knobs[k] = py::str(kKnobRows[k].name);
  cls.attr("KNOBS") = knobs;
  m.def("knob_table", &knob_table,
        "Every rule knob, once, as data: a dict per knob (name, kind, values, default, low, high, member, group,\n"
        "section, description), in the order of Rules' fields.");

  // The plain knobs, one property each, from the knob table.
#define CP_BIND_FLAG(name, Type, member, dflt, low, high, values, ...) \
  flag_knob(cls, #name, &RulesSpec::member, values);
#define CP_BIND_ENUM(name, Type, member, dflt, low, high, values, ...) \
  enum_knob<Type>(cls, #name, &RulesSpec::member, values);
#define CP_BIND_BOOL(name, Type, member, ...) bool_knob(cls, #name, &RulesSpec::member);
#define CP_BIND_INT(name, Type, member, dflt, low, high, ...) int_knob<Type>(cls, #name, &RulesSpec::member, low, high);
#define CP_BIND_TABLE(...)
#define CP_BIND(kind, ...) CP_BIND_##kind(__VA_ARGS__)
  CP_KNOB_TABLE(CP_BIND)
#undef CP_BIND
#undef CP_BIND_TABLE
#undef CP_BIND_INT
#undef CP_BIND_BOOL
#undef CP_BIND_ENUM
#undef CP_BIND_FLAG

  // The compound knobs.
  cls.def_property("suit_order", &suit_order_text, &set_suit_order,
                   "The suits from highest to lowest: any order of the letters s, h, d, c (str).");
  cls.def_property("royalties", &royalty_entries, &set_royalties,
                   "The royalty table as (row index 0..2, RoyaltyCategory, units) entries.");
  cls.def_property("rank_royalties", &rank_royalty_entries, &set_rank_royalties,
                   "The rank-keyed royalties category@R as (row index 0..2, RoyaltyCategory, rank value 2..14,\n"
                   "units) entries (part of the royalties knob).");
  cls.def_property("naturals", &natural_entries, &set_naturals,
                   "The naturals as (NaturalKind, units) entries, lowest kind first.");
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
  cls.def_property(
      "extra_suits", [](const RulesSpec& s) { return suit_letters(s.extra_suits); },
      [](RulesSpec& s, const py::object& value) { s.extra_suits = static_cast<std::uint8_t>(suit_bits(value, "extra_suits")); },
      "The suits added to the pack once more, as letters in the order c d h s ('' for none, at most two).");
}

}  // namespace chinese_poker::bindings
