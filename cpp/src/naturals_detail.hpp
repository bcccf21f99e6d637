// Internal to the core: natural detection on cards already known to be 13 distinct codes < 52, for the
// settlement loops, which validate a round once and must not pay for a second check per player.
#pragma once

#include <cstdint>

#include "chinese_poker/rules.hpp"

namespace chinese_poker::detail {

// As detect_natural and natural_key, without the check of the cards.
int detect_natural_valid(const std::uint8_t* cards13, const RulesSpec& rules) noexcept;

// The kinds the rules list, bit k for NaturalKind k: for a loop that detects naturals hand after hand.
std::uint32_t listed_kinds(const RulesSpec& rules) noexcept;

// detect_natural_valid with the rules' listed_kinds computed once by the caller.
int detect_natural_valid(const std::uint8_t* cards13, const RulesSpec& rules, std::uint32_t listed) noexcept;
std::uint64_t natural_key_valid(NaturalKind kind, const std::uint8_t* cards13, const RulesSpec& rules) noexcept;

// [jokers] 13 valid cards of the rules' pack holding one or two jokers (RULES.md 1.2): the highest listed
// natural over every substitution of the jokers (each any of the 52 cards), among those the best tie-break
// key (written to *key); out13 gets the hand with the jokers replaced by that substitution (greatest codes
// among equals). -1 when no substitution holds a listed natural (out13 is then the hand as held).
int detect_natural_jokers(const std::uint8_t* held13, const RulesSpec& rules, std::uint64_t* key,
                          std::uint8_t* out13) noexcept;

}  // namespace chinese_poker::detail
