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

// What is wrong with a group of cards (a batch row, a hand, a round), if anything: the one type every
// validating entry point reports.
enum class CardIssueKind : std::uint8_t { kNone = 0, kOutOfRange = 1, kDuplicate = 2 };

struct CardIssue {
  CardIssueKind kind = CardIssueKind::kNone;
  std::int64_t item = -1;   // which row, hand or round of a batch (as the caller numbered it)
  int position = -1;        // index of the offending card within the item (a round: player * 13 + index)
  int card = -1;            // its code
  int first_position = -1;  // kDuplicate: where the same card first appears within the item
  explicit operator bool() const noexcept { return kind != CardIssueKind::kNone; }
};

// Checks `count` cards (at most 64) for codes >= 52 and repeats; `item` is copied into the result.
[[nodiscard]] CardIssue check_cards(const std::uint8_t* cards, int count, std::int64_t item) noexcept;

// Canonical two-character text of a card, e.g. "As", "Td"; "??" for an out-of-range code.
std::string format_card(int card);

}  // namespace chinese_poker
