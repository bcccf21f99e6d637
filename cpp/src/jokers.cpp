#include "jokers.hpp"

#include <algorithm>
#include <cstring>

#include "chinese_poker/cards.hpp"

namespace chinese_poker::detail {

namespace {

// Strength of five cards from the sum of their words (word5_with): the pack's evaluation, which reads a
// flush holding a repeated rank from its own table.
inline Strength five_from_word(const Tables& t, std::uint64_t word, unsigned wheel) noexcept {
  const std::uint32_t slot = slot_of_key(t, static_cast<std::uint32_t>(word));
  return (word & kFlushBits) != 0 ? t.pack_flush[wheel][slot] : t.plain[wheel][slot];
}

Strength best_five(const Tables& t, const std::uint8_t* row, unsigned wheel) noexcept {
  std::uint64_t base = 0;
  unsigned suits = 0;
  int jokers = 0;
  for (int k = 0; k < 5; ++k) {
    const unsigned c = row[k];
    if (is_joker(static_cast<int>(c))) {
      ++jokers;
    } else {
      base += t.card_word[c];
      suits |= 1u << card_suit(static_cast<int>(c));
    }
  }
  // Only ranks and "all five of one suit" decide a five-card strength. When the other cards share a suit,
  // a joker tries that suit (a flush) and one other (no flush); otherwise its suit cannot matter.
  int first_suit = 0;
  while (first_suit < 3 && suits != 0 && ((suits >> first_suit) & 1u) == 0) ++first_suit;
  const bool flush_possible = (suits & (suits - 1u)) == 0;
  std::uint64_t candidate[2 * kNumRanks];
  int n = 0;
  for (int r = 0; r < kNumRanks; ++r) {
    candidate[n++] = t.card_word[static_cast<std::size_t>(make_card(r, first_suit))];
    if (flush_possible) candidate[n++] = t.card_word[static_cast<std::size_t>(make_card(r, (first_suit + 1) & 3))];
  }
  Strength best = 0;
  if (jokers == 1) {
    for (int a = 0; a < n; ++a) best = std::max(best, five_from_word(t, base + candidate[a], wheel));
  } else {
    // The two jokers are interchangeable here: unordered pairs suffice.
    for (int a = 0; a < n; ++a) {
      const std::uint64_t with_a = base + candidate[a];
      for (int b = a; b < n; ++b) best = std::max(best, five_from_word(t, with_a + candidate[b], wheel));
    }
  }
  return best;
}

Strength best_three(const Tables& t, const std::uint8_t* row) noexcept {
  // The front table is indexed by the three ranks in their places (rank * 169 + rank * 13 + rank).
  constexpr int kPlace[3] = {169, 13, 1};
  std::size_t base = 0;
  int joker_place[2] = {0, 0};
  int jokers = 0;
  for (int k = 0; k < 3; ++k) {
    if (is_joker(row[k])) {
      joker_place[jokers++] = kPlace[k];
    } else {
      base += t.front_part[static_cast<std::size_t>(k)][row[k]];
    }
  }
  Strength best = 0;
  for (int a = 0; a < kNumRanks; ++a) {
    const std::size_t with_a = base + static_cast<std::size_t>(a * joker_place[0]);
    if (jokers == 1) {
      best = std::max(best, t.front[with_a]);
      continue;
    }
    for (int b = 0; b < kNumRanks; ++b) best = std::max(best, t.front[with_a + static_cast<std::size_t>(b * joker_place[1])]);
  }
  return best;
}

inline Strength plain_row(const Tables& t, const std::uint8_t* row, int width, unsigned wheel) noexcept {
  return width == 5 ? eval5_pack_with(t, row, wheel) : eval3_with(t, row);
}

}  // namespace

Strength best_joker_strength(const Tables& t, const std::uint8_t* row, int width, unsigned wheel) noexcept {
  return width == 5 ? best_five(t, row, wheel) : best_three(t, row);
}

Strength substitute_row(const Tables& t, const std::uint8_t* row, int width, const RulesSpec& rules,
                        SuitCompare compare, std::uint8_t* out) noexcept {
  const auto wheel = static_cast<unsigned>(rules.wheel);
  std::memcpy(out, row, static_cast<std::size_t>(width));
  // The jokers' places, X1's first (the order in which the reported codes are maximised).
  int place[2] = {-1, -1};
  int jokers = 0;
  for (int code = kJokerX1; code <= kJokerX2; ++code) {
    for (int k = 0; k < width; ++k) {
      if (row[k] == code) place[jokers++] = k;
    }
  }
  if (jokers == 0) return plain_row(t, row, width, wheel);
  const Strength best = best_joker_strength(t, row, width, wheel);
  // Every substitution, greatest codes first: the first one as strong as the best is the answer, unless
  // suits break ties, in which case the one winning the suit comparison (the earlier one among equals).
  std::uint8_t trial[5];
  std::memcpy(trial, row, static_cast<std::size_t>(width));
  bool found = false;
  const int last = jokers == 2 ? 0 : kDeckSize - 1;  // one joker: the inner loop runs once
  for (int a = kDeckSize - 1; a >= 0; --a) {
    trial[place[0]] = static_cast<std::uint8_t>(a);
    for (int b = kDeckSize - 1; b >= last; --b) {
      if (jokers == 2) trial[place[1]] = static_cast<std::uint8_t>(b);
      if (plain_row(t, trial, width, wheel) != best) continue;
      if (rules.suit_tiebreak == SuitTiebreak::kOff) {
        std::memcpy(out, trial, static_cast<std::size_t>(width));
        return best;
      }
      if (!found || compare(trial, out, width, best, rules) > 0) {
        std::memcpy(out, trial, static_cast<std::size_t>(width));
        found = true;
      }
    }
  }
  return best;
}

std::uint16_t class_of_strength(const Tables& t, Strength s, int width, unsigned wheel) noexcept {
  const std::vector<Strength>& all = width == 5 ? t.five_classes[wheel] : t.three_classes;
  const auto above = std::upper_bound(all.begin(), all.end(), s);
  return static_cast<std::uint16_t>(above == all.begin() ? 0 : (above - all.begin()) - 1);
}

}  // namespace chinese_poker::detail
