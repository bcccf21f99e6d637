// Card codes: a card is 4*rank + suit, rank 0 = deuce .. 12 = ace, suit 0..3 = clubs, diamonds,
// hearts, spades (the ids phevaluator uses, so arrays can be exchanged with it).
#pragma once

#include <cstdint>
#include <string>

namespace chinese_poker {

constexpr int kDeckSize = 52;
constexpr int kNumRanks = 13;
constexpr int kNumSuits = 4;

constexpr int card_rank(int card) noexcept { return card >> 2; }
constexpr int card_suit(int card) noexcept { return card & 3; }
constexpr int make_card(int rank, int suit) noexcept { return rank * 4 + suit; }

// Parses one token such as "As", "10h", "td" or "T♥"; returns -1 when it is not a card.
int parse_card(const std::string& token) noexcept;

// Canonical two-character text of a card, e.g. "As", "Td"; "??" for an out-of-range code.
std::string format_card(int card);

}  // namespace chinese_poker
