// Building and checking the expected-units model (docs/ARRANGING.md): per row, what a row of each class
// is worth against the field's row of that kind.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <utility>
#include <vector>

#include "chinese_poker/arrange.hpp"

namespace chinese_poker {

namespace {

const char* const kLengthError[3] = {"front_prob: not as long as front_strengths",
                                     "middle_prob: not as long as middle_strengths",
                                     "back_prob: not as long as back_strengths"};
const char* const kProbError[3] = {"front_prob: a probability is negative or not finite",
                                   "middle_prob: a probability is negative or not finite",
                                   "back_prob: a probability is negative or not finite"};
const char* const kClassesError[3] = {"front_strengths: not every front strength exactly once",
                                      "middle_strengths: not every middle strength exactly once",
                                      "back_strengths: not every back strength exactly once"};

bool all_finite(const std::vector<double>& v) noexcept {
  return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
}

// One row of the model from the field's strengths (low encoding) and probabilities. The arithmetic
// follows the order of the numpy code it replaces (running sums from the weakest class up, and from the
// strongest down for the opponent's royalties), so that the values agree to the last bit where the
// operations are the same.
const char* build_row(int row, const std::vector<Strength>& field_strengths, const std::vector<double>& field_prob,
                      const RulesSpec& rules, RowModel& out) {
  const std::size_t n = field_strengths.size();
  if (field_prob.size() != n) return kLengthError[row];
  for (const double p : field_prob) {
    if (!std::isfinite(p) || p < 0) return kProbError[row];
  }
  std::vector<Strength> encoded(n);
  for (std::size_t k = 0; k < n; ++k) encoded[k] = encode_wheel(field_strengths[k], rules.wheel);
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return encoded[a] < encoded[b]; });
  out.classes.resize(n);
  std::vector<double> prob(n);
  for (std::size_t k = 0; k < n; ++k) {
    out.classes[k] = encoded[order[k]];
    prob[k] = field_prob[order[k]];
  }
  // Sorted and equal to the row's classes means every class exactly once, so each index below is a class.
  if (out.classes != row_classes(row, rules.wheel)) return kClassesError[row];

  // Equal strengths are then decided by suits, about evenly; without the tie-break they push.
  const bool split_ties = rules.suit_tiebreak != SuitTiebreak::kOff;
  out.win.resize(n);
  out.loss.resize(n);
  double running = 0;
  for (std::size_t k = 0; k < n; ++k) {
    running += prob[k];
    const double below = running - prob[k];
    const double above = 1.0 - below - prob[k];
    out.win[k] = below + (split_ties ? prob[k] / 2 : 0.0);
    out.loss[k] = above + (split_ties ? prob[k] / 2 : 0.0);
  }
  std::vector<double> royalty(n);
  for (std::size_t k = 0; k < n; ++k) royalty[k] = static_cast<double>(royalty_of(rules, row, out.classes[k]));
  out.always.assign(n, 0.0);
  out.extra_win.assign(n, 0.0);
  out.extra_loss.assign(n, 0.0);
  if (rules.royalty_always) {
    // Every holder collects its royalty from the opponent whatever the result.
    double mean = 0;
    for (std::size_t k = 0; k < n; ++k) mean += prob[k] * royalty[k];
    for (std::size_t k = 0; k < n; ++k) out.always[k] = royalty[k] - mean;
    return nullptr;
  }
  for (std::size_t k = 0; k < n; ++k) {
    // Under "replace" a won row is worth the royalty instead of 1; under "add", 1 plus the royalty.
    out.extra_win[k] = rules.royalty_add ? royalty[k] : (royalty[k] > 0 ? royalty[k] - 1 : 0.0);
  }
  double from_top = 0;  // sum of prob * extra_win over the classes from the strongest down to k
  for (std::size_t k = n; k-- > 0;) {
    const double weighted = prob[k] * out.extra_win[k];
    from_top += weighted;
    out.extra_loss[k] = from_top - weighted + (split_ties ? weighted / 2 : 0.0);
  }
  return nullptr;
}

}  // namespace

const char* build_expected_model(const FieldTables& tables, const RulesSpec& rules, ExpectedModel* out) {
  if (const char* bad = validate_rules(rules)) return bad;
  ExpectedModel& model = *out;
  model = ExpectedModel{};
  model.wheel = rules.wheel;
  for (int row = 0; row < 3; ++row) {
    const auto r = static_cast<std::size_t>(row);
    if (const char* bad = build_row(row, tables.strengths[r], tables.prob[r], rules, model.row[r])) return bad;
  }
  model.overall_unit = static_cast<double>(rules.overall_unit);
  model.scoop_bonus = static_cast<double>(rules.scoop_bonus);
  model.scoop_multiplier = static_cast<double>(rules.scoop_multiplier);
  model.royalties_in_multiplier = rules.royalties_in_multiplier;
  finish_model(model);
  return nullptr;
}

const char* set_field_sample(ExpectedModel& model, const std::vector<Strength> (&strengths)[3], int top) {
  static const char* const kNotClass[3] = {"sample: a front strength is not one of the front's classes",
                                           "sample: a middle strength is not one of the middle's classes",
                                           "sample: a back strength is not one of the back's classes"};
  model.sample = FieldSample{};
  model.top = 0;
  const std::size_t n = strengths[0].size();
  if (strengths[1].size() != n || strengths[2].size() != n) return "sample: the rows differ in length";
  if (n > kMaxFieldSample) return "sample: more than 2**19 settings";
  if (top < 0 || top > kMaxSecondStage) return "sample: top must be 0 to 8";
  FieldSample sample;
  for (int row = 0; row < 3; ++row) {
    const auto r = static_cast<std::size_t>(row);
    const std::vector<Strength>& classes = model.row[r].classes;
    sample.row_class[r].resize(n);
    for (std::size_t j = 0; j < n; ++j) {
      const Strength s = encode_wheel(strengths[r][j], model.wheel);
      const auto it = std::lower_bound(classes.begin(), classes.end(), s);
      if (it == classes.end() || *it != s) return kNotClass[row];
      sample.row_class[r][j] = static_cast<std::int16_t>(it - classes.begin());
    }
  }
  model.sample = std::move(sample);
  model.top = n == 0 ? 0 : top;
  finish_model(model);
  if (const char* bad = validate_model(model)) {
    model.sample = FieldSample{};
    model.top = 0;
    finish_model(model);
    return bad;
  }
  return nullptr;
}

bool whole_royalty_extras(const ExpectedModel& model) noexcept {
  for (const RowModel& r : model.row) {
    for (const double extra : r.extra_win) {
      if (!(extra >= 0 && extra <= static_cast<double>(kMaxUnits) && extra == std::floor(extra))) return false;
    }
  }
  return true;
}

const char* validate_model(const ExpectedModel& model) noexcept {
  static const char* const kClasses[3] = {"row 0 (front): classes are not the row's strengths under the wheel",
                                          "row 1 (middle): classes are not the row's strengths under the wheel",
                                          "row 2 (back): classes are not the row's strengths under the wheel"};
  static const char* const kLengths[3] = {"row 0 (front): vectors of different lengths",
                                          "row 1 (middle): vectors of different lengths",
                                          "row 2 (back): vectors of different lengths"};
  static const char* const kFinite[3] = {"row 0 (front): a value is not finite", "row 1 (middle): a value is not finite",
                                         "row 2 (back): a value is not finite"};
  if (model.wheel != Wheel::Low && model.wheel != Wheel::Second) return "wheel: unknown";
  for (int row = 0; row < 3; ++row) {
    const RowModel& r = model.row[row];
    if (r.classes != row_classes(row, model.wheel)) return kClasses[row];
    const std::size_t n = r.classes.size();
    if (r.win.size() != n || r.loss.size() != n || r.extra_win.size() != n || r.extra_loss.size() != n ||
        r.always.size() != n) {
      return kLengths[row];
    }
    if (!all_finite(r.win) || !all_finite(r.loss) || !all_finite(r.extra_win) || !all_finite(r.extra_loss) ||
        !all_finite(r.always)) {
      return kFinite[row];
    }
  }
  if (!std::isfinite(model.overall_unit) || !std::isfinite(model.scoop_bonus) ||
      !std::isfinite(model.scoop_multiplier)) {
    return "pair terms: a value is not finite";
  }
  // The arranger's bound reads middle_upto by middle class: it must be exactly what finish_model derives,
  // or the search could skip the best setting.
  const RowModel& m = model.row[kMiddle];
  const std::size_t n = m.classes.size();
  for (const auto& v : model.middle_upto) {
    if (v.size() != n) return "middle_upto: not derived (call finish_model)";
  }
  for (std::size_t k = 0; k < n; ++k) {
    const bool first = k == 0;
    const double win = first ? m.win[k] : std::max(model.middle_upto[0][k - 1], m.win[k]);
    const double loss = first ? m.loss[k] : std::min(model.middle_upto[1][k - 1], m.loss[k]);
    const double extra_win = first ? m.extra_win[k] : std::max(model.middle_upto[2][k - 1], m.extra_win[k]);
    const double extra_loss = first ? m.extra_loss[k] : std::min(model.middle_upto[3][k - 1], m.extra_loss[k]);
    const double always = first ? m.always[k] : std::max(model.middle_upto[4][k - 1], m.always[k]);
    if (model.middle_upto[0][k] != win || model.middle_upto[1][k] != loss || model.middle_upto[2][k] != extra_win ||
        model.middle_upto[3][k] != extra_loss || model.middle_upto[4][k] != always) {
      return "middle_upto: not what finish_model derives from the middle row";
    }
  }
  // The second stage indexes the model's rows by the sample's classes and reads the derived values.
  const FieldSample& sample = model.sample;
  const std::size_t size = sample.size();
  if (model.top < 0 || model.top > kMaxSecondStage) return "top: not 0 to 8";
  if (size > kMaxFieldSample) return "sample: more than 2**19 settings";
  if (size > 0 && !whole_royalty_extras(model)) {
    return "sample: a royalty extra is not a whole number of units in 0..1000";
  }
  for (int row = 0; row < 3; ++row) {
    const auto r = static_cast<std::size_t>(row);
    if (sample.row_class[r].size() != size) return "sample: the rows differ in length";
    const std::size_t classes = model.row[r].classes.size();
    for (const std::int16_t k : sample.row_class[r]) {
      if (k < 0 || static_cast<std::size_t>(k) >= classes) return "sample: a class index is out of range";
    }
    if (sample.below[r].size() != classes || sample.above[r].size() != classes ||
        sample.extra_above[r].size() != classes) {
      return "sample: not derived (call finish_model)";
    }
  }
  if (sample.extra_sum.size() != size) return "sample: not derived (call finish_model)";
  return nullptr;
}

}  // namespace chinese_poker
