#include <string>

#include "chinese_poker/naturals.hpp"
#include "chinese_poker/rules.hpp"
#include "register.hpp"

namespace py = pybind11;

namespace chinese_poker::bindings {

namespace {

const char* const kCategoryKeys[kRoyaltySlots] = {"high_card", "one_pair", "two_pair", "three_of_a_kind",
                                                  "straight", "flush", "full_house", "four_of_a_kind",
                                                  "straight_flush", "royal_flush"};
const char* const kRowKeys[3] = {"front", "middle", "back"};

py::object knob(const py::dict& d, const char* name) {
  if (!d.contains(name)) throw py::value_error(std::string("resolved rules lack the knob '") + name + "'");
  return d[name];
}

bool is(const py::dict& d, const char* name, const char* value) { return py::cast<std::string>(knob(d, name)) == value; }

}  // namespace

RulesSpec rules_spec_from_dict(const py::dict& d) {
  RulesSpec s;
  s.wheel = is(d, "wheel", "second") ? Wheel::Second : Wheel::Low;
  s.suit_tiebreak = is(d, "suit_tiebreak", "highest_card");
  if (is(d, "suit_order", "shcd")) s.suit_value = {1, 0, 2, 3};
  s.strict_middle = is(d, "middle_vs_back", "strict");
  s.overall_unit = py::cast<std::int64_t>(knob(d, "overall_unit"));
  s.overall_by_total = is(d, "overall_basis", "total");
  s.scoop_bonus = py::cast<std::int64_t>(knob(d, "scoop_bonus"));
  s.scoop_multiplier = py::cast<std::int64_t>(knob(d, "scoop_multiplier"));
  s.royalties_in_multiplier = py::cast<bool>(knob(d, "royalties_in_multiplier"));
  s.home_run_multiplier = py::cast<std::int64_t>(knob(d, "home_run_multiplier"));
  s.home_run_min_opponents = py::cast<int>(knob(d, "home_run_min_opponents"));
  const py::dict table = py::cast<py::dict>(knob(d, "royalties"));
  for (int row = 0; row < 3; ++row) {
    if (!table.contains(kRowKeys[row])) continue;
    for (auto item : py::cast<py::dict>(table[kRowKeys[row]])) {
      const std::string key = py::cast<std::string>(item.first);
      int slot = -1;
      for (int k = 0; k < kRoyaltySlots; ++k) {
        if (key == kCategoryKeys[k]) slot = k;
      }
      if (slot < 0) throw py::value_error("royalties: unknown category '" + key + "'");
      s.royalty[row][slot] = py::cast<std::int64_t>(item.second);
      if (slot == kRoyalFlushSlot) s.royal_listed[row] = true;
    }
  }
  s.royalty_add = is(d, "royalty_mode", "add");
  s.royalty_always = is(d, "royalty_condition", "always");
  s.royalty_cancel = py::cast<bool>(knob(d, "royalty_cancel"));
  s.foul_as_scooped = is(d, "foul_policy", "as_scooped");
  s.foul_pays_royalties = py::cast<bool>(knob(d, "foul_pays_royalties"));
  const py::list naturals = py::cast<py::list>(knob(d, "naturals"));
  if (naturals.size() > static_cast<std::size_t>(kNumNaturalKinds)) throw py::value_error("naturals: too many kinds");
  for (std::size_t k = 0; k < naturals.size(); ++k) {
    const auto pair = py::cast<py::sequence>(naturals[k]);
    const std::string name = py::cast<std::string>(pair[0]);
    int kind = -1;
    for (int n = 0; n < kNumNaturalKinds; ++n) {
      if (name == natural_name(static_cast<NaturalKind>(n))) kind = n;
    }
    if (kind < 0) throw py::value_error("naturals: unknown natural '" + name + "'");
    s.natural_kind[k] = static_cast<NaturalKind>(kind);
    s.natural_units[k] = py::cast<std::int64_t>(pair[1]);
  }
  s.num_naturals = static_cast<int>(naturals.size());
  s.natural_auto = is(d, "natural_declaration", "auto");
  s.natural_top_pair_only = is(d, "natural_tiebreak", "top_pair_only");
  s.quads_as_two_pairs = py::cast<bool>(knob(d, "quads_as_two_pairs"));
  s.trips_as_pair_plus_single = py::cast<bool>(knob(d, "trips_as_pair_plus_single"));
  s.front_straight_ace = py::cast<bool>(knob(d, "front_straight_ace"));
  s.surrender_units = py::cast<std::int64_t>(knob(d, "surrender_units"));
  return s;
}

void register_rules(py::module_& m) {
  py::class_<RulesSpec>(m, "RulesSpec",
                        "Every knob as plain values, converted once from Rules.resolved(); opaque to Python.")
      .def(py::init(&rules_spec_from_dict), py::arg("resolved"));
}

}  // namespace chinese_poker::bindings
