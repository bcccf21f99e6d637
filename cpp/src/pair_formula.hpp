// Internal to the core: the settlement of one pair of players with settings (RULES.md 11.3 to 11.9) and
// the home run, each rule stated once. The general path (settle.cpp, checked arithmetic) and the net-only
// kernel (settle_net.cpp, plain arithmetic within its bound) both instantiate these functions; the
// kernel's lean tables (make_plan) are filled by them too, so a rule changed here changes every path.
#pragma once

#include <cstdint>

#include "chinese_poker/rules.hpp"
#include "row_value.hpp"

namespace chinese_poker::detail {

inline std::int64_t clamp_units(std::int64_t v, std::int64_t cap) noexcept {
  return v > cap ? cap : (v < -cap ? -cap : v);
}

inline int sign_of(std::int64_t v) noexcept { return (v > 0) - (v < 0); }

// ---- Fouls (RULES.md 11.3) ----

// Which sides of a pair settle as fouled: under foul_policy "as_laid" a foul is reported but changes
// nothing, and under foul_vs_foul "as_laid" two fouled hands compare their rows as laid.
struct PairFouls {
  bool i = false;
  bool j = false;
};

inline PairFouls settled_fouls(bool fouled_i, bool fouled_j, const RulesSpec& rules) noexcept {
  const bool both_as_laid = rules.foul_vs_foul_as_laid && fouled_i && fouled_j;
  const bool counted = rules.foul_policy != FoulPolicy::kAsLaid && !both_as_laid;
  return PairFouls{fouled_i && counted, fouled_j && counted};
}

// Two fouls push every row and void every royalty, so every amount of such a pair is 0 but the ace part:
// the paths skip its rows' arithmetic (most pairs of random hands are such).
inline bool both_fouled(PairFouls foul) noexcept { return foul.i && foul.j; }

// The rows each side wins, as bit sets (bit r: row r), once the fouls are applied: a foul loses every
// row to a setting, two fouls push every row. `won` and `lost` are the rows as laid; foul_i and foul_j
// are 0 or 1 (settled_fouls). Branch-free: the kernel calls it on random hands.
struct RowSets {
  unsigned win;
  unsigned lose;
};

inline RowSets decided_rows(unsigned won, unsigned lost, unsigned foul_i, unsigned foul_j) noexcept {
  const unsigned as_laid = (foul_i | foul_j) - 1u;  // every bit set when neither fouls, else 0
  return RowSets{(won & as_laid) | (7u * (foul_j & (foul_i ^ 1u))), (lost & as_laid) | (7u * (foul_i & (foul_j ^ 1u)))};
}

// The row sets of three results as laid (+1 i wins, -1 j wins, 0 tie).
inline RowSets row_sets(const int* laid) noexcept {
  unsigned won = 0, lost = 0;
  for (unsigned row = 0; row < 3; ++row) {
    won |= unsigned{laid[row] > 0} << row;
    lost |= unsigned{laid[row] < 0} << row;
  }
  return RowSets{won, lost};
}

// The royalty of one side of a pair decided by a foul: a fouled side's royalties are void, and the
// legal side's are paid only with foul_pays_royalties. Branch-free (the fouls of random hands are).
inline std::int64_t settled_royalty(std::int64_t royalty, bool own_foul, bool other_foul,
                                    const RulesSpec& rules) noexcept {
  const unsigned kept = unsigned{!own_foul} & (unsigned{!other_foul} | unsigned{rules.foul_pays_royalties});
  return royalty * static_cast<std::int64_t>(kept);
}

// Whether overall unit, scoop bonus and scoop multiplier apply: a pair decided by a foul plays as a scoop
// only under foul_policy "as_scooped" (two fouls then push every row: no scoop, every amount 0).
inline bool plays_as_scoop(bool decided_by_foul, const RulesSpec& rules) noexcept {
  return (unsigned{!decided_by_foul} | unsigned{rules.foul_policy == FoulPolicy::kAsScooped}) != 0;
}

// ---- Rows (RULES.md 11.4, 11.5) ----

struct PairRows {
  int results[3] = {0, 0, 0};  // +1 i wins the row, -1 j wins it, 0 push
  int wins_i = 0;
  int wins_j = 0;
  std::int64_t row_units = 0;  // the plain units of the rows: at most 3 x kMaxUnits
  std::int64_t value = 0;      // what the rows pay to i, royalties included
};

// The rows of a pair from the rows each side wins (decided_rows) and the royalties each side's rows
// carry (settled_royalty).
template <class Math>
inline PairRows rows_of(RowSets sets, const std::int64_t* royalty_i, const std::int64_t* royalty_j,
                        const RulesSpec& rules, Math& math) noexcept {
  PairRows o;
  for (unsigned row = 0; row < 3; ++row) {
    const int result = static_cast<int>((sets.win >> row) & 1u) - static_cast<int>((sets.lose >> row) & 1u);
    const std::int64_t base = rules.row_base[row];
    o.results[row] = result;
    o.wins_i += result > 0;
    o.wins_j += result < 0;
    o.row_units += result * base;
    o.value = math.add(o.value, row_value(result, royalty_i[row], royalty_j[row], base, rules, math));
  }
  return o;
}

// The rows of a pair of two settings, from the rows each wins as laid (row_sets), their rows' royalties
// and the fouls they settle with (settled_fouls).
template <class Math>
inline PairRows pair_rows(RowSets as_laid, const std::int64_t* royalty_i, const std::int64_t* royalty_j,
                          PairFouls foul, const RulesSpec& rules, Math& math) noexcept {
  if (both_fouled(foul)) return PairRows{};
  if (!foul.i && !foul.j) return rows_of(as_laid, royalty_i, royalty_j, rules, math);
  const RowSets sets = decided_rows(as_laid.win, as_laid.lose, foul.i, foul.j);
  std::int64_t ri[3], rj[3];
  for (int row = 0; row < 3; ++row) {
    ri[row] = settled_royalty(royalty_i[row], foul.i, foul.j, rules);
    rj[row] = settled_royalty(royalty_j[row], foul.j, foul.i, rules);
  }
  return rows_of(sets, ri, rj, rules, math);
}

// ---- Overall unit, scoop, subtotal (RULES.md 11.6 to 11.8) ----

struct PairTerms {
  int scoop = 0;                        // +1 i scooped j, -1 j scooped i, 0 neither
  std::int64_t overall = 0;             // the overall unit to i
  std::int64_t scoop_bonus = 0;         // scoop x scoop_bonus
  std::int64_t multiplier = 1;          // scoop_multiplier when the pair is shot, else 1
  std::int64_t royalty_multiplier = 1;  // what the royalties are multiplied by
};

// The terms of a pair whose rows i won wins_i of and j wins_j, paying `value` to i (read only under
// overall_basis "total").
template <class Math>
inline PairTerms pair_terms(int wins_i, int wins_j, std::int64_t value, bool as_scoop, const RulesSpec& rules,
                            Math& math) noexcept {
  PairTerms t;
  if (as_scoop) {
    if (rules.overall_unit > 0) {
      if (rules.overall_by_total) {
        t.overall = math.mul(rules.overall_unit, sign_of(value));
      } else {
        t.overall = wins_i >= 2 ? rules.overall_unit : (wins_j >= 2 ? math.neg(rules.overall_unit) : 0);
      }
    }
    t.scoop = wins_i == 3 ? 1 : (wins_j == 3 ? -1 : 0);
    t.scoop_bonus = math.mul(t.scoop, rules.scoop_bonus);
    // shooting "no_lost_row" (RULES.md 11.7): a winner who lost no row is shot, ties allowed.
    const bool shot = rules.shooting_no_lost_row ? (wins_i > 0) != (wins_j > 0) : t.scoop != 0;
    if (shot) t.multiplier = rules.scoop_multiplier;
  }
  t.royalty_multiplier = rules.royalties_in_multiplier ? t.multiplier : 1;
  return t;
}

// The subtotal (RULES.md 11.8): multiplier x (row units + overall unit + scoop bonus) + the royalty units
// times the royalty multiplier.
template <class Math>
inline std::int64_t pair_subtotal(const PairTerms& t, std::int64_t row_units, std::int64_t royalty_units,
                                  Math& math) noexcept {
  const std::int64_t plain = math.add(math.add(row_units, t.overall), t.scoop_bonus);
  return math.add(math.mul(t.multiplier, plain), math.mul(t.royalty_multiplier, royalty_units));
}

// ---- Side amounts and units (RULES.md 11.9) ----

// The pairwise ace part (ace_basis "pairwise"; none under "table", which pays per player).
template <class Math>
inline std::int64_t pair_ace_units(int aces_i, int aces_j, const RulesSpec& rules, Math& math) noexcept {
  return rules.ace_basis_table ? 0 : math.mul(rules.ace_units, aces_i - aces_j);
}

// ace_basis "table": a player's Chi A on its own, apart from the pairs. aces - 1 is in -1..3 and
// ace_units at most kMaxUnits: no overflow.
inline std::int64_t table_ace_units(int aces, const RulesSpec& rules) noexcept {
  return rules.ace_units * (aces - 1);
}

// horse_multiplier when exactly one side holds the horse card, else 1.
inline std::int64_t horse_factor(bool horse_i, bool horse_j, const RulesSpec& rules) noexcept {
  return rules.horse_card >= 0 && horse_i != horse_j ? rules.horse_multiplier : 1;
}

// The subtotal after pair_cap (for a pair decided by rows or a foul).
inline std::int64_t cap_pair(std::int64_t subtotal, const RulesSpec& rules) noexcept {
  return rules.pair_cap > 0 ? clamp_units(subtotal, rules.pair_cap) : subtotal;
}

// units from the amount after the caps and the home run: + the ace part (never capped or multiplied by
// shooting or the home run), x horse x bet, x stake last (the other factors' product always fits, so a
// zero stake never reports an overflow). No branch: whether the ace part is 0 is a coin flip.
template <class Math>
inline std::int64_t pair_units(std::int64_t value, std::int64_t ace, std::int64_t horse, std::int64_t bet,
                               std::int64_t stake, Math& math) noexcept {
  return math.mul(math.mul(math.mul(math.add(value, ace), horse), bet), stake);
}

// ---- The home run (RULES.md 11.9) ----

// What the home run reads of one settled pair (pair_shot): the rules of counting a pair as a shot
// (counts_as_shot) and of what a home run does to it (home_run_step) read nothing else of the pair.
struct PairShot {
  int scoop = 0;    // +1 i scooped j, -1 j scooped i, 0 neither
  int natural = 0;  // +1 or -1: the side a natural won the pair for; 0 when no natural decided it
  int by_foul = 0;  // +1 or -1: the side that won the pair by the other's foul alone; 0 otherwise
};

// The PairShot of a pair: its scoop, the side its natural won it for (0 without one), and the fouls it
// was settled with (settled_fouls; both false for a pair that no foul decided).
inline PairShot pair_shot(int scoop, int natural, PairFouls fouls) noexcept {
  return PairShot{scoop, natural, static_cast<int>(fouls.j && !fouls.i) - static_cast<int>(fouls.i && !fouls.j)};
}

// Whether a home run changes any amount under these rules.
inline bool home_run_pays(const RulesSpec& rules) noexcept {
  return rules.home_run_multiplier != 1 || rules.home_run_bonus > 0;
}

// Whether a home run can pay at a table of num_players: it needs enough opponents.
inline bool home_run_possible(int num_players, const RulesSpec& rules) noexcept {
  return home_run_pays(rules) && num_players - 1 >= rules.home_run_min_opponents;
}

// Whether the pair counts as a shot for `side` (+1 for i, -1 for j) toward a home run: a scoop; with
// home_run_counts_naturals a natural's win; with foul_counts_for_home_run a win by the other's foul.
inline bool counts_as_shot(const PairShot& shot, int side, const RulesSpec& rules) noexcept {
  return shot.scoop == side || (rules.home_run_counts_naturals && shot.natural == side) ||
         (rules.foul_counts_for_home_run && shot.by_foul == side);
}

// The player who takes the home run, or -1: one whose every pair counts as a shot (with `only` >= 0,
// that seat alone may: a banker round). At most one can (a pair counts for one side only). Pair is any
// type with members i and j; shot_of(pair) gives its PairShot.
template <class Pair, class ShotOf>
int home_run_player(const Pair* pairs, int num_pairs, int num_players, int only, const RulesSpec& rules,
                    ShotOf&& shot_of) noexcept {
  for (int p = 0; p < num_players; ++p) {
    if (only >= 0 && p != only) continue;
    bool all = true;
    for (int q = 0; q < num_pairs; ++q) {
      const Pair& pr = pairs[q];
      if (pr.i == p || pr.j == p) all = all && counts_as_shot(shot_of(pr), pr.i == p ? 1 : -1, rules);
    }
    if (all) return p;
  }
  return -1;
}

// What a home run does to one pair.
struct HomeRunStep {
  bool applies = false;         // the pair's amount changes
  std::int64_t multiplier = 1;  // home_run_multiplier when it applies
  std::int64_t bonus = 0;       // the home run bonus to i
  std::int64_t value = 0;       // the amount before the ace part, horse, bet and stake
  bool capped = false;          // home_run_cap clamped it
};

// The home run of player p on pair (i, j) whose amount after pair_cap is `capped`. The home-run player's
// pairs are multiplied, get the bonus and home_run_cap; under home_run_scope "table" the pairs between
// two other players are multiplied too, without the bonus or the cap.
template <class Math>
inline HomeRunStep home_run_step(int p, int i, int j, const PairShot& shot, std::int64_t capped,
                                 const RulesSpec& rules, Math& math) noexcept {
  static_cast<void>(shot);  // what a per-pair rule of the home run reads
  HomeRunStep s;
  if (i != p && j != p) {
    if (!rules.home_run_scope_table) return s;
    s.applies = true;
    s.multiplier = rules.home_run_multiplier;
    s.value = math.mul(capped, s.multiplier);
    return s;
  }
  const std::int64_t side = i == p ? 1 : -1;
  s.applies = true;
  s.multiplier = rules.home_run_multiplier;
  s.bonus = side * rules.home_run_bonus;
  s.value = math.add(math.mul(capped, s.multiplier), s.bonus);
  if (rules.home_run_cap > 0) {
    const std::int64_t clamped = clamp_units(s.value, rules.home_run_cap);
    s.capped = clamped != s.value;
    s.value = clamped;
  }
  return s;
}

}  // namespace chinese_poker::detail
