// Naturals: 13-card special hands (RULES.md section 5, docs/SETTLEMENT.md section 3).
#pragma once

#include <cstdint>

#include "chinese_poker/rules.hpp"

namespace chinese_poker {

// Whether the 13 cards hold `kind` under the rules' knobs.
bool holds_natural(NaturalKind kind, const std::uint8_t* cards13, const RulesSpec& rules) noexcept;

// The highest listed natural the 13 cards hold, as an index into rules.natural_kind, or -1.
int detect_natural(const std::uint8_t* cards13, const RulesSpec& rules) noexcept;

// Tie-break key between two naturals of the same kind: greater wins, equal ties. Only meaningful for
// cards that hold `kind`.
std::uint64_t natural_key(NaturalKind kind, const std::uint8_t* cards13, const RulesSpec& rules) noexcept;

const char* natural_name(NaturalKind kind) noexcept;

}  // namespace chinese_poker
