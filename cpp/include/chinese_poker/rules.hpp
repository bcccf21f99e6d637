// RulesSpec: every knob of RULES.md as plain values. Python converts a Rules object into one of these
// once per call; the core never sees a string.
#pragma once

#include <array>
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
};
constexpr int kNumNaturalKinds = 13;

// Index 9 of a royalty row is the royal flush, looked up before the straight flush when listed.
constexpr int kRoyalFlushSlot = 9;
constexpr int kRoyaltySlots = 10;

enum Row : int { kFront = 0, kMiddle = 1, kBack = 2 };

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
  bool natural_top_pair_only = false;        // natural_tiebreak == "top_pair_only"
  bool quads_as_two_pairs = true;
  bool trips_as_pair_plus_single = true;
  bool front_straight_ace = true;
  std::int64_t surrender_units = 0;
};

}  // namespace chinese_poker
