#include "chinese_poker/cards.hpp"

#include <cassert>

namespace chinese_poker {

namespace {

constexpr const char* kRankChars = "23456789TJQKA";
constexpr const char* kSuitChars = "cdhs";

}  // namespace

CardIssue check_cards(const std::uint8_t* cards, int count, std::int64_t item) noexcept {
  assert(count >= 0 && (count == 0 || cards != nullptr));
  CardIssue issue;
  int first_at[kDeckSize];
  for (int& at : first_at) at = -1;
  for (int k = 0; k < count; ++k) {
    const int c = cards[k];
    if (c >= kDeckSize) {
      issue.kind = CardIssueKind::kOutOfRange;
    } else if (first_at[c] >= 0) {
      issue.kind = CardIssueKind::kDuplicate;
      issue.first_position = first_at[c];
    } else {
      first_at[c] = k;
      continue;
    }
    issue.item = item;
    issue.position = k;
    issue.card = c;
    return issue;
  }
  return issue;
}

CardIssue check_cards_in_pack(const std::uint8_t* cards, int count, std::int64_t item,
                               unsigned pack) noexcept {
  if (pack == 0) return check_cards(cards, count, item);
  const unsigned extra_suits = pack & 0xFu;
  const int joker_end = kDeckSize + pack_jokers(pack);
  assert(count >= 0 && (count == 0 || cards != nullptr));
  CardIssue issue;
  int first_at[kDeckSize + kMaxJokers];
  int second_at[kDeckSize + kMaxJokers];
  for (int& at : first_at) at = -1;
  for (int& at : second_at) at = -1;
  for (int k = 0; k < count; ++k) {
    const int c = cards[k];
    if (c >= joker_end) {
      issue.kind = CardIssueKind::kOutOfRange;
    } else if (first_at[c] < 0) {
      first_at[c] = k;
      continue;
    } else if (c < kDeckSize && second_at[c] < 0 && copies_in_pack(c, extra_suits) == 2) {
      second_at[c] = k;
      continue;
    } else {
      issue.kind = CardIssueKind::kDuplicate;
      issue.first_position = first_at[c];
      issue.second_position = second_at[c];
    }
    issue.item = item;
    issue.position = k;
    issue.card = c;
    return issue;
  }
  return issue;
}

std::string format_card(int card) {
  if (is_joker(card)) return card == kJokerX1 ? "X1" : "X2";
  if (card < 0 || card >= kDeckSize) return "??";
  return std::string{kRankChars[card_rank(card)], kSuitChars[card_suit(card)]};
}

}  // namespace chinese_poker
