#include "chinese_poker/arrange.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "bits.hpp"
#include "evaluate_tables.hpp"
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
    for (int i = 0; i < 1287; ++i) {
      gather(c, s.five[i], cards);
      h.five[i] = detail::eval5_with(t, cards, w);
      h.five_class[i] = detail::class5_with(t, cards, w);
    }
  }
  for (int i = 0; i < 286; ++i) {
    gather(c, s.three[i], cards);
    h.three[i] = detail::eval3_with(t, cards);
    h.three_class[i] = detail::class3_with(t, cards);
  }
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

// Scratch space of one arranging call: thread-local, so concurrent batch calls each have their own and
// no call allocates on its path.
struct Scratch {
  HandSubsets subsets;
  Split legal[kNumSplits];
  std::uint16_t order[1287];  // backs, most promising first
  double bound[1287];         // per back: an upper bound of the expectation of its settings
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

bool dominated_by(const Arrangement& x, const Arrangement& y) noexcept {
  return y.strength[0] >= x.strength[0] && y.strength[1] >= x.strength[1] && y.strength[2] >= x.strength[2];
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

// Per-subset row values of one hand (the middle and back tables differ, so a five-card subset has two).
struct HandValues {
  RowValue middle[1287];
  RowValue back[1287];
  RowValue front[286];
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
  BackQueue queue(sc.order, [&](int x, int y) { return h.five[x] != h.five[y] ? h.five[x] > h.five[y] : x < y; });
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

double expected_valid(const std::uint8_t* cards13, const RulesSpec& rules, const ExpectedModel& model,
                      Arrangement* out) noexcept {
  assert(!check_cards_in_pack(cards13, 13, 0, pack_of(rules)));
  Scratch& sc = scratch();
  HandSubsets& h = sc.subsets;
  evaluate_subsets(cards13, rules.wheel, rules.extra_suits != 0, h);
  if (rules.jokers != 0) add_joker_subsets(cards13, rules.wheel, h);
  HandValues& values = hand_values();
  for (int i = 0; i < 1287; ++i) {
    values.middle[i] = row_value(model.row[1], h.five_class[i]);
    values.back[i] = row_value(model.row[2], h.five_class[i]);
  }
  for (int i = 0; i < 286; ++i) values.front[i] = row_value(model.row[0], h.three_class[i]);
  // Branch and bound over backs. The expectation grows with each row's win chance, royalty and "always"
  // value and falls with its loss chance and the opponent's royalty, so valuing the front at the hand's
  // best front values and the middle at the best values of any class up to the back's bounds every
  // setting with that back. Backs are taken in falling bound; once a bound is below the best found, stop.
  RowValue best_front{0, 1, 0, 0, 0};
  bool first = true;
  for (int i = 0; i < 286; ++i) {
    const RowValue& v = values.front[i];
    if (first) {
      best_front = v;
      first = false;
      continue;
    }
    best_front.win = std::max(best_front.win, v.win);
    best_front.loss = std::min(best_front.loss, v.loss);
    best_front.extra_win = std::max(best_front.extra_win, v.extra_win);
    best_front.extra_loss = std::min(best_front.extra_loss, v.extra_loss);
    best_front.always = std::max(best_front.always, v.always);
  }
  for (int b = 0; b < 1287; ++b) {
    const std::size_t c = h.five_class[b];
    const RowValue middle_bound{model.middle_upto[0][c], model.middle_upto[1][c], model.middle_upto[2][c],
                                model.middle_upto[3][c], model.middle_upto[4][c]};
    const RowValue v[3] = {best_front, middle_bound, values.back[b]};
    sc.bound[b] = expectation(v, model);
  }
  BackQueue queue(sc.order, [&](int x, int y) { return sc.bound[x] != sc.bound[y] ? sc.bound[x] > sc.bound[y] : x < y; });
  double best = 0;
  int best_b = -1, best_m = -1, best_f = -1;
  while (!queue.empty()) {
    const int b = queue.pop();
    if (best_b >= 0 && sc.bound[b] < best) break;
    for_each_completion(h, b, rules, [&](int m, int fr) {
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
  }
  assert(best_b >= 0);
  fill(cards13, h, best_b, best_m, best_f, out);
  return best;
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

void finish_model(ExpectedModel& model) {
  const RowModel& m = model.row[kMiddle];
  const std::size_t n = m.classes.size();
  // Rows of unequal lengths get no bounds, which validate_model then reports.
  const bool parallel = m.win.size() == n && m.loss.size() == n && m.extra_win.size() == n &&
                        m.extra_loss.size() == n && m.always.size() == n;
  for (auto& v : model.middle_upto) v.assign(parallel ? n : 0, 0.0);
  if (!parallel) return;
  for (std::size_t k = 0; k < n; ++k) {
    const bool first = k == 0;
    model.middle_upto[0][k] = first ? m.win[k] : std::max(model.middle_upto[0][k - 1], m.win[k]);
    model.middle_upto[1][k] = first ? m.loss[k] : std::min(model.middle_upto[1][k - 1], m.loss[k]);
    model.middle_upto[2][k] = first ? m.extra_win[k] : std::max(model.middle_upto[2][k - 1], m.extra_win[k]);
    model.middle_upto[3][k] = first ? m.extra_loss[k] : std::min(model.middle_upto[3][k - 1], m.extra_loss[k]);
    model.middle_upto[4][k] = first ? m.always[k] : std::max(model.middle_upto[4][k - 1], m.always[k]);
  }
}

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
    if (drop_dominated) {
      bool dominated = false;
      for (std::size_t q = 0; q < kept && !dominated; ++q) dominated = dominated_by(out[k], out[q]);
      if (dominated) continue;
    }
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
