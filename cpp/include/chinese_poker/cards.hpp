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

// Jokers (RulesSpec::jokers, RULES.md 1.2): X1 is code 52, X2 code 53. A joker stands for any of the 52
// cards; no kernel of the 52-card path ever evaluates one (their rows go to the joker path).
constexpr int kJokerX1 = 52;
constexpr int kJokerX2 = 53;
constexpr int kMaxJokers = 2;
constexpr bool is_joker(int card) noexcept { return card == kJokerX1 || card == kJokerX2; }

// A pack as one word, what the card checks take: bits 0-3 the added suits (RulesSpec::extra_suits), bits
// 4-5 the number of jokers. 0 is one 52-card deck.
constexpr unsigned kPackJokerShift = 4;
constexpr unsigned make_pack(unsigned extra_suits, int jokers) noexcept {
  return (extra_suits & 0xFu) | static_cast<unsigned>(jokers) << kPackJokerShift;
}
constexpr int pack_jokers(unsigned pack) noexcept { return static_cast<int>((pack >> kPackJokerShift) & 3u); }

// What is wrong with a group of cards (a batch row, a hand, a round), if anything: the one type every
// validating entry point reports.
enum class CardIssueKind : std::uint8_t { kNone = 0, kOutOfRange = 1, kDuplicate = 2 };

struct CardIssue {
  CardIssueKind kind = CardIssueKind::kNone;
  std::int64_t item = -1;   // which row, hand or round of a batch (as the caller numbered it)
  int position = -1;        // index of the offending card within the item (a round: player * 13 + index)
  int card = -1;            // its code
  int first_position = -1;  // kDuplicate: where the same card first appears within the item
  // kDuplicate under a pack holding the card twice (extra_suits): where its second copy appears; the card
  // at `position` is then its third copy. -1 when the pack holds the card once.
  int second_position = -1;
  explicit operator bool() const noexcept { return kind != CardIssueKind::kNone; }
};

// Checks `count` cards (at most 64) for codes >= 52 and repeats; `item` is copied into the result.
[[nodiscard]] CardIssue check_cards(const std::uint8_t* cards, int count, std::int64_t item) noexcept;

// The same for a pack of one 52-card deck plus the 13 ranks of each suit in the pack's added suits (bit s
// for suit code s, RulesSpec::extra_suits) once more, and its jokers (make_pack): a card of such a suit
// may appear twice, a third copy is a kDuplicate naming the first two; a joker the pack holds (code 52,
// and 53 with two jokers) once, a joker it does not hold is kOutOfRange. `count` at most 6 x 13. With a
// pack of 0 this is check_cards.
[[nodiscard]] CardIssue check_cards_in_pack(const std::uint8_t* cards, int count, std::int64_t item,
                                            unsigned pack) noexcept;

// How many copies of `card` (0..51) a pack (make_pack, or bare extra_suits) holds: 1, or 2 for a card of
// an added suit.
constexpr int copies_in_pack(int card, unsigned pack) noexcept {
  return 1 + static_cast<int>((pack >> card_suit(card)) & 1u);
}

// Canonical two-character text of a card, e.g. "As", "Td", "X1" and "X2" for the jokers; "??" for an
// out-of-range code.
std::string format_card(int card);

}  // namespace chinese_poker
