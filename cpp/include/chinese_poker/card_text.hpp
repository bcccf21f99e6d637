// Card text: "As Kd 10h 9c", "AsKd10h", commas or semicolons, any case, T or 10, the suit symbols.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "chinese_poker/cards.hpp"

namespace chinese_poker {

// The rank (0..12) of a rank letter or digit 2-9, T, J, Q, K, A in any case, else -1; and the suit (0..3)
// of a suit letter c, d, h, s in any case, else -1, for every byte: the fast readers' two-letter cards.
// "10" and the suit symbols are left to parse_card_text.
struct CardLetters {
  std::int8_t rank[256];
  std::int8_t suit[256];
  constexpr CardLetters() : rank(), suit() {
    for (int k = 0; k < 256; ++k) rank[k] = suit[k] = -1;
    const char ranks[] = "23456789TJQKA";
    for (int r = 0; r < kNumRanks; ++r) {
      rank[static_cast<unsigned char>(ranks[r])] = static_cast<std::int8_t>(r);
      if (ranks[r] >= 'A') rank[static_cast<unsigned char>(ranks[r] - 'A' + 'a')] = static_cast<std::int8_t>(r);
    }
    const char suits[] = "cdhs";
    for (int k = 0; k < kNumSuits; ++k) {
      suit[static_cast<unsigned char>(suits[k])] = static_cast<std::int8_t>(k);
      suit[static_cast<unsigned char>(suits[k] - 'a' + 'A')] = static_cast<std::int8_t>(k);
    }
  }
};
inline constexpr CardLetters kCardLetters;

// Where a text stops being cards: the index of the card that could not be read and the byte range of
// the unread rest of its chunk (a chunk is the text between separators).
struct CardTextIssue {
  bool ok = true;
  int card_index = -1;
  std::size_t begin = 0;
  std::size_t end = 0;
};

// Parses one token ("As", "10h", "td", "T♥"), exactly, into a code 0..51; the jokers "X1" and "X2" (any
// case) into 52 and 53, and "🃏" into 52 (RULES.md 1.2); -1 when it is not a card.
[[nodiscard]] int parse_card_token(std::string_view utf8) noexcept;

// Parses UTF-8 `text` into card codes in order, writing at most `capacity` of them to `out` and their
// number (all of them, even past `capacity`) to `*count`. Separators are white space (ASCII, U+00A0 and
// the ideographic space U+3000), ',' and ';'; inside a chunk cards follow each other without spaces.
// Ranks 2-9, T or 10, J, Q, K, A in any case; suits c d h s in any case or ♣ ♦ ♥ ♠ (and ♧ ♢ ♡ ♤).
// The jokers are X1 and X2 (codes 52 and 53) and 🃏 (U+1F0CF): each 🃏 becomes the first joker not written
// out as X1 or X2 anywhere in the text and not taken by an earlier 🃏, X1 first (X2 when none is left).
// Repeats are not checked here.
[[nodiscard]] CardTextIssue parse_card_text(std::string_view text, std::uint8_t* out, std::size_t capacity,
                                            std::size_t* count) noexcept;

}  // namespace chinese_poker
