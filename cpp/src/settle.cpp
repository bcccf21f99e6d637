#include "chinese_poker/settle.hpp"

#include <cassert>
#include <cstring>
#include <utility>

#include "bits.hpp"
#include "checked.hpp"
#include "chinese_poker/cards.hpp"
#include "chinese_poker/evaluate.hpp"
#include "chinese_poker/naturals.hpp"
#include "evaluate_tables.hpp"
#include "naturals_detail.hpp"
#include "parallel.hpp"

namespace chinese_poker {

namespace {

constexpr int kRowStart[3] = {0, 3, 8};
constexpr int kRowSize[3] = {3, 5, 5};

Strength row_strength(const detail::Tables& t, const std::uint8_t* cards, int row, Wheel wheel) noexcept {
  return row == kFront ? detail::eval3_with(t, cards + kRowStart[row])
                       : detail::eval5_with(t, cards + kRowStart[row], static_cast<unsigned>(wheel));
}

// Sort key of a card for the suit tie-break: group size, then rank (the ace low in a wheel), then suit.
int suit_sort_key(const std::uint8_t* row, int n, int k, bool wheel, const RulesSpec& rules) noexcept {
  const int rank = card_rank(row[k]);
  int group = 0;
  for (int m = 0; m < n; ++m) group += card_rank(row[m]) == rank;
  const int ordered_rank = wheel && rank == 12 ? -1 : rank;
  return (group * 16 + ordered_rank + 1) * 4 + rules.suit_value[static_cast<std::size_t>(card_suit(row[k]))];
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

// Value to i of one row (RULES.md None11.5).
std::int64_t row_value(int result, std::int64_t ri, std::int64_t rj, const RulesSpec& rules,
                       detail::CheckedMath& math) noexcept {
  if (rules.royalty_cancel && ri > 0 && rj > 0) return result;
  if (!rules.royalty_always) {
    // What a won row is worth to each side; selected without branching on the (random) result.
    const std::int64_t worth_i = rules.royalty_add ? math.add(1, ri) : (ri > 0 ? ri : 1);
    const std::int64_t worth_j = rules.royalty_add ? math.add(1, rj) : (rj > 0 ? rj : 1);
    return math.sub(static_cast<std::int64_t>(result > 0) * worth_i, static_cast<std::int64_t>(result < 0) * worth_j);
  }
  std::int64_t unit = result;
  if (!rules.royalty_add) {
    if (result > 0 && ri > 0) unit = 0;
    if (result < 0 && rj > 0) unit = 0;
  }
  return math.sub(math.add(unit, ri), rj);
}

int sign(std::int64_t v) noexcept { return (v > 0) - (v < 0); }

// Settles pair (i, j) into `p`; returns false when an amount overflowed (p is then unspecified).
bool settle_pair(const PlayerInput* in, const PlayerFacts* facts, int i, int j, const RulesSpec& rules,
                 std::int64_t stake, PairResult& p) noexcept {
  p = PairResult{};
  p.i = i;
  p.j = j;
  p.stake = stake;
  const PlayerFacts& fi = facts[i];
  const PlayerFacts& fj = facts[j];
  detail::CheckedMath math;
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
      const NaturalKind kind = rules.natural_kind[static_cast<std::size_t>(fi.natural)];
      const std::uint64_t ki = detail::natural_key_valid(kind, in[i].cards, rules);
      const std::uint64_t kj = detail::natural_key_valid(kind, in[j].cards, rules);
      winner = ki > kj ? 1 : (ki < kj ? -1 : 0);
    }
    if (winner > 0) p.natural_units = rules.natural_units[static_cast<std::size_t>(fi.natural)];
    if (winner < 0) p.natural_units = math.neg(rules.natural_units[static_cast<std::size_t>(fj.natural)]);
    p.subtotal = p.natural_units;
  } else if (in[i].surrendered || in[j].surrendered) {
    p.decided_by = DecidedBy::kSurrender;
    if (in[i].surrendered && !in[j].surrendered && !fj.foul) p.surrender_units = math.neg(rules.surrender_units);
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
        return true;
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
      value = math.add(value, row_value(results[row], ri[row], rj[row], rules, math));
      wins_i += results[row] > 0;
      wins_j += results[row] < 0;
    }
    p.royalty_units = math.sub(value, p.row_units);
    if (plays_as_scoop) {
      if (rules.overall_unit > 0) {
        if (rules.overall_by_total) {
          p.overall_units = math.mul(rules.overall_unit, sign(value));
        } else {
          p.overall_units = wins_i >= 2 ? rules.overall_unit : (wins_j >= 2 ? math.neg(rules.overall_unit) : 0);
        }
      }
      p.scoop = wins_i == 3 ? 1 : (wins_j == 3 ? -1 : 0);
      p.scoop_bonus_units = math.mul(p.scoop, rules.scoop_bonus);
      if (p.scoop != 0) p.multiplier = rules.scoop_multiplier;
    }
    const std::int64_t plain = math.add(math.add(p.row_units, p.overall_units), p.scoop_bonus_units);
    const std::int64_t royalty_multiplier = rules.royalties_in_multiplier ? p.multiplier : 1;
    p.subtotal = math.add(math.mul(p.multiplier, plain), math.mul(royalty_multiplier, p.royalty_units));
  }
  p.units = math.mul(p.subtotal, p.stake);
  return !math.overflow();
}

// Foul, natural, strengths and royalties of a player whose 13 cards are valid.
SettleError facts_of_valid(const PlayerInput& in, int index, const RulesSpec& rules, PlayerFacts* out) noexcept {
  assert(!check_cards(in.cards, 13, 0));
  PlayerFacts& f = *out;
  f = PlayerFacts{};
  SettleError error;
  error.player = index;
  if (in.surrendered && rules.surrender_units == 0) {
    error.status = SettleStatus::kSurrenderOff;
    return error;
  }
  f.has_setting = !in.declared;
  if (in.declared || rules.natural_auto) {
    f.natural = rules.num_naturals > 0 ? detail::detect_natural_valid(in.cards, rules) : -1;
    if (in.declared && f.natural < 0) {
      error.status = SettleStatus::kDeclaredWithoutNatural;
      return error;
    }
  }
  if (f.has_setting) {
    const detail::Tables& t = detail::tables();
    for (int row = 0; row < 3; ++row) {
      f.strength[row] = row_strength(t, in.cards, row, rules.wheel);
      f.royalty[row] = royalty_of(rules, row, f.strength[row]);
    }
    const Strength front = f.strength[kFront], middle = f.strength[kMiddle], back = f.strength[kBack];
    // Suits never matter here, even with the suit tie-break on (RULES.md None9).
    const unsigned reasons = (front > middle ? unsigned{kFoulFrontBeatsMiddle} : 0u) |
                             (middle > back ? unsigned{kFoulMiddleBeatsBack} : 0u) |
                             (rules.strict_middle && middle == back ? unsigned{kFoulMiddleEqualsBack} : 0u);
    f.foul_reasons = static_cast<std::uint8_t>(reasons);
    f.foul = reasons != 0;
  }
  return SettleError{};
}

// Settles a round whose cards (in `players`) are a validated private copy and whose stakes are valid.
SettleError settle_valid(const PlayerInput* players, int num_players, const RulesSpec& rules,
                         const std::int64_t* stakes, RoundResult* out) noexcept {
  assert(num_players >= kMinPlayers && num_players <= kMaxPlayers);
  RoundResult& r = *out;
  r.players = num_players;
  r.num_pairs = num_players * (num_players - 1) / 2;
  for (int p = 0; p < num_players; ++p) {
    const SettleError error = facts_of_valid(players[p], p, rules, &r.facts[p]);
    if (error) return error;
  }
  SettleError overflow;
  overflow.status = SettleStatus::kOverflow;
  int k = 0;
  for (int i = 0; i < num_players; ++i) {
    for (int j = i + 1; j < num_players; ++j) {
      const std::int64_t stake = stakes == nullptr ? 1 : stakes[i * num_players + j];
      if (!settle_pair(players, r.facts, i, j, rules, stake, r.pairs[k++])) {
        overflow.player = i;
        overflow.other = j;
        return overflow;
      }
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
          detail::CheckedMath math;
          pr.home_run = rules.home_run_multiplier;
          pr.units = math.mul(math.mul(pr.subtotal, pr.stake), pr.home_run);
          if (math.overflow()) {
            overflow.player = pr.i;
            overflow.other = pr.j;
            return overflow;
          }
        }
      }
    }
  }
  for (int p = 0; p < kMaxPlayers; ++p) r.net[p] = 0;
  detail::CheckedMath math;
  for (int q = 0; q < r.num_pairs; ++q) {
    const PairResult& pr = r.pairs[q];
    r.net[pr.i] = math.add(r.net[pr.i], pr.units);
    if (math.overflow()) {
      overflow.player = pr.i;
      return overflow;
    }
    r.net[pr.j] = math.sub(r.net[pr.j], pr.units);
    if (math.overflow()) {
      overflow.player = pr.j;
      return overflow;
    }
  }
  return SettleError{};
}

// kBadStake at the first entry out of 0..kMaxStake (row-major), else at the first pair i < j whose two
// entries differ.
SettleError check_stakes(const std::int64_t* stakes, int n) noexcept {
  SettleError error;
  error.status = SettleStatus::kBadStake;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const std::int64_t v = stakes[i * n + j];
      if (v < 0 || v > kMaxStake) {
        error.player = i;
        error.other = j;
        return error;
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (stakes[i * n + j] != stakes[j * n + i]) {
        error.player = i;
        error.other = j;
        return error;
      }
    }
  }
  return SettleError{};
}

SettleError bad_cards(const CardIssue& issue, int player) noexcept {
  SettleError error;
  error.status = SettleStatus::kBadCards;
  error.player = player;
  error.cards = issue;
  return error;
}

// The per-pair columns of round `r` (those of `out` that are not null).
void write_pairs(const RoundResult& result, std::size_t r, const RulesSpec& rules, const BatchOutputs& out) noexcept {
  const auto pairs = static_cast<std::size_t>(result.num_pairs);
  for (std::size_t q = 0; q < pairs; ++q) {
    const PairResult& pr = result.pairs[q];
    const std::size_t at = r * pairs + q;
    if (out.rows != nullptr) {
      for (std::size_t row = 0; row < 3; ++row) out.rows[at * 3 + row] = pr.rows_known ? pr.rows[row] : 0;
    }
    if (out.rows_known != nullptr) out.rows_known[at] = pr.rows_known ? 1 : 0;
    if (out.decided_by != nullptr) out.decided_by[at] = static_cast<std::uint8_t>(pr.decided_by);
    if (out.scoop != nullptr) out.scoop[at] = static_cast<std::int8_t>(pr.scoop);
    if (out.subtotal != nullptr) out.subtotal[at] = pr.subtotal;
    if (out.stake != nullptr) out.stake[at] = pr.stake;
    if (out.home_run != nullptr) out.home_run[at] = pr.home_run;
    if (out.units != nullptr) out.units[at] = pr.units;
    const PlayerFacts* sides[2] = {&result.facts[pr.i], &result.facts[pr.j]};
    for (std::size_t side = 0; side < 2; ++side) {
      const PlayerFacts& f = *sides[side];
      if (out.foul != nullptr) out.foul[at * 2 + side] = f.foul ? 1 : 0;
      if (out.natural != nullptr) {
        out.natural[at * 2 + side] =
            f.natural < 0 ? std::int8_t{-1}
                          : static_cast<std::int8_t>(rules.natural_kind[static_cast<std::size_t>(f.natural)]);
      }
      if (out.royalties != nullptr) {
        for (std::size_t row = 0; row < 3; ++row) out.royalties[(at * 2 + side) * 3 + row] = f.royalty[row];
      }
    }
  }
}

}  // namespace

SettleError player_facts(const PlayerInput& in, int index, const RulesSpec& rules, PlayerFacts* out) noexcept {
  assert(validate_rules(rules) == nullptr);
  assert(in.cards != nullptr);
  std::uint8_t cards[13];
  std::memcpy(cards, in.cards, sizeof cards);
  const CardIssue issue = check_cards(cards, 13, -1);
  if (issue) return bad_cards(issue, index);
  PlayerInput local = in;
  local.cards = cards;
  return facts_of_valid(local, index, rules, out);
}

SettleError settle_round(const PlayerInput* players, int num_players, const RulesSpec& rules,
                         const std::int64_t* stakes, RoundResult* out) noexcept {
  assert(validate_rules(rules) == nullptr);
  if (num_players < kMinPlayers || num_players > kMaxPlayers) {
    SettleError error;
    error.status = SettleStatus::kBadPlayerCount;
    return error;
  }
  // Everything below reads the private copy: the caller's buffers are read exactly once.
  std::uint8_t table[kMaxPlayers * 13];
  PlayerInput local[kMaxPlayers];
  for (int p = 0; p < num_players; ++p) {
    assert(players[p].cards != nullptr);
    std::memcpy(table + 13 * p, players[p].cards, 13);
    local[p] = players[p];
    local[p].cards = table + 13 * p;
  }
  const CardIssue issue = check_round(table, num_players, -1);
  if (issue) return bad_cards(issue, issue.position / 13);
  std::int64_t stake_copy[kMaxPlayers * kMaxPlayers];
  if (stakes != nullptr) {
    std::memcpy(stake_copy, stakes, sizeof(std::int64_t) * static_cast<std::size_t>(num_players * num_players));
    const SettleError error = check_stakes(stake_copy, num_players);
    if (error) return error;
  }
  return settle_valid(local, num_players, rules, stakes == nullptr ? nullptr : stake_copy, out);
}

CardIssue check_round(const std::uint8_t* cards, int num_players, std::int64_t round) noexcept {
  assert(num_players >= 0 && num_players <= kMaxPlayers);
  // Fast test first (every round of a batch passes through here): the codes' bits must be 13P distinct
  // positions below 52. Only a failing round is scanned again to name the offending card.
  std::uint64_t seen = 0;
  unsigned high = 0;
  const int count = num_players * 13;
  for (int k = 0; k < count; ++k) {
    seen |= std::uint64_t{1} << (cards[k] & 63u);
    high |= cards[k];
  }
  if (detail::popcount64(seen) == count && (seen >> kDeckSize) == 0 && (high & 0xC0u) == 0) return CardIssue{};
  return check_cards(cards, count, round);
}

SettleError settle_batch(const std::uint8_t* cards, std::size_t rounds, int num_players, const RulesSpec& rules,
                         const BatchInputs& inputs, const BatchOutputs& outputs, const Parallel& parallel) noexcept {
  assert(validate_rules(rules) == nullptr);
  assert(outputs.net != nullptr || rounds == 0);
  if (num_players < kMinPlayers || num_players > kMaxPlayers) {
    SettleError error;
    error.status = SettleStatus::kBadPlayerCount;
    return error;
  }
  const auto players = static_cast<std::size_t>(num_players);
  const std::size_t stride = players * 13;
  const std::size_t stake_stride = players * players;
  // One matrix for every round: copied and checked once, before any round (the error names no round).
  std::int64_t shared_stakes[kMaxPlayers * kMaxPlayers];
  const bool shared = inputs.stakes != nullptr && !inputs.stakes_per_round;
  if (shared) {
    std::memcpy(shared_stakes, inputs.stakes, sizeof(std::int64_t) * stake_stride);
    const SettleError error = check_stakes(shared_stakes, num_players);
    if (error) return error;
  }
  const auto settle_rounds = [&](std::size_t begin, std::size_t end, std::size_t* bad) noexcept -> SettleError {
    RoundResult result;
    PlayerInput in[kMaxPlayers];
    std::uint8_t round[kMaxPlayers * 13];
    std::int64_t round_stakes[kMaxPlayers * kMaxPlayers];
    const std::int64_t* stakes = shared ? shared_stakes : (inputs.stakes != nullptr ? round_stakes : nullptr);
    for (int p = 0; p < num_players; ++p) in[p].cards = round + 13 * p;
    for (std::size_t r = begin; r < end; ++r) {
      // One read of the caller's bytes; validation and settlement see only the copies.
      std::memcpy(round, cards + r * stride, stride);
      const auto index = static_cast<std::int64_t>(r);
      *bad = r;
      const CardIssue issue = check_round(round, num_players, index);
      if (issue) {
        SettleError error = bad_cards(issue, issue.position / 13);
        error.round = index;
        return error;
      }
      if (inputs.stakes != nullptr && inputs.stakes_per_round) {
        std::memcpy(round_stakes, inputs.stakes + r * stake_stride, sizeof(std::int64_t) * stake_stride);
        SettleError error = check_stakes(round_stakes, num_players);
        if (error) {
          error.round = index;
          return error;
        }
      }
      for (std::size_t p = 0; p < players; ++p) {
        in[p].declared = inputs.declared != nullptr && inputs.declared[r * players + p] != 0;
        in[p].surrendered = inputs.surrendered != nullptr && inputs.surrendered[r * players + p] != 0;
      }
      SettleError error = settle_valid(in, num_players, rules, stakes, &result);
      if (error) {
        error.round = index;
        return error;
      }
      for (std::size_t p = 0; p < players; ++p) outputs.net[r * players + p] = result.net[p];
      write_pairs(result, r, rules, outputs);
    }
    return SettleError{};
  };
  // About a hundred microseconds of work per chunk: little claiming overhead, fine-grained enough to
  // even out threads slowed by other work on the machine.
  constexpr std::size_t kRoundsPerChunk = 512;
  return detail::for_each_chunk<SettleError>(rounds, parallel, kRoundsPerChunk, settle_rounds);
}

SettleError settle_batch(const std::uint8_t* cards, std::size_t rounds, int num_players, const RulesSpec& rules,
                         std::int64_t* net_out) noexcept {
  BatchOutputs outputs;
  outputs.net = net_out;
  return settle_batch(cards, rounds, num_players, rules, BatchInputs{}, outputs, Parallel{});
}

}  // namespace chinese_poker
