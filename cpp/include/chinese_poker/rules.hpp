// RulesSpec: every knob of RULES.md as plain values. Python converts a Rules object into one of these
// once per Rules; the core never sees a string.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "chinese_poker/evaluate.hpp"
#include "chinese_poker/knob_table.hpp"

namespace chinese_poker {

enum class NaturalKind : std::uint8_t {
  kSixPairs,
  kThreeStraights,
  kThreeFlushes,
  kDragon,
  kCleanDragon,
  kFivePairsAndTrips,
  kFourTrips,
  kAllOneColour,
  kAllSmall,
  kAllBig,
  kThreeQuads,
  kThreeStraightFlushes,
  kTwelveRoyals,
  // The kinds of real tables, appended so existing values stay.
  kFiveConsecutivePairs,
  kTwoTripsThreePairs,
  kOneRed,
  kOneBlack,
  kTwelveRoyalsTen,
  // every card J, Q, K or A but at most one (the 十二皇族 of atom-chen/ShiSanShuiServer)
  kTwelveRoyalsAndOne,
  // Kinds only a pack with added suits can hold (a rank more than four times).
  kSixOfAKind,       // 六六大顺: six cards of one rank
  kSevenOfAKind,     // seven of one rank (needs more copies than two added suits give: never held yet)
  kEightOfAKind,     // eight of one rank (likewise)
  kTwoFivesAndTrips, // 三皇五帝: two ranks held five times each and one three times
};
constexpr int kNumNaturalKinds = 23;

// The natural_tiebreak knob: how two naturals of one kind compare (RULES.md section 5).
enum class NaturalTiebreak : std::uint8_t { kFull, kTopPairOnly, kNone };

// Indices 0..9 of a royalty row are the categories (five of a kind 9). Index 10 is the royal flush, looked up
// before the straight flush when listed; index 11 the wheel straight flush (A-2-3-4-5 of one suit), likewise.
constexpr int kRoyalFlushSlot = 10;
constexpr int kWheelStraightFlushSlot = 11;
constexpr int kRoyaltySlots = 12;

// Rank-keyed royalties ("category@R"): one entry per category and rank value 2..14.
constexpr int kRoyaltyCategories = 10;
constexpr int kRoyaltyRanks = 13;

// fantasyland knob (RULES.md 4.2).
enum class Fantasyland : std::uint8_t { kOff = 0, kStandard = 1, kProgressive = 2 };

// ofc_variant knob (RULES.md 4.3): how an open-face hand is dealt and placed; no settlement reads it.
enum class OfcVariant : std::uint8_t { kClassic = 0, kPineapple = 1 };

enum Row : int { kFront = 0, kMiddle = 1, kBack = 2 };

// How two naturals in one pair pay each other (RULES.md 11.1).
enum class NaturalVsNatural : std::uint8_t { kByKind = 0, kByUnits = 1, kNet = 2, kPush = 3 };

// How suits break a tie between rows of equal rank (the suit_tiebreak knob, RULES.md 2.4 and 12).
enum class SuitTiebreak : std::uint8_t { kOff = 0, kHighestCard = 1, kByCard = 2 };

// What a fouled hand pays a legal one (the foul_policy knob, RULES.md 3 step 3 and 11.3).
enum class FoulPolicy : std::uint8_t { kLoseAllRows = 0, kAsScooped = 1, kAsLaid = 2 };

// Upper bound of every unit count and multiplier a RulesSpec may hold. With it (and kMaxStake) no
// settlement total comes near the range of int64.
constexpr std::int64_t kMaxUnits = 1000;

// Every knob of RULES.md as plain values. The plain knobs' members and defaults come from the knob table;
// the compound knobs (royalty tables, natural lists, the suit order, row bases, the horse card, the pack's
// added suits) are declared below, each with a hand-written binding.
struct RulesSpec {
#define CP_SPEC_MEMBER_FLAG(name, Type, member, dflt, ...) bool member = dflt != 0;
#define CP_SPEC_MEMBER_ENUM(name, Type, member, dflt, ...) Type member = static_cast<Type>(dflt);
#define CP_SPEC_MEMBER_BOOL(name, Type, member, dflt, ...) bool member = dflt;
#define CP_SPEC_MEMBER_INT(name, Type, member, dflt, ...) Type member = dflt;
#define CP_SPEC_MEMBER_TABLE(...)
#define CP_SPEC_MEMBER(kind, ...) CP_SPEC_MEMBER_##kind(__VA_ARGS__)
  CP_KNOB_TABLE(CP_SPEC_MEMBER)
#undef CP_SPEC_MEMBER
#undef CP_SPEC_MEMBER_TABLE
#undef CP_SPEC_MEMBER_INT
#undef CP_SPEC_MEMBER_BOOL
#undef CP_SPEC_MEMBER_ENUM
#undef CP_SPEC_MEMBER_FLAG

  // suit_order: the rank of each suit (by suit code c, d, h, s) in the order; higher wins. "shdc" = {0, 1, 2, 3}.
  std::array<std::uint8_t, 4> suit_value = {0, 1, 2, 3};
  // royalties: [row][category or royal slot] units, whether royal_flush and wheel_straight_flush are listed
  // for the row, and the rank keys "category@R": bit R-2 of royalty_at_listed[row][category] says that
  // royalty_at[row][category][R-2] is listed; a listed entry overrides the category's own entry for rows
  // whose deciding rank is R, even at 0.
  std::array<std::array<std::int64_t, kRoyaltySlots>, 3> royalty{};
  std::array<bool, 3> royal_listed{};
  std::array<bool, 3> wheel_sf_listed{};
  std::array<std::array<std::uint16_t, kRoyaltyCategories>, 3> royalty_at_listed{};
  std::array<std::array<std::array<std::int16_t, kRoyaltyRanks>, kRoyaltyCategories>, 3> royalty_at{};
  // naturals: the listed kinds, lowest first, and their units.
  int num_naturals = 0;
  std::array<NaturalKind, kNumNaturalKinds> natural_kind{};
  std::array<std::int64_t, kNumNaturalKinds> natural_units{};
  // row_base: units of a won row: front, middle, back.
  std::array<std::int64_t, 3> row_base = {1, 1, 1};
  // horse_card: a card code 0..51, or -1 = none.
  std::int8_t horse_card = -1;
  // extra_suits: bit s (suit code s: c d h s) set when that suit's 13 cards are in the pack a second time.
  // At most two bits; each added suit seats one more player (4 + bits, up to 6) and lets its cards appear
  // twice at the table.
  std::uint8_t extra_suits = 0;
};

// The rules' pack as the card checks take it (make_pack): the added suits and the jokers.
constexpr unsigned pack_of(const RulesSpec& rules) noexcept { return make_pack(rules.extra_suits, rules.jokers); }

// nullptr when every field of `rules` is in range, else the name of the first bad field: a plain knob's
// member when it is outside the knob table's range (an INT) or values (an ENUM), or of the compound knobs
// "suit_value" (not a permutation of 0..3), "royalty" (an entry outside 0..kMaxUnits, or a front royalty at
// a category three cards cannot make), "royal_listed" and "wheel_sf_listed" (listed for the front, or an
// amount given without being listed), "royalty_at" (an entry outside 0..kMaxUnits, unlisted but not 0, or
// listed at a rank royalty_ranks_allowed excludes), "num_naturals", "natural_kind" (unknown or repeated),
// "natural_units" (each 1..kMaxUnits), "row_base" (each 1..kMaxUnits), "horse_card" (-1..51) or
// "extra_suits" (a bit above 3, or more than two bits). Every core entry point taking a RulesSpec requires
// it to be valid.
[[nodiscard]] const char* validate_rules(const RulesSpec& rules) noexcept;

// The strength under `wheel` of a row whose strength under wheel "low" is `low_encoded`: only the wheel
// straight (flush) changes, its vector 5,4,3,2,1 becoming 14,5,4,3,2.
constexpr Strength encode_wheel(Strength low_encoded, Wheel wheel) noexcept {
  constexpr Strength kVectorMask = (Strength{1} << kCategoryShift) - 1;
  constexpr Strength kLowWheel = make_strength(0, 5, 4, 3, 2, 1);
  constexpr Strength kSecondWheel = make_strength(0, 14, 5, 4, 3, 2);
  if (wheel != Wheel::Second || (low_encoded & kVectorMask) != kLowWheel) return low_encoded;
  return (low_encoded & ~kVectorMask) | kSecondWheel;
}

// The deciding rank of a row (RULES.md 4.1), the rank a "category@R" key names: the first value of the
// tie-break vector (the pair's, the trips', the quads', the full house's trips, the higher pair, the top
// card of a straight, flush or high card), except that the wheel's top card is the 5 under either wheel.
constexpr int deciding_rank(Strength s) noexcept {
  constexpr Strength kVectorMask = (Strength{1} << kCategoryShift) - 1;
  // Under wheel "second" the wheel's vector is 14,5,4,3,2, which no other hand has.
  if ((s & kVectorMask) == make_strength(0, 14, 5, 4, 3, 2)) return 5;
  return vector_value(s, 0);
}

// The ranks R (bit R-2) at which "category@R" can occur in a row (0 front, else five cards): the
// deciding ranks that hands of the category can have. A straight flush's 5 and A are keyed by
// wheel_straight_flush and royal_flush instead, so straight_flush@5 and @A are not allowed.
constexpr std::uint16_t royalty_ranks_allowed(int row, int category) noexcept {
  auto from = [](int low, int high) {
    return static_cast<std::uint16_t>(((1u << (high - 1)) - 1u) & ~((1u << (low - 2)) - 1u));
  };
  if (row == kFront) {
    if (category == kHighCard) return from(4, 14);
    if (category == kOnePair || category == kThreeOfAKind) return from(2, 14);
    return 0;
  }
  switch (category) {
    case kHighCard: return from(7, 14);
    case kTwoPair: return from(3, 14);
    case kStraight: return from(5, 14);
    case kFlush: return from(7, 14);
    case kStraightFlush: return from(6, 13);
    case kOnePair: case kThreeOfAKind: case kFullHouse: case kFourOfAKind: case kFiveOfAKind: return from(2, 14);
    default: return 0;
  }
}

// Royalty units of a row of strength `s` in row `row` (0..2) under the rules' table (RULES.md 9): a
// straight flush looks up royal_flush (ace-high) or wheel_straight_flush first when listed for the row,
// then any row looks up "category@R" at its deciding rank R, then the category. A strength of no known
// category, or a row outside 0..2, earns nothing. Allocation-free; a few loads and no loop.
inline std::int64_t royalty_of(const RulesSpec& rules, int row, Strength s) noexcept {
  const int cat = category_of(s);
  if (row < 0 || row > 2 || cat > kFiveOfAKind) return 0;
  const auto r = static_cast<std::size_t>(row);
  const auto c = static_cast<std::size_t>(cat);
  const auto& table = rules.royalty[r];
  if (cat == kStraightFlush) {
    if (vector_value(s, 0) == 14 && vector_value(s, 1) == 13 && rules.royal_listed[r]) return table[kRoyalFlushSlot];
    if (rules.wheel_sf_listed[r] && deciding_rank(s) == 5) return table[kWheelStraightFlushSlot];
  }
  // Tables without rank keys (the common case) pay for one load and test here, nothing more.
  const unsigned listed = rules.royalty_at_listed[r][c];
  if (listed != 0) {
    // A valid spec lists bits 0..12 only, so a rank outside 2..14 (no real hand) never reads an entry.
    const int rank = deciding_rank(s);
    if (rank >= 2 && ((listed >> (rank - 2)) & 1u) != 0) {
      return rules.royalty_at[r][c][static_cast<std::size_t>(rank - 2)];
    }
  }
  return table[c];
}

}  // namespace chinese_poker
