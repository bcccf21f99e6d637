#include "settle_net.hpp"

#include <cstring>

#include "chinese_poker/cards.hpp"
#include "chinese_poker/evaluate.hpp"
#include "checked.hpp"
#include "evaluate_tables.hpp"
#include "naturals_detail.hpp"
#include "pair_formula.hpp"

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

// One pair as the kernel keeps it until the home run is known.
struct NetPair {
  int i, j;
  int scoop;             // +1 i scooped j, -1 j scooped i, 0 neither
  PairFouls fouls;       // the fouls the pair settled with (its PairShot is made only for a home run)
  std::int64_t capped;   // the subtotal after pair_cap
  std::int64_t ace;      // the pairwise ace part (ace_basis "pairwise")
  std::int64_t horse;    // horse_multiplier or 1
  std::int64_t units;
};

void finish_pair(const NetFacts& fi, const NetFacts& fj, const RulesSpec& rules, std::int64_t subtotal,
                 NetPair& p) noexcept;

// The rows each side of pair (i, j) wins as laid (bit r: row r), without a branch.
inline RowSets laid_rows(const NetFacts& fi, const NetFacts& fj) noexcept {
  const Strength* si = fi.strength;
  const Strength* sj = fj.strength;
  return RowSets{greater(si[0], sj[0]) | greater(si[1], sj[1]) << 1 | greater(si[2], sj[2]) << 2,
                 greater(sj[0], si[0]) | greater(sj[1], si[1]) << 1 | greater(sj[2], si[2]) << 2};
}

// Settles pair (i, j) of players with settings and no natural under any rules the kernel takes, as the
// general path does (pair_formula.hpp): false when two rows are of equal strength and the rules break
// such ties by suits (the round then goes the general way, which holds the cards).
bool settle_pair(const NetFacts& fi, const NetFacts& fj, const RulesSpec& rules, NetPair& p) noexcept {
  const PairFouls foul = settled_fouls(fi.foul != 0, fj.foul != 0, rules);
  p.fouls = foul;
  if (both_fouled(foul)) {
    p.scoop = 0;
    finish_pair(fi, fj, rules, 0, p);
    return true;
  }
  const RowSets laid = laid_rows(fi, fj);
  if (rules.suit_tiebreak != SuitTiebreak::kOff && !foul.i && !foul.j && (laid.win | laid.lose) != 7u) return false;
  PlainMath plain;  // within the bound above
  const PairRows rows = pair_rows(laid, fi.royalty, fj.royalty, foul, rules, plain);
  const PairTerms terms =
      pair_terms(rows.wins_i, rows.wins_j, rows.value, plays_as_scoop(foul.i || foul.j, rules), rules, plain);
  p.scoop = terms.scoop;
  finish_pair(fi, fj, rules, pair_subtotal(terms, rows.row_units, rows.value - rows.row_units, plain), p);
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
std::int64_t extra_of(std::int64_t royalty, std::int64_t base, const RulesSpec& rules) noexcept {
  PlainMath plain;
  return won_row_worth(royalty, base, rules, plain) - base;
}

void make_plan(const RulesSpec& rules, NetPlan& plan) noexcept {
  plan.listed_naturals = listed_kinds(rules);
  plan.royalty_by_category = true;
  for (std::size_t row = 0; row < 3; ++row) {
    plan.royalty_by_category = plan.royalty_by_category && !rules.royal_listed[row] && !rules.wheel_sf_listed[row];
    for (std::size_t cat = 0; cat < kRoyaltyCategories; ++cat) {
      plan.royalty_by_category = plan.royalty_by_category && rules.royalty_at_listed[row][cat] == 0;
      const std::int64_t royalty = rules.royalty[row][cat];
      plan.royalty[row][cat] = royalty;
      plan.extra[0][row][cat] = extra_of(royalty, rules.row_base[row], rules);
      plan.extra[1][row][cat] = extra_of(settled_royalty(royalty, false, true, rules), rules.row_base[row], rules);
    }
  }
  plan.plain_units = rules.ace_units == 0 && !rules.ace_basis_table && rules.horse_card < 0 && rules.pair_cap == 0 &&
                     !home_run_pays(rules);
  // Each entry as pair_terms and pair_subtotal settle it, without the royalties (added per pair).
  // Lean rules read no value in pair_terms (overall_basis "two_rows"): the rows' plain units stand in.
  PlainMath plain;
  const std::int64_t no_royalty[3] = {0, 0, 0};
  for (int plays = 0; plays < 2; ++plays) {
    for (unsigned win = 0; win < 8; ++win) {
      for (unsigned lose = 0; lose < 8; ++lose) {
        PairOutcome& o = plan.outcome[plays][win | lose << 3];
        if ((win & lose) != 0) continue;  // no row is won by both: never looked up
        const PairRows rows = rows_of(RowSets{win, lose}, no_royalty, no_royalty, rules, plain);
        const PairTerms terms = pair_terms(rows.wins_i, rows.wins_j, rows.row_units, plays != 0, rules, plain);
        o.scoop = terms.scoop;
        o.plain = pair_subtotal(terms, rows.row_units, 0, plain);
        o.royalty_multiplier = terms.royalty_multiplier;
      }
    }
  }
}

// The subtotal of pair (i, j) under lean rules, with no branch on the random strengths or fouls; its
// scoop (+1, -1, 0) in *scoop.
inline std::int64_t lean_subtotal(const NetFacts& fi, const NetFacts& fj, const RulesSpec& rules,
                                  const NetPlan& plan, int* scoop) noexcept {
  const RowSets laid = laid_rows(fi, fj);
  // Lean rules settle every foul as laid down (settled_fouls is the identity under them).
  const RowSets sets = decided_rows(laid.win, laid.lose, fi.foul, fj.foul);
  const unsigned win = sets.win, lose = sets.lose;
  std::int64_t royalty = 0;
  if (fi.has_extra || fj.has_extra) {
    const std::int64_t* extra_i = fi.extra[fj.foul];
    const std::int64_t* extra_j = fj.extra[fi.foul];
    for (unsigned row = 0; row < 3; ++row) {
      royalty += extra_i[row] & -static_cast<std::int64_t>((win >> row) & 1u);
      royalty -= extra_j[row] & -static_cast<std::int64_t>((lose >> row) & 1u);
    }
  }
  const unsigned as_scoop = unsigned{plays_as_scoop((fi.foul | fj.foul) != 0, rules)};
  const PairOutcome& o = plan.outcome[as_scoop][win | lose << 3];
  *scoop = o.scoop;
  return o.plain + o.royalty_multiplier * royalty;
}

// The rest of a pair's amount: the ace part, the horse and pair_cap.
void finish_pair(const NetFacts& fi, const NetFacts& fj, const RulesSpec& rules, std::int64_t subtotal,
                 NetPair& p) noexcept {
  PlainMath plain;
  p.ace = pair_ace_units(fi.aces, fj.aces, rules, plain);
  p.horse = horse_factor(fi.horse, fj.horse, rules);
  p.capped = cap_pair(subtotal, rules);
  p.units = pair_units(p.capped, p.ace, p.horse, 1, 1, plain);
}

// The home run (RULES.md 11.9), as the general path applies it (pair_formula.hpp).
void apply_home_run(NetPair* pairs, int num_pairs, int num_players, const RulesSpec& rules) noexcept {
  const auto shot = [](const NetPair& pr) noexcept { return pair_shot(pr.scoop, 0, pr.fouls); };
  const int p = home_run_player(pairs, num_pairs, num_players, -1, rules, shot);
  if (p < 0) return;
  PlainMath plain;
  for (int q = 0; q < num_pairs; ++q) {
    NetPair& pr = pairs[q];
    const HomeRunStep step = home_run_step(p, pr.i, pr.j, shot(pr), pr.capped, rules, plain);
    if (step.applies) pr.units = pair_units(step.value, pr.ace, pr.horse, 1, 1, plain);
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
      f.royalty[row] = royalty;
      f.extra[0][row] = extra_of(royalty, rules.row_base[row], rules);
      f.extra[1][row] = extra_of(settled_royalty(royalty, false, true, rules), rules.row_base[row], rules);
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
        const std::int64_t subtotal = lean_subtotal(facts[i], facts[j], rules, plan, &pr.scoop);
        pr.fouls = PairFouls{facts[i].foul != 0, facts[j].foul != 0};
        finish_pair(facts[i], facts[j], rules, subtotal, pr);
      } else if (!settle_pair(facts[i], facts[j], rules, pr)) {
        return false;
      }
    }
  }
  if (home_run_possible(kPlayers, rules)) apply_home_run(pairs, kPairs, kPlayers, rules);
  for (int p = 0; p < kPlayers; ++p) {
    // ace_basis "table": each player's Chi A on its own (no declaration can settle a kernel round).
    net[p] = rules.ace_basis_table ? table_ace_units(facts[p].aces, rules) : 0;
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
  // The plain arithmetic is exact within the bound at the top of this file, which valid rules keep to:
  // amounts beyond it (reachable with asserts off) go the general way, which reports an overflow.
  return inputs_default && net_only && ace_table_ok && rules.extra_suits == 0 && rules.jokers == 0 &&
         rules.fantasyland == Fantasyland::kOff && num_players >= kMinPlayers && num_players <= kMaxDeckPlayers &&
         validate_rules(rules) == nullptr;
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
