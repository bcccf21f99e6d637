#include "chinese_poker/cards.hpp"

#include <cassert>
#include <cctype>

namespace chinese_poker {

namespace {

constexpr const char* kRankChars = "23456789TJQKA";
constexpr const char* kSuitChars = "cdhs";

int rank_of_char(char c) noexcept {
  const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (int r = 0; r < kNumRanks; ++r) {
    if (kRankChars[r] == u) return r;
  }
  return -1;
}

// Suits as letters or as the UTF-8 symbols ♣ ♦ ♥ ♠ (and their white variants ♧ ♢ ♡ ♤).
int suit_of_text(const std::string& s) noexcept {
  if (s.size() == 1) {
    const char l = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
    for (int k = 0; k < kNumSuits; ++k) {
      if (kSuitChars[k] == l) return k;
    }
    return -1;
  }
  static const char* const kSymbols[8] = {"\xE2\x99\xA3", "\xE2\x99\xA6", "\xE2\x99\xA5", "\xE2\x99\xA0",
                                          "\xE2\x99\xA7", "\xE2\x99\xA2", "\xE2\x99\xA1", "\xE2\x99\xA4"};
  for (int k = 0; k < 8; ++k) {
    if (s == kSymbols[k]) return k % 4;
  }
  return -1;
}

}  // namespace

int parse_card(const std::string& token) noexcept {
  if (token.size() < 2) return -1;
  int rank;
  std::string suit_text;
  if (token.size() >= 3 && token[0] == '1' && token[1] == '0') {
    rank = 8;
    suit_text = token.substr(2);
  } else {
    rank = rank_of_char(token[0]);
    suit_text = token.substr(1);
  }
  if (rank < 0) return -1;
  const int suit = suit_of_text(suit_text);
  if (suit < 0) return -1;
  return make_card(rank, suit);
}

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

std::string format_card(int card) {
  if (card < 0 || card >= kDeckSize) return "??";
  return std::string{kRankChars[card_rank(card)], kSuitChars[card_suit(card)]};
}

}  // namespace chinese_poker
