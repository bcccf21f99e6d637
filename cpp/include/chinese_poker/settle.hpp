// Settlement of a round between 2 to 6 players (5 and 6 with added suits, RulesSpec::extra_suits) (RULES.md section 3, RULES.md section 11).
#pragma once

#include <cstddef>
#include <cstdint>

#include "chinese_poker/cards.hpp"
#include "chinese_poker/parallel.hpp"
#include "chinese_poker/rules.hpp"

namespace chinese_poker {

constexpr int kMinPlayers = 2;
// A 52-card deck seats 4; each suit added to the pack (extra_suits, at most two) seats one more.
constexpr int kMaxDeckPlayers = 4;
constexpr int kMaxPlayers = 6;
constexpr int kMaxPairs = kMaxPlayers * (kMaxPlayers - 1) / 2;
// With fantasyland on a player may be dealt 14 to 17 cards, so at most three players fit in one deck.
constexpr int kMaxFantasylandPlayers = 3;

// Greatest stake of one pair. With it and the rules' caps (kMaxUnits) every total stays far inside int64.
constexpr std::int64_t kMaxStake = 1'000'000;

// Bits of PlayerFacts::foul_reasons: why a setting fouls (RULES.md 9).
constexpr std::uint8_t kFoulFrontBeatsMiddle = 1;
constexpr std::uint8_t kFoulMiddleBeatsBack = 2;
constexpr std::uint8_t kFoulMiddleEqualsBack = 4;  // only under middle_vs_back "strict"

struct PlayerInput {
  const std::uint8_t* cards = nullptr;  // 13 codes: front 3, middle 5, back 5 (declared: any order)
  bool declared = false;                // declared a natural: no setting, not foul-checked
  bool surrendered = false;
  bool fantasyland = false;             // played this hand in fantasyland (needs rules.fantasyland on)
};

// What is known of one player before any pair is settled.
struct PlayerFacts {
  bool has_setting = false;
  bool foul = false;                    // foul_reasons != 0
  std::uint8_t foul_reasons = 0;        // kFoul* bits
  int natural = -1;                     // index into rules.natural_kind, or -1
  Strength strength[3] = {0, 0, 0};     // front, middle, back
  std::int64_t royalty[3] = {0, 0, 0};
  bool false_declaration = false;       // declared without a listed natural, under false_declaration_units > 0
  int aces = 0;                         // aces among the 13 cards (counted when ace_units > 0)
  bool horse = false;                   // holds the rules' horse_card (when there is one)
  // ---- jokers (RULES.md 1.2; here, in the padding before the next int) ----
  // What X1 (joker_card[0]) and X2 became: a card code 0..51, or -1 when the player does not hold that
  // joker. A player with a setting: the card of the joker's row substitution; a declared natural: the
  // natural's substitution.
  std::int8_t joker_card[2] = {-1, -1};
  bool natural_key_known = false;       // a joker hand's natural: natural_key is its tie-break key
  int fantasyland_cards = 0;            // cards dealt next hand in fantasyland (RULES.md 4.2), 0 if none
  // ace_basis "table": ace_units x (aces - 1), paid to (or by) the table apart from the pairs; 0 under
  // "pairwise" and in a round settled by declarations under natural_settles_table. Set by settle_round.
  std::int64_t ace_units = 0;
  // ---- jokers ----
  std::uint64_t natural_key = 0;        // natural_key_known: the natural's tie-break key
};

enum class DecidedBy : std::uint8_t {
  kNatural = 0,
  kSurrender = 1,
  kFoul = 2,
  kRows = 3,
  kFalseDeclaration = 4,
  kNotPlayed = 5,         // settle_batch columns only: a pair without the banker in a banker round
};

// One pair (i, j), i < j, every amount from i's view (j gets the negative of `units`).
struct PairResult {
  int i = 0, j = 0;
  DecidedBy decided_by = DecidedBy::kRows;
  bool rows_known = false;              // both players have a setting
  std::int8_t rows[3] = {0, 0, 0};      // +1 i wins, -1 j wins, 0 tie: as laid, whatever decided the pair
  std::int64_t natural_units = 0;
  std::int64_t surrender_units = 0;
  std::int64_t row_units = 0;
  std::int64_t royalty_units = 0;
  std::int64_t overall_units = 0;
  int scoop = 0;
  std::int64_t scoop_bonus_units = 0;
  std::int64_t multiplier = 1;
  std::int64_t subtotal = 0;
  std::int64_t stake = 1;
  std::int64_t home_run = 1;
  std::int64_t units = 0;
  // --- units = (step(subtotal) + ace_units) x horse x bet x stake, where
  // step applies pair_cap, then the home run (x home_run, + home_run_bonus_units) and home_run_cap ---
  std::int64_t false_declaration_units = 0;
  std::int64_t ace_units = 0;           // ace_units x (aces_i - aces_j): a side payment, never multiplied
  bool capped = false;                  // pair_cap clamped the subtotal
  std::int64_t home_run_bonus_units = 0;
  bool home_run_capped = false;         // home_run_cap clamped the home run's result
  std::int64_t horse = 1;               // horse_multiplier when exactly one side holds the horse card
  std::int64_t bet = 1;                 // banker rounds: the non-banker's bet
};

struct RoundResult {
  int players = 0;
  int num_pairs = 0;
  PlayerFacts facts[kMaxPlayers];
  PairResult pairs[kMaxPairs];          // (0,1), (0,2), ..., (P-2, P-1); banker rounds: the banker's only
  bool home_run[kMaxPlayers] = {};
  std::int64_t net[kMaxPlayers] = {};
  int banker = -1;                      // the banker seat, or -1
};

enum class SettleStatus : int {
  kOk = 0,
  kDeclaredWithoutNatural = 1,  // `player` declared but holds no listed natural
  kSurrenderOff = 2,            // `player` surrendered while surrender_units == 0
  kOverflow = 3,                // an amount left int64: in pair (`player`, `other`), or in `player`'s net
  kBadStake = 4,                // stakes[player][other] is outside 0..kMaxStake or differs from [other][player]
  kBadCards = 5,                // `cards` names the first bad card (a code >= 52, or a card at the table more
                                // often than the pack holds it)
  kBadPlayerCount = 6,          // fewer than kMinPlayers or more than max_players(rules): 4 plus one per added
                                // suit (kMaxFantasylandPlayers with rules.fantasyland on)
  kBadBanker = 7,               // the banker seat is not one of the players
  kBadBet = 8,                  // bets[player] is outside 1..kMaxBet (or bets given without a banker)
  kFantasylandOff = 9,          // `player` played in fantasyland while rules.fantasyland is off
  kAceBasisTable = 10,          // ace_basis "table" in a round that is not 4 players without a banker, or
                                // with added suits (rules.extra_suits)
};

// Greatest bet of one player in a banker round.
constexpr std::int64_t kMaxBet = 1000;

// The per-round inputs of settle_round beside the cards. One struct, so
// settle_batch can pass per-round values without another signature.
struct RoundOptions {
  const std::int64_t* stakes = nullptr;  // players x players row-major (symmetric, 0..kMaxStake), or null
  int banker = -1;                       // banker round: only pairs with this seat are settled; -1 = none
  const std::int64_t* bets = nullptr;    // banker rounds: one bet per player, 1..kMaxBet, or null (all 1)
};

struct SettleError {
  SettleStatus status = SettleStatus::kOk;
  int player = -1;
  int other = -1;               // the other player of a pair (kOverflow in a pair, kBadStake)
  std::int64_t round = -1;      // settle_batch: the round (-1 otherwise)
  CardIssue cards;              // kBadCards: position is player * 13 + index (player_facts: the index);
                                // item is the round in settle_batch, else -1
  explicit operator bool() const noexcept { return status != SettleStatus::kOk; }
};

// Foul, natural, row strengths and royalties of one player (`index` only names it in an error). Checks
// the 13 cards (kBadCards) on a private copy and works from that copy.
[[nodiscard]] SettleError player_facts(const PlayerInput& in, int index, const RulesSpec& rules,
                                       PlayerFacts* out) noexcept;

// The most players a round may have under `rules`: kMaxFantasylandPlayers with fantasyland on, else
// kMaxDeckPlayers plus one per suit in rules.extra_suits.
[[nodiscard]] int max_players(const RulesSpec& rules) noexcept;

// Settles one round of `num_players` (2..max_players(rules)). Validates everything it reads, on a private
// copy of the cards: every code < 52 and no card at the table more often than the pack holds it (kBadCards), `stakes` (kBadStake), each player's
// declaration and surrender, and every amount against int64 overflow (kOverflow). `stakes` is a
// players x players row-major matrix (symmetric, entries 0..kMaxStake; the diagonal is not read but must
// be in range too), or null for all ones. `out` is unspecified after an error. Allocates nothing.
[[nodiscard]] SettleError settle_round(const PlayerInput* players, int num_players, const RulesSpec& rules,
                                       const std::int64_t* stakes, RoundResult* out) noexcept;

// The same with every per-round input: stakes, and a banker with bets (banker rounds: only the P - 1
// pairs with the banker are settled and listed, each multiplied by the other player's bet; kBadBanker,
// kBadBet name the player; bets without a banker are kBadBet with player -1).
[[nodiscard]] SettleError settle_round(const PlayerInput* players, int num_players, const RulesSpec& rules,
                                       const RoundOptions& options, RoundResult* out) noexcept;

// First problem in a round laid out as players x 13 codes: a code >= 52 or a card at the table more often
// than the pack holds it (once; twice for a suit in `extra_suits`, RulesSpec::extra_suits).
// `item` of the result is `round`; `position` is player * 13 + index.
[[nodiscard]] CardIssue check_round(const std::uint8_t* cards, int num_players, std::int64_t round,
                                    unsigned extra_suits = 0) noexcept;

// Optional per-round columns of a batch; a null pointer gives every round the default (settle_round's).
// Each round's entries are copied before they are checked or used, like its cards. Columns still to come
// (banker rounds: banker (R,) and bets (R, P); fantasyland (R, P)) are added here as further
// null-by-default members, so settle_batch keeps its signature when they come.
struct BatchInputs {
  // rounds x players x players, row-major per round (as settle_round's `stakes`); or, with
  // stakes_per_round false, one players x players matrix for every round (checked once, round -1).
  const std::int64_t* stakes = nullptr;
  bool stakes_per_round = true;
  const std::uint8_t* declared = nullptr;     // rounds x players, nonzero: the player declared a natural
  const std::uint8_t* surrendered = nullptr;  // rounds x players, nonzero: the player surrendered
  // Banker rounds (RULES.md 3.1): the banker's seat in each round, -1 for a round without one; and each
  // player's bet, read only in banker rounds (1..kMaxBet; null: every bet 1).
  const std::int64_t* banker = nullptr;       // rounds
  const std::int64_t* bets = nullptr;         // rounds x players
  const std::uint8_t* fantasyland = nullptr;  // rounds x players, nonzero: played this hand in fantasyland
};

// Where a batch writes; every member but `net` may be null (not written). Pairs are numbered as in
// RoundResult::pairs, num_pairs = P (P - 1) / 2 per round, every amount from the pair's i's view.
struct BatchOutputs {
  std::int64_t* net = nullptr;          // rounds x players
  std::int8_t* rows = nullptr;          // rounds x pairs x 3: +1 i wins the row, -1 j wins, 0 tie or unknown
  std::uint8_t* rows_known = nullptr;   // rounds x pairs: both players have a setting (PairResult::rows_known)
  std::uint8_t* decided_by = nullptr;   // rounds x pairs: DecidedBy
  std::int8_t* scoop = nullptr;         // rounds x pairs: +1, -1 or 0
  std::int64_t* subtotal = nullptr;     // rounds x pairs: before stake and home run
  std::int64_t* stake = nullptr;        // rounds x pairs
  std::int64_t* home_run = nullptr;     // rounds x pairs: the home-run multiplier applied (1: none)
  std::int64_t* units = nullptr;        // rounds x pairs
  std::uint8_t* foul = nullptr;         // rounds x pairs x 2 (i, j)
  std::int8_t* natural = nullptr;       // rounds x pairs x 2: the NaturalKind held (as a number), or -1
  std::int64_t* royalties = nullptr;    // rounds x pairs x 2 x 3: each side's row royalties (PlayerFacts)
  std::int64_t* bet = nullptr;          // rounds x pairs: the pair's bet (1 outside banker rounds)
  std::uint8_t* fantasyland_cards = nullptr;  // rounds x players: PlayerFacts::fantasyland_cards
  std::uint8_t* player_foul = nullptr;        // rounds x players: PlayerFacts::foul
  std::int8_t* player_natural = nullptr;      // rounds x players: the NaturalKind held (as a number), or -1
  std::uint8_t* player_home_run = nullptr;    // rounds x players: RoundResult::home_run
};

// Settles `rounds` rounds of `num_players` settings each (rounds x players x 13 codes, contiguous) with
// the optional per-round `inputs`, and writes `outputs`. Each round (cards and inputs) is copied before it
// is read, so the caller's buffers may change meanwhile (another thread) without any code >= 52 reaching
// a table; the copy is validated and settled exactly as settle_round does. The rounds are spread over
// `parallel.threads` threads; every output is the same whatever the thread count or chunk. Returns the
// error of the lowest failing round, with `round` set (outputs are then unspecified): kBadCards (`cards.item`
// is the round too), kBadStake, kDeclaredWithoutNatural, kSurrenderOff, kOverflow; or kBadPlayerCount,
// or kBadStake in a shared stakes matrix (round -1). Allocates nothing per round.
[[nodiscard]] SettleError settle_batch(const std::uint8_t* cards, std::size_t rounds, int num_players,
                                       const RulesSpec& rules, const BatchInputs& inputs,
                                       const BatchOutputs& outputs, const Parallel& parallel) noexcept;

// The plain batch: nobody declares or surrenders, stakes 1, one thread, net units only. Under
// natural_declaration "auto" naturals are detected.
[[nodiscard]] SettleError settle_batch(const std::uint8_t* cards, std::size_t rounds, int num_players,
                                       const RulesSpec& rules, std::int64_t* net_out) noexcept;

}  // namespace chinese_poker
