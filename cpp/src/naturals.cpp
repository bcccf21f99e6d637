#include "chinese_poker/naturals.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstring>
#include <utility>

#include "chinese_poker/cards.hpp"
#include "naturals_detail.hpp"

namespace chinese_poker {

namespace {

// Nibble arithmetic on 13 rank counts packed 4 bits a rank (rank r in bits 4r..4r+3).
constexpr std::uint64_t kNibbleOnes = 0x1111111111111ull;   // 1 in each of the 13 nibbles
constexpr std::uint64_t kNibbleLow3 = 0x7777777777777ull;   // the low three bits of each
constexpr std::uint64_t kNibbleHigh = 0x8888888888888ull;   // the top bit of each

// The sum of 13 nibbles whose total is at most 15 (every partial sum then fits a nibble, so the product
// carries nothing into the top nibble, where the sum lands).
int nibble_sum(std::uint64_t v) { return static_cast<int>((v * kNibbleOnes) >> 48 & 15u); }

// How many of the 13 nibbles of x equal k (0..7).
int nibbles_equal(std::uint64_t x, unsigned k) {
  const std::uint64_t t = x ^ (kNibbleOnes * k);                   // a zero nibble where x's equals k
  const std::uint64_t nonzero = ((t & kNibbleLow3) + kNibbleLow3) | t;  // top bit set where t's nibble is not 0
  return nibble_sum((~nonzero & kNibbleHigh) >> 3);
}

// Per card code: its rank's nibble, its suit's byte, its rank's bit (a table read instead of three
// variable shifts).
struct CardCounts {
  std::uint64_t rank_nibble;
  std::uint32_t suit_byte;
  std::uint32_t rank_bit;
};

constexpr std::array<CardCounts, 64> make_card_counts() {
  std::array<CardCounts, 64> table{};
  for (int code = 0; code < kDeckSize; ++code) {
    table[static_cast<std::size_t>(code)] = {std::uint64_t{1} << (4 * (code >> 2)), std::uint32_t{1} << (8 * (code & 3)),
                                             std::uint32_t{1} << (code >> 2)};
  }
  return table;
}
constexpr std::array<CardCounts, 64> kCardCounts = make_card_counts();

// Rank and suit counts of 13 cards, summed as packed fields (4 bits a rank, 8 bits a suit) from one table
// read per card, so counting is a chain of register adds, not of memory increments; natural detection
// runs per player. with[n] is how many ranks are held exactly n times, counted here by nibble arithmetic
// so that the kinds made of pairs, trips and quads are a few additions each.
struct Counts {
  std::uint64_t ranks = 0;  // nibble r: the cards of rank r (a pack with added suits holds up to 6)
  int suit[kNumSuits] = {};
  int with[16] = {};
  unsigned rank_mask = 0;
  explicit Counts(const std::uint8_t* c) {
    std::uint32_t suits = 0;
    for (int k = 0; k < 13; ++k) {
      const CardCounts& card = kCardCounts[c[k] & 63u];
      ranks += card.rank_nibble;
      suits += card.suit_byte;
      rank_mask |= card.rank_bit;
    }
    int counted = 0;
    for (unsigned n = 0; n <= 4; ++n) {
      with[n] = nibbles_equal(ranks, n);
      counted += with[n];
    }
    // Only a pack with added suits holds a rank 5 or 6 times.
    if (counted != kNumRanks) {
      for (int r = 0; r < kNumRanks; ++r) {
        if (rank(r) >= 5) ++with[rank(r)];
      }
    }
    for (int s = 0; s < kNumSuits; ++s) suit[s] = static_cast<int>(suits >> (8 * s) & 0xFFu);
  }
  int rank(int r) const { return static_cast<int>(ranks >> (4 * r) & 15u); }
  int ranks_with(int n) const { return with[n]; }
  int ranks_with_at_least(int n) const {
    int total = 0;
    for (int k = n; k < 16; ++k) total += with[k];
    return total;
  }
};

// Which straights count for three straights (RULES.md section 10): the two front straights with an ace
// at an end, and the wheel in the middle and the back.
struct StraightRules {
  bool front_a23;
  bool front_qka;
  bool wheel;
  explicit StraightRules(const RulesSpec& rules)
      : front_a23(rules.three_straights_front_a23),
        front_qka(rules.three_straights_front_qka),
        wheel(rules.three_straights_wheel) {}
};

// Whether the ranks split into one 3-card and two 5-card straights. Slot 0 is an ace played low, slots
// 1..13 are deuce..ace: the lowest remaining slot must start one of the straights still needed, so the
// search branches at most twice a level.
bool straights_from(int (&slot)[14], int need3, int need5, const StraightRules& allowed) {
  int low = 0;
  while (low < 14 && slot[low] == 0) ++low;
  if (low == 14) return need3 == 0 && need5 == 0;
  for (int length : {5, 3}) {
    if ((length == 5 ? need5 : need3) == 0 || low + length - 1 > 13) continue;
    if (length == 3 && ((low == 0 && !allowed.front_a23) || (low + 2 == 13 && !allowed.front_qka))) continue;
    if (length == 5 && low == 0 && !allowed.wheel) continue;
    bool fits = true;
    for (int s = low; s < low + length; ++s) fits = fits && slot[s] > 0;
    if (!fits) continue;
    for (int s = low; s < low + length; ++s) --slot[s];
    const bool ok = straights_from(slot, need3 - (length == 3), need5 - (length == 5), allowed);
    for (int s = low; s < low + length; ++s) ++slot[s];
    if (ok) return true;
  }
  return false;
}

// The rises of a slot profile are the sum over slots of how much the count goes up from the slot below.
// Each straight adds one at its lowest slot and takes one away after its top, so a profile made of three
// straights rises by at most 3 in all; most hands rise by more, which settles them without a search.
bool has_three_straights(const Counts& counts, const StraightRules& allowed) {
  // The rises of the profile with every ace high, by nibble arithmetic: nibble r of `up` is
  // max(0, count[r] - count[r - 1]) (count[-1] = 0). (x | top bit) - previous stays inside each nibble
  // since counts are at most 6; its top bit says whether the difference is at least 0.
  const std::uint64_t x = counts.ranks;
  const std::uint64_t d = (x | kNibbleHigh) - ((x << 4) & (kNibbleOnes * 15u));
  const std::uint64_t up = d & kNibbleLow3 & (((d & kNibbleHigh) >> 3) * 7u);
  const int all_high = nibble_sum(up);  // every rise at most the cards of its rank: 13 in all
  const int aces = counts.rank(12), deuces = counts.rank(0), kings = counts.rank(11);
  // The rises between deuce and king do not depend on where the aces play.
  const int inner = all_high - deuces - std::max(0, aces - kings);
  // An ace plays low only in A-2-3 or the wheel; when neither counts, every ace stays high.
  const int max_low = allowed.front_a23 || allowed.wheel ? aces : 0;
  for (int low_aces = 0; low_aces <= max_low; ++low_aces) {
    // Slots: low aces, deuce..king, high aces.
    const int rise = low_aces + std::max(0, deuces - low_aces) + inner + std::max(0, aces - low_aces - kings);
    if (rise > 3) continue;
    int slot[14] = {};
    for (int r = 0; r < kNumRanks; ++r) slot[r + 1] = counts.rank(r);
    slot[0] = low_aces;
    slot[13] = aces - low_aces;
    if (straights_from(slot, 1, 2, allowed)) return true;
  }
  return false;
}

// Suit counts that split into rows of 3, 5 and 5 cards of one suit each: {3,5,5}, {8,5}, {10,3}, {13};
// only {3,5,5} when the three rows must be of three different suits.
bool has_three_flushes(const Counts& counts, bool distinct_suits) {
  int n3 = 0, n5 = 0, n8 = 0, n10 = 0, n13 = 0;
  for (int s : counts.suit) {
    n3 += s == 3;
    n5 += s == 5;
    n8 += s == 8;
    n10 += s == 10;
    n13 += s == 13;
  }
  if (n3 == 1 && n5 == 2) return true;
  return !distinct_suits && ((n8 == 1 && n5 == 1) || (n10 == 1 && n3 == 1) || n13 == 1);
}

bool is_front_straight(const std::uint8_t* f, const StraightRules& allowed) {
  int r[3] = {card_rank(f[0]), card_rank(f[1]), card_rank(f[2])};
  // Sort three ranks.
  if (r[0] > r[1]) std::swap(r[0], r[1]);
  if (r[1] > r[2]) std::swap(r[1], r[2]);
  if (r[0] > r[1]) std::swap(r[0], r[1]);
  if (r[0] == 0 && r[1] == 1 && r[2] == 12) return allowed.front_a23;  // A-2-3
  if (r[0] + 1 != r[1] || r[1] + 1 != r[2]) return false;
  return allowed.front_qka || r[2] != 12;                               // Q-K-A
}

int front_straight_top(const std::uint8_t* f) {
  const int a = card_rank(f[0]), b = card_rank(f[1]), c = card_rank(f[2]);
  const int high = std::max(a, std::max(b, c));
  const int low = std::min(a, std::min(b, c));
  if (high == 12 && low == 0) return 3;  // A-2-3: the three is the top card
  return high + 2;
}

bool one_suit(const std::uint8_t* c, int n) {
  for (int k = 1; k < n; ++k) {
    if (card_suit(c[k]) != card_suit(c[0])) return false;
  }
  return true;
}

bool is_straight5(Strength s) { return category_of(s) == kStraight || category_of(s) == kStraightFlush; }

// Whether five cards are exactly the ranks A, 2, 3, 4, 5 (the wheel, a straight or a straight flush).
bool is_wheel5(const std::uint8_t* five) {
  unsigned mask = 0;
  for (int k = 0; k < 5; ++k) mask |= 1u << card_rank(five[k]);
  return mask == 0x100Fu;
}

bool three_suits(const std::uint8_t* f, const std::uint8_t* m, const std::uint8_t* b) {
  const int sf = card_suit(f[0]), sm = card_suit(m[0]), sb = card_suit(b[0]);
  return sf != sm && sf != sb && sm != sb;
}

// Calls f(front, middle, back) for every split of 13 cards into 3 + 5 + 5 whose middle and back both
// pass five_ok (both orders of those two rows come up). Used for the tie-break of two naturals of one
// kind and for straight-flush naturals: rare paths, and the pruning keeps them to about 1,300 checks.
template <class Five, class F>
void for_each_split(const std::uint8_t* c, Five&& five_ok, F&& f) {
  std::uint8_t front[3], middle[5], back[5];
  for (unsigned bmask = 0x1Fu; bmask < (1u << 13);) {
    int n = 0;
    for (int k = 0; k < 13; ++k) {
      if (bmask >> k & 1u) back[n++] = c[k];
    }
    if (five_ok(back)) {
      std::uint8_t rest[8];
      int m = 0;
      for (int k = 0; k < 13; ++k) {
        if (!(bmask >> k & 1u)) rest[m++] = c[k];
      }
      for (unsigned mmask = 0x1Fu; mmask < (1u << 8);) {
        int mi = 0, fi = 0;
        for (int k = 0; k < 8; ++k) {
          if (mmask >> k & 1u) {
            middle[mi++] = rest[k];
          } else {
            front[fi++] = rest[k];
          }
        }
        if (five_ok(middle)) f(front, middle, back);
        const unsigned low = mmask & (~mmask + 1u), ripple = mmask + low;  // next mask with five bits set
        mmask = (((ripple ^ mmask) >> 2) / low) | ripple;
      }
    }
    const unsigned low = bmask & (~bmask + 1u), ripple = bmask + low;
    bmask = (((ripple ^ bmask) >> 2) / low) | ripple;
  }
}

std::uint64_t pack_rows(Strength back, Strength middle, std::uint64_t front12) {
  return static_cast<std::uint64_t>(back) << 36 | static_cast<std::uint64_t>(middle) << 12 | front12;
}

// Six pairs: a trips counts as a pair and a single only with trips_as_pair_plus_single, a four of a kind as
// two pairs only with quads_as_two_pairs; otherwise either spoils the hand.
bool six_pairs(const Counts& counts, const RulesSpec& rules) {
  // A count of 5 or 6 (added suits) adds no pair here, and the other 8 or 7 cards make at most 4 pairs:
  // no six pairs, as RULES.md 10 reads it, without a test on this path.
  if (counts.with[3] > 0 && !rules.trips_as_pair_plus_single) return false;
  if (counts.with[4] > 0 && !rules.quads_as_two_pairs) return false;
  return counts.with[2] + counts.with[3] + 2 * counts.with[4] == 6;
}

bool five_pairs_and_trips(const Counts& counts, const RulesSpec& rules) {
  if (counts.with[1] > 0) return false;
  if (counts.with[4] > 0 && !rules.quads_as_two_pairs) return false;
  return counts.with[3] == 1 && counts.with[2] + 2 * counts.with[4] == 5;
}

std::uint64_t three_straights_key(const std::uint8_t* c, const RulesSpec& rules, bool flushes_too) {
  std::uint64_t best = 0;
  const StraightRules allowed(rules);
  auto five_ok = [&](const std::uint8_t* five) {
    const Strength s = evaluate5_in_pack(five, rules.wheel);
    if (!allowed.wheel && is_wheel5(five)) return false;
    return flushes_too ? category_of(s) == kStraightFlush : is_straight5(s);
  };
  for_each_split(c, five_ok, [&](const std::uint8_t* f, const std::uint8_t* m, const std::uint8_t* b) {
    if (!is_front_straight(f, allowed) || (flushes_too && !one_suit(f, 3))) return;
    if (flushes_too && rules.three_flushes_distinct_suits && !three_suits(f, m, b)) return;
    const std::uint64_t key = pack_rows(evaluate5_in_pack(b, rules.wheel), evaluate5_in_pack(m, rules.wheel),
                                        static_cast<std::uint64_t>(front_straight_top(f)));
    if (key > best) best = key;
  });
  return best;
}

// The key of one three-flushes split (front 3, middle 5, back 5, each of one suit).
std::uint64_t flush_split_key(const std::uint8_t* f, const std::uint8_t* m, const std::uint8_t* b,
                              const RulesSpec& rules) {
  const Strength front = evaluate3(f);
  // The pack's evaluator: with added suits a flush row may hold a pair (equal to evaluate5 otherwise).
  return pack_rows(evaluate5_in_pack(b, rules.wheel), evaluate5_in_pack(m, rules.wheel), (front >> 8) & 0xFFFu);
}

// Calls f(first, rest) for every way to take `take` of the n cards of `from` (first: those taken, in order;
// rest: the others, in order).
template <class F>
void for_each_subset(const std::uint8_t* from, int n, int take, F&& f) {
  std::uint8_t first[13], rest[13];
  for (unsigned mask = (1u << take) - 1u; mask < (1u << n);) {
    int a = 0, b = 0;
    for (int k = 0; k < n; ++k) {
      if (mask >> k & 1u) {
        first[a++] = from[k];
      } else {
        rest[b++] = from[k];
      }
    }
    f(first, rest);
    const unsigned low = mask & (~mask + 1u), ripple = mask + low;  // the next mask with `take` bits set
    mask = (((ripple ^ mask) >> 2) / low) | ripple;
  }
}

// The best split of a three-flushes hand, by suits: each row is of one suit, so a suit holding one row is
// that row, and only a suit holding two rows (8 cards: the front and a five; 10: two fives) is searched.
// A hand of one suit (13 cards) is searched over every split.
std::uint64_t three_flushes_key(const std::uint8_t* c, const RulesSpec& rules) {
  std::uint8_t by_suit[kNumSuits][13];
  int count[kNumSuits] = {};
  for (int k = 0; k < 13; ++k) {
    const auto suit = static_cast<std::size_t>(card_suit(c[k]));
    by_suit[suit][count[suit]++] = c[k];
  }
  std::uint64_t best = 0;
  const auto keep = [&](const std::uint8_t* f, const std::uint8_t* m, const std::uint8_t* b) {
    const std::uint64_t key = flush_split_key(f, m, b, rules);
    if (key > best) best = key;
  };
  int threes = -1, eights = -1, tens = -1, fives[2] = {-1, -1}, num_fives = 0;
  for (int s = 0; s < kNumSuits; ++s) {
    const int n = count[s];
    if (n == 3) threes = s;
    if (n == 8) eights = s;
    if (n == 10) tens = s;
    if (n == 5 && num_fives < 2) fives[num_fives++] = s;
    if (n == 13) {
      if (rules.three_flushes_distinct_suits) return 0;  // three rows of one suit
      auto five_ok = [](const std::uint8_t* five) { return one_suit(five, 5); };
      for_each_split(c, five_ok, [&](const std::uint8_t* f, const std::uint8_t* m, const std::uint8_t* b) {
        if (one_suit(f, 3)) keep(f, m, b);
      });
      return best;
    }
  }
  if (threes >= 0 && num_fives == 2) {  // {3, 5, 5}: one split, in both orders of the fives
    const std::uint8_t* f = by_suit[threes];
    keep(f, by_suit[fives[0]], by_suit[fives[1]]);
    keep(f, by_suit[fives[1]], by_suit[fives[0]]);
  } else if (eights >= 0 && num_fives == 1 && !rules.three_flushes_distinct_suits) {  // {8, 5}
    const std::uint8_t* other = by_suit[fives[0]];
    for_each_subset(by_suit[eights], 8, 3, [&](const std::uint8_t* f, const std::uint8_t* five) {
      keep(f, five, other);
      keep(f, other, five);
    });
  } else if (tens >= 0 && threes >= 0 && !rules.three_flushes_distinct_suits) {  // {10, 3}
    const std::uint8_t* f = by_suit[threes];
    for_each_subset(by_suit[tens], 10, 5, [&](const std::uint8_t* m, const std::uint8_t* b) { keep(f, m, b); });
  }
  return best;
}

std::uint64_t six_pairs_key(const Counts& counts, const RulesSpec& rules) {
  std::uint64_t key = 0;
  int single = 0, pairs_packed = 0;
  for (int r = kNumRanks - 1; r >= 0; --r) {
    const int n = counts.rank(r);
    for (int p = 0; p < n / 2; ++p) {
      if (rules.natural_tiebreak == NaturalTiebreak::kTopPairOnly) {
        if (pairs_packed == 0) key = static_cast<std::uint64_t>(r + 2);
      } else {
        key = key << 4 | static_cast<std::uint64_t>(r + 2);
      }
      ++pairs_packed;
    }
    if (n % 2 == 1) single = r + 2;
  }
  return rules.natural_tiebreak == NaturalTiebreak::kTopPairOnly ? key
                                                                   : key << 4 | static_cast<std::uint64_t>(single);
}

// The kinds of real tables (RULES.md section 10).

// Ranks held at least twice, bit r for rank r (0 = deuce).
unsigned paired_ranks(const Counts& counts) {
  unsigned mask = 0;
  for (int r = 0; r < kNumRanks; ++r) mask |= static_cast<unsigned>(counts.rank(r) >= 2) << r;
  return mask;
}

// Bit r set when ranks r..r+4 are all held at least twice: five consecutive pairs, the ace high only.
unsigned consecutive_pair_runs(const Counts& counts) {
  const unsigned m = paired_ranks(counts);
  return m & m >> 1 & m >> 2 & m >> 3 & m >> 4;
}

// Two trips, three pairs and a single, each four of a kind read as trips plus the single (quads_as_trips)
// or as two pairs (quads_as_two_pairs); some reading must fit.
bool two_trips_three_pairs(const Counts& counts, const RulesSpec& rules) {
  const int quads = counts.ranks_with(4), trips = counts.ranks_with(3);
  const int pairs = counts.ranks_with(2), singles = counts.ranks_with(1);
  for (int as_trips = 0; as_trips <= quads; ++as_trips) {
    const int as_pairs = quads - as_trips;
    if ((as_trips > 0 && !rules.quads_as_trips) || (as_pairs > 0 && !rules.quads_as_two_pairs)) continue;
    if (trips + as_trips == 2 && pairs + 2 * as_pairs == 3 && singles + as_trips == 1) return true;
  }
  return false;
}

// Cards of rank ten or higher.
int tens_and_up(const Counts& counts) {
  int n = 0;
  for (int r = 8; r < kNumRanks; ++r) n += counts.rank(r);
  return n;
}

int jacks_and_up(const Counts& counts) {
  int n = 0;
  for (int r = 9; r < kNumRanks; ++r) n += counts.rank(r);
  return n;
}

bool holds_with(NaturalKind kind, const std::uint8_t* c, const Counts& counts, const RulesSpec& rules) {
  switch (kind) {
    case NaturalKind::kSixPairs:
      return six_pairs(counts, rules);
    case NaturalKind::kThreeStraights:
      return has_three_straights(counts, StraightRules(rules));
    case NaturalKind::kThreeFlushes:
      return has_three_flushes(counts, rules.three_flushes_distinct_suits);
    case NaturalKind::kDragon:
      return counts.rank_mask == 0x1FFFu;
    case NaturalKind::kCleanDragon:
      return counts.rank_mask == 0x1FFFu && one_suit(c, 13);
    case NaturalKind::kFivePairsAndTrips:
      return five_pairs_and_trips(counts, rules);
    case NaturalKind::kFourTrips:
      return (rules.quads_as_trips ? counts.ranks_with_at_least(3) : counts.ranks_with(3)) >= 4;
    case NaturalKind::kAllOneColour:
      return counts.suit[0] + counts.suit[3] == 13 || counts.suit[1] + counts.suit[2] == 13;
    case NaturalKind::kAllSmall:
      return (counts.rank_mask & ~0x7Fu) == 0;  // deuce..eight
    case NaturalKind::kAllBig:
      return (counts.rank_mask & 0x3Fu) == 0;   // eight..ace
    case NaturalKind::kThreeQuads:
      return counts.ranks_with(4) >= 3;
    case NaturalKind::kThreeStraightFlushes:
      // The suit counts first: a test of five numbers that almost every hand fails.
      return has_three_flushes(counts, rules.three_flushes_distinct_suits) &&
             has_three_straights(counts, StraightRules(rules)) && three_straights_key(c, rules, true) != 0;
    case NaturalKind::kTwelveRoyals:
      return (counts.rank_mask & 0x1FFu) == 0;  // jack..ace only
    case NaturalKind::kFiveConsecutivePairs:
      return consecutive_pair_runs(counts) != 0;
    case NaturalKind::kTwoTripsThreePairs:
      return two_trips_three_pairs(counts, rules);
    case NaturalKind::kOneRed:
      return counts.suit[1] + counts.suit[2] == 1;  // diamonds, hearts
    case NaturalKind::kOneBlack:
      return counts.suit[0] + counts.suit[3] == 1;  // clubs, spades
    case NaturalKind::kTwelveRoyalsTen:
      return tens_and_up(counts) >= 12;
    case NaturalKind::kTwelveRoyalsAndOne:
      return jacks_and_up(counts) >= 12;
    case NaturalKind::kSixOfAKind:
      return counts.ranks_with_at_least(6) >= 1;
    case NaturalKind::kSevenOfAKind:
      return counts.ranks_with_at_least(7) >= 1;
    case NaturalKind::kEightOfAKind:
      return counts.ranks_with_at_least(8) >= 1;
    case NaturalKind::kTwoFivesAndTrips:
      return counts.ranks_with(5) == 2 && counts.ranks_with(3) == 1;
  }
  return false;
}

// The kinds (bit k: NaturalKind k) that 13 cards of one 52-card deck might hold, from tests every hand
// of the kind passes (some hands pass without holding it; holds_with decides). Most hands hold no
// natural, and this settles them at once, without a branch per kind. The kinds only a pack with added
// suits can hold are never possible here.
std::uint32_t possible_kinds(const Counts& counts) {
  const int* w = counts.with;
  const unsigned m = counts.rank_mask;
  const int* s = counts.suit;
  // Three flushes: every suit count is one of 0, 3, 5, 8, 10, 13 (bits of 0x2529).
  const bool flush_counts = ((0x2529u >> s[0]) & (0x2529u >> s[1]) & (0x2529u >> s[2]) & (0x2529u >> s[3]) & 1u) != 0;
  // Three straights: the profile's rises from the deuce up to the king, with the deuces, are at most 3
  // (has_three_straights: every placement of the aces rises at least that much).
  const std::uint64_t x = counts.ranks;
  const std::uint64_t d = (x | kNibbleHigh) - ((x << 4) & (kNibbleOnes * 15u));
  const std::uint64_t up = d & kNibbleLow3 & (((d & kNibbleHigh) >> 3) * 7u);
  const int low_rises = nibble_sum(up & 0x0FFFFFFFFFFFull);  // nibbles 0..11: deuce..king
  const bool straight_profile = w[4] == 0 && low_rises <= 3;
  const unsigned below_ten = m & 0xFFu, below_jack = m & 0x1FFu;
  const auto bit = [](NaturalKind kind, bool possible) {
    return possible ? std::uint32_t{1} << static_cast<unsigned>(kind) : 0u;
  };
  return bit(NaturalKind::kSixPairs, w[2] + w[3] + 2 * w[4] == 6) |
         bit(NaturalKind::kThreeStraights, straight_profile) |
         bit(NaturalKind::kThreeFlushes, flush_counts) |
         bit(NaturalKind::kDragon, m == 0x1FFFu) |
         bit(NaturalKind::kCleanDragon, m == 0x1FFFu) |
         bit(NaturalKind::kFivePairsAndTrips, w[1] == 0) |
         bit(NaturalKind::kFourTrips, w[3] + w[4] >= 4) |
         bit(NaturalKind::kAllOneColour, s[0] + s[3] == 13 || s[1] + s[2] == 13) |
         bit(NaturalKind::kAllSmall, (m & ~0x7Fu) == 0) |
         bit(NaturalKind::kAllBig, (m & 0x3Fu) == 0) |
         bit(NaturalKind::kThreeQuads, w[4] >= 3) |
         bit(NaturalKind::kThreeStraightFlushes, flush_counts && straight_profile) |
         bit(NaturalKind::kTwelveRoyals, (m & 0x1FFu) == 0) |
         bit(NaturalKind::kFiveConsecutivePairs, w[2] + w[3] + w[4] >= 5) |
         bit(NaturalKind::kTwoTripsThreePairs, w[3] + w[4] >= 2) |
         bit(NaturalKind::kOneRed, s[1] + s[2] == 1) |
         bit(NaturalKind::kOneBlack, s[0] + s[3] == 1) |
         bit(NaturalKind::kTwelveRoyalsTen, (below_ten & (below_ten - 1u)) == 0) |
         bit(NaturalKind::kTwelveRoyalsAndOne, (below_jack & (below_jack - 1u)) == 0);
}

// Copies 13 cards and checks the copy; false when they are not 13 cards that the rules' pack holds (each
// card once, a card of an added suit at most twice, each of the rules' jokers at most once).
bool copy_valid(const std::uint8_t* cards13, std::uint8_t* copy, const RulesSpec& rules) noexcept {
  std::memcpy(copy, cards13, 13);
  return !check_cards_in_pack(copy, 13, -1, pack_of(rules));
}

// The highest listed natural of 13 cards of codes < 52 (repeats allowed), or -1.
int detect_level(const std::uint8_t* c, const RulesSpec& rules) noexcept {
  const Counts counts(c);
  for (int level = rules.num_naturals - 1; level >= 0; --level) {
    if (holds_with(rules.natural_kind[static_cast<std::size_t>(level)], c, counts, rules)) return level;
  }
  return -1;
}

std::uint64_t key_of(NaturalKind kind, const std::uint8_t* c, const RulesSpec& rules) noexcept;

// [jokers] Calls f(cards) for every substitution of the jokers among 13 cards (RULES.md 1.2): each joker
// any of the 52 cards, greatest codes first, X1's card at least X2's (the two are interchangeable for a
// natural). `cards` is the hand with the jokers replaced. Stops when f returns true.
template <class F>
void for_each_substitution(const std::uint8_t* held, F&& f) noexcept {
  std::uint8_t trial[13];
  std::memcpy(trial, held, 13);
  int place[2] = {-1, -1};
  int jokers = 0;
  for (int code = kJokerX1; code <= kJokerX2; ++code) {
    for (int k = 0; k < 13; ++k) {
      if (held[k] == code) place[jokers++] = k;
    }
  }
  if (jokers == 0) {
    f(static_cast<const std::uint8_t*>(trial));
    return;
  }
  for (int a = kDeckSize - 1; a >= 0; --a) {
    trial[place[0]] = static_cast<std::uint8_t>(a);
    if (jokers == 1) {
      if (f(static_cast<const std::uint8_t*>(trial))) return;
      continue;
    }
    for (int b = a; b >= 0; --b) {
      trial[place[1]] = static_cast<std::uint8_t>(b);
      if (f(static_cast<const std::uint8_t*>(trial))) return;
    }
  }
}

bool holds_jokers(const std::uint8_t* c) noexcept {
  for (int k = 0; k < 13; ++k) {
    if (is_joker(c[k])) return true;
  }
  return false;
}

}  // namespace

namespace detail {

std::uint32_t listed_kinds(const RulesSpec& rules) noexcept {
  std::uint32_t listed = 0;
  for (int level = 0; level < rules.num_naturals; ++level) {
    listed |= std::uint32_t{1} << static_cast<unsigned>(rules.natural_kind[static_cast<std::size_t>(level)]);
  }
  return listed;
}

int detect_natural_valid(const std::uint8_t* cards13, const RulesSpec& rules, std::uint32_t listed) noexcept {
  assert(!check_cards_in_pack(cards13, 13, 0, rules.extra_suits));
  assert(listed == listed_kinds(rules));
  const Counts counts(cards13);
  if (rules.extra_suits == 0 && (possible_kinds(counts) & listed) == 0) return -1;
  for (int level = rules.num_naturals - 1; level >= 0; --level) {
    if (holds_with(rules.natural_kind[static_cast<std::size_t>(level)], cards13, counts, rules)) return level;
  }
  return -1;
}

int detect_natural_jokers(const std::uint8_t* held13, const RulesSpec& rules, std::uint64_t* key,
                          std::uint8_t* out13) noexcept {
  assert(!check_cards_in_pack(held13, 13, 0, pack_of(rules)));
  int best = -1;
  std::uint64_t best_key = 0;
  std::memcpy(out13, held13, 13);
  const bool keyed = rules.natural_tiebreak != NaturalTiebreak::kNone;
  for_each_substitution(held13, [&](const std::uint8_t* trial) {
    const int level = detect_level(trial, rules);
    if (level < 0 || level < best) return false;
    const std::uint64_t k = keyed ? key_of(rules.natural_kind[static_cast<std::size_t>(level)], trial, rules) : 0;
    if (level > best || k > best_key) {
      best = level;
      best_key = k;
      std::memcpy(out13, trial, 13);
    }
    // The top of the ladder with nothing to break ties: no substitution can do better.
    return !keyed && best == rules.num_naturals - 1;
  });
  *key = best_key;
  return best;
}

int detect_natural_valid(const std::uint8_t* cards13, const RulesSpec& rules) noexcept {
  return detect_natural_valid(cards13, rules, listed_kinds(rules));
}

std::uint64_t natural_key_valid(NaturalKind kind, const std::uint8_t* c, const RulesSpec& rules) noexcept {
  assert(!check_cards_in_pack(c, 13, 0, rules.extra_suits));
  return key_of(kind, c, rules);
}

}  // namespace detail

namespace {

std::uint64_t key_of(NaturalKind kind, const std::uint8_t* c, const RulesSpec& rules) noexcept {
  if (rules.natural_tiebreak == NaturalTiebreak::kNone) return 0;
  switch (kind) {
    case NaturalKind::kSixPairs:
      return six_pairs_key(Counts(c), rules);
    case NaturalKind::kThreeStraights:
      return three_straights_key(c, rules, false);
    case NaturalKind::kThreeFlushes:
      return three_flushes_key(c, rules);
    case NaturalKind::kFiveConsecutivePairs: {
      // The top rank of the highest run (bit r of the runs starts a run whose top rank is r + 4).
      unsigned runs = consecutive_pair_runs(Counts(c));
      int top = 0;
      for (int r = 0; runs != 0; ++r, runs >>= 1) {
        if (runs & 1u) top = r + 4 + 2;
      }
      return static_cast<std::uint64_t>(top);
    }
    default:
      return 0;  // dragons and the extras: two of one kind tie
  }
}

}  // namespace

bool holds_natural(NaturalKind kind, const std::uint8_t* cards13, const RulesSpec& rules) noexcept {
  assert(validate_rules(rules) == nullptr);
  std::uint8_t c[13];
  if (!copy_valid(cards13, c, rules)) return false;
  if (holds_jokers(c)) {
    bool held = false;
    for_each_substitution(c, [&](const std::uint8_t* trial) { return held = holds_with(kind, trial, Counts(trial), rules); });
    return held;
  }
  return holds_with(kind, c, Counts(c), rules);
}

int detect_natural(const std::uint8_t* cards13, const RulesSpec& rules) noexcept {
  assert(validate_rules(rules) == nullptr);
  std::uint8_t c[13];
  if (!copy_valid(cards13, c, rules)) return -1;
  if (holds_jokers(c)) {
    std::uint64_t key = 0;
    std::uint8_t substituted[13];
    return detail::detect_natural_jokers(c, rules, &key, substituted);
  }
  return detail::detect_natural_valid(c, rules);
}

std::uint32_t held_naturals(const std::uint8_t* cards13, const RulesSpec& rules) noexcept {
  assert(validate_rules(rules) == nullptr);
  std::uint8_t c[13];
  if (!copy_valid(cards13, c, rules)) return 0;
  std::uint32_t held = 0;
  // With jokers: every kind some substitution holds.
  for_each_substitution(c, [&](const std::uint8_t* trial) {
    const Counts counts(trial);
    for (int k = 0; k < kNumNaturalKinds; ++k) {
      if (holds_with(static_cast<NaturalKind>(k), trial, counts, rules)) held |= std::uint32_t{1} << k;
    }
    return false;
  });
  return held;
}

std::uint64_t natural_key(NaturalKind kind, const std::uint8_t* cards13, const RulesSpec& rules) noexcept {
  assert(validate_rules(rules) == nullptr);
  std::uint8_t c[13];
  if (!copy_valid(cards13, c, rules)) return 0;
  if (holds_jokers(c)) {
    // The best key among the substitutions that hold the kind.
    std::uint64_t best = 0;
    for_each_substitution(c, [&](const std::uint8_t* trial) {
      if (holds_with(kind, trial, Counts(trial), rules)) best = std::max(best, key_of(kind, trial, rules));
      return false;
    });
    return best;
  }
  return detail::natural_key_valid(kind, c, rules);
}

const char* natural_name(NaturalKind kind) noexcept {
  static const char* const kNames[kNumNaturalKinds] = {
      "six_pairs", "three_straights", "three_flushes", "dragon", "clean_dragon",
      "five_pairs_and_trips", "four_trips", "all_one_colour", "all_small", "all_big",
      "three_quads", "three_straight_flushes", "twelve_royals",
      "five_consecutive_pairs", "two_trips_three_pairs", "one_red", "one_black", "twelve_royals_ten",
      "twelve_royals_and_one",
      "six_of_a_kind", "seven_of_a_kind", "eight_of_a_kind", "two_fives_and_trips"};
  const int k = static_cast<int>(kind);
  return k >= 0 && k < kNumNaturalKinds ? kNames[k] : "?";
}

}  // namespace chinese_poker
