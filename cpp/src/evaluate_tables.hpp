// Internal to the core: the evaluator's lookup tables and its inline kernels, shared by evaluate.cpp and
// settle.cpp so that the settlement loops evaluate rows without a call per row.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "chinese_poker/cards.hpp"
#include "chinese_poker/evaluate.hpp"

namespace chinese_poker {
namespace detail {

// Per-rank keys chosen (greedily, smallest first) so that every multiset of five ranks with at most four
// of a kind has a distinct sum; the sum then indexes a table of the 6,175 rank multisets directly.
constexpr std::array<std::uint32_t, kNumRanks> kRankKey = {0,    1,     5,     22,    94,    312,  992,
                                                           2422, 5624, 12522, 19998, 43258, 79415};
// Five of one rank cannot be a valid row, but a bad row may hold it before it is reported: size for it.
constexpr std::uint32_t kMaxKeySum = 5 * 79415;
constexpr int kNumRankMultisets = 6175;

struct Tables {
  std::array<std::uint32_t, 256> card_key{};    // rank key by card code; codes >= 52 give 0
  std::array<std::uint16_t, 256> card_bit{};    // 1 << rank by card code; codes >= 52 give 0
  std::vector<std::uint16_t> multiset_of_sum;   // key sum -> rank multiset index
  std::array<std::array<Strength, kNumRankMultisets>, 2> plain{};  // [wheel][multiset], non-flush
  std::array<std::array<Strength, 8192>, 2> flush{};               // [wheel][rank mask], flushes
  std::array<Strength, 13 * 13 * 13> front{};                      // [r0*169 + r1*13 + r2]
  // Dense class indices, ascending with strength: 0..7461 for five cards (per wheel), 0..454 for three.
  // The arranger indexes its per-class value tables with them instead of searching for a strength.
  std::array<std::array<std::uint16_t, kNumRankMultisets>, 2> plain_class{};
  std::array<std::array<std::uint16_t, 8192>, 2> flush_class{};
  std::array<std::uint16_t, 13 * 13 * 13> front_class{};
  std::array<std::vector<Strength>, 2> five_classes;  // [wheel]: the 7,462 strengths, ascending
  std::vector<Strength> three_classes;                // the 455 front strengths, ascending

  Tables();
};

// Where five valid cards' strength and class sit in the tables: a flush by its 13-bit rank mask, anything
// else by its rank multiset (one add of five per-rank keys, then one lookup).
struct FiveCardKey {
  bool flush;
  unsigned index;
};

inline FiveCardKey key5_with(const Tables& t, const std::uint8_t* c) noexcept {
  const unsigned suits_differ = (c[0] ^ c[1]) | (c[0] ^ c[2]) | (c[0] ^ c[3]) | (c[0] ^ c[4]);
  if ((suits_differ & 3u) == 0) {
    return {true, static_cast<unsigned>(t.card_bit[c[0]] | t.card_bit[c[1]] | t.card_bit[c[2]] | t.card_bit[c[3]] |
                                        t.card_bit[c[4]])};
  }
  const std::uint32_t sum = t.card_key[c[0]] + t.card_key[c[1]] + t.card_key[c[2]] + t.card_key[c[3]] + t.card_key[c[4]];
  return {false, t.multiset_of_sum[sum]};
}

inline Strength eval5_with(const Tables& t, const std::uint8_t* c, unsigned wheel) noexcept {
  const FiveCardKey k = key5_with(t, c);
  return k.flush ? t.flush[wheel][k.index] : t.plain[wheel][k.index];
}

inline std::uint16_t class5_with(const Tables& t, const std::uint8_t* c, unsigned wheel) noexcept {
  const FiveCardKey k = key5_with(t, c);
  return k.flush ? t.flush_class[wheel][k.index] : t.plain_class[wheel][k.index];
}

inline std::size_t key3_with(const std::uint8_t* c) noexcept {
  return static_cast<std::size_t>((c[0] >> 2) * 169 + (c[1] >> 2) * 13 + (c[2] >> 2));
}

inline Strength eval3_with(const Tables& t, const std::uint8_t* c) noexcept { return t.front[key3_with(c)]; }

inline std::uint16_t class3_with(const Tables& t, const std::uint8_t* c) noexcept { return t.front_class[key3_with(c)]; }

// The tables, built once when the library loads (a function-local static: thread-safe).
const Tables& tables();

}  // namespace detail
}  // namespace chinese_poker
