#include "chinese_poker/naturals.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <utility>

#include "chinese_poker/cards.hpp"
#include "naturals_detail.hpp"

namespace chinese_poker {

namespace {

// Rank and suit counts of 13 cards. Summed as packed fields (4 bits a rank, 16 bits a suit) so that
// counting is a chain of register adds, not of memory increments; natural detection runs per player.
// with[n] is how many ranks are held exactly n times, counted once here so that the kinds made of pairs,
// trips and quads are a few additions each instead of a branchy pass over the ranks.
struct Counts {
  int rank[kNumRanks] = {};
  int suit[kNumSuits] = {};
  int with[16] = {};
  unsigned rank_mask = 0;
  explicit Counts(const std::uint8_t* c) {
    std::uint64_t ranks = 0, suits = 0;
    for (int k = 0; k < 13; ++k) {
      ranks += std::uint64_t{1} << (4 * card_rank(c[k]));
      suits += std::uint64_t{1} << (16 * card_suit(c[k]));
      rank_mask |= 1u << card_rank(c[k]);
    }
    // Counted in registers, not by incrementing with[rank[r]]: those increments hit the same few slots
    // one after another and wait on each other's stores.
    int none = 0, once = 0, twice = 0, thrice = 0, four = 0;
    for (int r = 0; r < kNumRanks; ++r) {
      const int n = static_cast<int>(ranks >> (4 * r) & 15u);
      rank[r] = n;
      none += n == 0;
      once += n == 1;
      twice += n == 2;
      thrice += n == 3;
      four += n == 4;
    }
    with[0] = none;
    with[1] = once;
    with[2] = twice;
    with[3] = thrice;
    with[4] = four;
    // Only a pack with added suits holds a rank 5 or 6 times (a nibble holds any count of 13 cards).
    if (none + once + twice + thrice + four != kNumRanks) {
      for (int r = 0; r < kNumRanks; ++r) {
        if (rank[r] >= 5) ++with[rank[r]];
      }
    }
    for (int s = 0; s < kNumSuits; ++s) suit[s] = static_cast<int>(suits >> (16 * s) & 0xFFFFu);
  }
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

// The rises of a slot profile: the sum over slots of how much the count goes up from the slot below.
// Each straight adds one at its lowest slot and takes one away after its top, so a profile made of three
// straights rises by at most 3 in all; most hands rise by more, which settles them without a search.
int rises(const int (&slot)[14]) {
  int total = slot[0];
  for (int s = 1; s < 14; ++s) total += std::max(0, slot[s] - slot[s - 1]);
  return total;
}

bool has_three_straights(const Counts& counts, const StraightRules& allowed) {
  int slot[14] = {};
  for (int r = 0; r < kNumRanks; ++r) slot[r + 1] = counts.rank[r];
  const int aces = slot[13];
  // An ace plays low only in A-2-3 or the wheel; when neither counts, every ace stays high.
  const int max_low = allowed.front_a23 || allowed.wheel ? aces : 0;
  for (int low_aces = 0; low_aces <= max_low; ++low_aces) {
    slot[0] = low_aces;
    slot[13] = aces - low_aces;
    if (rises(slot) <= 3 && straights_from(slot, 1, 2, allowed)) return true;
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

std::uint64_t three_flushes_key(const std::uint8_t* c, const RulesSpec& rules) {
  std::uint64_t best = 0;
  auto five_ok = [](const std::uint8_t* five) { return one_suit(five, 5); };
  for_each_split(c, five_ok, [&](const std::uint8_t* f, const std::uint8_t* m, const std::uint8_t* b) {
    if (!one_suit(f, 3) || (rules.three_flushes_distinct_suits && !three_suits(f, m, b))) return;
    const Strength front = evaluate3(f);
    // The pack's evaluator: with added suits a flush row may hold a pair (equal to evaluate5 otherwise).
    const std::uint64_t key =
        pack_rows(evaluate5_in_pack(b, rules.wheel), evaluate5_in_pack(m, rules.wheel), (front >> 8) & 0xFFFu);
    if (key > best) best = key;
  });
  return best;
}

std::uint64_t six_pairs_key(const Counts& counts, const RulesSpec& rules) {
  std::uint64_t key = 0;
  int single = 0, pairs_packed = 0;
  for (int r = kNumRanks - 1; r >= 0; --r) {
    const int n = counts.rank[r];
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

// naturals group (issue #10): the kinds of real tables (RULES.md section 10).

// Ranks held at least twice, bit r for rank r (0 = deuce).
unsigned paired_ranks(const Counts& counts) {
  unsigned mask = 0;
  for (int r = 0; r < kNumRanks; ++r) mask |= static_cast<unsigned>(counts.rank[r] >= 2) << r;
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
  for (int r = 8; r < kNumRanks; ++r) n += counts.rank[r];
  return n;
}

int jacks_and_up(const Counts& counts) {
  int n = 0;
  for (int r = 9; r < kNumRanks; ++r) n += counts.rank[r];
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
    // deck group (issue #15)
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

int detect_natural_valid(const std::uint8_t* cards13, const RulesSpec& rules) noexcept {
  assert(!check_cards_in_pack(cards13, 13, 0, rules.extra_suits));
  return detect_level(cards13, rules);
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
      // naturals group (issue #10)
      "five_consecutive_pairs", "two_trips_three_pairs", "one_red", "one_black", "twelve_royals_ten",
      "twelve_royals_and_one",
      // deck group (issue #15)
      "six_of_a_kind", "seven_of_a_kind", "eight_of_a_kind", "two_fives_and_trips"};
  const int k = static_cast<int>(kind);
  return k >= 0 && k < kNumNaturalKinds ? kNames[k] : "?";
}

}  // namespace chinese_poker
