// Open-face placement advice (docs/OFC.md): the expected units of each legal placement of a street, and
// the greedy baseline policy the advice plays out the rest of a hand with.
//
// The value of a placement to seat `seat` is the mean, over the cards that can still come (uniform over
// the cards the seat has not seen), of its net settlement against every other seat's board plus
// fl_value[k] when its board earns a fantasyland hand of k cards. The seat's later streets and the other
// seats' cards still to place are played by the greedy policy. When the placement fills the seat's board
// and the other seats' deals still to come are few enough, every one of them is enumerated (exact); else
// `samples` deals are drawn, the same deals for every placement (common random numbers); with more than
// kOfcRaceKeep placements the deals are raced (below).
#pragma once

#include <cstdint>

#include "chinese_poker/rules.hpp"

namespace chinese_poker {

constexpr int kOfcMaxPlayers = 3;
constexpr int kOfcMaxHeld = 5;
// The most joint deals of the other seats the last street enumerates before it samples instead.
constexpr long kOfcMaxExactDeals = 200000;

// Racing (more than kOfcRaceKeep options, at least kOfcRaceMin deals): a fortieth of the deals, at least
// kOfcRaceFirst, goes to every option; the rest only to the kOfcRaceKeep best options among those whose
// paired mean difference from the leader is within kOfcRaceSlack standard errors of zero. The survivors
// get most of the deals, so the first share is what the race can save on: 250 deals of 10,000 are
// enough to rule out placements 3 standard errors behind.
constexpr long kOfcRaceMin = 1000;
constexpr long kOfcRaceFirst = 50;
constexpr long kOfcRaceShare = 40;
constexpr int kOfcRaceKeep = 16;
constexpr double kOfcRaceSlack = 3.0;

// One seat's rows so far: rows[r][0..len[r]) for front (3), middle (5), back (5).
struct OfcBoard {
  std::uint8_t rows[3][5] = {};
  int len[3] = {0, 0, 0};
  int cards() const noexcept { return len[0] + len[1] + len[2]; }
};

// Cards placed in rows: cards[k] goes to row rows[k] (0 front, 1 middle, 2 back).
struct OfcPlacement {
  std::uint8_t cards[kOfcMaxHeld] = {};
  std::uint8_t rows[kOfcMaxHeld] = {};
  int count = 0;
};

// What seat `seat` knows when it acts.
struct OfcSituation {
  int players = 2;
  int seat = 0;
  OfcBoard boards[kOfcMaxPlayers];
  bool in_fantasyland[kOfcMaxPlayers] = {};  // played this hand in fantasyland (such a board is complete)
  bool acted[kOfcMaxPlayers] = {};           // has placed this street's cards (or its board is full)
  int street_cards = 5, street_keep = 5;     // this street's deal to a seat still to act, and cards placed
  int later_cards = 3, later_keep = 2;       // each later street's deal and cards placed
  const std::uint8_t* unseen = nullptr;      // the cards `seat` has not seen (valid codes, no jokers twice)
  int num_unseen = 0;
  double fl_value[18] = {};                  // value of earning a fantasyland hand of k cards (index k)
  // Seats in fantasyland whose board is not yet set (`pooled`): deal i gives them entry i % pool_size of
  // a pool of fantasyland deals, each pool_stride cards of `unseen` (every pooled seat's whole hand, all
  // distinct) and a set board per seat (pool_boards[(m * players + p) * 13 ..], front, middle, back).
  // Those cards leave the unseen cards for that deal; on the last street every entry is enumerated.
  bool pooled[kOfcMaxPlayers] = {};
  int pool_size = 0, pool_stride = 0;
  const std::uint8_t* pool_cards = nullptr;
  const std::uint8_t* pool_boards = nullptr;
};

struct OfcOptionValue {
  double mean = 0.0;
  double sd = 0.0;  // of one deal's value (0 when exact)
  long deals = 0;   // deals averaged (exact: every joint deal, equally likely; raced out: the first share)
};

// The value of each of `num_options` placements (each completing the seat's street) under `situation`.
// `exact` says whether every deal was enumerated. Returns false (out unspecified) when the cards cannot
// fill the boards (more cards needed than unseen). `rules` valid; cards valid for its pack.
bool ofc_advise(const OfcSituation& situation, const OfcPlacement* options, int num_options, const RulesSpec& rules,
                long samples, std::uint64_t seed, OfcOptionValue* out, bool* exact);

// The greedy baseline's choice for `board` holding `cards` (n of them, keep placed, the rest discarded):
// the first placement, in enumeration order, of the greatest greedy score (docs/OFC.md). Writes the
// discards to `discards` (n - keep of them).
OfcPlacement ofc_greedy(const OfcBoard& board, const std::uint8_t* cards, int n, int keep, const RulesSpec& rules,
                        const double* fl_value, std::uint8_t* discards) noexcept;

// The greedy score of a board (docs/OFC.md): on a full board its royalties plus its fantasyland value, or
// kOfcFoulScore when it fouls; on a partial board a sum over rows of what each row holds so far.
constexpr double kOfcFoulScore = -100.0;
double ofc_greedy_score(const OfcBoard& board, const RulesSpec& rules, const double* fl_value) noexcept;

}  // namespace chinese_poker
