// RulesSpec: every knob of RULES.md as plain values. Python converts a Rules object into one of these
// once per call; the core never sees a string.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "chinese_poker/evaluate.hpp"

namespace chinese_poker {

enum class NaturalKind : std::uint8_t {
  kSixPairs,
  kThreeStraights,
  kThreeFlushes,
  kDragon,
  kCleanDragon,
  kFivePairsAndTrips,
  kFourTrips,
  kAllOneColour,
  kAllSmall,
  kAllBig,
  kThreeQuads,
  kThreeStraightFlushes,
  kTwelveRoyals,
  // naturals group (issue #10): the kinds of real tables, appended so existing values stay.
  kFiveConsecutivePairs,
  kTwoTripsThreePairs,
  kOneRed,
  kOneBlack,
  kTwelveRoyalsTen,
};
constexpr int kNumNaturalKinds = 18;

// The natural_tiebreak knob: how two naturals of one kind compare (RULES.md section 5).
enum class NaturalTiebreak : std::uint8_t { kFull, kTopPairOnly, kNone };

// Index 9 of a royalty row is the royal flush, looked up before the straight flush when listed.
constexpr int kRoyalFlushSlot = 9;
constexpr int kRoyaltySlots = 10;

enum Row : int { kFront = 0, kMiddle = 1, kBack = 2 };

// How two naturals in one pair pay each other (RULES.md 11.1). Settlement group (issue #10).
enum class NaturalVsNatural : std::uint8_t { kByKind = 0, kByUnits = 1, kNet = 2, kPush = 3 };

struct RulesSpec {
  Wheel wheel = Wheel::Low;
  bool suit_tiebreak = false;
  // Rank of each suit (by suit code c, d, h, s) in the suit order; higher wins. "shdc" = {0, 1, 2, 3}.
  std::array<std::uint8_t, 4> suit_value = {0, 1, 2, 3};
  bool strict_middle = false;                // middle_vs_back == "strict"
  std::int64_t overall_unit = 0;
  bool overall_by_total = false;             // overall_basis == "total"
  std::int64_t scoop_bonus = 0;
  std::int64_t scoop_multiplier = 1;
  bool royalties_in_multiplier = false;
  std::int64_t home_run_multiplier = 1;
  int home_run_min_opponents = 3;
  std::array<std::array<std::int64_t, kRoyaltySlots>, 3> royalty{};  // [row][category or royal slot]
  std::array<bool, 3> royal_listed{};       // whether royal_flush is listed for the row
  bool royalty_add = false;                  // royalty_mode == "add"
  bool royalty_always = false;               // royalty_condition == "always"
  bool royalty_cancel = false;
  bool foul_as_scooped = false;              // foul_policy == "as_scooped"
  bool foul_pays_royalties = true;
  int num_naturals = 0;                      // naturals, lowest kind first
  std::array<NaturalKind, kNumNaturalKinds> natural_kind{};
  std::array<std::int64_t, kNumNaturalKinds> natural_units{};
  bool natural_auto = false;                 // natural_declaration == "auto"
  NaturalTiebreak natural_tiebreak = NaturalTiebreak::kFull;
  bool quads_as_two_pairs = true;
  bool trips_as_pair_plus_single = true;
  std::int64_t surrender_units = 0;
  // naturals group (issue #10): what counts as a natural (RULES.md section 10).
  bool three_straights_front_a23 = true;     // A-2-3 is a front straight for three straights
  bool three_straights_front_qka = true;     // Q-K-A likewise
  bool three_straights_wheel = true;         // A-2-3-4-5 is a middle/back straight for three straights
  bool three_flushes_distinct_suits = false; // three flushes (straight flushes) need three suits
  bool quads_as_trips = true;                // a four of a kind counts as trips (four_trips, ...)
  // --- settlement group (issue #10): how a pair is settled (RULES.md 11) ---
  std::array<std::int64_t, 3> row_base = {1, 1, 1};  // units of a won row: front, middle, back
  std::int64_t ace_units = 0;                // Chi A: ace_units x (aces_i - aces_j) per pair
  bool foul_as_laid = false;                 // foul_policy == "as_laid" (never with foul_as_scooped)
  std::int64_t pair_cap = 0;                 // 0 = off
  std::int64_t home_run_cap = 0;             // 0 = off
  std::int64_t home_run_bonus = 0;
  bool home_run_counts_naturals = false;
  NaturalVsNatural natural_vs_natural = NaturalVsNatural::kByKind;
  bool natural_settles_table = false;
  bool natural_units_as_home_run = false;    // natural_units_mode == "as_home_run"
  std::int64_t false_declaration_units = 0;  // 0 = a false declaration is an error
  std::int8_t horse_card = -1;               // card code 0..51, or -1 = none
  std::int64_t horse_multiplier = 2;
  bool foul_vs_foul_as_laid = false;         // foul_vs_foul == "as_laid": two fouled hands compare rows as laid
};

// Upper bound of every unit count and multiplier a RulesSpec may hold. With it (and kMaxStake) no
// settlement total comes near the range of int64.
constexpr std::int64_t kMaxUnits = 1000;

// nullptr when every field of `rules` is in range, else the name of the first bad field: "wheel",
// "suit_value" (not a permutation of 0..3), "overall_unit", "scoop_bonus", "scoop_multiplier",
// "home_run_multiplier", "home_run_min_opponents", "royalty" (an entry outside 0..kMaxUnits, or a front
// royalty at a category three cards cannot make), "royal_listed" (listed for the front, or a royal
// flush amount given without being listed), "num_naturals", "natural_kind" (unknown or repeated),
// "natural_units", "surrender_units", "natural_tiebreak", or of the settlement group: "row_base" (each
// 1..kMaxUnits), "ace_units", "foul_as_laid" (set together with foul_as_scooped), "pair_cap", "home_run_cap",
// "home_run_bonus", "natural_vs_natural", "false_declaration_units", "horse_card" (-1..51) or
// "horse_multiplier". Multipliers are 1..kMaxUnits, other amounts 0..kMaxUnits and
// listed naturals pay 1..kMaxUnits. Every core entry point taking a RulesSpec requires it to be valid.
[[nodiscard]] const char* validate_rules(const RulesSpec& rules) noexcept;

// The strength under `wheel` of a row whose strength under wheel "low" is `low_encoded`: only the wheel
// straight (flush) changes, its vector 5,4,3,2,1 becoming 14,5,4,3,2.
constexpr Strength encode_wheel(Strength low_encoded, Wheel wheel) noexcept {
  constexpr Strength kVectorMask = (Strength{1} << kCategoryShift) - 1;
  constexpr Strength kLowWheel = make_strength(0, 5, 4, 3, 2, 1);
  constexpr Strength kSecondWheel = make_strength(0, 14, 5, 4, 3, 2);
  if (wheel != Wheel::Second || (low_encoded & kVectorMask) != kLowWheel) return low_encoded;
  return (low_encoded & ~kVectorMask) | kSecondWheel;
}

// Royalty units of a row of strength `s` in row `row` (0..2) under the rules' table; the royal flush
// (ace-high straight flush) is looked up before the straight flush when listed for the row. A strength
// of no known category, or a row outside 0..2, earns nothing.
inline std::int64_t royalty_of(const RulesSpec& rules, int row, Strength s) noexcept {
  const int cat = category_of(s);
  if (row < 0 || row > 2 || cat > kStraightFlush) return 0;
  const auto& table = rules.royalty[static_cast<std::size_t>(row)];
  if (cat == kStraightFlush && vector_value(s, 0) == 14 && vector_value(s, 1) == 13 &&
      rules.royal_listed[static_cast<std::size_t>(row)]) {
    return table[kRoyalFlushSlot];
  }
  return table[static_cast<std::size_t>(cat)];
}

}  // namespace chinese_poker
