// Arranging 13 cards: every legal setting, and the strongest one (issue 5's baseline strategy).
#pragma once

#include <cstddef>
#include <cstdint>

#include "chinese_poker/rules.hpp"

namespace chinese_poker {

// Every way to split 13 cards into front 3, middle 5, back 5.
constexpr std::size_t kNumSplits = 72072;

struct Arrangement {
  std::uint8_t cards[13];   // front 3, middle 5, back 5
  Strength strength[3];     // front, middle, back
};

// Writes every legal (non-fouled) setting of the 13 cards into `out` (capacity kNumSplits) and returns
// how many. With `distinct_strengths`, settings whose three row strengths equal an earlier one's are left
// out; with `drop_dominated`, so is every setting that another legal one matches or beats in all three
// rows (one representative of each set of equal strengths is kept). Allocates nothing.
std::size_t legal_arrangements(const std::uint8_t* cards13, const RulesSpec& rules, bool distinct_strengths,
                               bool drop_dominated, Arrangement* out) noexcept;

// The legal setting with the strongest back, then middle, then front; false when none is legal (never
// for 13 distinct cards: the strongest back always leaves a legal setting).
bool strongest_arrangement(const std::uint8_t* cards13, const RulesSpec& rules, Arrangement* out) noexcept;

}  // namespace chinese_poker
