// Arranging 13 cards: every legal setting, the strongest one, and the one with the greatest expected units
// against a field of opponents (docs/ARRANGING.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "chinese_poker/parallel.hpp"
#include "chinese_poker/rules.hpp"

namespace chinese_poker {

// Every way to split 13 cards into front 3, middle 5, back 5.
constexpr std::size_t kNumSplits = 72072;

struct Arrangement {
  std::uint8_t cards[13];   // front 3, middle 5, back 5
  Strength strength[3];     // front, middle, back
};

// The strengths a row can hold with one deck, ascending: 455 for the front, 7,462 for middle and back under
// `wheel`. `row` is 0..2 (kFront, kMiddle, kBack). A row only a pack with added suits holds (five of a
// kind, a flush with a pair) has no class: the expected arranging values it at the strongest class below.
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

// The second stage of the expected arranging (docs/ARRANGING.md): settings of the field's own players,
// each opponent's three rows together, against which the best few settings of the model are re-scored
// by their exact units. `row_class[r][j]` is the class index (in the model's row r) of sampled setting j;
// the rest is derived from the model's rows by finish_model.
struct FieldSample {
  std::vector<std::int16_t> row_class[3];  // signed: the classes (under 7,462) compare in SIMD lanes
  // Derived, per class k of row r: how many sampled rows are weaker and stronger than k, and the sum of
  // the royalty extras (the model's extra_win) of the stronger ones: what a row of ours of class k wins
  // and loses over the sample, row by row. Per sampled setting: its three rows' extras summed. The mean
  // over the sample of the three rows' "always" royalties.
  std::vector<std::int32_t> below[3];
  std::vector<std::int32_t> above[3];
  std::vector<double> extra_above[3];
  std::vector<std::int32_t> extra_sum;  // whole units: every extra_win is one (validate_model)
  double always_mean = 0;
  std::size_t size() const noexcept { return row_class[0].size(); }
};

// The most settings the second stage re-scores per hand, and how far below the model's best (in expected
// units per opponent) a setting may be and still be re-scored: changes of choice from further down gained
// nothing measurable (docs/ARRANGING.md).
constexpr int kMaxSecondStage = 8;
constexpr double kSecondStageMargin = 0.2;
// The most settings a field sample may hold: every count of the second stage then fits 32 bits (a sum
// of royalty extras of at most 3 x kMaxUnits per setting included), and its time per hand is bounded.
constexpr std::size_t kMaxFieldSample = std::size_t{1} << 19;

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
  // The second stage: with a sample and `top` >= 2, the `top` best distinct settings by the model (the
  // best of each group of equal row categories and made-hand ranks; those another of them matches or
  // beats in every row left out) are re-scored against every sampled setting and the best is played.
  // Without one (top 0 or 1, or no sample) the model's best is played.
  FieldSample sample;
  int top = 0;
};

// The distribution of the field's rows, as data/field_rows_PRESET.npz ships it: per row (front, middle, back),
// every strength the row can hold under the wheel "low" encoding, in any order, and its probability.
struct FieldTables {
  std::vector<Strength> strengths[3];
  std::vector<double> prob[3];
};

// Builds the expected-units model of `rules` against the field `tables` into `out` (finished, see
// finish_model): each row's strengths re-encoded for the rules' wheel and sorted; the chance to win and
// to lose against the field's row (equal strengths split evenly under the suit tie-break, else a push);
// per class the royalty (royalty_of), collected whatever the result under royalty_condition "always"
// (less the field's mean royalty), else as the extra a won row is worth (the royalty less the plain unit
// under "replace", the royalty under "add") and, for extra_loss, the field's mean such extra over the rows
// that beat ours; and the pair terms of the rules. Returns nullptr, or (with `out` unspecified) the name
// of the bad RulesSpec field as validate_rules gives it, or a text naming the bad table: lengths differ,
// a probability is negative or not finite, or the strengths are not exactly the row's classes.
[[nodiscard]] const char* build_expected_model(const FieldTables& tables, const RulesSpec& rules, ExpectedModel* out);

// Fills the derived part of a model whose rows (and sample classes, if any) are set; call it once before
// arranging with the model.
void finish_model(ExpectedModel& model);

// Sets the second stage of a finished model: the sampled settings' row strengths (wheel "low" encoding;
// front, middle, back, of equal lengths, at most 2^19) and how many settings to re-score (2 to
// kMaxSecondStage; 0 or 1: no second stage). Returns nullptr, or (the model's sample then empty, top 0)
// what is wrong: the lengths differ or exceed the bound, a strength is not one of its row's classes, or
// `top` is out of range.
[[nodiscard]] const char* set_field_sample(ExpectedModel& model, const std::vector<Strength> (&strengths)[3], int top);

// The exact units per sampled opponent (the mean over the model's sample) of a setting whose rows have
// the class indices `row_class` (front, middle, back) in the model: rows won and lost, royalties, the
// overall unit (two rows), the scoop bonus and multiplier, as the model counts them, but with each
// opponent's three rows together. Equal strengths push. 0 without a sample.
double sample_units(const ExpectedModel& model, const std::int16_t row_class[3]) noexcept;

// Whether every royalty extra (extra_win) of the model's rows is a whole number of units in 0..kMaxUnits,
// as the second stage sums them (any model build_expected_model makes).
[[nodiscard]] bool whole_royalty_extras(const ExpectedModel& model) noexcept;

// nullptr when `model` is usable by the arranger, else what is wrong: the wheel is unknown, a row's
// classes are not row_classes(row, model.wheel), its vectors differ in length, a value (or a pair term)
// is not finite, or middle_upto is not what finish_model derives.
[[nodiscard]] const char* validate_model(const ExpectedModel& model) noexcept;

// Every function below that takes cards reads the caller's 13 codes once, into a private copy, checks the
// copy (a code >= 52, or a card more often than the rules' pack holds it: once, twice for a suit in
// rules.extra_suits, is returned as the CardIssue, with item 0) and works only from it, so the
// caller's buffer may change meanwhile without any bad code reaching a table. `rules` must be valid
// (validate_rules) and `model` valid (validate_model) and of the rules' wheel.

// Writes every legal (non-fouled) setting of the 13 cards into `out` (capacity kNumSplits) and their
// number into `*count`. With `distinct_strengths`, settings whose three row strengths equal an earlier
// one's are left out; with `drop_dominated`, so is every setting that another legal one matches or beats
// in all three rows (one representative of each set of equal strengths is kept).
[[nodiscard]] CardIssue legal_arrangements(const std::uint8_t* cards13, const RulesSpec& rules,
                                           bool distinct_strengths, bool drop_dominated, Arrangement* out,
                                           std::size_t* count) noexcept;

// The legal setting with the strongest back, then middle, then front. 13 distinct cards always have one.
[[nodiscard]] CardIssue strongest_arrangement(const std::uint8_t* cards13, const RulesSpec& rules,
                                              Arrangement* out) noexcept;

// The legal setting with the greatest expected units per opponent under `model` (ties: the strongest), or,
// with a second stage, the best of the model's best few against its sample; in `*expected` the setting's
// expectation under the model. Allocates nothing (its scratch space is thread-local).
[[nodiscard]] CardIssue expected_arrangement(const std::uint8_t* cards13, const RulesSpec& rules,
                                             const ExpectedModel& model, Arrangement* out,
                                             double* expected) noexcept;

// Expected units per opponent of a setting with these row strengths under `model`, in `*out`. Returns
// false (leaving *out alone) when a strength is not one of its row's classes in the model.
[[nodiscard]] bool expected_units(const Strength strength[3], const ExpectedModel& model, double* out) noexcept;
// The same for row strengths that may be ones no 52-card class has (a five of a kind, a flush with a
// repeated card: a pack with added suits or jokers), each row valued at the strongest class of its row
// model not above it, as arrange_hand values them. False when a strength is below every class of its row.
[[nodiscard]] bool expected_units_in_pack(const Strength strength[3], const ExpectedModel& model,
                                          double* out) noexcept;

// One arranged hand: the setting (front 3, middle 5, back 5), its row strengths, its expected units per
// opponent under the model, and the highest listed natural the cards hold (index into
// rules.natural_kind, or -1), whatever natural_declaration says.
struct ArrangeResult {
  std::uint8_t cards[13];
  Strength strength[3];
  double expected_units;
  int natural;
};

// Arranges one hand by the expected model (`by_expected`) or as the strongest setting, and reports it
// with its expectation under `model` either way. Thread-safe; allocates nothing.
[[nodiscard]] CardIssue arrange_hand(const std::uint8_t* cards13, const RulesSpec& rules, const ExpectedModel& model,
                                     bool by_expected, ArrangeResult* out) noexcept;

// Arranges `count` hands of 13 cards (contiguous) into `out` (count x 13), by the expected model when
// `model` is not null, else by strength; `ev_out` (may be null) receives the expectations (0 without a
// model). Each hand is copied, checked and arranged from the copy. Returns the first hand with a card
// >= 52 or repeated (`item` = the hand), or no issue; `out` is then unspecified. The hands are spread
// over `parallel.threads` threads; settings, expectations and the hand an error names are the same for
// any thread count.
[[nodiscard]] CardIssue arrange_batch(const std::uint8_t* cards, std::size_t count, const RulesSpec& rules,
                                      const ExpectedModel* model, std::uint8_t* out, double* ev_out,
                                      const Parallel& parallel = Parallel{}) noexcept;

}  // namespace chinese_poker
