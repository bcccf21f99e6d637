// Naturals: 13-card special hands (RULES.md section 5, RULES.md section 10).
#pragma once

#include <cstdint>

#include "chinese_poker/rules.hpp"

namespace chinese_poker {

// Each function here reads the 13 cards once, into a private copy, and checks the copy: cards that are
// not 13 codes < 52 of the rules' pack (each card once, a card of a suit in rules.extra_suits at most
// twice) hold no natural (false, -1, 0 and 0 below).

// Whether the 13 cards hold `kind` under the rules' knobs.
[[nodiscard]] bool holds_natural(NaturalKind kind, const std::uint8_t* cards13, const RulesSpec& rules) noexcept;

// The highest listed natural the 13 cards hold, as an index into rules.natural_kind, or -1.
[[nodiscard]] int detect_natural(const std::uint8_t* cards13, const RulesSpec& rules) noexcept;

// Every natural the 13 cards hold, listed by the rules or not: bit k is set when they hold NaturalKind k
// under the rules' knobs (quads_as_two_pairs, trips_as_pair_plus_single, quads_as_trips, the
// three_straights_* knobs and three_flushes_distinct_suits).
[[nodiscard]] std::uint32_t held_naturals(const std::uint8_t* cards13, const RulesSpec& rules) noexcept;

// Tie-break key between two naturals of the same kind: greater wins, equal ties (always 0 under
// natural_tiebreak "none"). Only meaningful for cards that hold `kind`.
[[nodiscard]] std::uint64_t natural_key(NaturalKind kind, const std::uint8_t* cards13, const RulesSpec& rules) noexcept;

const char* natural_name(NaturalKind kind) noexcept;

}  // namespace chinese_poker
