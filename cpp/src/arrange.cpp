#include "chinese_poker/arrange.hpp"

#include <algorithm>

#include "evaluate_tables.hpp"

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
      const int bits = __builtin_popcount(m);
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

// Strengths of every 5- and 3-card subset of one hand.
struct HandSubsets {
  Strength five[1287];
  Strength three[286];
};

void gather(const std::uint8_t* c, unsigned mask, std::uint8_t* out) noexcept {
  int n = 0;
  for (int k = 0; k < 13; ++k) {
    if (mask >> k & 1u) out[n++] = c[k];
  }
}

void evaluate_subsets(const std::uint8_t* c, Wheel wheel, HandSubsets& h) noexcept {
  const detail::Tables& t = detail::tables();
  const SubsetTables& s = subsets();
  std::uint8_t cards[5];
  for (int i = 0; i < 1287; ++i) {
    gather(c, s.five[i], cards);
    h.five[i] = detail::eval5_with(t, cards, static_cast<unsigned>(wheel));
  }
  for (int i = 0; i < 286; ++i) {
    gather(c, s.three[i], cards);
    h.three[i] = detail::eval3_with(t, cards);
  }
}

// Calls f(back index, middle index, front index) for every legal setting. The middle's five positions
// are chosen from the eight the back leaves by nested loops that build its mask one bit at a time.
template <class F>
void for_each_legal(const HandSubsets& h, const RulesSpec& rules, F&& f) {
  const SubsetTables& s = subsets();
  for (int b = 0; b < 1287; ++b) {
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
              if (h.three[fr] < middle) f(b, m, fr);
            }
        }
  }
}

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

bool by_strengths_desc(const Arrangement& x, const Arrangement& y) noexcept {
  return stronger(x.strength[2], x.strength[1], x.strength[0], y.strength[2], y.strength[1], y.strength[0]);
}

bool same_strengths(const Arrangement& x, const Arrangement& y) noexcept {
  return x.strength[0] == y.strength[0] && x.strength[1] == y.strength[1] && x.strength[2] == y.strength[2];
}

bool dominated_by(const Arrangement& x, const Arrangement& y) noexcept {
  return y.strength[0] >= x.strength[0] && y.strength[1] >= x.strength[1] && y.strength[2] >= x.strength[2];
}

struct RowValue {
  double win, loss, extra_win, extra_loss, always;
};

RowValue row_value(const RowModel& r, Strength s) noexcept {
  const auto it = std::lower_bound(r.classes.begin(), r.classes.end(), s);
  if (it == r.classes.end() || *it != s) return RowValue{0, 0, 0, 0, 0};  // not a strength of this row
  const auto k = static_cast<std::size_t>(it - r.classes.begin());
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

// Per-subset row values of one hand (the middle and back tables differ, so a five-card subset has two).
struct HandValues {
  RowValue middle[1287];
  RowValue back[1287];
  RowValue front[286];
};

}  // namespace

std::size_t legal_arrangements(const std::uint8_t* cards13, const RulesSpec& rules, bool distinct_strengths,
                               bool drop_dominated, Arrangement* out) noexcept {
  HandSubsets h;
  evaluate_subsets(cards13, rules.wheel, h);
  std::size_t n = 0;
  for_each_legal(h, rules, [&](int b, int m, int fr) { fill(cards13, h, b, m, fr, &out[n++]); });
  if (!distinct_strengths && !drop_dominated) return n;
  // Sorted by (back, middle, front) descending, equal strengths are adjacent and every setting that
  // could dominate another comes before it.
  std::sort(out, out + n, by_strengths_desc);
  std::size_t kept = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (kept > 0 && same_strengths(out[kept - 1], out[k])) continue;
    if (drop_dominated) {
      bool dominated = false;
      for (std::size_t q = 0; q < kept && !dominated; ++q) dominated = dominated_by(out[k], out[q]);
      if (dominated) continue;
    }
    out[kept++] = out[k];
  }
  return kept;
}

void strongest_arrangement(const std::uint8_t* cards13, const RulesSpec& rules, Arrangement* out) noexcept {
  HandSubsets h;
  evaluate_subsets(cards13, rules.wheel, h);
  int best_b = -1, best_m = -1, best_f = -1;
  for_each_legal(h, rules, [&](int b, int m, int fr) {
    if (best_b < 0 || stronger(h.five[b], h.five[m], h.three[fr], h.five[best_b], h.five[best_m], h.three[best_f])) {
      best_b = b;
      best_m = m;
      best_f = fr;
    }
  });
  fill(cards13, h, best_b, best_m, best_f, out);
}

double expected_units(const Strength strength[3], const ExpectedModel& model) noexcept {
  const RowValue v[3] = {row_value(model.row[0], strength[0]), row_value(model.row[1], strength[1]),
                         row_value(model.row[2], strength[2])};
  return expectation(v, model);
}

double expected_arrangement(const std::uint8_t* cards13, const RulesSpec& rules, const ExpectedModel& model,
                            Arrangement* out) noexcept {
  HandSubsets h;
  evaluate_subsets(cards13, rules.wheel, h);
  // Thread-local so that concurrent batch calls each have their own and no call allocates on its path.
  thread_local HandValues values;
  for (int i = 0; i < 1287; ++i) {
    values.middle[i] = row_value(model.row[1], h.five[i]);
    values.back[i] = row_value(model.row[2], h.five[i]);
  }
  for (int i = 0; i < 286; ++i) values.front[i] = row_value(model.row[0], h.three[i]);
  double best = 0;
  int best_b = -1, best_m = -1, best_f = -1;
  for_each_legal(h, rules, [&](int b, int m, int fr) {
    const RowValue v[3] = {values.front[fr], values.middle[m], values.back[b]};
    const double ev = expectation(v, model);
    if (best_b < 0 || ev > best ||
        (ev == best && stronger(h.five[b], h.five[m], h.three[fr], h.five[best_b], h.five[best_m], h.three[best_f]))) {
      best = ev;
      best_b = b;
      best_m = m;
      best_f = fr;
    }
  });
  fill(cards13, h, best_b, best_m, best_f, out);
  return best;
}

std::int64_t arrange_batch(const std::uint8_t* cards, std::size_t count, const RulesSpec& rules,
                           const ExpectedModel* model, std::uint8_t* out, double* ev_out) noexcept {
  for (std::size_t i = 0; i < count; ++i) {
    const RowIssue issue = check_cards(cards + 13 * i, 13, static_cast<std::int64_t>(i));
    if (issue.kind != RowIssue::kNone) return issue.row;
  }
  Arrangement a;
  for (std::size_t i = 0; i < count; ++i) {
    double ev = 0;
    if (model != nullptr) {
      ev = expected_arrangement(cards + 13 * i, rules, *model, &a);
    } else {
      strongest_arrangement(cards + 13 * i, rules, &a);
    }
    std::copy(a.cards, a.cards + 13, out + 13 * i);
    if (ev_out != nullptr) ev_out[i] = ev;
  }
  return -1;
}

}  // namespace chinese_poker
