#include "chinese_poker/card_text.hpp"

#include "chinese_poker/cards.hpp"

namespace chinese_poker {

namespace {

int rank_at(std::string_view s, std::size_t pos, std::size_t* length) noexcept {
  if (pos + 1 < s.size() && s[pos] == '1' && s[pos + 1] == '0') {
    *length = 2;
    return 8;
  }
  if (pos >= s.size()) return -1;
  *length = 1;
  static constexpr char kRanks[] = "23456789TJQKA";
  char c = s[pos];
  if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  for (int r = 0; r < kNumRanks; ++r) {
    if (kRanks[r] == c) return r;
  }
  return -1;
}

int suit_at(std::string_view s, std::size_t pos, std::size_t* length) noexcept {
  if (pos >= s.size()) return -1;
  static constexpr char kSuits[] = "cdhs";
  char c = s[pos];
  if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  for (int k = 0; k < kNumSuits; ++k) {
    if (kSuits[k] == c) {
      *length = 1;
      return k;
    }
  }
  // U+2660..U+2667 are E2 99 A0..A7: black spade, white heart, white diamond, black club, white spade,
  // black heart, black diamond, white club.
  if (pos + 2 < s.size() && static_cast<unsigned char>(s[pos]) == 0xE2 && static_cast<unsigned char>(s[pos + 1]) == 0x99) {
    static constexpr int kSymbolSuit[8] = {3, 2, 1, 0, 3, 2, 1, 0};
    const unsigned third = static_cast<unsigned char>(s[pos + 2]);
    if (third >= 0xA0 && third <= 0xA7) {
      *length = 3;
      return kSymbolSuit[third - 0xA0];
    }
  }
  return -1;
}

// Length of the separator at `pos`, or 0.
std::size_t separator_at(std::string_view s, std::size_t pos) noexcept {
  const unsigned char c = static_cast<unsigned char>(s[pos]);
  if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == ',' || c == ';') return 1;
  if (c == 0xC2 && pos + 1 < s.size() && static_cast<unsigned char>(s[pos + 1]) == 0xA0) return 2;
  if (c == 0xE3 && pos + 2 < s.size() && static_cast<unsigned char>(s[pos + 1]) == 0x80 &&
      static_cast<unsigned char>(s[pos + 2]) == 0x80) {
    return 3;
  }
  return 0;
}

// 🃏 (U+1F0CF, F0 9F 83 8F) before it is resolved to X1 or X2.
constexpr int kAnyJoker = 255;

// The card at `pos`, and its length; -1 when none starts there.
int card_at(std::string_view s, std::size_t pos, std::size_t* length) noexcept {
  if (pos + 1 < s.size() && (s[pos] == 'X' || s[pos] == 'x') && (s[pos + 1] == '1' || s[pos + 1] == '2')) {
    *length = 2;
    return s[pos + 1] == '1' ? kJokerX1 : kJokerX2;
  }
  if (pos + 3 < s.size() && static_cast<unsigned char>(s[pos]) == 0xF0 &&
      static_cast<unsigned char>(s[pos + 1]) == 0x9F && static_cast<unsigned char>(s[pos + 2]) == 0x83 &&
      static_cast<unsigned char>(s[pos + 3]) == 0x8F) {
    *length = 4;
    return kAnyJoker;
  }
  std::size_t rank_length = 0, suit_length = 0;
  const int rank = rank_at(s, pos, &rank_length);
  if (rank < 0) return -1;
  const int suit = suit_at(s, pos + rank_length, &suit_length);
  if (suit < 0) return -1;
  *length = rank_length + suit_length;
  return make_card(rank, suit);
}

}  // namespace

int parse_card_token(std::string_view token) noexcept {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
  std::size_t begin = 0, end = token.size();
  while (begin < end && is_space(token[begin])) ++begin;
  while (end > begin && is_space(token[end - 1])) --end;
  std::size_t length = 0;
  int card = card_at(token, begin, &length);
  if (card == kAnyJoker) card = kJokerX1;
  return card >= 0 && begin + length == end ? card : -1;
}

CardTextIssue parse_card_text(std::string_view text, std::uint8_t* out, std::size_t capacity,
                              std::size_t* count) noexcept {
  std::size_t n = 0;
  std::size_t pos = 0;
  CardTextIssue issue;
  while (pos < text.size()) {
    const std::size_t sep = separator_at(text, pos);
    if (sep != 0) {
      pos += sep;
      continue;
    }
    std::size_t length = 0;
    const int card = card_at(text, pos, &length);
    if (card < 0) {
      std::size_t end = pos;
      while (end < text.size() && separator_at(text, end) == 0) ++end;
      issue.ok = false;
      issue.card_index = static_cast<int>(n);
      issue.begin = pos;
      issue.end = end;
      break;
    }
    if (n < capacity) out[n] = static_cast<std::uint8_t>(card);
    ++n;
    pos += length;
  }
  *count = n;
  // Each 🃏 takes the first joker the text does not name otherwise.
  const std::size_t stored = n < capacity ? n : capacity;
  bool taken[2] = {false, false};
  for (std::size_t k = 0; k < stored; ++k) {
    if (is_joker(out[k])) taken[out[k] - kJokerX1] = true;
  }
  for (std::size_t k = 0; k < stored; ++k) {
    if (out[k] != kAnyJoker) continue;
    const int free = !taken[0] ? 0 : 1;
    taken[free] = true;
    out[k] = static_cast<std::uint8_t>(kJokerX1 + free);
  }
  return issue;
}

}  // namespace chinese_poker
