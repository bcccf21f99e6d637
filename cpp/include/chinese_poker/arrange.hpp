// Arranging 13 cards: every legal setting, the strongest one, and the one with the greatest expected units
// against a field of opponents (issue 5).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "chinese_poker/rules.hpp"

namespace chinese_poker {

// Every way to split 13 cards into front 3, middle 5, back 5.
constexpr std::size_t kNumSplits = 72072;

struct Arrangement {
  std::uint8_t cards[13];   // front 3, middle 5, back 5
  Strength strength[3];     // front, middle, back
};

// The strengths a row can hold, ascending: 455 for the front, 7,462 for middle and back under `wheel`.
const std::vector<Strength>& row_classes(int row, Wheel wheel) noexcept;

// What one row of ours is worth against one opponent's row, by our row's strength. `classes` must equal
// row_classes(row, model wheel); the other vectors are parallel to it.
struct RowModel {
  std::vector<Strength> classes;
  std::vector<double> win;         // P(our row beats the opponent's)
  std::vector<double> loss;        // P(the opponent's row beats ours)
  std::vector<double> extra_win;   // royalty units a won row adds beyond the plain unit
  std::vector<double> extra_loss;  // E[royalty units the opponent's row adds, over the cases it wins]
  std::vector<double> always;      // royalty collected whatever the row's result ("always" condition)
};

// The expected-units model: per-row tables plus the pair-level terms of the rules. Built once per rules.
struct ExpectedModel {
  Wheel wheel = Wheel::Low;  // the wheel rule the classes follow; must be the rules' wheel
  RowModel row[3];
  double overall_unit = 0;
  double scoop_bonus = 0;
  double scoop_multiplier = 1;
  bool royalties_in_multiplier = false;
  // Derived by finish_model(): for each middle class k, the greatest win chance, royalty and "always"
  // value and the least loss chance and opponent royalty over the classes 0..k. They bound what any middle
  // no stronger than a given back can be worth, which lets the arranger skip whole backs.
  std::vector<double> middle_upto[5];
};

// Fills the derived part of a model whose rows are set; call it once before arranging with the model.
void finish_model(ExpectedModel& model);

// Writes every legal (non-fouled) setting of the 13 cards into `out` (capacity kNumSplits) and returns
// how many. With `distinct_strengths`, settings whose three row strengths equal an earlier one's are left
// out; with `drop_dominated`, so is every setting that another legal one matches or beats in all three
// rows (one representative of each set of equal strengths is kept).
std::size_t legal_arrangements(const std::uint8_t* cards13, const RulesSpec& rules, bool distinct_strengths,
                               bool drop_dominated, Arrangement* out) noexcept;

// The legal setting with the strongest back, then middle, then front. 13 distinct cards always have one.
void strongest_arrangement(const std::uint8_t* cards13, const RulesSpec& rules, Arrangement* out) noexcept;

// The legal setting with the greatest expected units per opponent under `model` (ties: the strongest);
// returns that expectation. Allocates nothing (its scratch space is thread-local).
double expected_arrangement(const std::uint8_t* cards13, const RulesSpec& rules, const ExpectedModel& model,
                            Arrangement* out) noexcept;

// Expected units per opponent of one legal setting under `model`.
double expected_units(const Strength strength[3], const ExpectedModel& model) noexcept;

// Arranges `count` hands of 13 cards (contiguous) into `out` (count x 13), by the expected model when
// `model` is not null, else by strength; `ev_out` (may be null) receives the expectations. Returns the
// first hand with a card >= 52 or repeated, or -1.
std::int64_t arrange_batch(const std::uint8_t* cards, std::size_t count, const RulesSpec& rules,
                           const ExpectedModel* model, std::uint8_t* out, double* ev_out) noexcept;

}  // namespace chinese_poker
