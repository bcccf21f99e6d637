// The exact fantasyland setting of Open-Face Chinese Poker (RULES.md 4.3): of the 14 to 17 cards of a
// fantasyland hand, the legal 13-card setting (front 3, middle 5, back 5; the other cards discarded) of the
// greatest royalty total plus `stay_value` when the board keeps the player in fantasyland (the stay rule of
// RULES.md 4.2), ties broken by the stronger back, then middle, then front.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "chinese_poker/cards.hpp"
#include "chinese_poker/evaluate.hpp"
#include "chinese_poker/parallel.hpp"
#include "chinese_poker/rules.hpp"

namespace chinese_poker {

constexpr int kMinFantasylandCards = 14;
constexpr int kMaxFantasylandCards = 17;
// Subsets of the largest hand: C(17, 5) five-card rows and C(17, 3) fronts.
constexpr int kMaxFiveSubsets = 6188;
constexpr int kMaxThreeSubsets = 680;
// Distinct back keys a hand can have: every royalty slot and rank key of a row, with and without the stay.
constexpr int kMaxDistinctKeys = 2 * (kRoyaltySlots + kRoyaltyCategories * kRoyaltyRanks);
// Largest stay value accepted (the bindings refuse more): far above any royalty total, far inside a double's
// exact integers.
constexpr double kMaxStayValue = 1e6;

struct FantasylandSetting {
  std::uint8_t rows[13] = {};      // front 3, middle 5, back 5: the codes as held (jokers 52 and 53)
  std::uint8_t discards[4] = {};   // the cards not placed, in the order held
  int num_discards = 0;
  Strength strength[3] = {0, 0, 0};  // front, middle, back (a joker's row: its best substitution)
  std::int64_t royalty[3] = {0, 0, 0};
  bool stays = false;              // the board keeps its player in fantasyland (rules.fantasyland on)
  double value = 0.0;              // royalty total, plus stay_value when `stays`
};

// The working memory of one solve: per five-card and three-card subset of the hand its cards, strength and
// royalties, and the orders and bounds the search reads. Large (about 200 KB): make one per thread and reuse
// it; a solve allocates nothing.
struct FantasylandScratch {
  struct Five {
    std::uint32_t mask;
    Strength strength;
    double back_key;    // back royalty, plus the stay value if this back keeps the player there
    double middle_key;  // the same as a middle
    std::int64_t back_royalty, middle_royalty;
    bool back_stays, middle_stays;
  };
  struct Three {
    std::uint32_t mask;
    Strength strength;
    double key;
    std::int64_t royalty;
    bool stays;
  };
  std::array<Five, kMaxFiveSubsets> five;
  std::array<Three, kMaxThreeSubsets> three;
  std::array<std::uint16_t, kMaxFiveSubsets> back_order;    // by back key, descending
  std::array<std::uint16_t, kMaxFiveSubsets> back_bucket;   // each back's key, as an index of distinct keys
  std::array<std::uint16_t, kMaxThreeSubsets> front_order;  // by key, then strength, descending
};

// Solves one hand of `count` (14..17) valid cards of the rules' pack (check_cards_in_pack(pack_of(rules)));
// `rules` valid, stay_value finite in 0..kMaxStayValue (ignored under fantasyland "off"). Allocation-free.
FantasylandSetting solve_fantasyland(const std::uint8_t* cards, int count, const RulesSpec& rules, double stay_value,
                                     FantasylandScratch& scratch) noexcept;

// solve_fantasyland for `hands` hands of `count` cards each, laid out contiguously, into out[0..hands).
// Checks every hand's cards first (the lowest bad hand is reported, out then unspecified); the hands are
// spread over `parallel.threads` threads, each result the same for any thread count or chunk size.
[[nodiscard]] CardIssue solve_fantasyland_batch(const std::uint8_t* cards, std::size_t hands, int count,
                                                const RulesSpec& rules, double stay_value, FantasylandSetting* out,
                                                const Parallel& parallel = Parallel{});

}  // namespace chinese_poker
