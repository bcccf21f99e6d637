#include "chinese_poker/settle.hpp"

#include <utility>

#include "chinese_poker/cards.hpp"
#include "chinese_poker/evaluate.hpp"
#include "chinese_poker/naturals.hpp"
#include "evaluate_tables.hpp"

namespace chinese_poker {

namespace {

constexpr int kRowStart[3] = {0, 3, 8};
constexpr int kRowSize[3] = {3, 5, 5};

Strength row_strength(const detail::Tables& t, const std::uint8_t* cards, int row, Wheel wheel) noexcept {
  return row == kFront ? detail::eval3_with(t, cards + kRowStart[row])
                       : detail::eval5_with(t, cards + kRowStart[row], static_cast<unsigned>(wheel));
}

std::int64_t royalty_of(const RulesSpec& rules, int row, Strength s) noexcept {
  const int cat = category_of(s);
  if (cat == kStraightFlush && vector_value(s, 0) == 14 && vector_value(s, 1) == 13 && rules.royal_listed[row]) {
    return rules.royalty[row][kRoyalFlushSlot];
  }
  return rules.royalty[row][cat];
}

// Sort key of a card for the suit tie-break: group size, then rank (the ace low in a wheel), then suit.
int suit_sort_key(const std::uint8_t* row, int n, int k, bool wheel, const RulesSpec& rules) noexcept {
  const int rank = card_rank(row[k]);
  int group = 0;
  for (int m = 0; m < n; ++m) group += card_rank(row[m]) == rank;
  const int ordered_rank = wheel && rank == 12 ? -1 : rank;
  return (group * 16 + ordered_rank + 1) * 4 + rules.suit_value[card_suit(row[k])];
}

// Compares two rows of equal strength by suits (RULES.md 2.4): +1 when a wins.
int suit_tiebreak(const std::uint8_t* a, const std::uint8_t* b, int n, Strength s, const RulesSpec& rules) noexcept {
  const int cat = category_of(s);
  const bool wheel = (cat == kStraight || cat == kStraightFlush) &&
                     (vector_value(s, 0) == 5 || (vector_value(s, 0) == 14 && vector_value(s, 1) == 5));
  int ka[5], kb[5];
  for (int k = 0; k < n; ++k) {
    ka[k] = suit_sort_key(a, n, k, wheel, rules);
    kb[k] = suit_sort_key(b, n, k, wheel, rules);
  }
  // Selection sort, descending: five elements at most.
  for (int x = 0; x < n; ++x) {
    for (int y = x + 1; y < n; ++y) {
      if (ka[y] > ka[x]) std::swap(ka[x], ka[y]);
      if (kb[y] > kb[x]) std::swap(kb[x], kb[y]);
    }
  }
  for (int k = 0; k < n; ++k) {
    const int sa = ka[k] & 3, sb = kb[k] & 3;
    if (sa != sb) return sa > sb ? 1 : -1;
  }
  return 0;
}

int compare_row(const PlayerInput& a, const PlayerFacts& fa, const PlayerInput& b, const PlayerFacts& fb, int row,
                const RulesSpec& rules) noexcept {
  const Strength sa = fa.strength[row], sb = fb.strength[row];
  // Branch-free on purpose: between random hands the result is a coin flip a branch would mispredict.
  const int result = static_cast<int>(sa > sb) - static_cast<int>(sa < sb);
  if (result != 0 || !rules.suit_tiebreak) return result;
  return suit_tiebreak(a.cards + kRowStart[row], b.cards + kRowStart[row], kRowSize[row], sa, rules);
}

// Value to i of one row (docs/SETTLEMENT.md 4.5).
std::int64_t row_value(int result, std::int64_t ri, std::int64_t rj, const RulesSpec& rules) noexcept {
  if (rules.royalty_cancel && ri > 0 && rj > 0) return result;
  if (!rules.royalty_always) {
    // What a won row is worth to each side; selected without branching on the (random) result.
    const std::int64_t worth_i = rules.royalty_add ? 1 + ri : (ri > 0 ? ri : 1);
    const std::int64_t worth_j = rules.royalty_add ? 1 + rj : (rj > 0 ? rj : 1);
    return static_cast<std::int64_t>(result > 0) * worth_i - static_cast<std::int64_t>(result < 0) * worth_j;
  }
  std::int64_t unit = result;
  if (!rules.royalty_add) {
    if (result > 0 && ri > 0) unit = 0;
    if (result < 0 && rj > 0) unit = 0;
  }
  return unit + ri - rj;
}

int sign(std::int64_t v) noexcept { return (v > 0) - (v < 0); }

void settle_pair(const PlayerInput* in, const PlayerFacts* facts, int i, int j, const RulesSpec& rules,
                 std::int64_t stake, PairResult& p) noexcept {
  p = PairResult{};
  p.i = i;
  p.j = j;
  p.stake = stake;
  const PlayerFacts& fi = facts[i];
  const PlayerFacts& fj = facts[j];
  p.rows_known = fi.has_setting && fj.has_setting;
  if (p.rows_known) {
    for (int row = 0; row < 3; ++row) p.rows[row] = static_cast<std::int8_t>(compare_row(in[i], fi, in[j], fj, row, rules));
  }

  if (fi.natural >= 0 || fj.natural >= 0) {
    p.decided_by = DecidedBy::kNatural;
    int winner = 0;
    if (fj.natural < 0 || fi.natural > fj.natural) {
      winner = 1;
    } else if (fi.natural < 0 || fj.natural > fi.natural) {
      winner = -1;
    } else {
      const NaturalKind kind = rules.natural_kind[fi.natural];
      const std::uint64_t ki = natural_key(kind, in[i].cards, rules);
      const std::uint64_t kj = natural_key(kind, in[j].cards, rules);
      winner = ki > kj ? 1 : (ki < kj ? -1 : 0);
    }
    if (winner > 0) p.natural_units = rules.natural_units[fi.natural];
    if (winner < 0) p.natural_units = -rules.natural_units[fj.natural];
    p.subtotal = p.natural_units;
  } else if (in[i].surrendered || in[j].surrendered) {
    p.decided_by = DecidedBy::kSurrender;
    if (in[i].surrendered && !in[j].surrendered && !fj.foul) p.surrender_units = -rules.surrender_units;
    if (in[j].surrendered && !in[i].surrendered && !fi.foul) p.surrender_units = rules.surrender_units;
    p.subtotal = p.surrender_units;
  } else {
    int results[3] = {p.rows[0], p.rows[1], p.rows[2]};
    std::int64_t ri[3], rj[3];
    for (int row = 0; row < 3; ++row) {
      ri[row] = fi.royalty[row];
      rj[row] = fj.royalty[row];
    }
    bool plays_as_scoop = true;  // whether overall unit, scoop bonus and multiplier apply
    if (fi.foul || fj.foul) {
      p.decided_by = DecidedBy::kFoul;
      if (fi.foul && fj.foul) {
        p.subtotal = 0;
        p.units = 0;
        return;
      }
      const int legal = fi.foul ? -1 : 1;
      for (int row = 0; row < 3; ++row) {
        results[row] = legal;
        if (!rules.foul_pays_royalties) ri[row] = rj[row] = 0;
        (legal > 0 ? rj : ri)[row] = 0;  // the fouled side's royalties are void
      }
      plays_as_scoop = rules.foul_as_scooped;
    } else {
      p.decided_by = DecidedBy::kRows;
    }
    std::int64_t value = 0;
    int wins_i = 0, wins_j = 0;
    for (int row = 0; row < 3; ++row) {
      p.row_units += results[row];
      value += row_value(results[row], ri[row], rj[row], rules);
      wins_i += results[row] > 0;
      wins_j += results[row] < 0;
    }
    p.royalty_units = value - p.row_units;
    if (plays_as_scoop) {
      if (rules.overall_unit > 0) {
        if (rules.overall_by_total) {
          p.overall_units = rules.overall_unit * sign(value);
        } else {
          p.overall_units = wins_i >= 2 ? rules.overall_unit : (wins_j >= 2 ? -rules.overall_unit : 0);
        }
      }
      p.scoop = wins_i == 3 ? 1 : (wins_j == 3 ? -1 : 0);
      p.scoop_bonus_units = p.scoop * rules.scoop_bonus;
      if (p.scoop != 0) p.multiplier = rules.scoop_multiplier;
    }
    p.subtotal = p.multiplier * (p.row_units + p.overall_units + p.scoop_bonus_units) +
                 (rules.royalties_in_multiplier ? p.multiplier : 1) * p.royalty_units;
  }
  p.units = p.subtotal * p.stake;
}

}  // namespace

SettleError player_facts(const PlayerInput& in, int index, const RulesSpec& rules, PlayerFacts* out) noexcept {
  PlayerFacts& f = *out;
  f = PlayerFacts{};
  if (in.surrendered && rules.surrender_units == 0) return {SettleStatus::kSurrenderOff, index};
  f.has_setting = !in.declared;
  if (in.declared || rules.natural_auto) {
    f.natural = rules.num_naturals > 0 ? detect_natural(in.cards, rules) : -1;
    if (in.declared && f.natural < 0) return {SettleStatus::kDeclaredWithoutNatural, index};
  }
  if (f.has_setting) {
    const detail::Tables& t = detail::tables();
    for (int row = 0; row < 3; ++row) {
      f.strength[row] = row_strength(t, in.cards, row, rules.wheel);
      f.royalty[row] = royalty_of(rules, row, f.strength[row]);
    }
    const Strength front = f.strength[kFront], middle = f.strength[kMiddle], back = f.strength[kBack];
    // Suits never matter here, even with the suit tie-break on (docs/SETTLEMENT.md 2).
    f.foul = (middle > back) | (rules.strict_middle & (middle == back)) | (front > middle);
  }
  return {};
}

SettleError settle_round(const PlayerInput* players, int num_players, const RulesSpec& rules,
                         const std::int64_t* stakes, RoundResult* out) noexcept {
  RoundResult& r = *out;
  r.players = num_players;
  r.num_pairs = num_players * (num_players - 1) / 2;
  for (int p = 0; p < num_players; ++p) {
    const SettleError error = player_facts(players[p], p, rules, &r.facts[p]);
    if (error.status != SettleStatus::kOk) return error;
  }
  int k = 0;
  for (int i = 0; i < num_players; ++i) {
    for (int j = i + 1; j < num_players; ++j) {
      const std::int64_t stake = stakes == nullptr ? 1 : stakes[i * num_players + j];
      settle_pair(players, r.facts, i, j, rules, stake, r.pairs[k++]);
    }
  }
  // Home run: a player who scoops every opponent, with enough opponents.
  for (int p = 0; p < kMaxPlayers; ++p) r.home_run[p] = false;
  if (rules.home_run_multiplier != 1 && num_players - 1 >= rules.home_run_min_opponents) {
    for (int p = 0; p < num_players; ++p) {
      bool all = true;
      for (int q = 0; q < r.num_pairs; ++q) {
        const PairResult& pr = r.pairs[q];
        if (pr.i == p) all = all && pr.scoop == 1;
        if (pr.j == p) all = all && pr.scoop == -1;
      }
      if (!all) continue;
      r.home_run[p] = true;
      for (int q = 0; q < r.num_pairs; ++q) {
        PairResult& pr = r.pairs[q];
        if (pr.i == p || pr.j == p) {
          pr.home_run = rules.home_run_multiplier;
          pr.units = pr.subtotal * pr.stake * pr.home_run;
        }
      }
    }
  }
  for (int p = 0; p < kMaxPlayers; ++p) r.net[p] = 0;
  for (int q = 0; q < r.num_pairs; ++q) {
    r.net[r.pairs[q].i] += r.pairs[q].units;
    r.net[r.pairs[q].j] -= r.pairs[q].units;
  }
  return {};
}

CardIssue check_round(const std::uint8_t* cards, int num_players, std::int64_t round) noexcept {
  // Fast test first (every round of a batch passes through here): the codes' bits must be 13P distinct
  // positions below 52. Only a failing round is scanned again to name the offending card.
  std::uint64_t seen = 0;
  unsigned high = 0;
  const int count = num_players * 13;
  for (int k = 0; k < count; ++k) {
    seen |= std::uint64_t{1} << (cards[k] & 63u);
    high |= cards[k];
  }
  if (__builtin_popcountll(seen) == count && (seen >> kDeckSize) == 0 && (high & 0xC0u) == 0) return CardIssue{};
  return check_cards(cards, count, round);
}

CardIssue settle_batch(const std::uint8_t* cards, std::size_t rounds, int num_players, const RulesSpec& rules,
                        std::int64_t* net_out) noexcept {
  RoundResult result;
  PlayerInput inputs[kMaxPlayers];
  const int stride = num_players * 13;
  for (std::size_t r = 0; r < rounds; ++r) {
    const std::uint8_t* round = cards + r * static_cast<std::size_t>(stride);
    const CardIssue issue = check_round(round, num_players, static_cast<std::int64_t>(r));
    if (issue) return issue;
    for (int p = 0; p < num_players; ++p) inputs[p].cards = round + 13 * p;
    settle_round(inputs, num_players, rules, nullptr, &result);
    for (int p = 0; p < num_players; ++p) net_out[r * static_cast<std::size_t>(num_players) + p] = result.net[p];
  }
  return CardIssue{};
}

}  // namespace chinese_poker
