#include "chinese_poker/evaluate.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "chinese_poker/cards.hpp"
#include "evaluate_tables.hpp"

namespace chinese_poker {

namespace detail {

namespace {

// Strength of a multiset of ranks (count[r] cards of rank r), by the definitions of RULES.md section 2.
Strength strength_of_counts(const std::array<int, kNumRanks>& count, bool flush, Wheel wheel) {
  std::vector<std::pair<int, int>> groups;  // (size, rank), biggest group first, then highest rank
  int total = 0;
  for (int r = kNumRanks - 1; r >= 0; --r) {
    if (count[r] > 0) groups.emplace_back(count[r], r);
    total += count[r];
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  int v[5] = {0, 0, 0, 0, 0};
  for (std::size_t k = 0; k < groups.size(); ++k) v[k] = groups[k].second + 2;

  if (total == 5 && groups.size() == 5) {
    const int high = groups.front().second;
    const int low = groups.back().second;
    const bool is_wheel = high == 12 && groups[1].second == 3 && low == 0;
    if (high - low == 4 || is_wheel) {
      const int category = flush ? kStraightFlush : kStraight;
      if (!is_wheel) return make_strength(category, high + 2, high + 1, high, high - 1, high - 2);
      if (wheel == Wheel::Low) return make_strength(category, 5, 4, 3, 2, 1);
      return make_strength(category, 14, 5, 4, 3, 2);
    }
    if (flush) return make_strength(kFlush, v[0], v[1], v[2], v[3], v[4]);
  }
  int category = kHighCard;
  const int top = groups.front().first;
  const int second = groups.size() > 1 ? groups[1].first : 0;
  if (top == 4) {
    category = kFourOfAKind;
  } else if (top == 3) {
    category = second == 2 ? kFullHouse : kThreeOfAKind;
  } else if (top == 2) {
    category = second == 2 ? kTwoPair : kOnePair;
  }
  return make_strength(category, v[0], v[1], v[2], v[3], v[4]);
}

}  // namespace

Tables::Tables() : multiset_of_sum(kMaxKeySum + 1, 0) {
  for (int c = 0; c < kDeckSize; ++c) {
    card_key[c] = kRankKey[card_rank(c)];
    card_bit[c] = static_cast<std::uint16_t>(1u << card_rank(c));
  }
  std::array<int, kNumRanks> count{};
  int next_index = 0;
  // Every multiset of five ranks with at most four of any rank.
  for (int a = 0; a < kNumRanks; ++a)
    for (int b = a; b < kNumRanks; ++b)
      for (int c = b; c < kNumRanks; ++c)
        for (int d = c; d < kNumRanks; ++d)
          for (int e = d; e < kNumRanks; ++e) {
            if (a == e) continue;  // five of a kind
            count.fill(0);
            for (int r : {a, b, c, d, e}) ++count[r];
            const std::uint32_t sum = kRankKey[a] + kRankKey[b] + kRankKey[c] + kRankKey[d] + kRankKey[e];
            multiset_of_sum[sum] = static_cast<std::uint16_t>(next_index);
            for (int w = 0; w < 2; ++w) {
              plain[w][next_index] = strength_of_counts(count, false, static_cast<Wheel>(w));
              if (a < b && b < c && c < d && d < e) {
                const unsigned mask = 1u << a | 1u << b | 1u << c | 1u << d | 1u << e;
                flush[w][mask] = strength_of_counts(count, true, static_cast<Wheel>(w));
              }
            }
            ++next_index;
          }
  for (int a = 0; a < kNumRanks; ++a)
    for (int b = 0; b < kNumRanks; ++b)
      for (int c = 0; c < kNumRanks; ++c) {
        count.fill(0);
        ++count[a];
        ++count[b];
        ++count[c];
        front[a * 169 + b * 13 + c] = strength_of_counts(count, false, Wheel::Low);
      }
  // Dense class indices.
  auto index_in = [](const std::vector<Strength>& sorted, Strength s) {
    return static_cast<std::uint16_t>(std::lower_bound(sorted.begin(), sorted.end(), s) - sorted.begin());
  };
  for (int w = 0; w < 2; ++w) {
    std::vector<Strength>& all = five_classes[w];
    all.assign(plain[w].begin(), plain[w].end());
    for (unsigned mask = 0; mask < 8192; ++mask) {
      if (__builtin_popcount(mask) == 5) all.push_back(flush[w][mask]);
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    for (int k = 0; k < kNumRankMultisets; ++k) plain_class[w][k] = index_in(all, plain[w][k]);
    for (unsigned mask = 0; mask < 8192; ++mask) {
      if (__builtin_popcount(mask) == 5) flush_class[w][mask] = index_in(all, flush[w][mask]);
    }
  }
  three_classes.assign(front.begin(), front.end());
  std::sort(three_classes.begin(), three_classes.end());
  three_classes.erase(std::unique(three_classes.begin(), three_classes.end()), three_classes.end());
  for (std::size_t k = 0; k < front.size(); ++k) front_class[k] = index_in(three_classes, front[k]);
}

const Tables& tables() {
  static const Tables instance;
  return instance;
}

namespace {
// Built when the library loads, so no caller ever pays for (or races on) the construction.
[[maybe_unused]] const Tables& g_tables_at_load = tables();
}  // namespace

}  // namespace detail

namespace {

using detail::Tables;
using detail::eval3_with;
using detail::eval5_with;
using detail::tables;

// Nonzero when some card is >= 52 or appears twice; cheap enough to run on every row of a batch.
inline std::uint64_t row_is_bad(const std::uint8_t* c, int width) noexcept {
  std::uint64_t bits = 0;
  unsigned high = 0;
  for (int k = 0; k < width; ++k) {
    bits |= std::uint64_t{1} << (c[k] & 63u);
    high |= c[k];
  }
  return static_cast<std::uint64_t>(__builtin_popcountll(bits) != width) | (bits >> kDeckSize) | (high & 0xC0u);
}

}  // namespace

Strength evaluate5(const std::uint8_t* cards, Wheel wheel) noexcept {
  return eval5_with(tables(), cards, static_cast<unsigned>(wheel));
}

Strength evaluate3(const std::uint8_t* cards) noexcept { return eval3_with(tables(), cards); }

CardIssue evaluate_batch(const std::uint8_t* cards, std::size_t rows, int width, Wheel wheel,
                        std::int32_t* out) noexcept {
  const Tables& t = tables();
  const unsigned w = static_cast<unsigned>(wheel);
  std::uint64_t bad = 0;
  if (width == 5) {
    for (std::size_t i = 0; i < rows; ++i) {
      const std::uint8_t* c = cards + 5 * i;
      bad |= row_is_bad(c, 5);
      out[i] = static_cast<std::int32_t>(eval5_with(t, c, w));
    }
  } else {
    for (std::size_t i = 0; i < rows; ++i) {
      const std::uint8_t* c = cards + 3 * i;
      bad |= row_is_bad(c, 3);
      // Masking keeps a bad code inside the table; the row is reported below and its value discarded.
      const std::uint8_t safe[3] = {static_cast<std::uint8_t>(c[0] % kDeckSize), static_cast<std::uint8_t>(c[1] % kDeckSize),
                                    static_cast<std::uint8_t>(c[2] % kDeckSize)};
      out[i] = static_cast<std::int32_t>(eval3_with(t, safe));
    }
  }
  if (bad != 0) {
    for (std::size_t i = 0; i < rows; ++i) {
      const CardIssue issue = check_cards(cards + width * i, width, static_cast<std::int64_t>(i));
      if (issue) return issue;
    }
  }
  return CardIssue{};
}

}  // namespace chinese_poker
