#include "chinese_poker/arrange.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <limits>

#include "bits.hpp"
#include "evaluate_tables.hpp"
#include "expected_terms.hpp"
#include "jokers.hpp"
#include "naturals_detail.hpp"
#include "parallel.hpp"

namespace chinese_poker {

namespace {

// The 1,287 five-card and 286 three-card subsets of 13 positions as bit masks, and the inverse maps from
// a mask to its index, built once. A hand's rows are then evaluated once per subset, not once per split.
struct SubsetTables {
  std::uint16_t five[1287];
  std::uint16_t three[286];
  std::uint16_t index_of[1u << 13];  // mask -> index in five[] or three[] (by its popcount)
  SubsetTables() : five{}, three{}, index_of{} {
    int n5 = 0, n3 = 0;
    for (unsigned m = 0; m < (1u << 13); ++m) {
      const int bits = detail::popcount32(m);
      if (bits == 5) {
        index_of[m] = static_cast<std::uint16_t>(n5);
        five[n5++] = static_cast<std::uint16_t>(m);
      } else if (bits == 3) {
        index_of[m] = static_cast<std::uint16_t>(n3);
        three[n3++] = static_cast<std::uint16_t>(m);
      }
    }
  }
};

const SubsetTables& subsets() {
  static const SubsetTables instance;
  return instance;
}

[[maybe_unused]] const SubsetTables& g_subsets_at_load = subsets();

// Strengths and class indices of every 5- and 3-card subset of one hand.
struct HandSubsets {
  Strength five[1287];
  Strength three[286];
  std::uint16_t five_class[1287];
  std::uint16_t three_class[286];
};

void gather(const std::uint8_t* c, unsigned mask, std::uint8_t* out) noexcept {
  int n = 0;
  for (int k = 0; k < 13; ++k) {
    if (mask >> k & 1u) out[n++] = c[k];
  }
}

// Subsets are of the hand's 13 positions, not of cards, so a card held twice (a pack with added suits)
// is two positions like any two cards; only the evaluation of a five-card subset needs the pack's kernel.
void evaluate_subsets(const std::uint8_t* c, Wheel wheel, bool in_pack, HandSubsets& h) noexcept {
  const detail::Tables& t = detail::tables();
  const SubsetTables& s = subsets();
  const auto w = static_cast<unsigned>(wheel);
  std::uint8_t cards[5];
  if (in_pack) {
    for (int i = 0; i < 1287; ++i) {
      gather(c, s.five[i], cards);
      h.five[i] = detail::eval5_pack_with(t, cards, w);
      h.five_class[i] = detail::class5_pack_with(t, cards, w);
    }
  } else {
    // The subsets in the order of five[] (ascending masks: the highest position varies slowest), their
    // card words summed along the loops, so that each subset costs one add, not a gather of 13 positions.
    std::uint64_t word[13];
    for (int k = 0; k < 13; ++k) word[k] = t.card_word[c[k]];
    const auto& plain = t.plain[w];
    const auto& plain_class = t.plain_class[w];
    const auto& flush_class = t.flush_class[w];
    int i = 0;
    for (int p4 = 4; p4 < 13; ++p4)
      for (int p3 = 3; p3 < p4; ++p3) {
        const std::uint64_t w43 = word[p4] + word[p3];
        for (int p2 = 2; p2 < p3; ++p2) {
          const std::uint64_t w432 = w43 + word[p2];
          for (int p1 = 1; p1 < p2; ++p1) {
            const std::uint64_t w4321 = w432 + word[p1];
            for (int p0 = 0; p0 < p1; ++p0, ++i) {
              const std::uint64_t sum = w4321 + word[p0];
              const std::uint32_t slot = detail::slot_of_key(t, static_cast<std::uint32_t>(sum));
              const Strength strength = plain[slot];
              if ((sum & detail::kFlushBits) != 0) {
                h.five[i] = detail::flush_from_plain(strength);
                h.five_class[i] = flush_class[slot];
              } else {
                h.five[i] = strength;
                h.five_class[i] = plain_class[slot];
              }
            }
          }
        }
      }
    assert(i == 1287);
  }
  // Three-card subsets likewise, in the order of three[]; each card's share of the front index is by its
  // place in the row (lowest position first, as gather gives them).
  int i = 0;
  for (int p2 = 2; p2 < 13; ++p2)
    for (int p1 = 1; p1 < p2; ++p1) {
      const std::size_t upper = std::size_t{t.front_part[1][c[p1]]} + std::size_t{t.front_part[2][c[p2]]};
      for (int p0 = 0; p0 < p1; ++p0, ++i) {
        const std::size_t key = upper + t.front_part[0][c[p0]];
        h.three[i] = t.front[key];
        h.three_class[i] = t.front_class[key];
      }
    }
  assert(i == 286);
}

// [jokers] The subsets of a hand holding jokers (RULES.md 1.2) that hold one: each is worth its best
// substitution, and its class is the strongest 52-card class not above that (as for a five of a kind).
// Called after evaluate_subsets only under rules with jokers, so other hands pay nothing for it.
void add_joker_subsets(const std::uint8_t* c, Wheel wheel, HandSubsets& h) noexcept {
  unsigned joker_positions = 0;
  for (int k = 0; k < 13; ++k) {
    if (is_joker(c[k])) joker_positions |= 1u << k;
  }
  if (joker_positions == 0) return;
  const detail::Tables& t = detail::tables();
  const SubsetTables& s = subsets();
  const auto w = static_cast<unsigned>(wheel);
  std::uint8_t cards[5];
  for (int i = 0; i < 1287; ++i) {
    if ((s.five[i] & joker_positions) == 0) continue;
    gather(c, s.five[i], cards);
    h.five[i] = detail::best_joker_strength(t, cards, 5, w);
    h.five_class[i] = detail::class_of_strength(t, h.five[i], 5, w);
  }
  for (int i = 0; i < 286; ++i) {
    if ((s.three[i] & joker_positions) == 0) continue;
    gather(c, s.three[i], cards);
    h.three[i] = detail::best_joker_strength(t, cards, 3, w);
    h.three_class[i] = detail::class_of_strength(t, h.three[i], 3, w);
  }
}

// One legal setting, by the indices of its back, middle and front subsets.
struct Split {
  std::uint16_t back, middle, front;
};

// The card bytes of each row subset of a hand in position order, as fill writes them, packed first byte
// highest: comparing two settings' (front, middle, back) keys compares their card bytes as memcmp does.
struct SubsetKeys {
  std::uint64_t five[1287];
  std::uint32_t three[286];
};

void subset_keys(const std::uint8_t* c, SubsetKeys& keys) noexcept {
  const SubsetTables& s = subsets();
  for (int i = 0; i < 1287; ++i) {
    std::uint64_t key = 0;
    for (int k = 0; k < 13; ++k) {
      if (s.five[i] >> k & 1u) key = key << 8 | c[k];
    }
    keys.five[i] = key;
  }
  for (int i = 0; i < 286; ++i) {
    std::uint32_t key = 0;
    for (int k = 0; k < 13; ++k) {
      if (s.three[i] >> k & 1u) key = key << 8 | c[k];
    }
    keys.three[i] = key;
  }
}

// Calls f(middle index, front index) for every legal setting with back `b`. The middle's five positions
// are chosen from the eight the back leaves by nested loops that build its mask one bit at a time.
template <class F>
void for_each_completion(const HandSubsets& h, int b, const RulesSpec& rules, F&& f) {
  const SubsetTables& s = subsets();
  const Strength back = h.five[b];
  const unsigned rest = 0x1FFFu & ~static_cast<unsigned>(s.five[b]);
  unsigned bit[8];
  int n = 0;
  for (int k = 0; k < 13; ++k) {
    if (rest >> k & 1u) bit[n++] = 1u << k;
  }
  for (int i0 = 0; i0 < 4; ++i0)
    for (int i1 = i0 + 1; i1 < 5; ++i1)
      for (int i2 = i1 + 1; i2 < 6; ++i2) {
        const unsigned m3 = bit[i0] | bit[i1] | bit[i2];
        for (int i3 = i2 + 1; i3 < 7; ++i3)
          for (int i4 = i3 + 1; i4 < 8; ++i4) {
            const unsigned middle_mask = m3 | bit[i3] | bit[i4];
            const int m = s.index_of[middle_mask];
            const Strength middle = h.five[m];
            if (rules.strict_middle ? middle >= back : middle > back) continue;
            const int fr = s.index_of[rest ^ middle_mask];
            if (h.three[fr] < middle) f(m, fr);
          }
      }
}

// Writes every legal setting into `out` (capacity kNumSplits) and returns how many.
std::size_t collect_legal(const HandSubsets& h, const RulesSpec& rules, Split* out) noexcept {
  std::size_t n = 0;
  for (int b = 0; b < 1287; ++b) {
    for_each_completion(h, b, rules, [&](int m, int fr) {
      out[n++] = Split{static_cast<std::uint16_t>(b), static_cast<std::uint16_t>(m), static_cast<std::uint16_t>(fr)};
    });
  }
  return n;
}

// A back and the bound of its settings' expectation, side by side so that ordering them reads no other array.
struct BoundedBack {
  double tight;  // the tighter of the back's two bounds
  int back;
};

// The (middle, front) pairs of kept settings that no other kept pair matches or beats in both, by middle
// descending (so fronts ascend): whether a kept setting matches or beats a pair in both rows is then a look
// at the last step whose middle is as strong.
struct Staircase {
  Strength middle[kNumSplits];
  Strength front[kNumSplits];
  std::size_t size = 0;

  // The last step whose middle is at least m has the strongest front of those steps: it decides.
  bool covers(Strength m, Strength f) const noexcept {
    std::size_t low = 0, high = size;  // the steps [0, low) have middles >= m, [high, size) below m
    while (low < high) {
      const std::size_t mid = low + (high - low) / 2;
      if (middle[mid] >= m) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low > 0 && front[low - 1] >= f;
  }

  // Adds a pair that no step covers, dropping the steps it covers.
  void add(Strength m, Strength f) noexcept {
    std::size_t at = 0;
    while (at < size && middle[at] > m) ++at;  // the steps of stronger middles stay before it
    std::size_t end = at;
    while (end < size && front[end] <= f) ++end;  // middles no stronger, fronts no stronger: covered
    const std::size_t removed = end - at;
    if (removed == 0) {
      for (std::size_t k = size; k > at; --k) {
        middle[k] = middle[k - 1];
        front[k] = front[k - 1];
      }
      ++size;
    } else {
      for (std::size_t k = end; k < size; ++k) {
        middle[k - removed + 1] = middle[k];
        front[k - removed + 1] = front[k];
      }
      size = size - removed + 1;
    }
    middle[at] = m;
    front[at] = f;
  }
};

// Scratch space of one arranging call: thread-local, so concurrent batch calls each have their own and
// no call allocates on its path.
struct Scratch {
  HandSubsets subsets;
  Split legal[kNumSplits];
  std::uint16_t order[1287];  // backs, most promising first
  double bound[1287];         // per back: an upper bound of the expectation of its settings
  BoundedBack candidate[1287];  // backs still to search, with their bounds
  SubsetKeys keys;
  Staircase stairs;  // the undominated search's kept settings
};

// A thread_local object's address, read through a volatile so that it is an opaque pointer: GCC otherwise
// recomputes the address of a thread_local at each use (in a shared library, a __tls_get_addr call) instead
// of keeping it in a register, and did so inside the sort's comparator, a tenth of arranging's time.
template <class T>
T& opaque(T& object) noexcept {
  T* volatile address = &object;
  return *address;
}

Scratch& scratch() noexcept {
  thread_local Scratch instance;
  return opaque(instance);
}

// The 1,287 backs of a hand in the order of `first(x, y)` (x before y), a total order: ties of strength or
// bound go by index, so the setting chosen among equal ones is the same with every standard library
// (std::sort leaves equal keys in an order of its own). A heap, not a sort: the searches stop after a few
// backs, and building the heap costs a fraction of sorting all of them.
template <class First>
class BackQueue {
 public:
  BackQueue(std::uint16_t (&order)[1287], First first) noexcept : order_(order), first_(first) {
    for (int b = 0; b < 1287; ++b) order_[b] = static_cast<std::uint16_t>(b);
    std::make_heap(order_, order_ + 1287, comes_after());
  }
  bool empty() const noexcept { return size_ == 0; }
  // The next back in order, left in the queue; only when !empty().
  int top() const noexcept { return order_[0]; }
  // The next back in order; only when !empty().
  int pop() noexcept {
    std::pop_heap(order_, order_ + size_, comes_after());
    --size_;
    return order_[size_];
  }

 private:
  // The heap's "less": its top is the back that comes after no other, the first in order.
  auto comes_after() const noexcept {
    return [this](std::uint16_t x, std::uint16_t y) { return first_(y, x); };
  }
  std::uint16_t* order_;
  First first_;
  std::ptrdiff_t size_ = 1287;
};

// The order both searches take a hand's backs in: strongest first, those of equal strength by index.
struct StrongestBackFirst {
  const HandSubsets* h;
  bool operator()(int x, int y) const noexcept {
    return h->five[x] != h->five[y] ? h->five[x] > h->five[y] : x < y;
  }
};

void fill(const std::uint8_t* c, const HandSubsets& h, int b, int m, int fr, Arrangement* out) noexcept {
  const SubsetTables& s = subsets();
  gather(c, s.three[fr], out->cards);
  gather(c, s.five[m], out->cards + 3);
  gather(c, s.five[b], out->cards + 8);
  out->strength[0] = h.three[fr];
  out->strength[1] = h.five[m];
  out->strength[2] = h.five[b];
}

bool stronger(Strength b1, Strength m1, Strength f1, Strength b2, Strength m2, Strength f2) noexcept {
  if (b1 != b2) return b1 > b2;
  if (m1 != m2) return m1 > m2;
  return f1 > f2;
}

bool same_strengths(const Arrangement& x, const Arrangement& y) noexcept {
  return x.strength[0] == y.strength[0] && x.strength[1] == y.strength[1] && x.strength[2] == y.strength[2];
}

// Strongest first; settings of equal strengths by their card bytes, so that the order is total and the
// setting kept for each strength (arrangements with distinct strengths) is the same with every standard
// library.
bool by_strengths_desc(const Arrangement& x, const Arrangement& y) noexcept {
  if (!same_strengths(x, y)) {
    return stronger(x.strength[2], x.strength[1], x.strength[0], y.strength[2], y.strength[1], y.strength[0]);
  }
  return std::memcmp(x.cards, y.cards, sizeof x.cards) < 0;
}

// What the eight cards a back leaves can make, as an upper bound of the categories of the middle and the
// front (one 52-card deck): rank counts as 13 nibbles and suit counts as 4, and from them which categories
// are within reach. A bound, not the best hand: a flush and a straight both possible count as a straight
// flush, the wheel as a straight whatever the rules say of it.
struct RestCounts {
  std::uint64_t ranks;  // nibble r: cards of rank r
  std::uint32_t suits;  // nibble s: cards of suit s
};

constexpr std::uint64_t kRankNibbles = 0x1111111111111ULL;  // 13 nibbles of 1

// Nibble flags (bit 3 of each of the 13 nibbles) of the ranks held at least `n` times (n in 1..4; counts
// up to 8 of one rank cannot carry into the next nibble).
constexpr std::uint64_t ranks_at_least(std::uint64_t ranks, unsigned n) noexcept {
  return (ranks + (8 - n) * kRankNibbles) & (8 * kRankNibbles);
}

int five_category_cap(const RestCounts& rest) noexcept {
  const std::uint64_t held = ranks_at_least(rest.ranks, 1);
  const std::uint64_t runs = held & held >> 4 & held >> 8 & held >> 12 & held >> 16;
  // Ranks 0-3 (deuce to five) and the ace (rank 12): the wheel.
  constexpr std::uint64_t kWheel = 8ULL | 8ULL << 4 | 8ULL << 8 | 8ULL << 12 | 8ULL << 48;
  const bool straight = runs != 0 || (held & kWheel) == kWheel;
  const bool flush = ((rest.suits + 0x3333u) & 0x8888u) != 0;  // a suit held five times or more
  if (straight && flush) return kStraightFlush;
  const std::uint64_t pairs = ranks_at_least(rest.ranks, 2);
  const std::uint64_t trips = ranks_at_least(rest.ranks, 3);
  const bool two_pairs = (pairs & (pairs - 1)) != 0;  // two flags or more
  if (ranks_at_least(rest.ranks, 4) != 0) return kFourOfAKind;
  if (trips != 0 && two_pairs) return kFullHouse;
  if (flush) return kFlush;
  if (straight) return kStraight;
  if (trips != 0) return kThreeOfAKind;
  if (two_pairs) return kTwoPair;
  return pairs != 0 ? kOnePair : kHighCard;
}

int three_category_cap(const RestCounts& rest) noexcept {
  if (ranks_at_least(rest.ranks, 3) != 0) return kThreeOfAKind;
  return ranks_at_least(rest.ranks, 2) != 0 ? kOnePair : kHighCard;
}

// A legal setting by its subsets' indices and its rows' strengths: what the search for the undominated
// settings compares, the card bytes gathered only where two have equal strengths.
struct Candidate {
  Strength strength[3];  // front, middle, back
  std::uint16_t back, middle, front;
};

Candidate candidate_of(const HandSubsets& h, int b, int m, int fr) noexcept {
  return Candidate{{h.three[fr], h.five[m], h.five[b]},
                   static_cast<std::uint16_t>(b),
                   static_cast<std::uint16_t>(m),
                   static_cast<std::uint16_t>(fr)};
}


// Whether x's card bytes (front, middle, back) come before y's: by_strengths_desc's order among settings
// of equal strengths. Rows are compared by their bytes, not by which subset they are: with a card twice
// (a pack with added suits) two subsets hold the same bytes, and the next row decides.
bool cards_first(const SubsetKeys& keys, const Candidate& x, const Candidate& y) noexcept {
  if (keys.three[x.front] != keys.three[y.front]) return keys.three[x.front] < keys.three[y.front];
  if (keys.five[x.middle] != keys.five[y.middle]) return keys.five[x.middle] < keys.five[y.middle];
  return keys.five[x.back] < keys.five[y.back];
}

// Keeps `held` (n settings none of which another matches or beats in all three rows; of equal strengths
// the one whose card bytes come first) so with `x` offered: x is left out when one of them matches or
// beats it (it replaces one of equal strengths whose bytes come after its own), and drops those it beats.
// Returns the new count. Once one of them covers x, none was dropped: that one would cover a dropped one
// too, which `held` rules out.
// The settings offered are of one back, so only their middles and fronts are compared.
std::size_t keep_undominated(const SubsetKeys& keys, const Candidate& x, Candidate* held, std::size_t n) noexcept {
  std::size_t w = 0;
  const Strength front = x.strength[0], middle = x.strength[1];
  for (std::size_t k = 0; k < n; ++k) {
    const Strength held_front = held[k].strength[0], held_middle = held[k].strength[1];
    if (held_front >= front && held_middle >= middle) {
      if (held_front == front && held_middle == middle && cards_first(keys, x, held[k])) held[k] = x;
      return n;
    }
    if (held_front > front || held_middle > middle) held[w++] = held[k];
  }
  held[w++] = x;
  return w;
}

// The legal settings that no other legal one matches or beats in all three rows, one per distinct
// strengths (the one whose card bytes come first), into `out` in by_strengths_desc's order (strongest
// back, then middle, then front); returns how many: what sorting every legal setting and filtering it
// gives. The backs are taken by strength, strongest first, those of equal strength together as a group:
// each back's completions are reduced to those no other of its own covers (a few of its 56); a group's
// are ordered by middle, then front, strongest first, so that one is covered within the group exactly
// when an earlier one has a front as strong, and by a stronger back exactly when a setting already kept
// has a middle and a front as strong. `sc.keys`, `sc.order` and `sc.legal` are the scratch space.
std::size_t undominated_legal(const std::uint8_t* c, const HandSubsets& h, const RulesSpec& rules, Scratch& sc,
                              Arrangement* out) noexcept {
  subset_keys(c, sc.keys);
  BackQueue backs(sc.order, StrongestBackFirst{&h});
  const auto middle_front_desc = [&h](const Split& x, const Split& y) {
    if (h.five[x.middle] != h.five[y.middle]) return h.five[x.middle] > h.five[y.middle];
    return h.three[x.front] > h.three[y.front];
  };
  std::size_t kept = 0;
  sc.stairs.size = 0;
  Candidate local[56];
  // A setting's front is at most its middle, its middle at most its back, and its front at most the hand's
  // strongest three cards. So once a kept setting (of a stronger back) has a middle as strong as the next
  // backs and a front as strong as the strongest front they could hold, it beats every setting of those
  // backs and of all weaker ones: the search stops there.
  Strength strongest_front = 0;
  for (int f = 0; f < 286; ++f) strongest_front = std::max(strongest_front, h.three[f]);
  // With one deck, what the eight cards a back leaves can make bounds its middles and fronts by category:
  // a back whose bound a kept setting (of a stronger back) covers is passed over whole.
  const bool one_deck = rules.extra_suits == 0 && rules.jokers == 0;
  std::uint64_t rank_of[13], hand_ranks = 0;
  std::uint32_t suit_of[13], hand_suits = 0;
  for (int k = 0; k < 13; ++k) {
    rank_of[k] = std::uint64_t{1} << (4 * card_rank(c[k]));
    suit_of[k] = 1u << (4 * card_suit(c[k]));
    hand_ranks += rank_of[k];
    hand_suits += suit_of[k];
  }
  const SubsetTables& subsets_of = subsets();
  const auto beaten_whole = [&](int b) noexcept {
    RestCounts rest{hand_ranks, hand_suits};
    const unsigned mask = subsets_of.five[b];
    for (int k = 0; k < 13; ++k) {
      const unsigned in_back = mask >> k & 1u;
      rest.ranks -= rank_of[k] * in_back;
      rest.suits -= suit_of[k] * in_back;
    }
    const auto top_of = [](int category) { return (static_cast<Strength>(category + 1) << 20) - 1; };
    const Strength middle = std::min(h.five[b], top_of(five_category_cap(rest)));
    const Strength front = std::min({strongest_front, top_of(three_category_cap(rest)), middle});
    return sc.stairs.covers(middle, front);
  };
  Strength front_kept = 0;    // the strongest front of a kept setting (its middle is at least as strong)
  Strength middle_reach = 0;  // the strongest middle of a kept setting with the strongest front, if any
  bool reached = false;
  while (!backs.empty()) {
    const Strength back = h.five[backs.top()];
    if (kept > 0 && (front_kept >= back || (reached && middle_reach >= back))) break;
    std::size_t group = 0;
    while (!backs.empty() && h.five[backs.top()] == back) {
      const int b = backs.pop();
      if (one_deck && beaten_whole(b)) continue;
      std::size_t n = 0;
      for_each_completion(h, b, rules, [&](int m, int fr) {
        // One a kept setting covers is left out here already: whatever it would cover, that setting covers.
        if (sc.stairs.covers(h.five[m], h.three[fr])) return;
        n = keep_undominated(sc.keys, candidate_of(h, b, m, fr), local, n);
      });
      for (std::size_t k = 0; k < n; ++k) sc.legal[group++] = Split{local[k].back, local[k].middle, local[k].front};
    }
    std::sort(sc.legal, sc.legal + group, middle_front_desc);
    const std::size_t before = kept;  // the settings of stronger backs
    bool any = false;
    Strength best_front = 0;  // the strongest front of the group's settings so far
    for (std::size_t k = 0; k < group;) {
      // A run of equal middles and fronts: its setting whose card bytes come first stands for it.
      Candidate pick = candidate_of(h, sc.legal[k].back, sc.legal[k].middle, sc.legal[k].front);
      std::size_t next = k + 1;
      for (; next < group && !middle_front_desc(sc.legal[k], sc.legal[next]); ++next) {
        const Candidate other = candidate_of(h, sc.legal[next].back, sc.legal[next].middle, sc.legal[next].front);
        if (cards_first(sc.keys, other, pick)) pick = other;
      }
      k = next;
      if (any && best_front >= pick.strength[0]) continue;
      any = true;
      best_front = pick.strength[0];
      if (sc.stairs.covers(pick.strength[1], pick.strength[0])) continue;
      fill(c, h, pick.back, pick.middle, pick.front, &out[kept++]);
      front_kept = std::max(front_kept, pick.strength[0]);
      if (pick.strength[0] >= strongest_front) {
        middle_reach = reached ? std::max(middle_reach, pick.strength[1]) : pick.strength[1];
        reached = true;
      }
    }
    // The group's settings cover those of weaker backs only: into the staircase once the group is done.
    for (std::size_t q = before; q < kept; ++q) {
      if (!sc.stairs.covers(out[q].strength[1], out[q].strength[0])) sc.stairs.add(out[q].strength[1], out[q].strength[0]);
    }
  }
  return kept;
}

struct RowValue {
  double win, loss, extra_win, extra_loss, always;
};

RowValue row_value(const RowModel& r, std::size_t k) noexcept {
  return RowValue{r.win[k], r.loss[k], r.extra_win[k], r.extra_loss[k], r.always[k]};
}

// Expected units per opponent when the rows are worth `v` (front, middle, back), the rows' results taken
// as independent: plain units, royalties, overall unit (two rows), scoop bonus and scoop multiplier.
double expectation(const RowValue* v, const ExpectedModel& model) noexcept {
  double plain = 0, royalty = 0;
  for (int r = 0; r < 3; ++r) {
    plain += v[r].win - v[r].loss;
    royalty += v[r].win * v[r].extra_win - v[r].extra_loss + v[r].always;
  }
  const double a0 = v[0].win, a1 = v[1].win, a2 = v[2].win;
  const double c0 = v[0].loss, c1 = v[1].loss, c2 = v[2].loss;
  const double win_two = a0 * a1 + a0 * a2 + a1 * a2 - 2 * a0 * a1 * a2;
  const double lose_two = c0 * c1 + c0 * c2 + c1 * c2 - 2 * c0 * c1 * c2;
  const double scoop = a0 * a1 * a2, scooped = c0 * c1 * c2;
  double total = plain + royalty + model.overall_unit * (win_two - lose_two) + model.scoop_bonus * (scoop - scooped);
  if (model.scoop_multiplier != 1) {
    const double extra = model.scoop_multiplier - 1;
    const double unit = 3 + model.overall_unit + model.scoop_bonus;
    total += extra * unit * (scoop - scooped);
    if (model.royalties_in_multiplier) {
      const double ours = scoop * (v[0].extra_win + v[1].extra_win + v[2].extra_win);
      const double theirs = v[0].extra_loss * c1 * c2 + v[1].extra_loss * c0 * c2 + v[2].extra_loss * c0 * c1;
      total += extra * (ours - theirs);
    }
  }
  return total;
}

// The expectation regrouped for the search: each row's terms that do not involve another row folded into
// one number (`own`), the pair terms from the rows' win and loss chances and royalties. Equal to
// expectation() up to rounding (a few ulps), so the search uses it only to skip settings clearly below the
// best found and values every other one with expectation() itself: the setting chosen and its value are
// expectation()'s.
struct FastRow {
  double own, win, loss, extra_win, extra_loss;
};

FastRow fast_row(const RowValue& v) noexcept {
  return FastRow{v.win - v.loss + v.win * v.extra_win - v.extra_loss + v.always, v.win, v.loss, v.extra_win,
                 v.extra_loss};
}

using detail::model_pair_terms;
using detail::ModelPairTerms;

inline double fast_expectation(const FastRow& f, const FastRow& m, const FastRow& b,
                               const ModelPairTerms& pair) noexcept {
  const double wins = f.win * m.win, losses = f.loss * m.loss;
  const double win_two = wins + (f.win + m.win) * b.win - 2 * wins * b.win;
  const double lose_two = losses + (f.loss + m.loss) * b.loss - 2 * losses * b.loss;
  const double scoop = wins * b.win, scooped = losses * b.loss;
  double total = f.own + m.own + b.own + pair.overall * (win_two - lose_two) + pair.scoop * (scoop - scooped);
  if (pair.royalty_scoop != 0) {
    const double ours = scoop * (f.extra_win + m.extra_win + b.extra_win);
    const double theirs = f.extra_loss * m.loss * b.loss + m.extra_loss * f.loss * b.loss + b.extra_loss * losses;
    total += pair.royalty_scoop * (ours - theirs);
  }
  return total;
}

// Per-subset fast rows of one hand (the middle and back tables differ, so a five-card subset has two).
struct HandValues {
  FastRow middle[1287];
  FastRow back[1287];
  FastRow front[286];
};

HandValues& hand_values() noexcept {
  thread_local HandValues instance;
  return opaque(instance);
}

// Copies 13 cards, checks the copy against the rules' pack (a card of an added suit may appear twice) and
// puts it in falling code order: every search runs over the hand's positions, so the setting kept among
// equally strong ones is then a function of the 13 cards alone, not of the order they were given in (and
// each row comes out highest card first).
CardIssue copy_checked(const std::uint8_t* cards13, std::int64_t item, const RulesSpec& rules,
                       std::uint8_t* copy) noexcept {
  std::memcpy(copy, cards13, 13);
  const CardIssue issue = check_cards_in_pack(copy, 13, item, pack_of(rules));
  if (!issue) std::sort(copy, copy + 13, [](std::uint8_t a, std::uint8_t b) { return a > b; });
  return issue;
}

void strongest_valid(const std::uint8_t* cards13, const RulesSpec& rules, Arrangement* out) noexcept {
  assert(!check_cards_in_pack(cards13, 13, 0, pack_of(rules)));
  Scratch& sc = scratch();
  HandSubsets& h = sc.subsets;
  evaluate_subsets(cards13, rules.wheel, rules.extra_suits != 0, h);
  if (rules.jokers != 0) add_joker_subsets(cards13, rules.wheel, h);
  // Backs strongest first: the first back with a legal completion is the strongest back; only backs of the
  // same strength (other suits) can still matter after it.
  BackQueue queue(sc.order, StrongestBackFirst{&h});
  int best_b = -1, best_m = -1, best_f = -1;
  while (!queue.empty()) {
    const int b = queue.pop();
    if (best_b >= 0 && h.five[b] < h.five[best_b]) break;
    for_each_completion(h, b, rules, [&](int m, int fr) {
      if (best_b < 0 || stronger(h.five[b], h.five[m], h.three[fr], h.five[best_b], h.five[best_m], h.three[best_f])) {
        best_b = b;
        best_m = m;
        best_f = fr;
      }
    });
  }
  // 13 cards always have a legal setting (the strongest five behind the strongest five of the other eight;
  // a card held twice changes nothing there).
  assert(best_b >= 0);
  fill(cards13, h, best_b, best_m, best_f, out);
}

// The componentwise best of two row values (each an upper bound of the same row): the tighter bound.
RowValue tighter(const RowValue& x, const RowValue& y) noexcept {
  return RowValue{std::min(x.win, y.win), std::max(x.loss, y.loss), std::min(x.extra_win, y.extra_win),
                  std::max(x.extra_loss, y.extra_loss), std::min(x.always, y.always)};
}

// The componentwise best of the row values `v` over a set of rows; `first` says whether the set is empty.
void widen(RowValue& best, const RowValue& v, bool first) noexcept {
  if (first) {
    best = v;
    return;
  }
  best.win = std::max(best.win, v.win);
  best.loss = std::min(best.loss, v.loss);
  best.extra_win = std::max(best.extra_win, v.extra_win);
  best.extra_loss = std::min(best.extra_loss, v.extra_loss);
  best.always = std::max(best.always, v.always);
}

// Per category k, the componentwise best row values over the hand's subsets of category k or lower
// (categories no subset has take the values below them; `has` says whether any subset is that low).
template <std::size_t N>
struct CategoryBounds {
  RowValue upto[N];
  bool has[N];
  void finish() noexcept {
    for (std::size_t k = 1; k < N; ++k) {
      if (!has[k - 1]) continue;
      widen(upto[k], upto[k - 1], !has[k]);
      has[k] = true;
    }
  }
};

// A setting the search valued: its exact expectation, its back, middle and front subsets, and the key
// its near-duplicates share.
struct Found {
  double ev;
  int b, m, fr;
  std::uint64_t key;
};

// A row's category and the ranks that name its made hand (its strength without the kickers): two ranks
// for two pair and a full house, one for every other category (a high card's is its highest card).
std::uint64_t row_key(Strength s) noexcept {
  const int category = category_of(s);
  const int lead = category == kTwoPair || category == kFullHouse ? 2 : 1;
  return std::uint64_t{s} >> (kCategoryShift - 4 * lead);
}

// The key of suggest's near-duplicates (advice.distinct_key): the three rows' keys packed.
std::uint64_t setting_key(Strength front, Strength middle, Strength back) noexcept {
  return row_key(front) << 24 | row_key(middle) << 12 | row_key(back);
}

// The best settings found so far, at most one per key, best first, at most `capacity` (1 to
// kMaxSecondStage). Which settings it holds at the end does not depend on the order they were offered in:
// `better` is a total order on settings of distinct strengths, and a key's best only ever replaces it.
// Settings more than `margin` below the best are of no interest: floor() does not go below that.
class BestFound {
 public:
  BestFound(int capacity, double margin) noexcept : capacity_(capacity), margin_(margin) {}
  bool full() const noexcept { return count_ == capacity_; }
  int size() const noexcept { return count_; }
  const Found& operator[](int k) const noexcept { return found_[k]; }
  // What a setting must reach to enter (when full, the last one's value; else nothing).
  double floor() const noexcept {
    if (count_ == 0) return -std::numeric_limits<double>::infinity();
    const double near_best = found_[0].ev - margin_;
    return full() ? std::max(found_[count_ - 1].ev, near_best) : near_best;
  }
  template <class Better>
  void offer(const Found& f, Better better) noexcept {
    int same = -1;
    for (int k = 0; k < count_; ++k) {
      if (found_[k].key == f.key) {
        same = k;
        break;
      }
    }
    if (same >= 0) {
      if (!better(f, found_[same])) return;
      for (int k = same; k + 1 < count_; ++k) found_[k] = found_[k + 1];
      --count_;
    } else if (full()) {
      if (!better(f, found_[count_ - 1])) return;
      --count_;
    }
    int k = count_;
    for (; k > 0 && better(f, found_[k - 1]); --k) found_[k] = found_[k - 1];
    found_[k] = f;
    ++count_;
  }

 private:
  Found found_[kMaxSecondStage];
  int capacity_;
  double margin_;
  int count_ = 0;
};

// Among settings of equal value the strongest; among equally strong ones the one of least back index,
// then the first in the back's own order: a choice independent of the order backs are taken in.
struct BetterSetting {
  const HandSubsets& h;
  bool operator()(const Found& x, const Found& y) const noexcept {
    if (x.ev != y.ev) return x.ev > y.ev;
    if (stronger(h.five[x.b], h.five[x.m], h.three[x.fr], h.five[y.b], h.five[y.m], h.three[y.fr])) return true;
    return x.b < y.b && h.five[x.b] == h.five[y.b] && h.five[x.m] == h.five[y.m] && h.three[x.fr] == h.three[y.fr];
  }
};

// The regrouped sum differs from expectation() by rounding only (values of at most a few hundred units,
// so by far less than this); a setting is skipped only when its fast value is below the best by more.
constexpr double kSlack = 1e-9;

// One hand's search for expected_valid (docs/ARRANGING.md): its subsets, the model's values of them and
// the bounds the search prunes with, built once by the constructor; then the steps, in order:
// bound_backs, search, second_stage, undominated.
class ExpectedSearch {
 public:
  ExpectedSearch(const std::uint8_t* cards13, const RulesSpec& rules, const ExpectedModel& model) noexcept
      : cards_(cards13),
        rules_(rules),
        model_(model),
        sc_(scratch()),
        h_(sc_.subsets),
        values_(hand_values()),
        by_rest_(rules.extra_suits == 0 && rules.jokers == 0),
        better_{h_},
        found_(second_stage_runs(model) ? model.top : 1, second_stage_runs(model) ? kSecondStageMargin : 0.0) {
    evaluate_subsets(cards13, rules.wheel, rules.extra_suits != 0, h_);
    if (rules.jokers != 0) add_joker_subsets(cards13, rules.wheel, h_);
    value_rows();
  }

  // Step 1. Per back, an upper bound of every setting behind it (the expectation grows with each row's win
  // chance, royalty and "always" value and falls with its loss chance and the opponent's royalty, so the
  // front valued at the hand's best front values and the middle at the best values of any class up to the
  // back's bound every setting with that back) into sc.bound; returns the back of greatest bound.
  int bound_backs() noexcept {
    const FastRow front_bound = fast_row(fronts_.upto[kThreeOfAKind]);
    int top = 0;
    for (int b = 0; b < 1287; ++b) {
      sc_.bound[b] = fast_expectation(front_bound, fast_row(middle_bound(b)), values_.back[b], pair_);
      if (sc_.bound[b] > sc_.bound[top]) top = b;
    }
    return top;
  }

  // Step 2. The model's best setting, or with a second stage its `top` best of distinct keys: the back of
  // greatest bound first, then every back whose bounds reach the best found, most promising first, until
  // none does. The search skips only what cannot reach the last of them, nor the best less the margin.
  void search(int top) noexcept {
    search_back(top);
    int count = 0;
    for (int b = 0; b < 1287; ++b) {
      if (b == top || sc_.bound[b] < found_.floor() - kSlack) continue;
      double tight = sc_.bound[b];
      if (by_rest_ && !tighter_bound(b, &tight)) continue;
      sc_.candidate[count++] = BoundedBack{tight, b};
    }
    // A heap by the tighter bound (ties by index, for a total order): the search stops after a few backs,
    // and building the heap costs a fraction of sorting them all.
    const auto comes_after = [](const BoundedBack& x, const BoundedBack& y) {
      return x.tight != y.tight ? x.tight < y.tight : x.back > y.back;
    };
    BoundedBack* const candidates = sc_.candidate;
    std::make_heap(candidates, candidates + count, comes_after);
    while (count > 0) {
      std::pop_heap(candidates, candidates + count, comes_after);
      const BoundedBack& next = candidates[--count];
      if (next.tight < found_.floor() - kSlack) break;
      search_back(next.back);
    }
    assert(found_.size() > 0);
  }

  // Step 3. Which of the settings found is played: the model's best, or with a second stage, of the
  // model's best few those no better one matches or beats in every row (such a setting never scores more
  // against any opponent), re-scored against the sample; the first of the greatest.
  int second_stage() const noexcept {
    int pick = 0;
    if (!second_stage_runs(model_)) return pick;
    int kept[kMaxSecondStage];
    int kept_count = 0;
    double best_units = 0;
    for (int k = 0; k < found_.size(); ++k) {
      const Found& f = found_[k];
      if (f.ev < found_[0].ev - kSecondStageMargin) break;  // entered before the best was found
      bool dominated = false;
      for (int q = 0; q < kept_count && !dominated; ++q) {
        const Found& g = found_[kept[q]];
        dominated = h_.three[g.fr] >= h_.three[f.fr] && h_.five[g.m] >= h_.five[f.m] && h_.five[g.b] >= h_.five[f.b];
      }
      if (dominated) continue;
      kept[kept_count++] = k;
      const std::int16_t row_class[3] = {static_cast<std::int16_t>(h_.three_class[f.fr]),
                                         static_cast<std::int16_t>(h_.five_class[f.m]),
                                         static_cast<std::int16_t>(h_.five_class[f.b])};
      const double units = sample_units(model_, row_class);
      if (k == 0 || units > best_units) {
        best_units = units;
        pick = k;
      }
    }
    return pick;
  }

  // Step 4. Dominance: a setting outside the few may still match or beat the one picked in every row (a
  // near-duplicate of one of them, with other kickers): then the best by the model of those that do is
  // played, which no setting dominates (one that did would dominate the pick too, and be better). The
  // model's best (pick 0) is undominated already.
  Found undominated(int pick) const noexcept {
    Found chosen = found_[pick];
    if (pick == 0) return chosen;
    const Strength front = h_.three[chosen.fr], middle = h_.five[chosen.m], back = h_.five[chosen.b];
    const Found picked = chosen;
    for (int b = 0; b < 1287; ++b) {
      if (h_.five[b] < back) continue;
      for_each_completion(h_, b, rules_, [&](int m, int fr) {
        if (h_.five[m] < middle || h_.three[fr] < front || (b == picked.b && m == picked.m && fr == picked.fr)) return;
        const Found f = valued(b, m, fr);
        if (better_(f, chosen)) chosen = f;
      });
    }
    return chosen;
  }

  // Writes setting `f` of the hand into `out`.
  void fill_setting(const Found& f, Arrangement* out) const noexcept { fill(cards_, h_, f.b, f.m, f.fr, out); }

 private:
  static bool second_stage_runs(const ExpectedModel& model) noexcept {
    return model.top >= 2 && model.sample.size() > 0;
  }

  // The model's values of every subset of the hand (fast rows for the search) and, per category, the best
  // values of its fronts and middles of that category or lower (for the tighter bound).
  void value_rows() noexcept {
    for (int i = 0; i < 1287; ++i) {
      const RowValue middle = row_value(model_.row[1], h_.five_class[i]);
      values_.middle[i] = fast_row(middle);
      values_.back[i] = fast_row(row_value(model_.row[2], h_.five_class[i]));
      if (by_rest_) {
        const int k = category_of(h_.five[i]);
        widen(middles_.upto[k], middle, !middles_.has[k]);
        middles_.has[k] = true;
      }
    }
    middles_.finish();
    for (int i = 0; i < 286; ++i) values_.front[i] = fast_row(row_value(model_.row[0], h_.three_class[i]));
    pair_ = model_pair_terms(model_);
    for (int i = 0; i < 286; ++i) {
      const int k = category_of(h_.three[i]);
      widen(fronts_.upto[k], row_value(model_.row[0], h_.three_class[i]), !fronts_.has[k]);
      fronts_.has[k] = true;
    }
    fronts_.finish();
    // The rank and suit counts of the hand, for the cards each back leaves (one deck).
    for (int k = 0; by_rest_ && k < 13; ++k) {
      rank_of_[k] = std::uint64_t{1} << (4 * card_rank(cards_[k]));
      suit_of_[k] = std::uint32_t{1} << (4 * card_suit(cards_[k]));
      hand_ranks_ += rank_of_[k];
      hand_suits_ += suit_of_[k];
    }
  }

  // The best values of any middle class up to back b's.
  RowValue middle_bound(int b) const noexcept {
    const std::size_t c = h_.five_class[b];
    return RowValue{model_.middle_upto[0][c], model_.middle_upto[1][c], model_.middle_upto[2][c],
                    model_.middle_upto[3][c], model_.middle_upto[4][c]};
  }

  // The model's value of setting (b, m, fr).
  Found valued(int b, int m, int fr) const noexcept {
    const RowValue v[3] = {row_value(model_.row[0], h_.three_class[fr]), row_value(model_.row[1], h_.five_class[m]),
                           row_value(model_.row[2], h_.five_class[b])};
    return Found{expectation(v, model_), b, m, fr, setting_key(h_.three[fr], h_.five[m], h_.five[b])};
  }

  // Values every setting behind back b that the fast sum does not put clearly below the floor.
  void search_back(int b) noexcept {
    for_each_completion(h_, b, rules_, [&](int m, int fr) {
      if (found_.size() > 0 &&
          fast_expectation(values_.front[fr], values_.middle[m], values_.back[b], pair_) < found_.floor() - kSlack) {
        return;
      }
      found_.offer(valued(b, m, fr), better_);
    });
  }

  // A second, tighter bound for a back still in reach (one deck): the middle and the front come from the
  // eight cards the back leaves, so their categories are at most what those cards can make. Into *tight
  // (left as it is when the hand has no row that low); false when the back is out of reach by it.
  bool tighter_bound(int b, double* tight) const noexcept {
    RestCounts rest{hand_ranks_, hand_suits_};
    const unsigned mask = tables_.five[b];
    for (int k = 0; k < 13; ++k) {
      const unsigned in_back = mask >> k & 1u;
      rest.ranks -= rank_of_[k] * in_back;
      rest.suits -= suit_of_[k] * in_back;
    }
    const int five_cap = five_category_cap(rest), three_cap = three_category_cap(rest);
    if (!middles_.has[five_cap] || !fronts_.has[three_cap]) return true;
    const RowValue middle = tighter(middle_bound(b), middles_.upto[five_cap]);
    *tight = fast_expectation(fast_row(fronts_.upto[three_cap]), fast_row(middle), values_.back[b], pair_);
    return !(*tight < found_.floor() - kSlack);
  }

  const SubsetTables& tables_ = subsets();
  const std::uint8_t* cards_;
  const RulesSpec& rules_;
  const ExpectedModel& model_;
  Scratch& sc_;
  HandSubsets& h_;
  HandValues& values_;
  const bool by_rest_;  // one 52-card deck: the backs' bounds can be tightened by what the rest can make
  BetterSetting better_;
  BestFound found_;
  ModelPairTerms pair_{};
  CategoryBounds<kFiveOfAKind + 1> middles_{};
  CategoryBounds<kThreeOfAKind + 1> fronts_{};
  std::uint64_t hand_ranks_ = 0;
  std::uint32_t hand_suits_ = 0;
  std::uint64_t rank_of_[13] = {};
  std::uint32_t suit_of_[13] = {};
};

// The expected strategy on 13 valid cards: the steps of docs/ARRANGING.md, in order.
double expected_valid(const std::uint8_t* cards13, const RulesSpec& rules, const ExpectedModel& model,
                      Arrangement* out) noexcept {
  assert(!check_cards_in_pack(cards13, 13, 0, pack_of(rules)));
  ExpectedSearch hand(cards13, rules, model);
  hand.search(hand.bound_backs());
  const Found chosen = hand.undominated(hand.second_stage());
  hand.fill_setting(chosen, out);
  return chosen.ev;
}

// The index of `s` among a row model's classes, or -1.
std::ptrdiff_t find_class(const RowModel& row, Strength s) noexcept {
  const auto it = std::lower_bound(row.classes.begin(), row.classes.end(), s);
  if (it == row.classes.end() || *it != s) return -1;
  return it - row.classes.begin();
}

// Expected units of a setting whose row strengths may be ones no 52-card class has (a pack with added
// suits): each row valued at the strongest class of its row model not above it.
bool expected_units_at_most(const Strength strength[3], const ExpectedModel& model, double* out) noexcept {
  RowValue v[3];
  for (int r = 0; r < 3; ++r) {
    const RowModel& row = model.row[r];
    const auto above = std::upper_bound(row.classes.begin(), row.classes.end(), strength[r]);
    if (above == row.classes.begin()) return false;
    const auto i = static_cast<std::size_t>((above - row.classes.begin()) - 1);
    if (i >= row.win.size() || i >= row.loss.size() || i >= row.extra_win.size() || i >= row.extra_loss.size() ||
        i >= row.always.size()) {
      return false;
    }
    v[r] = row_value(row, i);
  }
  *out = expectation(v, model);
  return true;
}

// Debug-build check of what every arranging entry point requires of its rules and model. The model's
// sizes only, so that it costs nothing per hand; validate_model checks all of it once, where a model is made.
[[maybe_unused]] bool usable(const RulesSpec& rules, const ExpectedModel& model) noexcept {
  if (validate_rules(rules) != nullptr || model.wheel != rules.wheel) return false;
  for (int r = 0; r < 3; ++r) {
    const RowModel& row = model.row[r];
    const std::size_t n = row_classes(r, model.wheel).size();
    if (row.classes.size() != n || row.win.size() != n || row.loss.size() != n || row.extra_win.size() != n ||
        row.extra_loss.size() != n || row.always.size() != n) {
      return false;
    }
  }
  for (const auto& v : model.middle_upto) {
    if (v.size() != model.row[kMiddle].classes.size()) return false;
  }
  return true;
}

}  // namespace

const std::vector<Strength>& row_classes(int row, Wheel wheel) noexcept {
  assert(row >= 0 && row < 3);
  assert(wheel == Wheel::Low || wheel == Wheel::Second);
  const detail::Tables& t = detail::tables();
  return row == kFront ? t.three_classes : t.five_classes[wheel == Wheel::Second ? 1 : 0];
}

CardIssue legal_arrangements(const std::uint8_t* cards13, const RulesSpec& rules, bool distinct_strengths,
                             bool drop_dominated, Arrangement* out, std::size_t* count) noexcept {
  assert(validate_rules(rules) == nullptr);
  *count = 0;
  std::uint8_t c[13];
  const CardIssue issue = copy_checked(cards13, 0, rules, c);
  if (issue) return issue;
  Scratch& sc = scratch();
  HandSubsets& h = sc.subsets;
  evaluate_subsets(c, rules.wheel, rules.extra_suits != 0, h);
  if (rules.jokers != 0) add_joker_subsets(c, rules.wheel, h);
  if (drop_dominated) {
    *count = undominated_legal(c, h, rules, sc, out);
    return CardIssue{};
  }
  const std::size_t n = collect_legal(h, rules, sc.legal);
  for (std::size_t k = 0; k < n; ++k) fill(c, h, sc.legal[k].back, sc.legal[k].middle, sc.legal[k].front, &out[k]);
  if (!distinct_strengths && !drop_dominated) {
    *count = n;
    return CardIssue{};
  }
  // Sorted by (back, middle, front) descending, equal strengths are adjacent and every setting that
  // could dominate another comes before it.
  std::sort(out, out + n, by_strengths_desc);
  std::size_t kept = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (kept > 0 && same_strengths(out[kept - 1], out[k])) continue;
    out[kept++] = out[k];
  }
  *count = kept;
  return CardIssue{};
}

CardIssue strongest_arrangement(const std::uint8_t* cards13, const RulesSpec& rules, Arrangement* out) noexcept {
  assert(validate_rules(rules) == nullptr);
  std::uint8_t c[13];
  const CardIssue issue = copy_checked(cards13, 0, rules, c);
  if (issue) return issue;
  strongest_valid(c, rules, out);
  return CardIssue{};
}

bool expected_units_in_pack(const Strength strength[3], const ExpectedModel& model, double* out) noexcept {
  return expected_units(strength, model, out) || expected_units_at_most(strength, model, out);
}

bool expected_units(const Strength strength[3], const ExpectedModel& model, double* out) noexcept {
  RowValue v[3];
  for (int r = 0; r < 3; ++r) {
    const std::ptrdiff_t k = find_class(model.row[r], strength[r]);
    if (k < 0) return false;
    // The model's vectors are parallel to its classes (validate_model), so k indexes them all.
    const RowModel& row = model.row[r];
    const auto i = static_cast<std::size_t>(k);
    if (i >= row.win.size() || i >= row.loss.size() || i >= row.extra_win.size() || i >= row.extra_loss.size() ||
        i >= row.always.size()) {
      return false;
    }
    v[r] = row_value(row, i);
  }
  *out = expectation(v, model);
  return true;
}

CardIssue expected_arrangement(const std::uint8_t* cards13, const RulesSpec& rules, const ExpectedModel& model,
                               Arrangement* out, double* expected) noexcept {
  assert(usable(rules, model));
  std::uint8_t c[13];
  const CardIssue issue = copy_checked(cards13, 0, rules, c);
  if (issue) return issue;
  *expected = expected_valid(c, rules, model, out);
  return CardIssue{};
}

CardIssue arrange_hand(const std::uint8_t* cards13, const RulesSpec& rules, const ExpectedModel& model,
                       bool by_expected, ArrangeResult* out) noexcept {
  assert(usable(rules, model));
  std::uint8_t c[13];
  const CardIssue issue = copy_checked(cards13, 0, rules, c);
  if (issue) return issue;
  Arrangement a;
  double ev = 0;
  if (by_expected) {
    ev = expected_valid(c, rules, model, &a);
  } else {
    strongest_valid(c, rules, &a);
    // A legal setting's strengths are classes of its rows, which a valid model covers; a row only a pack
    // with added suits holds (a five of a kind, a flush with a pair) is valued at the strongest class
    // below it, as the expected arranging values it.
    if (!expected_units(a.strength, model, &ev)) {
      [[maybe_unused]] const bool found = expected_units_at_most(a.strength, model, &ev);
      assert(found);
    }
  }
  std::memcpy(out->cards, a.cards, sizeof out->cards);
  for (int r = 0; r < 3; ++r) out->strength[r] = a.strength[r];
  out->expected_units = ev;
  out->natural = -1;
  if (rules.num_naturals > 0) {
    std::uint64_t key = 0;
    std::uint8_t substituted[13];
    out->natural = detail::count_jokers(c, 13) != 0 ? detail::detect_natural_jokers(c, rules, &key, substituted)
                                                   : detail::detect_natural_valid(c, rules);
  }
  return CardIssue{};
}

CardIssue arrange_batch(const std::uint8_t* cards, std::size_t count, const RulesSpec& rules,
                        const ExpectedModel* model, std::uint8_t* out, double* ev_out,
                        const Parallel& parallel) noexcept {
  assert(validate_rules(rules) == nullptr);
  assert(model == nullptr || usable(rules, *model));
  // A cheap pass first so that a bad hand late in a batch fails before any hand is arranged; each hand is
  // checked again on its own copy below, which is what the arranging reads.
  for (std::size_t i = 0; i < count; ++i) {
    const CardIssue issue = check_cards_in_pack(cards + 13 * i, 13, static_cast<std::int64_t>(i), pack_of(rules));
    if (issue) return issue;
  }
  const auto arrange_hands = [&](std::size_t begin, std::size_t end, std::size_t* bad) noexcept {
    Arrangement a;
    std::uint8_t c[13];
    for (std::size_t i = begin; i < end; ++i) {
      const CardIssue issue = copy_checked(cards + 13 * i, static_cast<std::int64_t>(i), rules, c);
      if (issue) {
        *bad = i;
        return issue;
      }
      double ev = 0;
      if (model != nullptr) {
        ev = expected_valid(c, rules, *model, &a);
      } else {
        strongest_valid(c, rules, &a);
      }
      std::memcpy(out + 13 * i, a.cards, 13);
      if (ev_out != nullptr) ev_out[i] = ev;
    }
    return CardIssue{};
  };
  // A hand takes tens of microseconds: small chunks keep the threads evenly loaded.
  constexpr std::size_t kHandsPerChunk = 8;
  return detail::for_each_chunk<CardIssue>(count, parallel, kHandsPerChunk, arrange_hands);
}

}  // namespace chinese_poker
