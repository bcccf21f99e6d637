// Internal to the core: the evaluator's lookup tables and its inline kernels, shared by evaluate.cpp and
// settle.cpp / arrange.cpp so that their loops evaluate rows without a call per row.
//
// Five cards: every card code (any byte, valid or not) has a 64-bit word; the five words are added. The low
// half of the sum is the rank key (a sum of per-rank keys that differs for every multiset of five ranks),
// the high half counts the suits. The rank key goes through a row-displacement perfect hash to a compact
// slot; the slot holds the strength of that rank multiset, and a flush (five of one suit, seen in the suit
// counters) turns it into the flush strength arithmetically. Every sum of five words is a sum of five rank
// keys (bad codes carry the deuce's key, 0), so every input, however wrong, lands on a slot of the table.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "chinese_poker/cards.hpp"
#include "chinese_poker/evaluate.hpp"

namespace chinese_poker {
namespace detail {

// The per-rank keys (kRankKey, generated at compile time with a check that every multiset of five ranks
// has its own sum) live in evaluate.cpp, the only file that needs them: the tables are built there.

// ---------------------------------------------------------------------------------------------------
// Card words. Bits 0-31: the rank key. Bits 32-59: four 7-bit suit counters; a card adds 13 to its suit's
// counter, so the counter's top bit (64) is set by five cards of that suit and by no fewer (4 * 13 = 52).
constexpr int kSuitShift = 32;
constexpr int kSuitFieldBits = 7;
constexpr std::uint64_t kSuitStep = 13;
constexpr std::uint64_t kSuitFlag = 0x40;
constexpr std::uint64_t kFlushBits =
    kSuitFlag << kSuitShift | kSuitFlag << (kSuitShift + kSuitFieldBits) |
    kSuitFlag << (kSuitShift + 2 * kSuitFieldBits) | kSuitFlag << (kSuitShift + 3 * kSuitFieldBits);
static_assert(4 * kSuitStep < kSuitFlag && 5 * kSuitStep >= kSuitFlag && 5 * kSuitStep < 2 * kSuitFlag,
              "a suit counter's flag is set by exactly five cards of the suit");
static_assert(kSuitShift + 4 * kSuitFieldBits <= 64, "the suit counters fit the word");
// A card's own bit, for the repeat check; a code >= 52 sets bit 52 instead (any number of them stays below
// bit 55), so a row is bad exactly when its bits' sum differs from their union or reaches bit 52.
constexpr int kBadCardBit = kDeckSize;

// Perfect hash of a five-card rank key: rows of 2^kRowShift consecutive keys, each row moved by its own
// displacement into a dense table: slot = key + row_offset[key >> kRowShift] (modulo 2^32: a row moved
// down has a negative displacement). The displacements are found when the tables are built (densest rows
// placed first, each at the first place where it hits no taken slot). The row size trades the
// displacement table against unused slots; 32-bit displacements cost 9.5 KiB more than 16-bit ones taken
// modulo 2^16 but save the kernel a truncation (about 4% of a batch).
constexpr int kRowShift = 8;
constexpr std::size_t kNumRows = 4846;        // (largest key sum >> kRowShift) + 1; checked in evaluate.cpp
constexpr std::size_t kSlotCapacity = 8192;  // slots; the builder checks that the 6,188 keys fit

// A card's word and bit side by side, so the vector kernel adds and ORs both with one 16-byte load.
struct alignas(16) CardPair {
  std::uint64_t word;
  std::uint64_t bit;
};

struct Tables {
  // By card code (any byte). The scalar kernels read 8-byte entries (a scaled index, no multiply), the
  // vector kernel the pairs.
  std::array<std::uint64_t, 256> card_word{};      // rank key and suit counter step (0 for codes >= 52)
  std::array<std::uint64_t, 256> card_bit{};       // 1 << code, or 1 << 52 for codes >= 52
  std::array<CardPair, 256> card_pair{};           // both side by side
  std::array<std::uint32_t, kNumRows> row_offset{};  // perfect-hash displacement per row of keys
  std::size_t num_slots = 0;                         // slots in use (the rest of the capacity is never read)
  // [wheel][slot]: strength of a non-flush hand with that rank multiset (five of a kind included).
  std::array<std::array<Strength, kSlotCapacity>, 2> plain{};
  // Dense class indices, ascending with strength: 0..7461 for five cards (per wheel), 0..454 for three.
  // The arranger indexes its per-class value tables with them instead of searching for a strength.
  std::array<std::array<std::uint16_t, kSlotCapacity>, 2> plain_class{};
  std::array<std::array<std::uint16_t, kSlotCapacity>, 2> flush_class{};  // [wheel][slot] of five distinct ranks
  // Packs with added suits (a card twice): [wheel][slot] the flush strength of any rank multiset a flush can
  // have there (five distinct ranks, or a pair or two pairs among them; 0 for the others), and its class:
  // the 52-card class of the strongest 52-card strength not above it, which is what the expected model of
  // a 52-card field knows. A five of a kind is plain (plain[w][slot]) and takes the top class likewise.
  std::array<std::array<Strength, kSlotCapacity>, 2> pack_flush{};
  std::array<std::array<std::uint16_t, kSlotCapacity>, 2> pack_flush_class{};
  std::array<Strength, 13 * 13 * 13> front{};                             // [r0*169 + r1*13 + r2]
  std::array<std::uint16_t, 13 * 13 * 13> front_class{};
  // [k][code]: card k's share of the front index, rank * 169, rank * 13 or rank (0 for codes >= 52), so the
  // index is three loads and two adds, and stays inside the table for any byte.
  std::array<std::array<std::uint16_t, 256>, 3> front_part{};
  std::array<std::vector<Strength>, 2> five_classes;  // [wheel]: the 7,462 strengths, ascending
  std::vector<Strength> three_classes;                // the 455 front strengths, ascending

  Tables();
  // Bytes held by all the tables above (per process; the kernels use no scratch beyond a few registers).
  std::size_t memory_bytes() const noexcept;
};

// The flush of five distinct ranks has the tie-break vector of the plain hand with those ranks, which is a
// high card (category 0) or a straight (category 4): the flush is 5 categories higher, the straight flush 4.
constexpr Strength flush_from_plain(Strength plain) noexcept {
  return plain + ((5u - (plain >> (kCategoryShift + 2))) << kCategoryShift);
}
static_assert(flush_from_plain(make_strength(kHighCard, 9, 7, 5, 4, 2)) == make_strength(kFlush, 9, 7, 5, 4, 2), "");
static_assert(flush_from_plain(make_strength(kStraight, 14, 13, 12, 11, 10)) ==
                  make_strength(kStraightFlush, 14, 13, 12, 11, 10), "");

inline std::uint32_t slot_of_key(const Tables& t, std::uint32_t key) noexcept {
  return key + t.row_offset[key >> kRowShift];
}

// Sum of five card words: rank key in the low half, suit counters above.
inline std::uint64_t word5_with(const Tables& t, const std::uint8_t* c) noexcept {
  return t.card_word[c[0]] + t.card_word[c[1]] + t.card_word[c[2]] + t.card_word[c[3]] + t.card_word[c[4]];
}

// Where five valid cards' strength and class sit in the tables: the slot of their rank multiset, and
// whether they are a flush. Any bytes stay inside the tables; only valid cards give meaningful values.
struct FiveCardKey {
  bool flush;
  unsigned index;
};

inline FiveCardKey key5_with(const Tables& t, const std::uint8_t* c) noexcept {
  const std::uint64_t w = word5_with(t, c);
  return {(w & kFlushBits) != 0, slot_of_key(t, static_cast<std::uint32_t>(w))};
}

inline Strength eval5_with(const Tables& t, const std::uint8_t* c, unsigned wheel) noexcept {
  const FiveCardKey k = key5_with(t, c);
  const Strength plain = t.plain[wheel][k.index];
  return k.flush ? flush_from_plain(plain) : plain;
}

inline std::uint16_t class5_with(const Tables& t, const std::uint8_t* c, unsigned wheel) noexcept {
  const FiveCardKey k = key5_with(t, c);
  return k.flush ? t.flush_class[wheel][k.index] : t.plain_class[wheel][k.index];
}

// The pack versions (a card may appear twice): only the flush differs, read from its own table, since a
// flush holding a pair has no arithmetic relation to the plain pair.
inline Strength eval5_pack_with(const Tables& t, const std::uint8_t* c, unsigned wheel) noexcept {
  const FiveCardKey k = key5_with(t, c);
  return k.flush ? t.pack_flush[wheel][k.index] : t.plain[wheel][k.index];
}

inline std::uint16_t class5_pack_with(const Tables& t, const std::uint8_t* c, unsigned wheel) noexcept {
  const FiveCardKey k = key5_with(t, c);
  return k.flush ? t.pack_flush_class[wheel][k.index] : t.plain_class[wheel][k.index];
}

inline std::size_t key3_with(const Tables& t, const std::uint8_t* c) noexcept {
  return std::size_t{t.front_part[0][c[0]]} + std::size_t{t.front_part[1][c[1]]} + std::size_t{t.front_part[2][c[2]]};
}

inline Strength eval3_with(const Tables& t, const std::uint8_t* c) noexcept { return t.front[key3_with(t, c)]; }

inline std::uint16_t class3_with(const Tables& t, const std::uint8_t* c) noexcept {
  return t.front_class[key3_with(t, c)];
}

// The tables, built once when the library loads (a function-local static: thread-safe).
const Tables& tables();

// The validating kernels of evaluate_batch (declared here for the benchmark). Each evaluates rows
// [begin, end) of five (three) cards into out and returns nonzero when some row had a code >= 52 or a card
// twice; the values of such a block are then discarded and the block is evaluated again, row by row.
std::uint64_t evaluate_rows5_portable(const Tables& t, unsigned wheel, const std::uint8_t* cards, std::size_t begin,
                                      std::size_t end, std::int32_t* out) noexcept;
// On x86-64 (which always has SSE2) a kernel that handles each card's word and bit in one vector register.
#if defined(__x86_64__) || defined(_M_X64)
#define CP_EVALUATE_SSE2 1
std::uint64_t evaluate_rows5_sse2(const Tables& t, unsigned wheel, const std::uint8_t* cards, std::size_t begin,
                                  std::size_t end, std::int32_t* out) noexcept;
#endif
std::uint64_t evaluate_rows3(const Tables& t, const std::uint8_t* cards, std::size_t begin, std::size_t end,
                             std::int32_t* out) noexcept;

}  // namespace detail
}  // namespace chinese_poker
