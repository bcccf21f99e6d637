// The strengths a pack's rows can have: derived by evaluating one representative row per rank multiset
// and suit pattern, so that they follow the evaluator (and its joker substitution) exactly.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "chinese_poker/cards.hpp"
#include "chinese_poker/evaluate.hpp"

namespace chinese_poker {

namespace {

// Calls f(ranks) for every nondecreasing sequence of `count` ranks (a rank multiset).
template <class F>
void for_each_multiset(int count, F&& f) {
  std::array<int, 5> rank{};
  auto next = [&](auto&& self, int k, int low) -> void {
    if (k == count) {
      f(rank);
      return;
    }
    for (int r = low; r < kNumRanks; ++r) {
      rank[static_cast<std::size_t>(k)] = r;
      self(self, k + 1, r);
    }
  };
  next(next, 0, 0);
}

// The card of the copy-th card (0-based) of a rank, spread over the suits: suits offset, offset + 1, ...
// first, then the added suits' second copies (the same codes again), lowest suit first. -1 when the pack
// holds no more of the rank.
int spread_card(int rank, int copy, int offset, unsigned pack) {
  if (copy < kNumSuits) return make_card(rank, (offset + copy) % kNumSuits);
  int extra = copy - kNumSuits;
  for (int suit = 0; suit < kNumSuits; ++suit) {
    if (((pack >> suit) & 1u) == 0) continue;
    if (extra-- == 0) return make_card(rank, suit);
  }
  return -1;
}

}  // namespace

std::vector<Strength> pack_strengths(int width, Wheel wheel, unsigned pack) {
  std::vector<Strength> out;
  if (width != 3 && width != 5) return out;
  const int most_jokers = std::min(pack_jokers(pack), kMaxJokers);
  for (int jokers = 0; jokers <= most_jokers; ++jokers) {
    const int count = width - jokers;
    for_each_multiset(count, [&](const std::array<int, 5>& rank) {
      std::uint8_t row[5] = {0, 0, 0, 0, 0};
      for (int k = count; k < width; ++k) row[k] = static_cast<std::uint8_t>(kJokerX1 + (k - count));
      // Spread: each rank's copies start at a suit of their own, so two ranks never share every suit.
      bool dealt = true;
      int distinct = -1;
      for (int k = 0, copy = 0; k < count; ++k) {
        const bool same = k > 0 && rank[static_cast<std::size_t>(k)] == rank[static_cast<std::size_t>(k - 1)];
        copy = same ? copy + 1 : 0;
        if (!same) ++distinct;
        const int card = spread_card(rank[static_cast<std::size_t>(k)], copy, distinct, pack);
        if (card < 0) dealt = false;
        row[k] = static_cast<std::uint8_t>(card < 0 ? 0 : card);
      }
      if (dealt && !check_cards_in_pack(row, width, 0, pack)) out.push_back(evaluate_with_jokers(row, width, wheel));
      if (width != 5) return;  // three cards: no flush
      // One suit: a card held twice is the same code twice (only an added suit's pack allows it).
      for (int suit = 0; suit < kNumSuits; ++suit) {
        for (int k = 0; k < count; ++k) {
          row[k] = static_cast<std::uint8_t>(make_card(rank[static_cast<std::size_t>(k)], suit));
        }
        if (!check_cards_in_pack(row, width, 0, pack)) out.push_back(evaluate_with_jokers(row, width, wheel));
      }
    });
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

// The union of pack_strengths over every pack the rules allow, for one width and wheel: that of the
// largest (two added suits, two jokers). Each row of another pack is, up to a relabelling of the suits
// (which changes no strength), a row of this one, and a row's strength does not depend on its pack.
std::vector<Strength> every_row_strength(int width, Wheel wheel) {
  return pack_strengths(width, wheel, make_pack(0x3u, kMaxJokers));
}

}  // namespace

const std::vector<Strength>& row_strengths(int width, Wheel wheel) {
  // Thread-safe static initialisation.
  static const std::array<std::array<std::vector<Strength>, 2>, 2> kAll = {{
      {{every_row_strength(3, Wheel::Low), every_row_strength(3, Wheel::Second)}},
      {{every_row_strength(5, Wheel::Low), every_row_strength(5, Wheel::Second)}},
  }};
  static const std::vector<Strength> kNone;
  if (width != 3 && width != 5) return kNone;
  return kAll[width == 5 ? 1 : 0][wheel == Wheel::Second ? 1 : 0];
}

bool is_row_strength(Strength s, int width, Wheel wheel) noexcept {
  if (width != 3 && width != 5) return false;
  try {
    const std::vector<Strength>& all = row_strengths(width, wheel);
    return std::binary_search(all.begin(), all.end(), s);
  } catch (...) {  // out of memory building the sets
    return false;
  }
}

}  // namespace chinese_poker
