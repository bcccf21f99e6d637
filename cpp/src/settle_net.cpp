#include "settle_net.hpp"

#include <cstring>

#include "chinese_poker/cards.hpp"
#include "chinese_poker/evaluate.hpp"
#include "checked.hpp"
#include "evaluate_tables.hpp"
#include "naturals_detail.hpp"
#include "row_value.hpp"

namespace chinese_poker::detail {

namespace {

// Why plain int64 arithmetic is safe here (the general path checks every operation instead): every amount
// of a valid RulesSpec is at most kMaxUnits, so one row is worth at most 3 x kMaxUnits, a pair's subtotal
// at most kMaxUnits x 5 kMaxUnits + kMaxUnits x 12 kMaxUnits (1.7e7 at kMaxUnits 1000), the home run
// multiplies that by at most kMaxUnits and adds at most kMaxUnits, the ace part adds at most 4 kMaxUnits
// and the horse multiplies by at most kMaxUnits: below 2e13 a pair, 1e14 a net over five pairs. The
// kernel takes no stakes or bets (a call with them goes the general way), so nothing else multiplies.
static_assert(kMaxUnits <= 1000, "the net kernel's bound assumes amounts of at most 1000 units");

// What the pairs need of one player with a valid setting and no natural.
struct NetFacts {
  Strength strength[3];
  std::int64_t royalty[3];
  // The royalty part of a won row under royalty_condition "win" (its worth minus row_base; RULES.md
  // 11.5): [0] against a setting, [1] against a fouled opponent (none when foul_pays_royalties is off).
  std::int64_t extra[2][3];
  unsigned foul;   // 1 when the setting fouls (foul_reasons != 0), else 0
  bool has_extra;  // some entry of `extra` is not 0 (rare: most rows earn no royalty)
  bool horse;
  int aces;
};

// 1 when a > b, else 0, without a branch (the strengths are 32-bit, so the 64-bit difference b - a is
// negative exactly then).
unsigned greater(Strength a, Strength b) noexcept {
  return static_cast<unsigned>((std::uint64_t{b} - std::uint64_t{a}) >> 63);
}

std::int64_t clamp(std::int64_t v, std::int64_t cap) noexcept { return v > cap ? cap : (v < -cap ? -cap : v); }

int sign(std::int64_t v) noexcept { return (v > 0) - (v < 0); }

// One pair as the kernel keeps it until the home run is known.
struct NetPair {
  int i, j;
  int scoop;             // +1 i scooped j, -1 j scooped i, 0 neither
  std::int64_t capped;   // the subtotal after pair_cap
  std::int64_t ace;      // the pairwise ace part (ace_basis "pairwise")
  std::int64_t horse;    // horse_multiplier or 1
  std::int64_t units;
};

// The row results of a pair and what the rows pay to i, from the players' results as laid (`laid`).
struct RowOutcome {
  int results[3];
  std::int64_t value;      // what the rows pay, royalties included
  std::int64_t row_units;  // the plain units of the rows
};

// The rows of a pair under any rules, row by row as the general path does.
RowOutcome rows_of_pair(const NetFacts& fi, const NetFacts& fj, bool foul_i, bool foul_j, const int* laid,
                         const RulesSpec& rules) noexcept {
  RowOutcome o{{0, 0, 0}, 0, 0};
  if (foul_i && foul_j) return o;
  const int legal = foul_i ? -1 : 1;
  for (int row = 0; row < 3; ++row) {
    int result = laid[row];
    std::int64_t ri = fi.royalty[row], rj = fj.royalty[row];
    if (foul_i || foul_j) {
      result = legal;
      if (!rules.foul_pays_royalties) ri = rj = 0;
      (legal > 0 ? rj : ri) = 0;  // the fouled side's royalties are void
    }
    const std::int64_t base = rules.row_base[static_cast<std::size_t>(row)];
    o.results[row] = result;
    o.row_units += result * base;
    PlainMath plain;  // within the bound above
    o.value += row_value(result, ri, rj, base, rules, plain);
  }
  return o;
}

void finish_pair(const NetFacts& fi, const NetFacts& fj, const RulesSpec& rules, std::int64_t subtotal,
                 NetPair& p) noexcept;

// Settles pair (i, j) of players with settings and no natural: false when two rows are of equal strength
// and the rules break such ties by suits (the round then goes the general way, which holds the cards).
bool settle_pair(const NetFacts& fi, const NetFacts& fj, const RulesSpec& rules, NetPair& p) noexcept {
  const bool both_as_laid = rules.foul_vs_foul_as_laid && fi.foul && fj.foul;
  const bool foul_i = fi.foul && rules.foul_policy != FoulPolicy::kAsLaid && !both_as_laid;
  const bool foul_j = fj.foul && rules.foul_policy != FoulPolicy::kAsLaid && !both_as_laid;
  int laid[3];
  for (int row = 0; row < 3; ++row) {
    const Strength si = fi.strength[row], sj = fj.strength[row];
    laid[row] = static_cast<int>(si > sj) - static_cast<int>(si < sj);
  }
  if (rules.suit_tiebreak != SuitTiebreak::kOff && !foul_i && !foul_j && (laid[0] == 0 || laid[1] == 0 || laid[2] == 0)) return false;
  const RowOutcome o = rows_of_pair(fi, fj, foul_i, foul_j, laid, rules);
  int wins_i = 0, wins_j = 0;
  for (int row = 0; row < 3; ++row) {
    wins_i += o.results[row] > 0;
    wins_j += o.results[row] < 0;
  }
  // A pair decided by a foul plays as a scoop only under foul_policy "as_scooped" (both foul: all zero).
  const bool plays_as_scoop = !(foul_i || foul_j) || rules.foul_policy == FoulPolicy::kAsScooped;
  const int scoop = plays_as_scoop ? static_cast<int>(wins_i == 3) - static_cast<int>(wins_j == 3) : 0;
  std::int64_t overall = 0;
  if (rules.overall_unit > 0 && plays_as_scoop) {
    overall = rules.overall_by_total ? rules.overall_unit * sign(o.value)
                                     : rules.overall_unit * (static_cast<int>(wins_i >= 2) - static_cast<int>(wins_j >= 2));
  }
  // shooting "no_lost_row" (RULES.md 11.7): a winner who lost no row is shot, ties allowed.
  const bool shot = plays_as_scoop && (rules.shooting_no_lost_row ? (wins_i > 0) != (wins_j > 0) : scoop != 0);
  const std::int64_t multiplier = shot ? rules.scoop_multiplier : 1;
  const std::int64_t royalty_multiplier = rules.royalties_in_multiplier ? multiplier : 1;
  const std::int64_t subtotal =
      multiplier * (o.row_units + overall + scoop * rules.scoop_bonus) + royalty_multiplier * (o.value - o.row_units);
  p.scoop = scoop;
  finish_pair(fi, fj, rules, subtotal, p);
  return true;
}

// ---- The lean pair: rules whose pair amount follows from which rows each side won ----
// Every preset but the open-face and suit-tie-break ones: royalty_condition "win", no royalty_cancel,
// overall_basis "two_rows", no suit tie-break, foul_policy other than "as_laid", foul_vs_foul "void".
// Then a pair's amount is a function of (rows i won, rows j won, whether it plays as a scoop) plus its
// royalties times a factor of the same: a table of 2 x 64 entries made once per chunk from the rules.
bool lean_rules(const RulesSpec& rules) noexcept {
  return !rules.royalty_always && !rules.royalty_cancel && !rules.overall_by_total && rules.suit_tiebreak == SuitTiebreak::kOff &&
         rules.foul_policy != FoulPolicy::kAsLaid && !rules.foul_vs_foul_as_laid;
}

struct PairOutcome {
  std::int64_t plain = 0;                // multiplier x (row units + overall unit + scoop bonus)
  std::int64_t royalty_multiplier = 1;   // what the royalties are multiplied by
  int scoop = 0;                         // +1, -1 or 0
};

// What the kernel derives from the rules once per chunk.
struct NetPlan {
  // [plays as a scoop][rows i won as bits | rows j won as bits << 3], as settle_pair computes them.
  PairOutcome outcome[2][64];
  // Royalty tables without royal_flush, wheel_straight_flush or "category@R" entries (all but the
  // open-face ones) pay by category alone: [row][category] the royalty, and the extra part of a won row
  // against a setting [0] and against a fouled opponent [1] (NetFacts::extra).
  bool royalty_by_category = false;
  std::int64_t royalty[3][kRoyaltyCategories] = {};
  std::int64_t extra[2][3][kRoyaltyCategories] = {};
  // No ace part, horse, pair cap or home run: a pair's units are its subtotal, added to the nets at once.
  bool plain_units = false;
  std::uint32_t listed_naturals = 0;  // detail::listed_kinds
};

// What a won row pays beyond row_base (RULES.md 11.5, royalty_condition "win").
std::int64_t extra_of(std::int64_t royalty, std::int64_t base, bool add) noexcept {
  const std::int64_t worth = add ? base + royalty : (royalty > 0 ? royalty : base);
  return worth - base;
}

void make_plan(const RulesSpec& rules, NetPlan& plan) noexcept {
  plan.listed_naturals = listed_kinds(rules);
  plan.royalty_by_category = true;
  for (std::size_t row = 0; row < 3; ++row) {
    plan.royalty_by_category = plan.royalty_by_category && !rules.royal_listed[row] && !rules.wheel_sf_listed[row];
    for (std::size_t cat = 0; cat < kRoyaltyCategories; ++cat) {
      plan.royalty_by_category = plan.royalty_by_category && rules.royalty_at_listed[row][cat] == 0;
      const std::int64_t royalty = rules.royalty[row][cat];
      const std::int64_t extra = extra_of(royalty, rules.row_base[row], rules.royalty_add);
      plan.royalty[row][cat] = royalty;
      plan.extra[0][row][cat] = extra;
      plan.extra[1][row][cat] = rules.foul_pays_royalties ? extra : 0;
    }
  }
  const bool home_run_pays = rules.home_run_multiplier != 1 || rules.home_run_bonus > 0;
  plan.plain_units = rules.ace_units == 0 && !rules.ace_basis_table && rules.horse_card < 0 && rules.pair_cap == 0 &&
                     !home_run_pays;
  for (int plays = 0; plays < 2; ++plays) {
    for (unsigned win = 0; win < 8; ++win) {
      for (unsigned lose = 0; lose < 8; ++lose) {
        PairOutcome& o = plan.outcome[plays][win | lose << 3];
        if ((win & lose) != 0) continue;  // no row is won by both: never looked up
        std::int64_t row_units = 0;
        int wins_i = 0, wins_j = 0;
        for (unsigned row = 0; row < 3; ++row) {
          const int result = static_cast<int>((win >> row) & 1u) - static_cast<int>((lose >> row) & 1u);
          row_units += result * rules.row_base[row];
          wins_i += result > 0;
          wins_j += result < 0;
        }
        std::int64_t overall = 0, multiplier = 1;
        if (plays != 0) {
          if (rules.overall_unit > 0) {
            overall = wins_i >= 2 ? rules.overall_unit : (wins_j >= 2 ? -rules.overall_unit : 0);
          }
          o.scoop = wins_i == 3 ? 1 : (wins_j == 3 ? -1 : 0);
          const bool shot = rules.shooting_no_lost_row ? (wins_i > 0) != (wins_j > 0) : o.scoop != 0;
          if (shot) multiplier = rules.scoop_multiplier;
        }
        o.plain = multiplier * (row_units + overall + o.scoop * rules.scoop_bonus);
        o.royalty_multiplier = rules.royalties_in_multiplier ? multiplier : 1;
      }
    }
  }
}

// The subtotal of pair (i, j) under lean rules, with no branch on the random strengths or fouls; its
// scoop (+1, -1, 0) in *scoop.
inline std::int64_t lean_subtotal(const NetFacts& fi, const NetFacts& fj, const RulesSpec& rules,
                                  const NetPlan& plan, int* scoop) noexcept {
  const Strength* si = fi.strength;
  const Strength* sj = fj.strength;
  const unsigned won = greater(si[0], sj[0]) | greater(si[1], sj[1]) << 1 | greater(si[2], sj[2]) << 2;
  const unsigned lost = greater(sj[0], si[0]) | greater(sj[1], si[1]) << 1 | greater(sj[2], si[2]) << 2;
  // A foul loses every row to a setting; two fouls push every row.
  const unsigned decided = fi.foul | fj.foul;
  const unsigned as_laid = decided - 1u;  // every bit set when neither fouls, else 0
  const unsigned win = (won & as_laid) | (7u * (fj.foul & (fi.foul ^ 1u)));
  const unsigned lose = (lost & as_laid) | (7u * (fi.foul & (fj.foul ^ 1u)));
  std::int64_t royalty = 0;
  if (fi.has_extra || fj.has_extra) {
    const std::int64_t* extra_i = fi.extra[fj.foul];
    const std::int64_t* extra_j = fj.extra[fi.foul];
    for (unsigned row = 0; row < 3; ++row) {
      royalty += extra_i[row] & -static_cast<std::int64_t>((win >> row) & 1u);
      royalty -= extra_j[row] & -static_cast<std::int64_t>((lose >> row) & 1u);
    }
  }
  const unsigned plays_as_scoop = (decided ^ 1u) | unsigned{rules.foul_policy == FoulPolicy::kAsScooped};
  const PairOutcome& o = plan.outcome[plays_as_scoop][win | lose << 3];
  *scoop = o.scoop;
  return o.plain + o.royalty_multiplier * royalty;
}

// The rest of a pair's amount: the ace part, the horse and pair_cap.
void finish_pair(const NetFacts& fi, const NetFacts& fj, const RulesSpec& rules, std::int64_t subtotal,
                 NetPair& p) noexcept {
  p.ace = rules.ace_basis_table ? 0 : rules.ace_units * (fi.aces - fj.aces);
  p.horse = rules.horse_card >= 0 && fi.horse != fj.horse ? rules.horse_multiplier : 1;
  p.capped = rules.pair_cap > 0 ? clamp(subtotal, rules.pair_cap) : subtotal;
  p.units = (p.capped + p.ace) * p.horse;
}

// The home run (RULES.md 11.9), as the general path applies it: a player who scoops every opponent, with
// enough opponents. At most one player can (two would have to scoop each other).
void apply_home_run(NetPair* pairs, int num_pairs, int num_players, const RulesSpec& rules) noexcept {
  for (int p = 0; p < num_players; ++p) {
    bool all = true;
    for (int q = 0; q < num_pairs; ++q) {
      const NetPair& pr = pairs[q];
      if (pr.i == p) all = all && pr.scoop == 1;
      if (pr.j == p) all = all && pr.scoop == -1;
    }
    if (!all) continue;
    for (int q = 0; q < num_pairs; ++q) {
      NetPair& pr = pairs[q];
      if (pr.i != p && pr.j != p) {
        if (rules.home_run_scope_table) pr.units = (pr.capped * rules.home_run_multiplier + pr.ace) * pr.horse;
        continue;
      }
      const std::int64_t side = pr.i == p ? 1 : -1;
      std::int64_t value = pr.capped * rules.home_run_multiplier + side * rules.home_run_bonus;
      if (rules.home_run_cap > 0) value = clamp(value, rules.home_run_cap);
      pr.units = (value + pr.ace) * pr.horse;
    }
    return;
  }
}

// The facts of one player with valid cards.
void net_facts(const std::uint8_t* cards, const RulesSpec& rules, const NetPlan& plan, const Tables& t,
               NetFacts& f) noexcept {
  Strength* s = f.strength;
  s[0] = eval3_with(t, cards);
  s[1] = eval5_with(t, cards + 3, static_cast<unsigned>(rules.wheel));
  s[2] = eval5_with(t, cards + 8, static_cast<unsigned>(rules.wheel));
  if (plan.royalty_by_category) {
    for (std::size_t row = 0; row < 3; ++row) {
      const auto cat = static_cast<std::size_t>(category_of(s[row]));
      f.royalty[row] = plan.royalty[row][cat];
      f.extra[0][row] = plan.extra[0][row][cat];
      f.extra[1][row] = plan.extra[1][row][cat];
    }
  } else {
    for (std::size_t row = 0; row < 3; ++row) {
      const std::int64_t royalty = royalty_of(rules, static_cast<int>(row), s[row]);
      const std::int64_t extra = extra_of(royalty, rules.row_base[row], rules.royalty_add);
      f.royalty[row] = royalty;
      f.extra[0][row] = extra;
      f.extra[1][row] = rules.foul_pays_royalties ? extra : 0;
    }
  }
  f.has_extra = (f.extra[0][0] | f.extra[0][1] | f.extra[0][2]) != 0;
  // Suits never matter here, even with the suit tie-break on (RULES.md 9).
  f.foul = greater(s[0], s[1]) | greater(s[1], s[2]) | (unsigned{rules.strict_middle} & unsigned{s[1] == s[2]});
  f.aces = 0;
  if (rules.ace_units != 0) {
    for (int k = 0; k < 13; ++k) f.aces += card_rank(cards[k]) == 12;
  }
  f.horse = false;
  if (rules.horse_card >= 0) {
    for (int k = 0; k < 13; ++k) f.horse = f.horse || static_cast<int>(cards[k]) == rules.horse_card;
  }
}

// Net units of one valid round of kPlayers in `net`; false when the round needs the general path.
// The player count is a template argument so that the pair loops unroll; kLean picks the pair function,
// kPlain (NetPlan::plain_units) lets pairs add to the nets directly.
template <bool kLean, bool kPlain, int kPlayers>
bool settle_round_net(const std::uint8_t* round, const RulesSpec& rules, const Tables& t, const NetPlan& plan,
                      std::int64_t* net) noexcept {
  NetFacts facts[static_cast<std::size_t>(kPlayers)];
  const bool naturals = rules.natural_auto && rules.num_naturals > 0;
  for (int p = 0; p < kPlayers; ++p) {
    const std::uint8_t* cards = round + 13 * p;
    if (naturals && detect_natural_valid(cards, rules, plan.listed_naturals) >= 0) return false;
    net_facts(cards, rules, plan, t, facts[p]);
  }
  if (kLean && kPlain) {
    for (int p = 0; p < kPlayers; ++p) net[p] = 0;
    for (int i = 0; i < kPlayers; ++i) {
      for (int j = i + 1; j < kPlayers; ++j) {
        int scoop;
        const std::int64_t units = lean_subtotal(facts[i], facts[j], rules, plan, &scoop);
        net[i] += units;
        net[j] -= units;
      }
    }
    return true;
  }
  constexpr int kPairs = kPlayers * (kPlayers - 1) / 2;
  NetPair pairs[static_cast<std::size_t>(kPairs)];
  int q = 0;
  for (int i = 0; i < kPlayers; ++i) {
    for (int j = i + 1; j < kPlayers; ++j) {
      NetPair& pr = pairs[q++];
      pr.i = i;
      pr.j = j;
      if (kLean) {
        finish_pair(facts[i], facts[j], rules, lean_subtotal(facts[i], facts[j], rules, plan, &pr.scoop), pr);
      } else if (!settle_pair(facts[i], facts[j], rules, pr)) {
        return false;
      }
    }
  }
  const bool home_run_pays = rules.home_run_multiplier != 1 || rules.home_run_bonus > 0;
  if (home_run_pays && kPlayers - 1 >= rules.home_run_min_opponents) apply_home_run(pairs, kPairs, kPlayers, rules);
  for (int p = 0; p < kPlayers; ++p) {
    // ace_basis "table": each player's Chi A on its own (no declaration can settle a kernel round).
    net[p] = rules.ace_basis_table ? rules.ace_units * (facts[p].aces - 1) : 0;
  }
  for (int k = 0; k < kPairs; ++k) {
    net[pairs[k].i] += pairs[k].units;
    net[pairs[k].j] -= pairs[k].units;
  }
  return true;
}

using RoundKernel = bool (*)(const std::uint8_t*, const RulesSpec&, const Tables&, const NetPlan&, std::int64_t*);

template <bool kLean, bool kPlain>
RoundKernel kernel_for(int num_players) noexcept {
  switch (num_players) {
    case 2: return settle_round_net<kLean, kPlain, 2>;
    case 3: return settle_round_net<kLean, kPlain, 3>;
    default: return settle_round_net<kLean, kPlain, 4>;
  }
}

RoundKernel kernel_for(const RulesSpec& rules, const NetPlan& plan, int num_players) noexcept {
  if (!lean_rules(rules)) return kernel_for<false, false>(num_players);
  return plan.plain_units ? kernel_for<true, true>(num_players) : kernel_for<true, false>(num_players);
}

}  // namespace

bool net_kernel_applies(const RulesSpec& rules, int num_players, const BatchInputs& inputs,
                        const BatchOutputs& outputs) noexcept {
  const bool inputs_default = inputs.stakes == nullptr && inputs.declared == nullptr &&
                              inputs.surrendered == nullptr && inputs.banker == nullptr && inputs.bets == nullptr &&
                              inputs.fantasyland == nullptr;
  const bool net_only = outputs.rows == nullptr && outputs.rows_known == nullptr && outputs.decided_by == nullptr &&
                        outputs.scoop == nullptr && outputs.subtotal == nullptr && outputs.stake == nullptr &&
                        outputs.home_run == nullptr && outputs.units == nullptr && outputs.foul == nullptr &&
                        outputs.natural == nullptr && outputs.royalties == nullptr && outputs.bet == nullptr &&
                        outputs.fantasyland_cards == nullptr && outputs.player_foul == nullptr &&
                        outputs.player_natural == nullptr && outputs.player_home_run == nullptr;
  // ace_basis "table" outside a four-player table is an error, which the general path reports.
  const bool ace_table_ok = !rules.ace_basis_table || num_players == kMaxDeckPlayers;
  return inputs_default && net_only && ace_table_ok && rules.extra_suits == 0 && rules.jokers == 0 &&
         rules.fantasyland == Fantasyland::kOff && num_players >= kMinPlayers && num_players <= kMaxDeckPlayers;
}

SettleError settle_rounds_net(const std::uint8_t* cards, std::size_t begin, std::size_t end, int num_players,
                              const RulesSpec& rules, std::int64_t* net, std::size_t* bad) noexcept {
  const Tables& t = tables();
  const auto players = static_cast<std::size_t>(num_players);
  const std::size_t stride = players * 13;
  std::uint8_t round[kMaxDeckPlayers * 13];
  PlayerInput in[kMaxDeckPlayers];
  for (int p = 0; p < num_players; ++p) in[p].cards = round + 13 * p;
  RoundResult general;  // for the rounds the kernel hands over: one per chunk, not per round
  NetPlan plan;
  make_plan(rules, plan);
  const RoundKernel kernel = kernel_for(rules, plan, num_players);
  for (std::size_t r = begin; r < end; ++r) {
    // One read of the caller's bytes; validation and settlement see only the copy.
    std::memcpy(round, cards + r * stride, stride);
    const auto index = static_cast<std::int64_t>(r);
    const CardIssue issue = check_round(round, num_players, index, 0);
    std::int64_t* out = net + r * players;
    if (!issue && kernel(round, rules, t, plan, out)) continue;
    SettleError error;
    if (issue) {
      error.status = SettleStatus::kBadCards;
      error.player = issue.position / 13;
      error.cards = issue;
    } else {
      error = settle_round(in, num_players, rules, nullptr, &general);
      if (!error) {
        for (std::size_t p = 0; p < players; ++p) out[p] = general.net[p];
        continue;
      }
    }
    *bad = r;
    error.round = index;
    return error;
  }
  return SettleError{};
}

}  // namespace chinese_poker::detail
