#include "chinese_poker/evaluate.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <vector>

#include "chinese_poker/cards.hpp"
#include "bits.hpp"
#include "evaluate_tables.hpp"
#include "jokers.hpp"
#include "parallel.hpp"

#ifdef CP_EVALUATE_SSE2
#include <emmintrin.h>
#endif

namespace chinese_poker {

namespace detail {

// ---------------------------------------------------------------------------------------------------
// Per-rank keys, generated at compile time.
//
// Key 0 (deuce) is 0, so a bad card code can carry it. Key r is the smallest k >= 2.5 * key[r-1] such that,
// over ranks 0..r, the multisets of each size m <= 5 (up to five of a rank) keep pairwise distinct sums.
// Every size is needed while extending: two colliding sets of m ranks would collide again after adding the
// same 5 - m cards of a higher rank. A multiset of size m with j copies of the new rank sums to j * k + t,
// t a sum of m - j lower ranks; it meets one with i < j copies exactly when the sums of m - i lower ranks
// contain t + (j - i) * k. Starting each search at 2.5 times the previous key, not just above it, skips
// the dense region where almost every candidate collides: the search takes some 26,000 probes instead of
// 5 million (the smallest keys under the same rule reach 94,545 instead of 248,103), cheap enough for any
// compiler's constant evaluator. Only the rows of the perfect hash grow with the keys (4,846 of them).

constexpr int kMaxRowCards = 5;
constexpr std::uint32_t kKeyBound = 1u << 17;  // the search sizes its bit sets for keys below this
// Not constexpr: reaching it while the keys are evaluated at compile time is a compile error.
inline void rank_key_search_out_of_bound() noexcept {}

constexpr std::array<std::uint32_t, kNumRanks> generate_rank_keys() {
  constexpr std::size_t kListCapacity = 1365;         // multisets of 4 among 12 ranks: C(15, 4)
  constexpr std::size_t kUnitWords = kKeyBound / 64;  // the sums of size m take m units of kKeyBound bits
  std::array<std::uint32_t, kNumRanks> key{};
  std::array<std::array<std::uint32_t, kListCapacity>, kMaxRowCards> list{};  // the sums of sizes 0..4
  std::array<std::size_t, kMaxRowCards> list_size{};
  std::array<std::uint64_t, 15 * kUnitWords> seen{};  // sums of size m from unit (m - 1) * m / 2
  list_size[0] = 1;                                    // the empty multiset, sum 0
  for (std::size_t r = 0; r < key.size(); ++r) {
    std::uint32_t k = 0;
    if (r > 0) {
      const std::uint32_t previous = key[r - 1];
      k = previous * 5 / 2 > previous ? previous * 5 / 2 : previous + 1;
      for (;; ++k) {
        bool fits = true;
        for (int m = kMaxRowCards; m >= 1 && fits; --m)
          for (int j = 1; j <= m && fits; ++j)
            for (int i = 0; i < j && fits; ++i) {
              const std::uint32_t largest = static_cast<std::uint32_t>(m - i) * previous;
              const std::size_t base = static_cast<std::size_t>((m - i - 1) * (m - i) / 2) * kUnitWords;
              const std::uint32_t step = static_cast<std::uint32_t>(j - i) * k;
              const std::size_t from = static_cast<std::size_t>(m - j);
              for (std::size_t x = 0; x < list_size[from]; ++x) {
                const std::uint32_t v = list[from][x] + step;
                if (v <= largest && (seen[base + v / 64] >> (v % 64) & 1u) != 0) {
                  fits = false;
                  break;
                }
              }
            }
        if (fits) break;
      }
    }
    key[r] = k;
    if (r + 1 == key.size()) break;  // the last rank's sums are never searched
    if (k >= kKeyBound) rank_key_search_out_of_bound();
    // Add the multisets holding j >= 1 copies of rank r, larger sizes first so each reads the old lists.
    for (int m = kMaxRowCards; m >= 1; --m)
      for (int j = 1; j <= m; ++j) {
        const std::size_t base = static_cast<std::size_t>((m - 1) * m / 2) * kUnitWords;
        const std::size_t from = static_cast<std::size_t>(m - j);
        for (std::size_t x = 0; x < list_size[from]; ++x) {
          const std::uint32_t v = list[from][x] + static_cast<std::uint32_t>(j) * k;
          seen[base + v / 64] |= std::uint64_t{1} << (v % 64);
          if (m < kMaxRowCards) list[static_cast<std::size_t>(m)][list_size[static_cast<std::size_t>(m)]++] = v;
        }
      }
  }
  return key;
}

constexpr std::array<std::uint32_t, kNumRanks> kRankKey = generate_rank_keys();
constexpr std::uint32_t kMaxFiveKey = 5 * kRankKey[kNumRanks - 1];  // five aces: a bad row can reach it

// Every multiset of five ranks, up to five of one rank (6,188 of them), has its own sum.
constexpr bool five_rank_sums_distinct(const std::array<std::uint32_t, kNumRanks>& key) {
  std::array<std::uint64_t, kMaxFiveKey / 64 + 1> seen{};
  int multisets = 0;
  for (std::size_t a = 0; a < key.size(); ++a)
    for (std::size_t b = a; b < key.size(); ++b)
      for (std::size_t c = b; c < key.size(); ++c)
        for (std::size_t d = c; d < key.size(); ++d)
          for (std::size_t e = d; e < key.size(); ++e) {
            const std::uint32_t sum = key[a] + key[b] + key[c] + key[d] + key[e];
            if (sum > kMaxFiveKey) return false;
            const std::uint64_t bit = std::uint64_t{1} << (sum % 64);
            if ((seen[sum / 64] & bit) != 0) return false;
            seen[sum / 64] |= bit;
            ++multisets;
          }
  return multisets == 6188;
}
static_assert(kRankKey[0] == 0, "a bad card code carries the deuce's key, which must add nothing");
static_assert(five_rank_sums_distinct(kRankKey), "every multiset of five ranks needs its own key sum");
static_assert(kMaxFiveKey < (std::uint64_t{1} << kSuitShift), "the key sum never carries into the suit counters");
static_assert((kMaxFiveKey >> kRowShift) + 1 == kNumRows, "kNumRows must cover every key sum");

namespace {

// Strength of a multiset of ranks (count[r] cards of rank r), by the definitions of RULES.md section 2.
Strength strength_of_counts(const std::array<int, kNumRanks>& count, bool flush, Wheel wheel) {
  std::array<std::pair<int, int>, 5> buffer{};  // (size, rank), biggest group first, then highest rank
  std::size_t num_groups = 0;
  int total = 0;
  for (std::size_t r = count.size(); r-- > 0;) {
    if (count[r] > 0) buffer[num_groups++] = {count[r], static_cast<int>(r)};
    total += count[r];
  }
  // Stable insertion sort by size, largest first (at most five groups; ranks stay descending within a size).
  for (std::size_t k = 1; k < num_groups; ++k) {
    for (std::size_t j = k; j > 0 && buffer[j - 1].first < buffer[j].first; --j) std::swap(buffer[j - 1], buffer[j]);
  }
  const std::pair<int, int>* groups = buffer.data();
  int v[5] = {0, 0, 0, 0, 0};
  for (std::size_t k = 0; k < num_groups; ++k) v[k] = groups[k].second + 2;

  if (total == 5 && num_groups == 5) {
    const int high = groups[0].second;
    const int low = groups[4].second;
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
  const int top = groups[0].first;
  const int second = num_groups > 1 ? groups[1].first : 0;
  // A flush with a card twice (a pack with added suits): its five ranks, high to low (RULES.md 2.1), a
  // pair or two pairs. Trips in one suit need a card three times, which only jokers make (RULES.md 1.2):
  // with two odd cards still a flush, above the trips; with a pair, the full house below.
  if (flush && total == 5 && (top == 2 || (top == 3 && second == 1))) {
    int ranks[5] = {0, 0, 0, 0, 0};
    int n = 0;
    for (std::size_t r = count.size(); r-- > 0;) {
      for (int k = 0; k < count[r]; ++k) ranks[n++] = static_cast<int>(r) + 2;
    }
    return make_strength(kFlush, ranks[0], ranks[1], ranks[2], ranks[3], ranks[4]);
  }
  if (top == 5) {
    category = kFiveOfAKind;
  } else if (top == 4) {
    category = kFourOfAKind;
  } else if (top == 3) {
    category = second == 2 ? kFullHouse : kThreeOfAKind;
  } else if (top == 2) {
    category = second == 2 ? kTwoPair : kOnePair;
  }
  return make_strength(category, v[0], v[1], v[2], v[3], v[4]);
}

// Calls f(count, key) for every multiset of five ranks, five of a kind included (count[r]: cards of rank r;
// key: the sum of their rank keys).
template <class F>
void for_each_five_ranks(F&& f) {
  std::array<int, kNumRanks> count{};
  for (std::size_t a = 0; a < count.size(); ++a)
    for (std::size_t b = a; b < count.size(); ++b)
      for (std::size_t c = b; c < count.size(); ++c)
        for (std::size_t d = c; d < count.size(); ++d)
          for (std::size_t e = d; e < count.size(); ++e) {
            count.fill(0);
            for (std::size_t r : {a, b, c, d, e}) ++count[r];
            f(static_cast<const std::array<int, kNumRanks>&>(count),
              kRankKey[a] + kRankKey[b] + kRankKey[c] + kRankKey[d] + kRankKey[e]);
          }
}

}  // namespace

Tables::Tables() {
  for (int c = 0; c < 256; ++c) {
    const std::size_t code = static_cast<std::size_t>(c);
    if (c < kDeckSize) {
      card_word[code] = kRankKey[static_cast<std::size_t>(card_rank(c))] |
                        kSuitStep << (kSuitShift + kSuitFieldBits * card_suit(c));
      card_bit[code] = std::uint64_t{1} << c;
      const int rank = card_rank(c);
      front_part[0][code] = static_cast<std::uint16_t>(rank * 169);
      front_part[1][code] = static_cast<std::uint16_t>(rank * 13);
      front_part[2][code] = static_cast<std::uint16_t>(rank);
    } else {
      card_word[code] = 0;  // the deuce's key and no suit: the row's key stays a five-rank sum
      card_bit[code] = std::uint64_t{1} << kBadCardBit;
    }
    card_pair[code] = CardPair{card_word[code], card_bit[code]};
  }

  // The key of every multiset of five ranks (five of a kind too: a bad row reaches it), grouped in rows:
  // row r's columns (key mod kRowSize) are column[first[r] .. first[r + 1]).
  constexpr std::size_t kRowSize = std::size_t{1} << kRowShift;
  std::vector<std::size_t> first(kNumRows + 1, 0);
  for_each_five_ranks([&](const std::array<int, kNumRanks>&, std::uint32_t key) { ++first[(key >> kRowShift) + 1]; });
  for (std::size_t r = 0; r < kNumRows; ++r) first[r + 1] += first[r];
  std::vector<std::uint32_t> column(first[kNumRows]);
  std::vector<std::size_t> filled(first.begin(), first.end() - 1);
  for_each_five_ranks([&](const std::array<int, kNumRanks>&, std::uint32_t key) {
    column[filled[key >> kRowShift]++] = key & static_cast<std::uint32_t>(kRowSize - 1);
  });
  auto row_size = [&](std::size_t r) { return first[r + 1] - first[r]; };
  std::vector<std::size_t> order(kNumRows);
  for (std::size_t r = 0; r < kNumRows; ++r) order[r] = r;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return row_size(x) > row_size(y); });
  // First fit, densest rows first: each row goes to the lowest place where none of its keys meets a taken
  // slot. The taken slots are a bit set, so 64 consecutive places are tried at once: for each key, the 64
  // taken bits from (place + key) on; a place fits where all of them are clear. No slot below first_free
  // is free, which bounds where the search starts.
  std::vector<std::uint64_t> taken((kSlotCapacity + kRowSize) / 64 + 2, 0);  // ends in free words
  auto taken_from = [&](std::size_t slot) {  // the taken bits of slots slot .. slot + 63
    const std::size_t word = slot / 64, bit = slot % 64;
    return bit == 0 ? taken[word] : (taken[word] >> bit | taken[word + 1] << (64 - bit));
  };
  std::size_t first_free = 0;
  for (std::size_t r : order) {
    if (row_size(r) == 0) continue;  // no key falls in this row, so its displacement is never read
    const std::uint32_t* cols = column.data() + first[r];
    const std::uint32_t* cols_end = column.data() + first[r + 1];
    const auto bounds = std::minmax_element(cols, cols_end);
    const std::uint32_t lowest = *bounds.first, highest = *bounds.second;
    std::size_t place = first_free > lowest ? first_free - lowest : 0;
    for (;; place += 64) {
      // Never with these keys (every build of the tables would stop here): the slots would not fit.
      if (place + highest >= kSlotCapacity) std::abort();
      std::uint64_t fits = ~std::uint64_t{0};
      for (const std::uint32_t* col = cols; col != cols_end; ++col) fits &= ~taken_from(place + *col);
      if (fits != 0) {
        place += static_cast<std::size_t>(popcount64((fits & (0 - fits)) - 1));  // the lowest place that fits
        break;
      }
    }
    if (place + highest >= kSlotCapacity) std::abort();
    for (const std::uint32_t* col = cols; col != cols_end; ++col) {
      taken[(place + *col) / 64] |= std::uint64_t{1} << ((place + *col) % 64);
    }
    num_slots = std::max(num_slots, place + highest + 1);
    while (first_free < kSlotCapacity && (taken[first_free / 64] >> (first_free % 64) & 1u) != 0) ++first_free;
    // Modulo 2^32, so that the kernel adds the whole key: r * kRowSize + col + offset = place + col.
    row_offset[r] = static_cast<std::uint32_t>(place - r * kRowSize);
  }

  // Strengths by slot. A flush needs five distinct ranks; its strength is kept here for the classes (the
  // kernels derive it from the plain one).
  std::vector<bool> used(kSlotCapacity, false);
  std::array<std::vector<Strength>, 2> flush_strength;
  for (std::vector<Strength>& f : flush_strength) f.assign(kSlotCapacity, 0);
  std::vector<bool> pack_only(kSlotCapacity, false);  // five of a kind: plain, but no 52-card class
  for_each_five_ranks([&](const std::array<int, kNumRanks>& count, std::uint32_t key) {
    const int most = *std::max_element(count.begin(), count.end());
    const std::uint32_t slot = slot_of_key(*this, key);
    for (std::size_t w = 0; w < 2; ++w) {
      plain[w][slot] = strength_of_counts(count, false, static_cast<Wheel>(w));
      if (most <= 3) pack_flush[w][slot] = strength_of_counts(count, true, static_cast<Wheel>(w));
      if (most == 1) flush_strength[w][slot] = pack_flush[w][slot];
    }
    // Five of a kind needs a card twice (a pack with added suits), and so does a bad row (codes >= 52
    // carry the deuce's key): its slot is no 52-card class.
    if (most == 5) {
      pack_only[slot] = true;
    } else {
      used[slot] = true;
    }
  });
  std::array<int, kNumRanks> count{};
  for (int a = 0; a < kNumRanks; ++a)
    for (int b = 0; b < kNumRanks; ++b)
      for (int c = 0; c < kNumRanks; ++c) {
        count.fill(0);
        ++count[static_cast<std::size_t>(a)];
        ++count[static_cast<std::size_t>(b)];
        ++count[static_cast<std::size_t>(c)];
        front[static_cast<std::size_t>(a * 169 + b * 13 + c)] = strength_of_counts(count, false, Wheel::Low);
      }
  // Dense class indices.
  auto index_in = [](const std::vector<Strength>& sorted, Strength s) {
    return static_cast<std::uint16_t>(std::lower_bound(sorted.begin(), sorted.end(), s) - sorted.begin());
  };
  for (std::size_t w = 0; w < 2; ++w) {
    std::vector<Strength>& all = five_classes[w];
    for (std::size_t slot = 0; slot < num_slots; ++slot) {
      if (used[slot]) all.push_back(plain[w][slot]);
      if (flush_strength[w][slot] != 0) all.push_back(flush_strength[w][slot]);
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    // The class of a strength only a pack with added suits holds: that of the strongest class below it.
    auto class_at_most = [&](Strength s) {
      const auto above = std::upper_bound(all.begin(), all.end(), s);
      return static_cast<std::uint16_t>(above == all.begin() ? 0 : (above - all.begin()) - 1);
    };
    for (std::size_t slot = 0; slot < num_slots; ++slot) {
      if (used[slot]) plain_class[w][slot] = index_in(all, plain[w][slot]);
      if (pack_only[slot]) plain_class[w][slot] = class_at_most(plain[w][slot]);
      if (flush_strength[w][slot] != 0) flush_class[w][slot] = index_in(all, flush_strength[w][slot]);
      if (pack_flush[w][slot] != 0) pack_flush_class[w][slot] = class_at_most(pack_flush[w][slot]);
    }
  }
  three_classes.assign(front.begin(), front.end());
  std::sort(three_classes.begin(), three_classes.end());
  three_classes.erase(std::unique(three_classes.begin(), three_classes.end()), three_classes.end());
  for (std::size_t k = 0; k < front.size(); ++k) front_class[k] = index_in(three_classes, front[k]);
}

std::size_t Tables::memory_bytes() const noexcept {
  return sizeof(card_word) + sizeof(card_bit) + sizeof(card_pair) + sizeof(row_offset) + sizeof(plain) +
         sizeof(plain_class) + sizeof(flush_class) + sizeof(pack_flush) + sizeof(pack_flush_class) + sizeof(front) + sizeof(front_class) + sizeof(front_part) +
         (five_classes[0].capacity() + five_classes[1].capacity() + three_classes.capacity()) * sizeof(Strength);
}

const Tables& tables() {
  static const Tables instance;
  return instance;
}

namespace {
// Built when the library loads, so no caller ever pays for (or races on) the construction.
[[maybe_unused]] const Tables& g_tables_at_load = tables();
}  // namespace

// One pass over rows [begin, end) of five cards. Each card is read once into a local; every byte value
// indexes the 256-entry card tables, and every sum of five card words is a sum of five rank keys, so no
// input (even one another thread changes meanwhile) can reach outside a table.
std::uint64_t evaluate_rows5_portable(const Tables& t, unsigned wheel, const std::uint8_t* cards, std::size_t begin,
                                      std::size_t end, std::int32_t* out) noexcept {
  const Strength* plain = t.plain[wheel].data();
  std::uint64_t repeats = 0, codes = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const std::uint8_t* row = cards + 5 * i;
    const unsigned c0 = row[0], c1 = row[1], c2 = row[2], c3 = row[3], c4 = row[4];
    const std::uint64_t word = t.card_word[c0] + t.card_word[c1] + t.card_word[c2] + t.card_word[c3] + t.card_word[c4];
    const std::uint64_t b0 = t.card_bit[c0], b1 = t.card_bit[c1], b2 = t.card_bit[c2], b3 = t.card_bit[c3],
                        b4 = t.card_bit[c4];
    // Distinct bits add up to their union; a repeated card carries into another bit. A code >= 52 shows
    // as bit 52 in the union (checked once per block).
    const std::uint64_t any = b0 | b1 | b2 | b3 | b4;
    repeats |= (b0 + b1 + b2 + b3 + b4) ^ any;
    codes |= any;
    const Strength s = plain[slot_of_key(t, static_cast<std::uint32_t>(word))];
    out[i] = static_cast<std::int32_t>((word & kFlushBits) != 0 ? flush_from_plain(s) : s);
  }
  return repeats | codes >> kBadCardBit;
}

#ifdef CP_EVALUATE_SSE2
// The same with each card's word and bit in the two halves of one vector: one load, one add and one OR per
// card serve both the key and the check. The check's value lives in the high half; the low half collects
// noise (the words' own union) and is dropped at the end.
std::uint64_t evaluate_rows5_sse2(const Tables& t, unsigned wheel, const std::uint8_t* cards, std::size_t begin,
                                  std::size_t end, std::int32_t* out) noexcept {
  const Strength* plain = t.plain[wheel].data();
  const __m128i* pair = reinterpret_cast<const __m128i*>(t.card_pair.data());
  __m128i repeats = _mm_setzero_si128(), codes = _mm_setzero_si128();
  for (std::size_t i = begin; i < end; ++i) {
    const std::uint8_t* row = cards + 5 * i;
    const unsigned c0 = row[0], c1 = row[1], c2 = row[2], c3 = row[3], c4 = row[4];
    const __m128i e0 = _mm_load_si128(pair + c0), e1 = _mm_load_si128(pair + c1), e2 = _mm_load_si128(pair + c2),
                  e3 = _mm_load_si128(pair + c3), e4 = _mm_load_si128(pair + c4);
    const __m128i sum = _mm_add_epi64(_mm_add_epi64(_mm_add_epi64(e0, e1), _mm_add_epi64(e2, e3)), e4);
    const __m128i any = _mm_or_si128(_mm_or_si128(_mm_or_si128(e0, e1), _mm_or_si128(e2, e3)), e4);
    repeats = _mm_or_si128(repeats, _mm_xor_si128(sum, any));
    codes = _mm_or_si128(codes, any);
    const std::uint64_t word = static_cast<std::uint64_t>(_mm_cvtsi128_si64(sum));
    const Strength s = plain[slot_of_key(t, static_cast<std::uint32_t>(word))];
    out[i] = static_cast<std::int32_t>((word & kFlushBits) != 0 ? flush_from_plain(s) : s);
  }
  const std::uint64_t bits_repeated = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(repeats, repeats)));
  const std::uint64_t bits_seen = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(codes, codes)));
  return bits_repeated | bits_seen >> kBadCardBit;
}
#endif

// Rows of three cards: no flushes or straights, so the strength is by the three ranks; the check is the
// five-card one on three bits.
std::uint64_t evaluate_rows3(const Tables& t, const std::uint8_t* cards, std::size_t begin, std::size_t end,
                             std::int32_t* out) noexcept {
  std::uint64_t repeats = 0, codes = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const std::uint8_t* row = cards + 3 * i;
    const unsigned c0 = row[0], c1 = row[1], c2 = row[2];
    const std::uint64_t b0 = t.card_bit[c0], b1 = t.card_bit[c1], b2 = t.card_bit[c2];
    const std::uint64_t any = b0 | b1 | b2;
    repeats |= (b0 + b1 + b2) ^ any;
    codes |= any;
    const std::size_t index =
        std::size_t{t.front_part[0][c0]} + std::size_t{t.front_part[1][c1]} + std::size_t{t.front_part[2][c2]};
    out[i] = static_cast<std::int32_t>(t.front[index]);
  }
  return repeats | codes >> kBadCardBit;
}

}  // namespace detail

namespace {

using detail::Tables;
using detail::eval3_with;
using detail::eval5_with;
using detail::tables;

// Rows per block of the batch: a block is evaluated in one pass; only a block that held a bad row is
// evaluated again, row by row, to name the first bad row exactly.
constexpr std::size_t kBlockRows = 256;

// The slow path for a block that held a bad row: each row is copied once, checked, and evaluated from the
// copy, so the row reported is the first bad one as read here.
// Under a pack with added suits (`extra_suits`, here the whole pack word of make_pack), a row holding a card
// twice lands here too: it is checked against the pack and evaluated by the pack's kernel; so does a row
// holding a joker the pack has, evaluated by its best substitution.
CardIssue evaluate_block_checked(const Tables& t, unsigned wheel, const std::uint8_t* cards, std::size_t begin,
                                 std::size_t end, int width, std::int32_t* out, unsigned extra_suits) noexcept {
  const std::size_t step = static_cast<std::size_t>(width);
  // The cards a second copy of which the pack holds (bit c for code c), for a row's quick test.
  std::uint64_t twice_ok = 0;
  for (int c = 0; c < kDeckSize; ++c) {
    if (copies_in_pack(c, extra_suits) == 2) twice_ok |= std::uint64_t{1} << c;
  }
  for (std::size_t i = begin; i < end; ++i) {
    std::uint8_t row[5];
    for (std::size_t k = 0; k < step; ++k) row[k] = cards[step * i + k];
    // Quick test of the pack's rule (codes < 52, a card twice only if the pack holds it twice, never three
    // times); only a row that fails it is scanned again to name the card.
    std::uint64_t once = 0, again = 0;
    bool bad = false;
    for (std::size_t k = 0; k < step; ++k) {
      const std::uint64_t bit = std::uint64_t{1} << (row[k] & 63u);
      bad = bad || row[k] >= kDeckSize || (again & bit) != 0 || ((once & bit) != 0 && (twice_ok & bit) == 0);
      again |= once & bit;
      once |= bit;
    }
    if (bad) {
      const CardIssue issue = check_cards_in_pack(row, width, static_cast<std::int64_t>(i), extra_suits);
      if (issue) return issue;
    }
    Strength s = 0;
    if (bad && pack_jokers(extra_suits) != 0 && detail::count_jokers(row, width) != 0) {
      s = detail::best_joker_strength(t, row, width, wheel);  // a valid row holding a joker (RULES.md 1.2)
    } else if (width != 5) {
      s = eval3_with(t, row);
    } else {
      s = extra_suits != 0 ? detail::eval5_pack_with(t, row, wheel) : eval5_with(t, row, wheel);
    }
    out[i] = static_cast<std::int32_t>(s);
  }
  return CardIssue{};
}

// Rows first..last-1, block by block: the first invalid row (`item`), or no issue.
CardIssue evaluate_range(const Tables& t, unsigned w, const std::uint8_t* cards, std::size_t first, std::size_t last,
                         int width, std::int32_t* out, unsigned extra_suits) noexcept {
  for (std::size_t begin = first; begin < last; begin += kBlockRows) {
    const std::size_t end = std::min(last, begin + kBlockRows);
#ifdef CP_EVALUATE_SSE2
    const std::uint64_t bad = width == 5 ? detail::evaluate_rows5_sse2(t, w, cards, begin, end, out)
                                         : detail::evaluate_rows3(t, cards, begin, end, out);
#else
    const std::uint64_t bad = width == 5 ? detail::evaluate_rows5_portable(t, w, cards, begin, end, out)
                                         : detail::evaluate_rows3(t, cards, begin, end, out);
#endif
    if (bad != 0) {
      const CardIssue issue = evaluate_block_checked(t, w, cards, begin, end, width, out, extra_suits);
      if (issue) return issue;
    }
  }
  return CardIssue{};
}

}  // namespace

Strength evaluate5(const std::uint8_t* cards, Wheel wheel) noexcept {
  return eval5_with(tables(), cards, static_cast<unsigned>(wheel));
}

Strength evaluate3(const std::uint8_t* cards) noexcept { return eval3_with(tables(), cards); }

Strength evaluate5_in_pack(const std::uint8_t* cards, Wheel wheel) noexcept {
  return detail::eval5_pack_with(tables(), cards, static_cast<unsigned>(wheel));
}

Strength evaluate_with_jokers(const std::uint8_t* cards, int width, Wheel wheel) noexcept {
  const Tables& t = tables();
  const auto w = static_cast<unsigned>(wheel);
  if (detail::count_jokers(cards, width) != 0) return detail::best_joker_strength(t, cards, width, w);
  return width == 5 ? detail::eval5_pack_with(t, cards, w) : eval3_with(t, cards);
}

CardIssue evaluate_batch(const std::uint8_t* cards, std::size_t rows, int width, Wheel wheel,
                         std::int32_t* out, const Parallel& parallel, unsigned extra_suits) noexcept {
  const Tables& t = tables();
  const unsigned w = static_cast<unsigned>(wheel);
  const auto evaluate_rows = [&](std::size_t first, std::size_t last, std::size_t* bad) noexcept {
    const CardIssue issue = evaluate_range(t, w, cards, first, last, width, out, extra_suits);
    if (issue) *bad = static_cast<std::size_t>(issue.item);
    return issue;
  };
  // Whole blocks, and a few hundred microseconds of work per chunk.
  constexpr std::size_t kRowsPerChunk = 64 * kBlockRows;
  return detail::for_each_chunk<CardIssue>(rows, parallel, kRowsPerChunk, evaluate_rows);
}

}  // namespace chinese_poker
