// Hand strength for 3- and 5-card rows on one integer scale.
//
// strength = category << 20 | v1 << 16 | v2 << 12 | v3 << 8 | v4 << 4 | v5, where v1..v5 is the
// tie-break vector of RULES.md section 2 with ranks valued 2 (deuce) .. 14 (ace), padded with zeros.
// Straights carry their five ranks descending; the wheel is [5,4,3,2,1] under the "low" rule and
// [14,5,4,3,2] under the "second" rule (below T-J-Q-K-A, above 9-T-J-Q-K). Zero padding makes a front
// worth less than every five-card hand that starts with the same cards, which is the foul rule of 2.5.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "chinese_poker/cards.hpp"
#include "chinese_poker/parallel.hpp"

namespace chinese_poker {

using Strength = std::uint32_t;

enum class Wheel : std::uint8_t { Low = 0, Second = 1 };

enum Category : int {
  kHighCard = 0,
  kOnePair = 1,
  kTwoPair = 2,
  kThreeOfAKind = 3,
  kStraight = 4,
  kFlush = 5,
  kFullHouse = 6,
  kFourOfAKind = 7,
  kStraightFlush = 8,
  // Five cards of one rank: only a pack with a card twice (extra_suits) holds one; above the straight flush.
  kFiveOfAKind = 9,
};

constexpr int kCategoryShift = 20;
constexpr int category_of(Strength s) noexcept { return static_cast<int>(s >> kCategoryShift); }
// Value (2..14, or 0 for padding) of position k (0..4) of the tie-break vector.
constexpr int vector_value(Strength s, int k) noexcept { return static_cast<int>((s >> (16 - 4 * k)) & 15u); }

// Strength from a tie-break vector; used to build the tables and by tests.
constexpr Strength make_strength(int category, int v1, int v2 = 0, int v3 = 0, int v4 = 0, int v5 = 0) noexcept {
  return static_cast<Strength>(category) << kCategoryShift | static_cast<Strength>(v1) << 16 |
         static_cast<Strength>(v2) << 12 | static_cast<Strength>(v3) << 8 | static_cast<Strength>(v4) << 4 |
         static_cast<Strength>(v5);
}

// Evaluates valid cards (codes < 52, distinct); no checks here, the batch entry point validates. Other
// bytes still read only inside the tables, but give meaningless values.
Strength evaluate5(const std::uint8_t* cards, Wheel wheel) noexcept;
Strength evaluate3(const std::uint8_t* cards) noexcept;
// The same for five cards of a pack with added suits (RulesSpec::extra_suits), where a card may appear
// twice: a five of a kind, and a flush holding a pair or two pairs (valued by its five ranks, high to low).
// Equal to evaluate5 on distinct cards, at the cost of one more table load for a flush.
Strength evaluate5_in_pack(const std::uint8_t* cards, Wheel wheel) noexcept;

// A row of `width` (3 or 5) cards that may hold jokers (codes 52 and 53; the other codes < 52, repeats
// allowed): the strength of its best substitution, each joker any of the 52 cards (RULES.md 1.2). Equal
// to evaluate3 / evaluate5_in_pack on a row without a joker. Allocation-free.
Strength evaluate_with_jokers(const std::uint8_t* cards, int width, Wheel wheel) noexcept;

// Every strength a row of `width` (3 or 5) cards of `pack` (make_pack: added suits and jokers) can have
// under `wheel`, ascending: the strength of one row for each rank multiset the pack can deal with its
// cards in one suit (a flush) and spread over several, each with 0 .. pack_jokers(pack) jokers. A
// strength depends on the ranks and on "all five in one suit" only, so these rows reach every strength.
std::vector<Strength> pack_strengths(int width, Wheel wheel, unsigned pack);

// Every strength some row of `width` (3 or 5) cards of some pack the rules allow (at most two added
// suits, at most two jokers) has under `wheel`, ascending: the union of pack_strengths over those packs,
// built once on first use. Empty for another width.
const std::vector<Strength>& row_strengths(int width, Wheel wheel);
// Whether `s` is one of row_strengths(width, wheel).
bool is_row_strength(Strength s, int width, Wheel wheel) noexcept;

// Evaluates `rows` rows of `width` (3 or 5) cards laid out contiguously and writes one strength per row.
// Returns the first invalid row (`item` = its index; out is then unspecified), or no issue.
// Validation runs in the same pass, each card read once: whatever the bytes (even ones another thread
// changes meanwhile), no table is read out of range. Safe to call from many threads at once: it reads only
// immutable tables and keeps no scratch. The rows are spread over `parallel.threads` threads: the
// strengths, and the row an error names (the lowest invalid one), are the same for any thread count.
// With `extra_suits` (RulesSpec::extra_suits) a row may hold a card of an added suit twice: such rows (never
// seen by the 52-card kernels, whose repeat check sends their block to the row-by-row path) are checked
// against the pack and evaluated by evaluate5_in_pack. `extra_suits` may be a whole pack word (make_pack):
// with jokers in it, a row may hold those jokers (codes 52, 53), and is worth its best substitution
// (RULES.md 1.2, evaluate_with_jokers).
[[nodiscard]] CardIssue evaluate_batch(const std::uint8_t* cards, std::size_t rows, int width, Wheel wheel,
                                       std::int32_t* out, const Parallel& parallel = Parallel{},
                                       unsigned extra_suits = 0) noexcept;

}  // namespace chinese_poker
