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
#include "jokers.hpp"
#include "naturals_detail.hpp"
#include "pair_formula.hpp"
#include "parallel.hpp"
#include "settle_net.hpp"

namespace chinese_poker {

namespace {

constexpr int kRowStart[3] = {0, 3, 8};
constexpr int kRowSize[3] = {3, 5, 5};

Strength row_strength(const detail::Tables& t, const std::uint8_t* cards, int row, Wheel wheel) noexcept {
  return row == kFront ? detail::eval3_with(t, cards + kRowStart[row])
                       : detail::eval5_with(t, cards + kRowStart[row], static_cast<unsigned>(wheel));
}

// The same in a pack with added suits, where a row may hold a card twice (a five of a kind, a flush with a
// pair): the 52-card path above keeps its arithmetic flush.
Strength row_strength_in_pack(const detail::Tables& t, const std::uint8_t* cards, int row, Wheel wheel) noexcept {
  return row == kFront ? detail::eval3_with(t, cards + kRowStart[row])
                       : detail::eval5_pack_with(t, cards + kRowStart[row], static_cast<unsigned>(wheel));
}

// Sort key of a card for the suit tie-break (RULES.md 12). "highest_card": group size, then rank (the ace
// low in a wheel), then suit. "by_card": rank (the ace always high), then suit.
int suit_sort_key(const std::uint8_t* row, int n, int k, bool wheel, const RulesSpec& rules) noexcept {
  const int rank = card_rank(row[k]);
  const int suit = rules.suit_value[static_cast<std::size_t>(card_suit(row[k]))];
  if (rules.suit_tiebreak == SuitTiebreak::kByCard) return rank * 4 + suit;
  int group = 0;
  for (int m = 0; m < n; ++m) group += card_rank(row[m]) == rank;
  const int ordered_rank = wheel && rank == 12 ? -1 : rank;
  return (group * 16 + ordered_rank + 1) * 4 + suit;
}

// Compares two rows of equal strength by suits (RULES.md 2.4): +1 when a wins.
int suit_tiebreak(const std::uint8_t* a, const std::uint8_t* b, int n, Strength s, const RulesSpec& rules) noexcept {
  const int cat = category_of(s);
  const bool wheel = (cat == kStraight || cat == kStraightFlush) && deciding_rank(s) == 5;
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
  if (result != 0 || rules.suit_tiebreak == SuitTiebreak::kOff) return result;
  return suit_tiebreak(a.cards + kRowStart[row], b.cards + kRowStart[row], kRowSize[row], sa, rules);
}

// What a natural of level `level` collects (RULES.md 11.1): its listed units, or under natural_units_mode
// "as_home_run" what a plain sweep of the table pays: the row bases, shot and home-run multiplied.
std::int64_t natural_pay(int level, const RulesSpec& rules, detail::CheckedMath& math) noexcept {
  if (!rules.natural_units_as_home_run) return rules.natural_units[static_cast<std::size_t>(level)];
  const std::int64_t sweep = math.add(math.add(rules.row_base[0], rules.row_base[1]), rules.row_base[2]);
  return math.mul(math.mul(sweep, rules.scoop_multiplier), rules.home_run_multiplier);
}

// Per-pair context that does not come from the two players' facts.
struct PairContext {
  std::int64_t stake = 1;
  std::int64_t bet = 1;
  bool table_has_natural = false;            // someone at the table holds a natural (natural_settles_table)
  bool table_has_false_declaration = false;  // someone at the table declared falsely (likewise)
};

// The pair's amount after pair_cap (RULES.md 11.9): the cap applies to pairs decided by rows or a foul.
std::int64_t capped_subtotal(const PairResult& p, const RulesSpec& rules) noexcept {
  const bool cappable = p.decided_by == DecidedBy::kRows || p.decided_by == DecidedBy::kFoul;
  return cappable ? detail::cap_pair(p.subtotal, rules) : p.subtotal;
}

// units from the amount after the caps and the home run (detail::pair_units).
std::int64_t final_units(std::int64_t value, const PairResult& p, detail::CheckedMath& math) noexcept {
  if (p.ace_units == 0 && p.horse == 1 && p.bet == 1) return math.mul(value, p.stake);  // the same, sooner
  return detail::pair_units(value, p.ace_units, p.horse, p.bet, p.stake, math);
}

// The natural units of a pair where at least one side has a natural, or where natural_settles_table
// settles two ordinary hands by naturals (0).
std::int64_t natural_units_of(const PlayerInput* in, const PlayerFacts& fi, const PlayerFacts& fj, int i, int j,
                              const RulesSpec& rules, detail::CheckedMath& math) noexcept {
  if (fi.natural < 0 && fj.natural < 0) return 0;
  if (fj.natural < 0) return natural_pay(fi.natural, rules, math);
  if (fi.natural < 0) return math.neg(natural_pay(fj.natural, rules, math));
  const std::int64_t ui = natural_pay(fi.natural, rules, math);
  const std::int64_t uj = natural_pay(fj.natural, rules, math);
  switch (rules.natural_vs_natural) {
    case NaturalVsNatural::kPush:
      return 0;
    case NaturalVsNatural::kNet:
      return math.sub(ui, uj);
    case NaturalVsNatural::kByUnits:
      return ui > uj ? ui : (ui < uj ? math.neg(uj) : 0);
    case NaturalVsNatural::kByKind:
      break;
  }
  int winner = 0;
  if (fi.natural != fj.natural) {
    winner = fi.natural > fj.natural ? 1 : -1;
  } else {
    const NaturalKind kind = rules.natural_kind[static_cast<std::size_t>(fi.natural)];
    const std::uint64_t ki = fi.natural_key_known ? fi.natural_key : detail::natural_key_valid(kind, in[i].cards, rules);
    const std::uint64_t kj = fj.natural_key_known ? fj.natural_key : detail::natural_key_valid(kind, in[j].cards, rules);
    winner = ki > kj ? 1 : (ki < kj ? -1 : 0);
  }
  return winner > 0 ? ui : (winner < 0 ? math.neg(uj) : 0);
}

// Settles pair (i, j) into `p`, everything but the home run; returns false when an amount overflowed (p
// is then unspecified).
bool settle_pair(const PlayerInput* in, const PlayerFacts* facts, int i, int j, const RulesSpec& rules,
                 const PairContext& ctx, PairResult& p) noexcept {
  p = PairResult{};
  p.i = i;
  p.j = j;
  p.stake = ctx.stake;
  p.bet = ctx.bet;
  const PlayerFacts& fi = facts[i];
  const PlayerFacts& fj = facts[j];
  detail::CheckedMath math;
  p.rows_known = fi.has_setting && fj.has_setting;
  if (p.rows_known) {
    for (int row = 0; row < 3; ++row) p.rows[row] = static_cast<std::int8_t>(compare_row(in[i], fi, in[j], fj, row, rules));
  }
  const detail::PairFouls foul = detail::settled_fouls(fi.foul, fj.foul, rules);

  if (fi.false_declaration || fj.false_declaration) {
    p.decided_by = DecidedBy::kFalseDeclaration;
    if (fi.false_declaration && !fj.false_declaration) p.false_declaration_units = math.neg(rules.false_declaration_units);
    if (fj.false_declaration && !fi.false_declaration) p.false_declaration_units = rules.false_declaration_units;
    p.subtotal = p.false_declaration_units;
  } else if (rules.natural_settles_table && ctx.table_has_false_declaration) {
    p.decided_by = DecidedBy::kFalseDeclaration;  // the false declaration ends the round: 0 between the others
  } else if (fi.natural >= 0 || fj.natural >= 0 || (rules.natural_settles_table && ctx.table_has_natural)) {
    p.decided_by = DecidedBy::kNatural;
    p.natural_units = natural_units_of(in, fi, fj, i, j, rules, math);
    p.subtotal = p.natural_units;
  } else if (in[i].surrendered || in[j].surrendered) {
    p.decided_by = DecidedBy::kSurrender;
    if (in[i].surrendered && !in[j].surrendered && !foul.j) p.surrender_units = math.neg(rules.surrender_units);
    if (in[j].surrendered && !in[i].surrendered && !foul.i) p.surrender_units = rules.surrender_units;
    p.subtotal = p.surrender_units;
  } else if (detail::both_fouled(foul)) {
    p.decided_by = DecidedBy::kFoul;
    p.ace_units = detail::pair_ace_units(fi.aces, fj.aces, rules, math);
  } else {
    const bool by_foul = foul.i || foul.j;
    p.decided_by = by_foul ? DecidedBy::kFoul : DecidedBy::kRows;
    const int laid[3] = {p.rows[0], p.rows[1], p.rows[2]};
    const detail::PairRows rows = detail::pair_rows(detail::row_sets(laid), fi.royalty, fj.royalty, foul, rules, math);
    const detail::PairTerms terms =
        detail::pair_terms(rows.wins_i, rows.wins_j, rows.value, detail::plays_as_scoop(by_foul, rules), rules, math);
    p.row_units = rows.row_units;
    p.royalty_units = math.sub(rows.value, rows.row_units);
    p.overall_units = terms.overall;
    p.scoop = terms.scoop;
    p.scoop_bonus_units = terms.scoop_bonus;
    p.multiplier = terms.multiplier;
    p.ace_units = detail::pair_ace_units(fi.aces, fj.aces, rules, math);
    p.subtotal = detail::pair_subtotal(terms, p.row_units, p.royalty_units, math);
  }
  const std::int64_t value = capped_subtotal(p, rules);
  p.capped = value != p.subtotal;
  p.horse = detail::horse_factor(fi.horse, fj.horse, rules);
  p.units = final_units(value, p, math);
  return !math.overflow();
}

// Cards dealt next hand to a player with a legal board of strengths `s` (RULES.md 4.2).
int fantasyland_cards(const RulesSpec& rules, const Strength* s, bool in_fantasyland) noexcept {
  const int front = category_of(s[kFront]);
  if (in_fantasyland) {
    // The stay rule: trips in front, a full house or better in the middle, or quads or better in the back.
    const bool stays = front == kThreeOfAKind || category_of(s[kMiddle]) >= kFullHouse ||
                       category_of(s[kBack]) >= kFourOfAKind;
    return stays ? 14 : 0;
  }
  const bool progressive = rules.fantasyland == Fantasyland::kProgressive;
  if (front == kThreeOfAKind) return progressive ? 17 : 14;
  const int pair = vector_value(s[kFront], 0);  // queens 12, kings 13, aces 14
  if (front != kOnePair || pair < 12) return 0;
  return progressive ? 14 + (pair - 12) : 14;
}

// [jokers] The 13 cards of a player holding a joker with each joker replaced by the card its row makes
// strongest (RULES.md 1.2), into `out`; a declared hand is copied (its natural has its own substitution).
void substitute_rows(const PlayerInput& in, const RulesSpec& rules, std::uint8_t* out) noexcept {
  std::memcpy(out, in.cards, 13);
  if (in.declared) return;
  const detail::Tables& t = detail::tables();
  for (int row = 0; row < 3; ++row) {
    detail::substitute_row(t, in.cards + kRowStart[row], kRowSize[row], rules, &suit_tiebreak, out + kRowStart[row]);
  }
}

// kJokers: the hand holds a joker; the other instance is the 52-card path exactly as before the knob.
template <bool kJokers>
SettleError facts_of(const PlayerInput& in, int index, const RulesSpec& rules, PlayerFacts* out,
                     const std::uint8_t* held) noexcept {
  assert(kJokers == (held != nullptr));
  assert(kJokers || !check_cards_in_pack(in.cards, 13, 0, rules.extra_suits));
  PlayerFacts& f = *out;
  f = PlayerFacts{};
  SettleError error;
  error.player = index;
  if (in.surrendered && rules.surrender_units == 0) {
    error.status = SettleStatus::kSurrenderOff;
    return error;
  }

  f.has_setting = !in.declared;
  [[maybe_unused]] std::uint8_t natural_cards[13];
  if (in.declared || rules.natural_auto) {
    if constexpr (kJokers) {
      f.natural = rules.num_naturals > 0 ? detail::detect_natural_jokers(held, rules, &f.natural_key, natural_cards) : -1;
      f.natural_key_known = true;
    } else {
      f.natural = rules.num_naturals > 0 ? detail::detect_natural_valid(in.cards, rules) : -1;
    }
    if (in.declared && f.natural < 0) {
      if (rules.false_declaration_units == 0) {
        error.status = SettleStatus::kDeclaredWithoutNatural;
        return error;
      }
      f.false_declaration = true;  // pays false_declaration_units to each opponent (RULES.md 11.0)
    }
  }
  const std::uint8_t* as_held = kJokers ? held : in.cards;  // a joker is no ace and no horse card
  if (rules.ace_units != 0) {
    for (int k = 0; k < 13; ++k) f.aces += card_rank(as_held[k]) == 12;
  }
  if (rules.horse_card >= 0) {
    for (int k = 0; k < 13; ++k) f.horse = f.horse || static_cast<int>(as_held[k]) == rules.horse_card;
  }
  if constexpr (kJokers) {
    // What each joker became: a declared natural's substitution, else its row's.
    const std::uint8_t* shown = in.declared && f.natural >= 0 ? natural_cards : in.cards;
    for (int k = 0; k < 13; ++k) {
      if (is_joker(held[k])) f.joker_card[held[k] - kJokerX1] = static_cast<std::int8_t>(shown[k]);
    }
  }
  if (f.has_setting) {
    const detail::Tables& t = detail::tables();
    // One test per player, not per row: a one-deck round evaluates exactly as before the pack knob. Rows
    // with a joker's substitute may hold a card twice: the pack's kernel.
    if (rules.extra_suits == 0 && !kJokers) {
      for (int row = 0; row < 3; ++row) f.strength[row] = row_strength(t, in.cards, row, rules.wheel);
    } else {
      for (int row = 0; row < 3; ++row) f.strength[row] = row_strength_in_pack(t, in.cards, row, rules.wheel);
    }
    for (int row = 0; row < 3; ++row) f.royalty[row] = royalty_of(rules, row, f.strength[row]);
    const Strength front = f.strength[kFront], middle = f.strength[kMiddle], back = f.strength[kBack];
    // Suits never matter here, even with the suit tie-break on (RULES.md 9).
    const unsigned reasons = (front > middle ? unsigned{kFoulFrontBeatsMiddle} : 0u) |
                             (middle > back ? unsigned{kFoulMiddleBeatsBack} : 0u) |
                             (rules.strict_middle && middle == back ? unsigned{kFoulMiddleEqualsBack} : 0u);
    f.foul_reasons = static_cast<std::uint8_t>(reasons);
    f.foul = reasons != 0;

  }
  return SettleError{};
}

// Foul, natural, strengths and royalties of a player whose 13 cards are valid. With `held` (a hand holding
// a joker, RULES.md 1.2), in.cards are its rows' substitutes (substitute_rows) and `held` the cards as held:
// the natural is found over the jokers' substitutions, the aces and the horse card among the cards held.
SettleError facts_of_valid(const PlayerInput& in, int index, const RulesSpec& rules, PlayerFacts* out,
                           const std::uint8_t* held = nullptr) noexcept {
  return held == nullptr ? facts_of<false>(in, index, rules, out, nullptr) : facts_of<true>(in, index, rules, out, held);
}

// Fills fantasyland_cards of every legal, not surrendered player with a setting. A pass of its
// own after the facts, so that rules without fantasyland (every batch of them) skip it with one test.
void add_fantasyland(const PlayerInput* players, int num_players, const RulesSpec& rules, PlayerFacts* facts) noexcept {
  for (int p = 0; p < num_players; ++p) {
    PlayerFacts& f = facts[p];
    if (f.has_setting && !f.foul && !players[p].surrendered) {
      f.fantasyland_cards = fantasyland_cards(rules, f.strength, players[p].fantasyland);
    }
  }
}

// kFantasylandOff at the first player who played in fantasyland while the rules' fantasyland is off.
SettleError check_fantasyland_flags(const PlayerInput* players, int num_players, const RulesSpec& rules) noexcept {
  SettleError error;
  if (rules.fantasyland != Fantasyland::kOff) return error;
  for (int p = 0; p < num_players; ++p) {
    if (players[p].fantasyland) {
      error.status = SettleStatus::kFantasylandOff;
      error.player = p;
      return error;
    }
  }
  return error;
}

// What the home run reads of a settled pair (detail::PairShot).
detail::PairShot shot_of(const PairResult& pr, const PlayerFacts* facts, const RulesSpec& rules) noexcept {
  const int natural = pr.decided_by == DecidedBy::kNatural ? detail::sign_of(pr.natural_units) : 0;
  const detail::PairFouls fouls = pr.decided_by == DecidedBy::kFoul
                                      ? detail::settled_fouls(facts[pr.i].foul, facts[pr.j].foul, rules)
                                      : detail::PairFouls{};
  return detail::pair_shot(pr.scoop, natural, fouls);
}

// The home run of a settled round (RULES.md 11.9), once home_run_possible: the player whose every pair
// counts as a shot (banker rounds: the banker only) and what it does to each pair. False when an amount
// overflowed: `overflow` then names the pair.
bool settle_home_run(RoundResult& r, const RulesSpec& rules, SettleError& overflow) noexcept {
  detail::PairShot shots[kMaxPairs];
  for (int q = 0; q < r.num_pairs; ++q) shots[q] = shot_of(r.pairs[q], r.facts, rules);
  const auto shot = [&](const PairResult& pr) noexcept { return shots[&pr - r.pairs]; };
  const int p = detail::home_run_player(r.pairs, r.num_pairs, r.players, r.banker, rules, shot);
  if (p < 0) return true;
  r.home_run[p] = true;
  for (int q = 0; q < r.num_pairs; ++q) {
    PairResult& pr = r.pairs[q];
    detail::CheckedMath math;
    const detail::HomeRunStep step =
        detail::home_run_step(p, pr.i, pr.j, shots[q], capped_subtotal(pr, rules), rules, math);
    if (!step.applies) continue;
    pr.home_run = step.multiplier;
    pr.home_run_bonus_units = step.bonus;
    pr.home_run_capped = step.capped;
    pr.units = final_units(step.value, pr, math);
    if (math.overflow()) {
      overflow.player = pr.i;
      overflow.other = pr.j;
      return false;
    }
  }
  return true;
}

// Settles a round whose cards (in `players`) are a validated private copy and whose options (stakes,
// banker, bets) are valid.
// `held`: under rules with jokers, per player the 13 cards as held when `players` carries its rows'
// substitutes (substitute_rows), else null (settle_valid_jokers); null for every player otherwise.
SettleError settle_valid(const PlayerInput* players, int num_players, const RulesSpec& rules,
                         const RoundOptions& options, RoundResult* out,
                         const std::uint8_t* const* held = nullptr) noexcept {
  assert(num_players >= kMinPlayers && num_players <= kMaxPlayers);
  assert(options.banker >= -1 && options.banker < num_players);
  // The table's Chi A sums to zero only when four players hold the whole deck and all
  // settle with each other (so not with a suit added to the pack: its aces are not all dealt).
  if (rules.ace_basis_table &&
      (num_players != kMaxDeckPlayers || options.banker >= 0 || rules.extra_suits != 0 || rules.jokers != 0)) {
    SettleError error;
    error.status = SettleStatus::kAceBasisTable;
    error.other = options.banker;  // names the banker seat in the message, -1 when there is none
    return error;
  }
  RoundResult& r = *out;
  const int banker = options.banker;
  r.players = num_players;
  r.banker = banker;
  r.num_pairs = banker >= 0 ? num_players - 1 : num_players * (num_players - 1) / 2;
  bool table_has_natural = false, table_has_false_declaration = false;
  for (int p = 0; p < num_players; ++p) {
    const SettleError error = facts_of_valid(players[p], p, rules, &r.facts[p], held == nullptr ? nullptr : held[p]);
    if (error) return error;
    table_has_natural = table_has_natural || r.facts[p].natural >= 0;
    table_has_false_declaration = table_has_false_declaration || r.facts[p].false_declaration;
  }
  if (rules.fantasyland != Fantasyland::kOff) add_fantasyland(players, num_players, rules, r.facts);
  SettleError overflow;
  overflow.status = SettleStatus::kOverflow;
  int k = 0;
  for (int i = 0; i < num_players; ++i) {
    for (int j = i + 1; j < num_players; ++j) {
      if (banker >= 0 && i != banker && j != banker) continue;
      PairContext ctx;
      ctx.stake = options.stakes == nullptr ? 1 : options.stakes[i * num_players + j];
      if (banker >= 0 && options.bets != nullptr) ctx.bet = options.bets[i == banker ? j : i];
      ctx.table_has_natural = table_has_natural;
      ctx.table_has_false_declaration = table_has_false_declaration;
      if (!settle_pair(players, r.facts, i, j, rules, ctx, r.pairs[k++])) {
        overflow.player = i;
        overflow.other = j;
        return overflow;
      }
    }
  }
  // Home run: a player who scoops every opponent, with enough opponents (banker rounds: the banker only).
  for (int p = 0; p < kMaxPlayers; ++p) r.home_run[p] = false;
  if (detail::home_run_possible(num_players, rules) && !settle_home_run(r, rules, overflow)) return overflow;
  for (int p = 0; p < kMaxPlayers; ++p) r.net[p] = 0;
  detail::CheckedMath math;
  // ace_basis "table" (RULES.md 11.9): each player's Chi A, apart from the pairs; none in a
  // round that declarations settle under natural_settles_table.
  const bool declarations_settle =
      rules.natural_settles_table && (table_has_natural || table_has_false_declaration);
  if (rules.ace_basis_table && !declarations_settle) {
    for (int p = 0; p < num_players; ++p) {
      r.facts[p].ace_units = detail::table_ace_units(r.facts[p].aces, rules);
      r.net[p] = r.facts[p].ace_units;
    }
  }
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

// kBadBanker when the banker is not a seat; kBadBet at the first bet out of 1..kMaxBet, or for bets
// without a banker (player -1).
SettleError check_banker(int banker, const std::int64_t* bets, int n) noexcept {
  SettleError error;
  if (banker < -1 || banker >= n) {
    error.status = SettleStatus::kBadBanker;
    error.player = banker;
    return error;
  }
  if (bets == nullptr) return error;
  error.status = SettleStatus::kBadBet;
  if (banker < 0) return error;
  for (int p = 0; p < n; ++p) {
    if (bets[p] < 1 || bets[p] > kMaxBet) {
      error.player = p;
      return error;
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


// [jokers] settle_valid under rules with jokers (RULES.md 1.2): rows are settled with each joker replaced
// by its card, so the players settled are copies whose cards are the substitutes (the suit tie-break
// compares those), and each joker hand's cards as held go along for its natural, aces and horse card.
// Apart from settle_valid so that rounds without jokers in their rules pay nothing for it.
SettleError settle_valid_jokers(const PlayerInput* players, int num_players, const RulesSpec& rules,
                                const RoundOptions& options, RoundResult* out) noexcept {
  PlayerInput substituted[kMaxPlayers];
  std::uint8_t substitute_cards[kMaxPlayers * 13];
  const std::uint8_t* held[kMaxPlayers] = {};
  for (int p = 0; p < num_players; ++p) {
    substituted[p] = players[p];
    if (detail::count_jokers(players[p].cards, 13) == 0) continue;
    held[p] = players[p].cards;
    substitute_rows(players[p], rules, substitute_cards + 13 * p);
    substituted[p].cards = substitute_cards + 13 * p;
  }
  return settle_valid(substituted, num_players, rules, options, out, held);
}

SettleError settle_any(const PlayerInput* players, int num_players, const RulesSpec& rules,
                       const RoundOptions& options, RoundResult* out) noexcept {
  return rules.jokers != 0 ? settle_valid_jokers(players, num_players, rules, options, out)
                           : settle_valid(players, num_players, rules, options, out);
}

SettleError bad_cards(const CardIssue& issue, int player) noexcept {
  SettleError error;
  error.status = SettleStatus::kBadCards;
  error.player = player;
  error.cards = issue;
  return error;
}

// The per-pair columns of round `r` (those of `out` that are not null).
// The column slot of pair (i, j), i < j, among a table's P (P - 1) / 2 pairs (0, 1), (0, 2), ...
std::size_t pair_slot(int i, int j, int players) noexcept {
  return static_cast<std::size_t>(i * (2 * players - i - 1) / 2 + (j - i - 1));
}

void write_pair(const PairResult& pr, std::size_t at, const BatchOutputs& out) noexcept {
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
  if (out.bet != nullptr) out.bet[at] = pr.bet;
}

// Writes round r's pairs into the per-pair columns, each at the slot of its (i, j). In a banker round the
// pairs without the banker are not settled: their slots say kNotPlayed, with amounts 0 and stake 0.
void write_pairs(const RoundResult& result, std::size_t r, const RulesSpec& rules, const BatchOutputs& out) noexcept {
  const int players = result.players;
  const auto slots = static_cast<std::size_t>(players * (players - 1) / 2);
  if (result.num_pairs != static_cast<int>(slots)) {
    PairResult unplayed;
    unplayed.decided_by = DecidedBy::kNotPlayed;
    unplayed.stake = 0;
    unplayed.bet = 0;
    for (int i = 0; i < players; ++i) {
      for (int j = i + 1; j < players; ++j) {
        unplayed.i = i;
        unplayed.j = j;
        write_pair(unplayed, r * slots + pair_slot(i, j, players), out);
      }
    }
  }
  for (int q = 0; q < result.num_pairs; ++q) {
    const PairResult& pr = result.pairs[q];
    write_pair(pr, r * slots + pair_slot(pr.i, pr.j, players), out);
  }
  // Each side's facts, in every slot (a pair not played still has two hands).
  for (int i = 0; i < players; ++i) {
    for (int j = i + 1; j < players; ++j) {
      const std::size_t at = r * slots + pair_slot(i, j, players);
      const PlayerFacts* sides[2] = {&result.facts[i], &result.facts[j]};
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
  for (int p = 0; p < players; ++p) {
    const std::size_t at = r * static_cast<std::size_t>(players) + static_cast<std::size_t>(p);
    const PlayerFacts& f = result.facts[p];
    if (out.fantasyland_cards != nullptr) out.fantasyland_cards[at] = static_cast<std::uint8_t>(f.fantasyland_cards);
    if (out.player_foul != nullptr) out.player_foul[at] = f.foul ? 1 : 0;
    if (out.player_natural != nullptr) {
      out.player_natural[at] = f.natural < 0 ? std::int8_t{-1}
                                             : static_cast<std::int8_t>(
                                                   rules.natural_kind[static_cast<std::size_t>(f.natural)]);
    }
    if (out.player_home_run != nullptr) out.player_home_run[at] = result.home_run[p] ? 1 : 0;
  }
}

}  // namespace

SettleError player_facts(const PlayerInput& in, int index, const RulesSpec& rules, PlayerFacts* out) noexcept {
  assert(validate_rules(rules) == nullptr);
  assert(in.cards != nullptr);
  std::uint8_t cards[13];
  std::memcpy(cards, in.cards, sizeof cards);
  const CardIssue issue = check_cards_in_pack(cards, 13, -1, pack_of(rules));
  if (issue) return bad_cards(issue, index);
  PlayerInput local = in;
  local.cards = cards;
  SettleError error = check_fantasyland_flags(&local, 1, rules);
  if (error) {
    error.player = index;
    return error;
  }
  std::uint8_t substitutes[13];
  const bool jokers = detail::count_jokers(cards, 13) != 0;
  if (jokers) {
    substitute_rows(local, rules, substitutes);
    local.cards = substitutes;
  }
  error = facts_of_valid(local, index, rules, out, jokers ? cards : nullptr);
  if (!error && rules.fantasyland != Fantasyland::kOff) add_fantasyland(&local, 1, rules, out);
  return error;
}

SettleError settle_round(const PlayerInput* players, int num_players, const RulesSpec& rules,
                         const std::int64_t* stakes, RoundResult* out) noexcept {
  RoundOptions options;
  options.stakes = stakes;
  return settle_round(players, num_players, rules, options, out);
}

SettleError settle_round(const PlayerInput* players, int num_players, const RulesSpec& rules,
                         const RoundOptions& options, RoundResult* out) noexcept {
  assert(validate_rules(rules) == nullptr);
  const std::int64_t* stakes = options.stakes;
  if (num_players < kMinPlayers || num_players > max_players(rules)) {
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
  const CardIssue issue = check_round(table, num_players, -1, pack_of(rules));
  if (issue) return bad_cards(issue, issue.position / 13);
  // A fantasyland flag needs fantasyland rules (settle_batch checks its flags per round the same way).
  if (const SettleError error = check_fantasyland_flags(local, num_players, rules)) return error;
  std::int64_t stake_copy[kMaxPlayers * kMaxPlayers];
  if (stakes != nullptr) {
    std::memcpy(stake_copy, stakes, sizeof(std::int64_t) * static_cast<std::size_t>(num_players * num_players));
    const SettleError error = check_stakes(stake_copy, num_players);
    if (error) return error;
  }
  std::int64_t bet_copy[kMaxPlayers];
  if (options.bets != nullptr) {
    std::memcpy(bet_copy, options.bets, sizeof(std::int64_t) * static_cast<std::size_t>(num_players));
  }
  const std::int64_t* bets = options.bets == nullptr ? nullptr : bet_copy;
  const SettleError error = check_banker(options.banker, bets, num_players);
  if (error) return error;
  RoundOptions checked;
  checked.stakes = stakes == nullptr ? nullptr : stake_copy;
  checked.banker = options.banker;
  checked.bets = bets;
  return settle_any(local, num_players, rules, checked, out);
}

int max_players(const RulesSpec& rules) noexcept {
  if (rules.fantasyland != Fantasyland::kOff) return kMaxFantasylandPlayers;
  return kMaxDeckPlayers + detail::popcount32(rules.extra_suits);
}

CardIssue check_round(const std::uint8_t* cards, int num_players, std::int64_t round, unsigned extra_suits) noexcept {
  assert(num_players >= 0 && num_players <= kMaxPlayers);
  // A pack with added suits holds some cards twice (and up to 78 cards): counted card by card.
  if (extra_suits != 0) return check_cards_in_pack(cards, num_players * 13, round, extra_suits);
  // Fast test first (every round of a batch passes through here): the codes must be distinct positions
  // below 52. Each card's bit (the evaluator's: a code of 52 or more has bit 52) is both added and ORed
  // in: the sum equals the union exactly when no bit came twice (78 bits of at most 2^52 cannot carry out
  // of 64 bits), and the union stays below bit 52 exactly when every code is below 52. Four independent
  // chains, so that no card waits for the one before it; no popcount (a library call without -mpopcnt).
  // Only a failing round is scanned again to name the offending card.
  const detail::Tables& t = detail::tables();
  std::uint64_t sum0 = 0, sum1 = 0, sum2 = 0, sum3 = 0, any0 = 0, any1 = 0, any2 = 0, any3 = 0;
  const int count = num_players * 13;
  int k = 0;
  for (; k + 4 <= count; k += 4) {
    const std::uint64_t b0 = t.card_bit[cards[k]], b1 = t.card_bit[cards[k + 1]];
    const std::uint64_t b2 = t.card_bit[cards[k + 2]], b3 = t.card_bit[cards[k + 3]];
    sum0 += b0;
    any0 |= b0;
    sum1 += b1;
    any1 |= b1;
    sum2 += b2;
    any2 |= b2;
    sum3 += b3;
    any3 |= b3;
  }
  for (; k < count; ++k) {
    sum0 += t.card_bit[cards[k]];
    any0 |= t.card_bit[cards[k]];
  }
  const std::uint64_t seen = any0 | any1 | any2 | any3;
  if (sum0 + sum1 + sum2 + sum3 == seen && (seen >> kDeckSize) == 0) return CardIssue{};
  return check_cards(cards, num_players * 13, round);
}

SettleError settle_batch(const std::uint8_t* cards, std::size_t rounds, int num_players, const RulesSpec& rules,
                         const BatchInputs& inputs, const BatchOutputs& outputs, const Parallel& parallel) noexcept {
  assert(validate_rules(rules) == nullptr);
  assert(outputs.net != nullptr || rounds == 0);
  if (num_players < kMinPlayers || num_players > max_players(rules)) {
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
  // About a hundred microseconds of work per chunk: little claiming overhead, fine-grained enough to
  // even out threads slowed by other work on the machine.
  constexpr std::size_t kRoundsPerChunk = 512;
  // The common call (net only, no per-round inputs, one pack) has a kernel of its own.
  if (detail::net_kernel_applies(rules, num_players, inputs, outputs)) {
    return detail::for_each_chunk<SettleError>(
        rounds, parallel, kRoundsPerChunk, [&](std::size_t begin, std::size_t end, std::size_t* bad) noexcept {
          return detail::settle_rounds_net(cards, begin, end, num_players, rules, outputs.net, bad);
        });
  }
  // Without any per-pair or per-player column (net only) the pair loop is skipped whole.
  const bool detail = outputs.rows != nullptr || outputs.rows_known != nullptr || outputs.decided_by != nullptr ||
                      outputs.scoop != nullptr || outputs.subtotal != nullptr || outputs.stake != nullptr ||
                      outputs.home_run != nullptr || outputs.units != nullptr || outputs.foul != nullptr ||
                      outputs.natural != nullptr || outputs.royalties != nullptr || outputs.bet != nullptr ||
                      outputs.fantasyland_cards != nullptr || outputs.player_foul != nullptr ||
                      outputs.player_natural != nullptr || outputs.player_home_run != nullptr;
  const auto settle_rounds = [&](std::size_t begin, std::size_t end, std::size_t* bad) noexcept -> SettleError {
    RoundResult result;
    PlayerInput in[kMaxPlayers];
    std::uint8_t round[kMaxPlayers * 13];
    std::int64_t round_stakes[kMaxPlayers * kMaxPlayers];
    std::int64_t round_bets[kMaxPlayers];
    const std::int64_t* stakes = shared ? shared_stakes : (inputs.stakes != nullptr ? round_stakes : nullptr);
    for (int p = 0; p < num_players; ++p) in[p].cards = round + 13 * p;
    for (std::size_t r = begin; r < end; ++r) {
      // One read of the caller's bytes; validation and settlement see only the copies.
      std::memcpy(round, cards + r * stride, stride);
      const auto index = static_cast<std::int64_t>(r);
      *bad = r;
      const CardIssue issue = check_round(round, num_players, index, pack_of(rules));
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
        in[p].fantasyland = inputs.fantasyland != nullptr && inputs.fantasyland[r * players + p] != 0;
      }
      RoundOptions options;
      options.stakes = stakes;
      if (inputs.banker != nullptr) {
        const std::int64_t seat = inputs.banker[r];
        // Out of range: kBadBanker below, naming a seat that is none (the value itself may not fit an int).
        options.banker = seat < -1 ? -2 : (seat >= num_players ? num_players : static_cast<int>(seat));
        if (options.banker >= 0 && inputs.bets != nullptr) {
          std::memcpy(round_bets, inputs.bets + r * players, sizeof(std::int64_t) * players);
          options.bets = round_bets;
        }
      }
      SettleError error = check_banker(options.banker, options.bets, num_players);
      if (!error) error = check_fantasyland_flags(in, num_players, rules);
      if (!error) error = settle_any(in, num_players, rules, options, &result);
      if (error) {
        error.round = index;
        return error;
      }
      for (std::size_t p = 0; p < players; ++p) outputs.net[r * players + p] = result.net[p];
      if (detail) write_pairs(result, r, rules, outputs);
    }
    return SettleError{};
  };
  return detail::for_each_chunk<SettleError>(rounds, parallel, kRoundsPerChunk, settle_rounds);
}

SettleError settle_batch(const std::uint8_t* cards, std::size_t rounds, int num_players, const RulesSpec& rules,
                         std::int64_t* net_out) noexcept {
  BatchOutputs outputs;
  outputs.net = net_out;
  return settle_batch(cards, rounds, num_players, rules, BatchInputs{}, outputs, Parallel{});
}

}  // namespace chinese_poker
