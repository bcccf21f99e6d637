#include "chinese_poker/rules.hpp"

#include "bits.hpp"

namespace chinese_poker {

namespace {

bool in_range(std::int64_t v, std::int64_t low, std::int64_t high) noexcept { return v >= low && v <= high; }

// The categories a three-card row can make (RULES.md 2.2): no straights, flushes or five-card groups.
bool front_can_hold(std::size_t category) noexcept {
  return category == kHighCard || category == kOnePair || category == kThreeOfAKind;
}

}  // namespace

const char* validate_rules(const RulesSpec& rules) noexcept {
  if (rules.wheel != Wheel::Low && rules.wheel != Wheel::Second) return "wheel";
  unsigned seen = 0;
  for (const std::uint8_t v : rules.suit_value) {
    if (v > 3) return "suit_value";
    seen |= 1u << v;
  }
  if (seen != 0xFu) return "suit_value";
  if (!in_range(rules.overall_unit, 0, kMaxUnits)) return "overall_unit";
  if (!in_range(rules.scoop_bonus, 0, kMaxUnits)) return "scoop_bonus";
  if (!in_range(rules.scoop_multiplier, 1, kMaxUnits)) return "scoop_multiplier";
  if (!in_range(rules.home_run_multiplier, 1, kMaxUnits)) return "home_run_multiplier";
  if (rules.home_run_min_opponents < 1 || rules.home_run_min_opponents > 3) return "home_run_min_opponents";
  for (std::size_t row = 0; row < 3; ++row) {
    for (std::size_t slot = 0; slot < static_cast<std::size_t>(kRoyaltySlots); ++slot) {
      const std::int64_t units = rules.royalty[row][slot];
      if (!in_range(units, 0, kMaxUnits)) return "royalty";
      if (row == 0 && units != 0 && !front_can_hold(slot)) return "royalty";
    }
  }
  if (rules.royal_listed[0]) return "royal_listed";
  for (std::size_t row = 1; row < 3; ++row) {
    // A royal flush amount is only read when listed: one given unlisted means the spec was built wrongly.
    if (!rules.royal_listed[row] && rules.royalty[row][kRoyalFlushSlot] != 0) return "royal_listed";
  }
  // [ofc group] The wheel straight flush slot works as the royal flush's.
  if (rules.wheel_sf_listed[0]) return "wheel_sf_listed";
  for (std::size_t row = 1; row < 3; ++row) {
    if (!rules.wheel_sf_listed[row] && rules.royalty[row][kWheelStraightFlushSlot] != 0) return "wheel_sf_listed";
  }
  if (rules.num_naturals < 0 || rules.num_naturals > kNumNaturalKinds) return "num_naturals";
  unsigned kinds = 0;
  for (std::size_t k = 0; k < static_cast<std::size_t>(rules.num_naturals); ++k) {
    const unsigned kind = static_cast<unsigned>(rules.natural_kind[k]);
    if (kind >= static_cast<unsigned>(kNumNaturalKinds) || (kinds >> kind & 1u) != 0) return "natural_kind";
    kinds |= 1u << kind;
  }
  for (std::size_t k = 0; k < static_cast<std::size_t>(rules.num_naturals); ++k) {
    if (!in_range(rules.natural_units[k], 1, kMaxUnits)) return "natural_units";
  }
  if (!in_range(rules.surrender_units, 0, kMaxUnits)) return "surrender_units";
  // naturals group (issue #10): the new bool fields need no check; the tie-break enum does.
  if (static_cast<unsigned>(rules.natural_tiebreak) > static_cast<unsigned>(NaturalTiebreak::kNone)) {
    return "natural_tiebreak";
  }
  // --- settlement group (issue #10) ---
  for (const std::int64_t base : rules.row_base) {
    if (!in_range(base, 1, kMaxUnits)) return "row_base";
  }
  if (!in_range(rules.ace_units, 0, kMaxUnits)) return "ace_units";
  if (rules.foul_as_laid && rules.foul_as_scooped) return "foul_as_laid";
  if (!in_range(rules.pair_cap, 0, kMaxUnits)) return "pair_cap";
  if (!in_range(rules.home_run_cap, 0, kMaxUnits)) return "home_run_cap";
  if (!in_range(rules.home_run_bonus, 0, kMaxUnits)) return "home_run_bonus";
  if (static_cast<unsigned>(rules.natural_vs_natural) > static_cast<unsigned>(NaturalVsNatural::kPush)) {
    return "natural_vs_natural";
  }
  if (!in_range(rules.false_declaration_units, 0, kMaxUnits)) return "false_declaration_units";
  if (rules.horse_card < -1 || rules.horse_card >= kDeckSize) return "horse_card";
  if (!in_range(rules.horse_multiplier, 1, kMaxUnits)) return "horse_multiplier";
  // ---- ofc group ----
  if (rules.suit_by_card && !rules.suit_tiebreak) return "suit_by_card";
  for (std::size_t row = 0; row < 3; ++row) {
    for (std::size_t cat = 0; cat < static_cast<std::size_t>(kRoyaltyCategories); ++cat) {
      const unsigned listed = rules.royalty_at_listed[row][cat];
      if ((listed & ~unsigned{royalty_ranks_allowed(static_cast<int>(row), static_cast<int>(cat))}) != 0) {
        return "royalty_at";
      }
      for (std::size_t k = 0; k < static_cast<std::size_t>(kRoyaltyRanks); ++k) {
        const std::int64_t units = rules.royalty_at[row][cat][k];
        // An unlisted entry is never read: a non-zero one means the spec was built wrongly.
        if (!in_range(units, 0, kMaxUnits) || (((listed >> k) & 1u) == 0 && units != 0)) return "royalty_at";
      }
    }
  }
  if (rules.fantasyland != Fantasyland::kOff && rules.fantasyland != Fantasyland::kStandard &&
      rules.fantasyland != Fantasyland::kProgressive) {
    return "fantasyland";
  }
  // ---- deck group (issue #15) ----
  if ((rules.extra_suits & ~0xFu) != 0 || detail::popcount32(rules.extra_suits) > 2) return "extra_suits";
  if (rules.jokers > kMaxJokers) return "jokers";
  return nullptr;
}

}  // namespace chinese_poker
