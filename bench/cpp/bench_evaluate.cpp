// Five- and three-card evaluation speed of the core, without Python.
//
//   bench_evaluate [hands] [runs]      (defaults: 4,000,000 hands, best of 7 runs)
//
// Every evaluator gets the same random hands (fixed seed, cards in random order) and each figure is the
// best of `runs` passes over the whole set, as ns per hand on one core: by the wall clock (ns/hand) and by
// the process's CPU time (cpu ns), which leaves out the time the machine gave to other processes. Rows:
//   - evaluate_batch: the validating batch kernel (codes < 52, no card twice), as Python calls it;
//   - evaluate5 loop: one unvalidated call per hand;
//   - previous layout: a copy, kept here only for comparison, of the evaluator this one replaced (per-rank
//     keys chosen smallest first, a 776 KiB table indexed by the key sum, then a strength table; flushes by
//     rank mask; validation by a popcount of the card bits);
//   - OMPEval's HandEvaluator::evaluate, when the build was given OMPEVAL_DIR (its checkout is compiled at
//     build time; none of its code is in this repository): per hand, a Hand built from the five card codes
//     (the same codes: 4 * rank + suit, deuce = rank 0), then evaluated; both steps are timed.
// The results of all rows are checked against each other before any figure is printed (OMPEval's, which
// are on its own scale, by category and by the order of all hands), and so are evaluate_batch's reports of
// bad rows (against check_cards).
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bits.hpp"
#include "chinese_poker/cards.hpp"
#include "chinese_poker/evaluate.hpp"
#include "evaluate_tables.hpp"

#ifdef CP_HAVE_OMPEVAL
#include "omp/HandEvaluator.h"
#endif

namespace cp = chinese_poker;

namespace {

// splitmix64: a fixed, portable stream of random numbers.
struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  unsigned below(unsigned n) { return static_cast<unsigned>(next() % n); }
};

// `count` rows of `width` distinct random cards each (a partial shuffle of the deck per row).
std::vector<std::uint8_t> random_rows(std::size_t count, int width, std::uint64_t seed) {
  Random rng{seed};
  std::vector<std::uint8_t> rows(count * static_cast<std::size_t>(width));
  std::array<std::uint8_t, cp::kDeckSize> deck{};
  for (std::size_t c = 0; c < deck.size(); ++c) deck[c] = static_cast<std::uint8_t>(c);
  for (std::size_t i = 0; i < count; ++i) {
    for (unsigned k = 0; k < static_cast<unsigned>(width); ++k) {
      const unsigned pick = k + rng.below(static_cast<unsigned>(cp::kDeckSize) - k);
      std::swap(deck[k], deck[pick]);
      rows[i * static_cast<std::size_t>(width) + k] = deck[k];
    }
  }
  return rows;
}

// ------------------------------------------------------------------------------------------------
// The previous layout, rebuilt from the current evaluator's values so that only the layout differs.
namespace previous {

// Keys chosen smallest first such that the multisets of each size up to five, at most four of a rank,
// have distinct sums (the rule the previous evaluator's typed-in keys came from).
std::array<std::uint32_t, cp::kNumRanks> smallest_first_keys() {
  std::array<std::uint32_t, cp::kNumRanks> key{};
  for (std::size_t r = 1; r < key.size(); ++r) {
    // The sums of every multiset of ranks below r, by size (0..5), at most four of a rank.
    std::array<std::vector<std::uint32_t>, 6> sums;
    std::array<std::vector<char>, 6> has;
    sums[0].push_back(0);
    for (std::size_t q = 0; q < r; ++q) {  // add rank q: j = 1..4 copies on top of smaller multisets
      for (std::size_t m = 5; m >= 1; --m)
        for (std::size_t j = 1; j <= std::min<std::size_t>(m, 4); ++j)
          for (std::size_t x = 0, n = sums[m - j].size(); x < n; ++x)
            sums[m].push_back(sums[m - j][x] + static_cast<std::uint32_t>(j) * key[q]);
    }
    for (std::size_t m = 0; m <= 5; ++m) {
      has[m].assign(static_cast<std::size_t>(m * key[r - 1]) + 1, 0);
      for (std::uint32_t s : sums[m]) has[m][s] = 1;
    }
    for (std::uint32_t k = key[r - 1] + 1;; ++k) {
      bool fits = true;
      for (std::size_t m = 5; m >= 1 && fits; --m)
        for (std::size_t j = 1; j <= std::min<std::size_t>(m, 4) && fits; ++j)
          for (std::size_t i = 0; i < j && fits; ++i)
            for (std::uint32_t t : sums[m - j]) {
              const std::size_t v = t + static_cast<std::size_t>(j - i) * k;
              if (v < has[m - i].size() && has[m - i][v] != 0) {
                fits = false;
                break;
              }
            }
      if (fits) {
        key[r] = k;
        break;
      }
    }
  }
  return key;
}

struct Layout {
  std::array<std::uint32_t, cp::kNumRanks> key{};
  std::array<std::uint32_t, 256> card_key{};
  std::array<std::uint16_t, 256> card_bit{};
  std::vector<std::uint16_t> multiset_of_sum;
  std::array<std::vector<cp::Strength>, 2> plain;
  std::array<std::array<cp::Strength, 8192>, 2> flush{};
  std::array<cp::Strength, 13 * 13 * 13> front{};

  Layout() : key(smallest_first_keys()) {
    multiset_of_sum.assign(5 * key[12] + 1, 0);
    for (int c = 0; c < cp::kDeckSize; ++c) {
      card_key[static_cast<std::size_t>(c)] = key[static_cast<std::size_t>(cp::card_rank(c))];
      card_bit[static_cast<std::size_t>(c)] = static_cast<std::uint16_t>(1u << cp::card_rank(c));
    }
    std::uint16_t next = 0;
    for (int a = 0; a < 13; ++a)
      for (int b = a; b < 13; ++b)
        for (int c = b; c < 13; ++c)
          for (int d = c; d < 13; ++d)
            for (int e = d; e < 13; ++e) {
              if (a == e) continue;
              const int rank[5] = {a, b, c, d, e};
              std::uint8_t cards[5], suited[5];
              // Suit by position: equal ranks sit side by side (at most four), so the cards are distinct
              // and the first four positions hold four suits (no flush).
              for (int p = 0; p < 5; ++p) {
                cards[p] = static_cast<std::uint8_t>(cp::make_card(rank[p], p % 4));
                suited[p] = static_cast<std::uint8_t>(cp::make_card(rank[p], 0));
              }
              std::uint32_t sum = 0;
              for (int r : rank) sum += key[static_cast<std::size_t>(r)];
              multiset_of_sum[sum] = next++;
              for (std::size_t w = 0; w < 2; ++w) {
                plain[w].push_back(cp::evaluate5(cards, static_cast<cp::Wheel>(w)));
                if (a < b && b < c && c < d && d < e) {
                  const unsigned mask = 1u << a | 1u << b | 1u << c | 1u << d | 1u << e;
                  flush[w][mask] = cp::evaluate5(suited, static_cast<cp::Wheel>(w));
                }
              }
            }
    for (int a = 0; a < 13; ++a)
      for (int b = 0; b < 13; ++b)
        for (int c = 0; c < 13; ++c) {
          const std::uint8_t cards[3] = {static_cast<std::uint8_t>(cp::make_card(a, 0)),
                                         static_cast<std::uint8_t>(cp::make_card(b, 1)),
                                         static_cast<std::uint8_t>(cp::make_card(c, 2))};
          front[static_cast<std::size_t>(a * 169 + b * 13 + c)] = cp::evaluate3(cards);
        }
  }

  std::size_t memory_bytes() const {
    return sizeof(card_key) + sizeof(card_bit) + multiset_of_sum.size() * sizeof(std::uint16_t) +
           (plain[0].size() + plain[1].size()) * sizeof(cp::Strength) + sizeof(flush) + sizeof(front);
  }
};

inline std::uint64_t row_is_bad(const std::uint8_t* c, int width) {
  std::uint64_t bits = 0;
  unsigned high = 0;
  for (int k = 0; k < width; ++k) {
    bits |= std::uint64_t{1} << (c[k] & 63u);
    high |= c[k];
  }
  return static_cast<std::uint64_t>(cp::detail::popcount64(bits) != width) | (bits >> cp::kDeckSize) | (high & 0xC0u);
}

inline cp::Strength eval5(const Layout& t, const std::uint8_t* c, unsigned w) {
  const unsigned suits_differ = (c[0] ^ c[1]) | (c[0] ^ c[2]) | (c[0] ^ c[3]) | (c[0] ^ c[4]);
  if ((suits_differ & 3u) == 0) {
    return t.flush[w][t.card_bit[c[0]] | t.card_bit[c[1]] | t.card_bit[c[2]] | t.card_bit[c[3]] | t.card_bit[c[4]]];
  }
  const std::uint32_t sum = t.card_key[c[0]] + t.card_key[c[1]] + t.card_key[c[2]] + t.card_key[c[3]] + t.card_key[c[4]];
  return t.plain[w][t.multiset_of_sum[sum]];
}

// Returns nonzero when some row was bad (the previous kernel then searched the rows again).
std::uint64_t batch5(const Layout& t, const std::uint8_t* cards, std::size_t rows, unsigned w, std::int32_t* out) {
  std::uint64_t bad = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    const std::uint8_t* c = cards + 5 * i;
    bad |= row_is_bad(c, 5);
    out[i] = static_cast<std::int32_t>(eval5(t, c, w));
  }
  return bad;
}

std::uint64_t batch3(const Layout& t, const std::uint8_t* cards, std::size_t rows, std::int32_t* out) {
  std::uint64_t bad = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    const std::uint8_t* c = cards + 3 * i;
    bad |= row_is_bad(c, 3);
    const std::size_t index = static_cast<std::size_t>((c[0] % 52 >> 2) * 169 + (c[1] % 52 >> 2) * 13 + (c[2] % 52 >> 2));
    out[i] = static_cast<std::int32_t>(t.front[index]);
  }
  return bad;
}

}  // namespace previous

// ------------------------------------------------------------------------------------------------

// One evaluator over the hands of its width; `run` writes its results to the shared output.
struct Kernel {
  const char* name;
  const char* what;
  int width;
  std::function<void()> run;
  double best_ns = 1e300;      // wall clock
  double best_cpu_ns = 1e300;  // CPU time of the process (one thread runs)
  std::vector<double> cpu_ns{};  // of each run
};

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "bench_evaluate: %s\n", what);
  std::exit(1);
}

// Batches with bad cards here and there (codes >= 52, repeats, whole rows of one card): evaluate_batch must
// report what check_cards reports for the first bad row, and the rows before it must hold their strengths.
void check_bad_rows(std::uint64_t seed) {
  Random rng{seed};
  for (int round = 0; round < 2000; ++round) {
    const int width = rng.below(2) != 0 ? 5 : 3;
    const std::size_t rows = 1 + rng.below(700);
    std::vector<std::uint8_t> cards = random_rows(rows, width, rng.next());
    const std::size_t w = static_cast<std::size_t>(width);
    const unsigned how = rng.below(4), spoil = rng.below(3);
    for (unsigned n = 0; n < spoil; ++n) {
      const std::size_t at = rng.below(static_cast<unsigned>(cards.size())), row = at / w;
      if (how == 0) cards[at] = static_cast<std::uint8_t>(52 + rng.below(204));
      if (how == 1) cards[at] = cards[row * w + rng.below(static_cast<unsigned>(w))];
      if (how == 2) cards[at] = static_cast<std::uint8_t>(rng.below(256));
      if (how == 3) std::fill(cards.begin() + static_cast<std::ptrdiff_t>(row * w),
                              cards.begin() + static_cast<std::ptrdiff_t>(row * w + w), cards[row * w]);
    }
    const cp::Wheel wheel = rng.below(2) != 0 ? cp::Wheel::Low : cp::Wheel::Second;
    std::vector<std::int32_t> out(rows);
    const cp::CardIssue got = cp::evaluate_batch(cards.data(), rows, width, wheel, out.data());
    cp::CardIssue want{};
    std::size_t first_bad = rows;
    for (std::size_t i = 0; i < rows && !want; ++i) {
      want = cp::check_cards(&cards[i * w], width, static_cast<std::int64_t>(i));
      if (want) first_bad = i;
    }
    if (got.kind != want.kind || got.item != want.item || got.position != want.position || got.card != want.card ||
        got.first_position != want.first_position) {
      fail("evaluate_batch reports a bad row differently from check_cards");
    }
    for (std::size_t i = 0; i < first_bad; ++i) {
      const cp::Strength expect = width == 5 ? cp::evaluate5(&cards[i * w], wheel) : cp::evaluate3(&cards[i * w]);
      if (static_cast<cp::Strength>(out[i]) != expect) fail("a row before the bad one has the wrong strength");
    }
  }
}

#ifdef CP_HAVE_OMPEVAL
// OMPEval's values are on a scale of its own (category in the bits from 12 up, 1 = high card .. 9 = straight
// flush; the wheel is its lowest straight, like Wheel::Low). It must agree with evaluate5 on every hand's
// category, and on the order of all the hands: sorted by our strength, its values rise where ours rise and
// are equal where ours are equal. `counts` gets the hands of each category (both agree on them).
void check_against_ompeval(const std::vector<std::int32_t>& ours, const std::vector<std::int32_t>& theirs,
                           std::array<std::size_t, 9>& counts) {
  counts.fill(0);
  std::vector<std::pair<std::int32_t, std::int32_t>> both(ours.size());
  for (std::size_t i = 0; i < ours.size(); ++i) {
    const int category = cp::category_of(static_cast<cp::Strength>(ours[i]));
    if (category < cp::kHighCard || category > cp::kStraightFlush || (theirs[i] >> 12) - 1 != category)
      fail("OMPEval puts a hand in another category");
    ++counts[static_cast<std::size_t>(category)];
    both[i] = {ours[i], theirs[i]};
  }
  std::sort(both.begin(), both.end());
  for (std::size_t i = 0; i + 1 < both.size(); ++i) {
    const bool ours_equal = both[i].first == both[i + 1].first;
    if (ours_equal ? both[i].second != both[i + 1].second : both[i].second >= both[i + 1].second)
      fail("OMPEval orders two hands differently");
  }
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const std::size_t hands = argc > 1 ? static_cast<std::size_t>(std::strtoull(argv[1], nullptr, 10)) : 4000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 7;
  if (hands < 2 || runs < 1) fail("usage: bench_evaluate [hands >= 2] [runs >= 1]");
  const std::uint64_t seed = 20240601;

  const std::vector<std::uint8_t> five = random_rows(hands, 5, seed);
  const std::vector<std::uint8_t> three = random_rows(hands, 3, seed + 1);
  std::vector<std::int32_t> out(hands), expect5(hands), expect3(hands);
  const cp::detail::Tables& tables = cp::detail::tables();
  const previous::Layout old;
  for (std::size_t i = 0; i < hands; ++i) {
    expect5[i] = static_cast<std::int32_t>(cp::evaluate5(&five[5 * i], cp::Wheel::Low));
    expect3[i] = static_cast<std::int32_t>(cp::evaluate3(&three[3 * i]));
  }

  std::vector<Kernel> kernels;
  std::array<std::size_t, 9> omp_categories{};  // hands per category, filled by the OMPEval check
  kernels.push_back({"evaluate_batch", "validating batch, width 5", 5, [&] {
                       if (cp::evaluate_batch(five.data(), hands, 5, cp::Wheel::Low, out.data())) fail("rejected valid rows");
                     }});
  kernels.push_back({"portable kernel", "validating, no SSE2, one pass", 5, [&] {
                       if (cp::detail::evaluate_rows5_portable(tables, 0, five.data(), 0, hands, out.data()) != 0)
                         fail("rejected valid rows");
                     }});
  kernels.push_back({"evaluate5 loop", "one unvalidated call per hand", 5, [&] {
                       for (std::size_t i = 0; i < hands; ++i)
                         out[i] = static_cast<std::int32_t>(cp::evaluate5(&five[5 * i], cp::Wheel::Low));
                     }});
  kernels.push_back({"eval5_with loop", "inlined kernel, unvalidated", 5, [&] {
                       for (std::size_t i = 0; i < hands; ++i)
                         out[i] = static_cast<std::int32_t>(cp::detail::eval5_with(tables, &five[5 * i], 0));
                     }});
  kernels.push_back({"previous layout", "validating batch, width 5 (copy)", 5, [&] {
                       if (previous::batch5(old, five.data(), hands, 0, out.data()) != 0) fail("rejected valid rows");
                     }});
  kernels.push_back({"previous layout", "unvalidated loop, width 5 (copy)", 5, [&] {
                       for (std::size_t i = 0; i < hands; ++i)
                         out[i] = static_cast<std::int32_t>(previous::eval5(old, &five[5 * i], 0));
                     }});
#ifdef CP_HAVE_OMPEVAL
  omp::HandEvaluator evaluator;
  kernels.push_back({"OMPEval", "HandEvaluator::evaluate, 5 cards", 5, [&] {
                       for (std::size_t i = 0; i < hands; ++i) {
                         const std::uint8_t* c = &five[5 * i];
                         const omp::Hand hand = omp::Hand::empty() + omp::Hand(c[0]) + omp::Hand(c[1]) +
                                                omp::Hand(c[2]) + omp::Hand(c[3]) + omp::Hand(c[4]);
                         out[i] = evaluator.evaluate(hand);
                       }
                     }});
#endif
  kernels.push_back({"evaluate_batch", "validating batch, width 3", 3, [&] {
                       if (cp::evaluate_batch(three.data(), hands, 3, cp::Wheel::Low, out.data())) fail("rejected valid rows");
                     }});
  kernels.push_back({"evaluate3 loop", "one unvalidated call per hand", 3, [&] {
                       for (std::size_t i = 0; i < hands; ++i) out[i] = static_cast<std::int32_t>(cp::evaluate3(&three[3 * i]));
                     }});
  kernels.push_back({"previous layout", "validating batch, width 3 (copy)", 3, [&] {
                       if (previous::batch3(old, three.data(), hands, out.data()) != 0) fail("rejected valid rows");
                     }});

  // Every kernel's results, checked before any timing.
  for (Kernel& k : kernels) {
    std::fill(out.begin(), out.end(), -1);
    k.run();
    const std::vector<std::int32_t>& expect = k.width == 5 ? expect5 : expect3;
    if (std::string(k.name) == "OMPEval") {
#ifdef CP_HAVE_OMPEVAL
      check_against_ompeval(expect, out, omp_categories);
#endif
    } else if (out != expect) {
      std::fprintf(stderr, "%s (%s): ", k.name, k.what);
      fail("results differ from evaluate5 / evaluate3");
    }
  }
  check_bad_rows(seed + 2);

  // Runs interleaved, so that a change in the machine's load touches every kernel alike.
  for (int r = 0; r < runs; ++r) {
    for (Kernel& k : kernels) {
      const std::clock_t cpu_start = std::clock();
      const auto start = std::chrono::steady_clock::now();
      k.run();
      const auto stop = std::chrono::steady_clock::now();
      const std::clock_t cpu_stop = std::clock();
      const double n = static_cast<double>(hands);
      k.best_ns = std::min(k.best_ns, std::chrono::duration<double, std::nano>(stop - start).count() / n);
      k.cpu_ns.push_back(static_cast<double>(cpu_stop - cpu_start) * (1e9 / CLOCKS_PER_SEC) / n);
      k.best_cpu_ns = std::min(k.best_cpu_ns, k.cpu_ns.back());
    }
  }

  // How long building the tables takes (once, when the library loads).
  const auto build_start = std::chrono::steady_clock::now();
  const auto fresh = std::make_unique<cp::detail::Tables>();
  const double build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - build_start).count();
  if (fresh->num_slots != tables.num_slots || fresh->row_offset != tables.row_offset) fail("the tables build differently");

  auto find = [&](const char* name, int width) -> const Kernel* {
    for (const Kernel& k : kernels)
      if (std::string(k.name) == name && k.width == width) return &k;
    return nullptr;
  };
  const Kernel* omp = find("OMPEval", 5);
  const double base5 = find("previous layout", 5)->best_cpu_ns, base3 = find("previous layout", 3)->best_cpu_ns;
  std::printf("%zu random hands per width (seed %llu), best of %d interleaved runs, ns per hand on one core\n", hands,
              static_cast<unsigned long long>(seed), runs);
  std::printf("%-16s %-34s %8s %8s %10s %9s\n", "evaluator", "what", "ns/hand", "cpu ns", "/previous", "/OMPEval");
  std::printf("----------------------------------------------------------------------------------------------\n");
  for (const Kernel& k : kernels) {
    char vs_omp[16] = "-";
    if (omp != nullptr && k.width == 5) std::snprintf(vs_omp, sizeof vs_omp, "%.2fx", k.best_cpu_ns / omp->best_cpu_ns);
    std::printf("%-16s %-34s %8.2f %8.2f %9.2fx %9s\n", k.name, k.what, k.best_ns, k.best_cpu_ns,
                k.best_cpu_ns / (k.width == 5 ? base5 : base3), vs_omp);
  }
  // The ratios come from the CPU time: on a shared machine the wall clock of a pass also holds other processes' turns.
  std::printf("(/previous, /OMPEval: by cpu ns; /previous against the previous layout's validating batch of the same "
              "width)\n");
  if (omp == nullptr) {
    std::printf("(OMPEval: not built; configure with -DOMPEVAL_DIR=<checkout> to compare)\n");
  } else {
    std::printf("(OMPEval: same hands, a Hand built from the 5 card codes and evaluated per hand; agrees with evaluate5 "
                "on every hand's category and on the order of all %zu hands)\n", hands);
    static const char* const names[9] = {"high card", "pair",       "two pair",       "trips",         "straight",
                                         "flush",     "full house", "four of a kind", "straight flush"};
    std::printf("  categories:");
    for (std::size_t c = 0; c < 9; ++c) std::printf("%s %s %zu", c == 0 ? "" : ",", names[c], omp_categories[c]);
    // Each run's ratio compares two passes made moments apart, so its median shrugs off a load that comes and goes.
    const Kernel* batch = find("evaluate_batch", 5);
    std::vector<double> ratios;
    for (std::size_t r = 0; r < batch->cpu_ns.size(); ++r) ratios.push_back(batch->cpu_ns[r] / omp->cpu_ns[r]);
    std::sort(ratios.begin(), ratios.end());
    const std::size_t mid = ratios.size() / 2;
    const double median = ratios.size() % 2 != 0 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
    std::printf("\n  evaluate_batch / OMPEval: %.2fx by ns/hand, %.2fx by cpu ns, %.2fx median of the %zu runs' cpu ns "
                "ratios\n", batch->best_ns / omp->best_ns, batch->best_cpu_ns / omp->best_cpu_ns, median, ratios.size());
  }

  const std::size_t words = sizeof(tables.card_word) + sizeof(tables.card_bit) + sizeof(tables.card_pair);
  std::printf("\nevaluator tables: %zu bytes (%.1f KiB); per-thread scratch: none (registers and a 5-byte copy)\n",
              tables.memory_bytes(), static_cast<double>(tables.memory_bytes()) / 1024.0);
  std::printf("  card words %zu B, row displacements %zu B (%zu rows of %d keys), strengths by slot %zu B (%zu of %zu "
              "slots used, 6,188 keys), class indices %zu B, front %zu B, sorted classes %zu B\n",
              words, sizeof(tables.row_offset), cp::detail::kNumRows, 1 << cp::detail::kRowShift, sizeof(tables.plain),
              tables.num_slots, cp::detail::kSlotCapacity, sizeof(tables.plain_class) + sizeof(tables.flush_class),
              sizeof(tables.front) + sizeof(tables.front_class) + sizeof(tables.front_part),
              (tables.five_classes[0].capacity() + tables.five_classes[1].capacity() + tables.three_classes.capacity()) *
                  sizeof(cp::Strength));
  std::printf("  read by a 5-card batch (one wheel): %zu B; built in %.2f ms\n",
              sizeof(tables.card_pair) + sizeof(tables.row_offset) + sizeof(tables.plain[0]), build_ms);
  std::printf("previous layout (copy above): %zu bytes (%.1f KiB), keys up to %u\n", old.memory_bytes(),
              static_cast<double>(old.memory_bytes()) / 1024.0, old.key[12]);
  return 0;
}
