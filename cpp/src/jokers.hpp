// Internal to the core: rows holding jokers (RULES.md 1.2). A joker (code 52 or 53) stands for any of the
// 52 cards, a copy of a card already held included; a row is worth its strongest substitution. These are
// the only functions that evaluate a joker: the 52-card kernels never see one (a joker is a code >= 52,
// which sends its block to the checked path), so that path stays as it was.
#pragma once

#include <cstdint>

#include "chinese_poker/evaluate.hpp"
#include "chinese_poker/rules.hpp"
#include "evaluate_tables.hpp"

namespace chinese_poker::detail {

// Number of jokers among `n` codes.
inline int count_jokers(const std::uint8_t* cards, int n) noexcept {
  int jokers = 0;
  for (int k = 0; k < n; ++k) jokers += is_joker(cards[k]) ? 1 : 0;
  return jokers;
}

// The strongest strength of a row of `width` (3 or 5) cards holding one or two jokers, the other cards
// codes < 52 (a card may repeat). Allocation-free: it tries only the cards that can change the value, the
// 13 ranks, each in the suit of the row's other cards when they share one (a flush) and in one other suit.
Strength best_joker_strength(const Tables& t, const std::uint8_t* row, int width, unsigned wheel) noexcept;

// How two substituted rows of equal strength compare by suits (+1 when the first wins): settle.cpp's
// suit tie-break, passed in so that the joker code does not repeat it.
using SuitCompare = int (*)(const std::uint8_t* a, const std::uint8_t* b, int n, Strength s,
                            const RulesSpec& rules) noexcept;

// The substitution RULES.md 1.2 reports: writes into `out` the row with each joker replaced by its card
// and returns the row's strength (best_joker_strength's). Among equally strong substitutions, the one that
// wins `compare` under rules.suit_tiebreak, then the greatest codes (X1's, then X2's). A row without a
// joker is copied as it is and evaluated plainly.
Strength substitute_row(const Tables& t, const std::uint8_t* row, int width, const RulesSpec& rules,
                        SuitCompare compare, std::uint8_t* out) noexcept;

// The strength class of a strength a joker row reaches (for the arranger's per-class tables): that of the
// strongest 52-card class not above it, as for a five of a kind of a pack with added suits.
std::uint16_t class_of_strength(const Tables& t, Strength s, int width, unsigned wheel) noexcept;

}  // namespace chinese_poker::detail
