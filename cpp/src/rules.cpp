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
  // The plain knobs, from the knob table: an INT within its range, an ENUM one of its values.
#define CP_CHECK_FLAG(...)
#define CP_CHECK_BOOL(...)
#define CP_CHECK_TABLE(...)
#define CP_CHECK_ENUM(name, Type, member, dflt, low, high, values, ...) \
  if (static_cast<unsigned>(rules.member) >= static_cast<unsigned>(knob_value_count(values))) return #member;
#define CP_CHECK_INT(name, Type, member, dflt, low, high, ...) \
  if (!in_range(static_cast<std::int64_t>(rules.member), low, high)) return #member;
#define CP_CHECK(kind, ...) CP_CHECK_##kind(__VA_ARGS__)
  CP_KNOB_TABLE(CP_CHECK)
#undef CP_CHECK
#undef CP_CHECK_INT
#undef CP_CHECK_ENUM
#undef CP_CHECK_TABLE
#undef CP_CHECK_BOOL
#undef CP_CHECK_FLAG

  // The compound knobs.
  unsigned seen = 0;
  for (const std::uint8_t v : rules.suit_value) {
    if (v > 3) return "suit_value";
    seen |= 1u << v;
  }
  if (seen != 0xFu) return "suit_value";
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
  // The wheel straight flush slot works as the royal flush's.
  if (rules.wheel_sf_listed[0]) return "wheel_sf_listed";
  for (std::size_t row = 1; row < 3; ++row) {
    if (!rules.wheel_sf_listed[row] && rules.royalty[row][kWheelStraightFlushSlot] != 0) return "wheel_sf_listed";
  }
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
  for (const std::int64_t base : rules.row_base) {
    if (!in_range(base, 1, kMaxUnits)) return "row_base";
  }
  if (rules.horse_card < -1 || rules.horse_card >= kDeckSize) return "horse_card";
  if ((rules.extra_suits & ~0xFu) != 0 || detail::popcount32(rules.extra_suits) > 2) return "extra_suits";
  return nullptr;
}

}  // namespace chinese_poker
