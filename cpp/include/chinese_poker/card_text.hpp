// Card text: "As Kd 10h 9c", "AsKd10h", commas or semicolons, any case, T or 10, the suit symbols.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace chinese_poker {

// Where a text stops being cards: the index of the card that could not be read and the byte range of
// the unread rest of its chunk (a chunk is the text between separators).
struct CardTextIssue {
  bool ok = true;
  int card_index = -1;
  std::size_t begin = 0;
  std::size_t end = 0;
};

// Parses one token ("As", "10h", "td", "T♥"), exactly, into a code 0..51; -1 when it is not a card.
[[nodiscard]] int parse_card_token(std::string_view utf8) noexcept;

// Parses UTF-8 `text` into card codes in order, writing at most `capacity` of them to `out` and their
// number (all of them, even past `capacity`) to `*count`. Separators are white space (ASCII, U+00A0 and
// the ideographic space U+3000), ',' and ';'; inside a chunk cards follow each other without spaces.
// Ranks 2-9, T or 10, J, Q, K, A in any case; suits c d h s in any case or ♣ ♦ ♥ ♠ (and ♧ ♢ ♡ ♤).
// Repeats are not checked here.
[[nodiscard]] CardTextIssue parse_card_text(std::string_view text, std::uint8_t* out, std::size_t capacity,
                                            std::size_t* count) noexcept;

}  // namespace chinese_poker
