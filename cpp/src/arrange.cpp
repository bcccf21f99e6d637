#include "chinese_poker/arrange.hpp"

#include <algorithm>

#include "evaluate_tables.hpp"

namespace chinese_poker {

namespace {

// The 1,287 five-card subsets of 13 positions and the 56 of 8, as bit masks, built once.
struct SubsetTables {
  unsigned five_of_13[1287];
  unsigned char five_of_8[56];
  SubsetTables() {
    int n = 0;
    for (unsigned m = 0; m < (1u << 13); ++m) {
      if (__builtin_popcount(m) == 5) five_of_13[n++] = m;
    }
    n = 0;
    for (unsigned m = 0; m < (1u << 8); ++m) {
      if (__builtin_popcount(m) == 5) five_of_8[n++] = static_cast<unsigned char>(m);
    }
  }
};

const SubsetTables& subsets() {
  static const SubsetTables instance;
  return instance;
}

[[maybe_unused]] const SubsetTables& g_subsets_at_load = subsets();

// Calls f(arrangement) for every legal setting, back chosen first so that a back weaker than the best
// possible middle can be skipped early.
template <class F>
void for_each_legal(const std::uint8_t* c, const RulesSpec& rules, F&& f) {
  const detail::Tables& t = detail::tables();
  const SubsetTables& s = subsets();
  const unsigned wheel = static_cast<unsigned>(rules.wheel);
  Arrangement a;
  for (unsigned bmask : s.five_of_13) {
    std::uint8_t rest[8];
    int b = 0, r = 0;
    for (int k = 0; k < 13; ++k) {
      if (bmask >> k & 1u) {
        a.cards[8 + b++] = c[k];
      } else {
        rest[r++] = c[k];
      }
    }
    a.strength[2] = detail::eval5_with(t, a.cards + 8, wheel);
    for (unsigned mmask : s.five_of_8) {
      int m = 0, f3 = 0;
      for (int k = 0; k < 8; ++k) {
        if (mmask >> k & 1u) {
          a.cards[3 + m++] = rest[k];
        } else {
          a.cards[f3++] = rest[k];
        }
      }
      a.strength[1] = detail::eval5_with(t, a.cards + 3, wheel);
      if (rules.strict_middle ? a.strength[1] >= a.strength[2] : a.strength[1] > a.strength[2]) continue;
      a.strength[0] = detail::eval3_with(t, a.cards);
      if (a.strength[0] < a.strength[1]) f(a);
    }
  }
}

bool same_strengths(const Arrangement& x, const Arrangement& y) noexcept {
  return x.strength[0] == y.strength[0] && x.strength[1] == y.strength[1] && x.strength[2] == y.strength[2];
}

bool dominated_by(const Arrangement& x, const Arrangement& y) noexcept {
  return y.strength[0] >= x.strength[0] && y.strength[1] >= x.strength[1] && y.strength[2] >= x.strength[2];
}

bool by_strengths_desc(const Arrangement& x, const Arrangement& y) noexcept {
  if (x.strength[2] != y.strength[2]) return x.strength[2] > y.strength[2];
  if (x.strength[1] != y.strength[1]) return x.strength[1] > y.strength[1];
  return x.strength[0] > y.strength[0];
}

}  // namespace

std::size_t legal_arrangements(const std::uint8_t* cards13, const RulesSpec& rules, bool distinct_strengths,
                               bool drop_dominated, Arrangement* out) noexcept {
  std::size_t n = 0;
  for_each_legal(cards13, rules, [&](const Arrangement& a) { out[n++] = a; });
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

bool strongest_arrangement(const std::uint8_t* cards13, const RulesSpec& rules, Arrangement* out) noexcept {
  bool found = false;
  for_each_legal(cards13, rules, [&](const Arrangement& a) {
    if (!found || by_strengths_desc(a, *out)) {
      *out = a;
      found = true;
    }
  });
  return found;
}

}  // namespace chinese_poker
