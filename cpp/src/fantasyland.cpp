// The exact fantasyland solver (cpp/include/chinese_poker/fantasyland.hpp).
//
// Every five-card subset of the hand is evaluated once (as a back and as a middle), every three-card subset
// once (as a front). The search runs over backs in decreasing order of what they can add; for each back it
// runs over the middles among the cards left, and for each middle picks the best front among the cards
// left after it. A back, or a middle, is skipped when an upper bound of every setting it starts (its own key
// plus the greatest key of any weaker middle and front, the stay value counted in each key) cannot beat the
// best setting found so far, counting the tie-break by row strength. So the result is the exact optimum.
#include "chinese_poker/fantasyland.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

#include "parallel.hpp"

namespace chinese_poker {

namespace {

// Bounds are sums of doubles in another order than the values they bound: this slack keeps a bound that
// rounding put a hair below an equal value from pruning it.
constexpr double kSlack = 1e-7;

// C(n, k) for n <= 17, k <= 5: the colex rank of a subset is sum over its positions p_i (ascending) of C(p_i, i+1).
struct Binomials {
  int c[kMaxFantasylandCards + 1][6] = {};
  constexpr Binomials() {
    for (int n = 0; n <= kMaxFantasylandCards; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= 5; ++k) c[n][k] = n == 0 ? 0 : c[n - 1][k - 1] + c[n - 1][k];
    }
  }
};
constexpr Binomials kBinom{};

Strength row_strength(const std::uint8_t* row, int width, Wheel wheel, bool general) noexcept {
  if (general) return evaluate_with_jokers(row, width, wheel);
  return width == 5 ? evaluate5(row, wheel) : evaluate3(row);
}

// The best setting so far, as the search compares it: value, then back, middle and front strength.
struct Best {
  bool found = false;
  double value = 0.0;
  Strength back = 0, middle = 0, front = 0;
  int back_index = -1, middle_index = -1, front_index = -1;
  bool stays = false;
};

// Whether a setting worth at most `bound`, whose rows (as far as known) have these strengths, may still
// beat `best`. `unknown` rows (zero) may be as strong as any.
bool may_beat(const Best& best, double bound, Strength back, Strength middle, bool middle_known) noexcept {
  if (!best.found) return true;
  if (bound > best.value + kSlack) return true;
  if (bound < best.value - kSlack) return false;
  // A tie in value at best: the stronger rows win.
  if (back != best.back) return back > best.back;
  if (!middle_known) return true;
  return middle >= best.middle;
}

// The greatest front key under a row of strength s, by the row's (category, first tie-break value): a front
// of at most that strength has a (category, first value) of at most the row's, so the greatest key over
// those bounds every front the row allows. Index category * 16 + value, a running maximum.
constexpr int kCapSlots = (kFiveOfAKind + 1) * 16;
int cap_slot(Strength s) noexcept { return category_of(s) * 16 + vector_value(s, 0); }

}  // namespace

FantasylandSetting solve_fantasyland(const std::uint8_t* cards, int count, const RulesSpec& rules, double stay_value,
                                     FantasylandScratch& scratch) noexcept {
  const bool fantasyland = rules.fantasyland != Fantasyland::kOff;
  const double v = fantasyland ? stay_value : 0.0;
  bool general = rules.extra_suits != 0;
  for (int k = 0; k < count; ++k) general = general || is_joker(cards[k]);
  const Wheel wheel = rules.wheel;
  const int n5 = kBinom.c[count][5], n3 = kBinom.c[count][3];

  // Every five-card subset, at its colex rank.
  for (int e = 4; e < count; ++e) {
    for (int d = 3; d < e; ++d) {
      for (int c = 2; c < d; ++c) {
        for (int b = 1; b < c; ++b) {
          for (int a = 0; a < b; ++a) {
            const int rank = kBinom.c[a][1] + kBinom.c[b][2] + kBinom.c[c][3] + kBinom.c[d][4] + kBinom.c[e][5];
            const std::uint8_t row[5] = {cards[a], cards[b], cards[c], cards[d], cards[e]};
            auto& f = scratch.five[static_cast<std::size_t>(rank)];
            f.mask = 1u << a | 1u << b | 1u << c | 1u << d | 1u << e;
            f.strength = row_strength(row, 5, wheel, general);
            f.back_royalty = royalty_of(rules, kBack, f.strength);
            f.middle_royalty = royalty_of(rules, kMiddle, f.strength);
            f.back_stays = fantasyland && category_of(f.strength) >= kFourOfAKind;
            f.middle_stays = fantasyland && category_of(f.strength) >= kFullHouse;
            f.back_key = static_cast<double>(f.back_royalty) + (f.back_stays ? v : 0.0);
            f.middle_key = static_cast<double>(f.middle_royalty) + (f.middle_stays ? v : 0.0);
          }
        }
      }
    }
  }
  for (int c = 2; c < count; ++c) {
    for (int b = 1; b < c; ++b) {
      for (int a = 0; a < b; ++a) {
        const int rank = kBinom.c[a][1] + kBinom.c[b][2] + kBinom.c[c][3];
        const std::uint8_t row[3] = {cards[a], cards[b], cards[c]};
        auto& t = scratch.three[static_cast<std::size_t>(rank)];
        t.mask = 1u << a | 1u << b | 1u << c;
        t.strength = row_strength(row, 3, wheel, general);
        t.royalty = royalty_of(rules, kFront, t.strength);
        t.stays = fantasyland && category_of(t.strength) == kThreeOfAKind;
        t.key = static_cast<double>(t.royalty) + (t.stays ? v : 0.0);
      }
    }
  }
  const FantasylandScratch::Five* five = scratch.five.data();
  const FantasylandScratch::Three* three = scratch.three.data();
  double front_cap_of[kCapSlots];
  std::fill(front_cap_of, front_cap_of + kCapSlots, -1.0);
  for (int k = 0; k < n3; ++k) {
    double& cap = front_cap_of[cap_slot(three[k].strength)];
    cap = std::max(cap, three[k].key);
  }
  for (int k = 1; k < kCapSlots; ++k) front_cap_of[k] = std::max(front_cap_of[k], front_cap_of[k - 1]);
  // The greatest middle key of each category and below: a middle under a back is of its category or below.
  double middle_cap_of[kFiveOfAKind + 1];
  std::fill(middle_cap_of, middle_cap_of + kFiveOfAKind + 1, -1.0);
  for (int k = 0; k < n5; ++k) {
    double& cap = middle_cap_of[category_of(five[k].strength)];
    cap = std::max(cap, five[k].middle_key);
  }
  for (int c = 1; c <= kFiveOfAKind; ++c) middle_cap_of[c] = std::max(middle_cap_of[c], middle_cap_of[c - 1]);
  const double max_middle = middle_cap_of[kFiveOfAKind];
  const double max_front = front_cap_of[kCapSlots - 1];

  // The backs by decreasing key, each key's backs in subset order: a counting sort over the few distinct
  // keys (royalties of rows are few), so only the keys are sorted.
  double keys[kMaxDistinctKeys];
  int num_keys = 0;
  std::uint16_t* bucket = scratch.back_bucket.data();
  for (int k = 0; k < n5; ++k) {
    int at = 0;
    while (at < num_keys && keys[at] != five[k].back_key) ++at;
    if (at == num_keys) keys[num_keys++] = five[k].back_key;
    bucket[k] = static_cast<std::uint16_t>(at);
  }
  int rank_of[kMaxDistinctKeys];
  {
    int by_key[kMaxDistinctKeys];
    for (int k = 0; k < num_keys; ++k) by_key[k] = k;
    std::sort(by_key, by_key + num_keys, [&keys](int x, int y) { return keys[x] > keys[y]; });
    for (int k = 0; k < num_keys; ++k) rank_of[by_key[k]] = k;
  }
  int start[kMaxDistinctKeys + 1] = {};
  for (int k = 0; k < n5; ++k) ++start[rank_of[bucket[k]] + 1];
  for (int k = 0; k < num_keys; ++k) start[k + 1] += start[k];
  std::uint16_t* order = scratch.back_order.data();
  for (int k = 0; k < n5; ++k) order[start[rank_of[bucket[k]]]++] = static_cast<std::uint16_t>(k);
  std::uint16_t* front_order = scratch.front_order.data();
  for (int k = 0; k < n3; ++k) front_order[k] = static_cast<std::uint16_t>(k);
  std::sort(front_order, front_order + n3, [three](std::uint16_t x, std::uint16_t y) {
    if (three[x].key != three[y].key) return three[x].key > three[y].key;
    if (three[x].strength != three[y].strength) return three[x].strength > three[y].strength;
    return x < y;
  });

  const bool strict = rules.strict_middle;
  Best best;
  int left[kMaxFantasylandCards];  // positions in neither back nor middle
  // One middle under one back: the best front among the cards left, if the bound lets it beat the best.
  const auto try_middle = [&](const FantasylandScratch::Five& back, int bi, int rank) {
    const auto& middle = five[rank];
    if (middle.strength > back.strength || (strict && middle.strength == back.strength)) return;
    const double front_cap_m = front_cap_of[cap_slot(middle.strength)];
    if (!may_beat(best, back.back_key + middle.middle_key + front_cap_m, back.strength, middle.strength, true)) {
      return;
    }
    const std::uint32_t used = back.mask | middle.mask;
    int nl = 0;
    for (int p = 0; p < count; ++p) {
      if ((used >> p & 1u) == 0) left[nl++] = p;
    }
    const bool stayed = back.back_stays || middle.middle_stays;
    const std::int64_t royalty_bm = back.back_royalty + middle.middle_royalty;
    for (int z = 2; z < nl; ++z) {
      for (int y = 1; y < z; ++y) {
        for (int x = 0; x < y; ++x) {
          const int fr = kBinom.c[left[x]][1] + kBinom.c[left[y]][2] + kBinom.c[left[z]][3];
          const auto& front = three[fr];
          if (front.strength > middle.strength) continue;
          const bool stays = stayed || front.stays;
          const double value = static_cast<double>(royalty_bm + front.royalty) + (stays ? v : 0.0);
          bool better = !best.found || value > best.value;
          if (best.found && value == best.value) {
            if (back.strength != best.back) {
              better = back.strength > best.back;
            } else if (middle.strength != best.middle) {
              better = middle.strength > best.middle;
            } else {
              better = front.strength > best.front;
            }
          }
          if (better) {
            best.found = true;
            best.value = value;
            best.back = back.strength;
            best.middle = middle.strength;
            best.front = front.strength;
            best.back_index = bi;
            best.middle_index = rank;
            best.front_index = fr;
            best.stays = stays;
          }
        }
      }
    }
  };
  int rest[kMaxFantasylandCards];  // positions not in the back
  for (int ob = 0; ob < n5; ++ob) {
    const int bi = order[ob];
    const auto& back = five[bi];
    // Backs come in decreasing key: once even the best middle and front cannot lift one, none can.
    if (best.found && back.back_key + max_middle + max_front < best.value - kSlack) break;
    const double middle_cap = middle_cap_of[category_of(back.strength)];
    // First the bound with any front of at most the back's strength (a binary search), then, only when
    // that one passes, with the best such front among the cards the back leaves (first in key order).
    double front_cap = front_cap_of[cap_slot(back.strength)];
    if (!may_beat(best, back.back_key + middle_cap + front_cap, back.strength, 0, false)) continue;
    front_cap = -1.0;
    for (int k = 0; k < n3; ++k) {
      const auto& front = three[front_order[k]];
      if ((front.mask & back.mask) == 0 && front.strength <= back.strength) {
        front_cap = front.key;
        break;
      }
    }
    if (front_cap < 0.0) continue;
    if (!may_beat(best, back.back_key + middle_cap + front_cap, back.strength, 0, false)) continue;
    int nr = 0;
    for (int p = 0; p < count; ++p) {
      if ((back.mask >> p & 1u) == 0) rest[nr++] = p;
    }
    // Every middle of the cards the back leaves, as five positions of `rest`.
    for (int e = 4; e < nr; ++e) {
      for (int d = 3; d < e; ++d) {
        for (int c = 2; c < d; ++c) {
          for (int b = 1; b < c; ++b) {
            for (int a = 0; a < b; ++a) {
              const int rank = kBinom.c[rest[a]][1] + kBinom.c[rest[b]][2] + kBinom.c[rest[c]][3] +
                               kBinom.c[rest[d]][4] + kBinom.c[rest[e]][5];
              try_middle(back, bi, rank);
            }
          }
        }
      }
    }
  }

  FantasylandSetting out;
  if (!best.found) return out;  // never for 14 or more cards: a sorted board is legal
  const std::uint32_t masks[3] = {three[best.front_index].mask, five[best.middle_index].mask,
                                  five[best.back_index].mask};
  int at = 0;
  for (int row = 0; row < 3; ++row) {
    for (int p = 0; p < count; ++p) {
      if ((masks[row] >> p & 1u) != 0) out.rows[at++] = cards[p];
    }
  }
  const std::uint32_t used = masks[0] | masks[1] | masks[2];
  for (int p = 0; p < count; ++p) {
    if ((used >> p & 1u) == 0) out.discards[out.num_discards++] = cards[p];
  }
  out.strength[kFront] = best.front;
  out.strength[kMiddle] = best.middle;
  out.strength[kBack] = best.back;
  out.royalty[kFront] = three[best.front_index].royalty;
  out.royalty[kMiddle] = five[best.middle_index].middle_royalty;
  out.royalty[kBack] = five[best.back_index].back_royalty;
  out.stays = best.stays;
  out.value = best.value;
  return out;
}

CardIssue solve_fantasyland_batch(const std::uint8_t* cards, std::size_t hands, int count, const RulesSpec& rules,
                                  double stay_value, FantasylandSetting* out, const Parallel& parallel) {
  const unsigned pack = pack_of(rules);
  const auto width = static_cast<std::size_t>(count);
  for (std::size_t h = 0; h < hands; ++h) {
    const CardIssue issue = check_cards_in_pack(cards + h * width, count, static_cast<std::int64_t>(h), pack);
    if (issue) return issue;
  }
  constexpr std::size_t kChunk = 16;
  const std::size_t chunk = parallel.chunk != 0 ? parallel.chunk : kChunk;
  const unsigned threads = detail::threads_for(hands, chunk, parallel.threads);
  // One scratch per thread that can run, claimed by a chunk for its duration: at most `threads` chunks run
  // at once, so one is always free.
  std::vector<std::unique_ptr<FantasylandScratch>> scratches(threads);
  for (auto& s : scratches) s = std::make_unique<FantasylandScratch>();
  std::unique_ptr<std::atomic<bool>[]> busy(new std::atomic<bool>[threads]);
  for (unsigned k = 0; k < threads; ++k) busy[k].store(false);
  detail::for_each_chunk<detail::NoError>(hands, parallel, kChunk, [&](std::size_t begin, std::size_t end, std::size_t*) {
    unsigned slot = 0;
    for (;; slot = (slot + 1) % threads) {
      bool expected = false;
      if (busy[slot].compare_exchange_strong(expected, true)) break;
    }
    for (std::size_t h = begin; h < end; ++h) {
      out[h] = solve_fantasyland(cards + h * width, count, rules, stay_value, *scratches[slot]);
    }
    busy[slot].store(false);
    return detail::NoError{};
  });
  return CardIssue{};
}

}  // namespace chinese_poker
