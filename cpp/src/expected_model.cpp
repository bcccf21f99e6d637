// Building and checking the expected-units model (docs/ARRANGING.md): per row, what a row of each class
// is worth against the field's row of that kind; the values derived from it and from the field sample
// (finish_model), and a setting's score against that sample (sample_units).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <utility>
#include <vector>

#include "chinese_poker/arrange.hpp"
#include "expected_terms.hpp"

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

void finish_model(ExpectedModel& model) {
  const RowModel& m = model.row[kMiddle];
  const std::size_t n = m.classes.size();
  // Rows of unequal lengths get no bounds, which validate_model then reports.
  const bool parallel = m.win.size() == n && m.loss.size() == n && m.extra_win.size() == n &&
                        m.extra_loss.size() == n && m.always.size() == n;
  for (auto& v : model.middle_upto) v.assign(parallel ? n : 0, 0.0);
  if (!parallel) return;
  for (std::size_t k = 0; k < n; ++k) {
    const bool first = k == 0;
    model.middle_upto[0][k] = first ? m.win[k] : std::max(model.middle_upto[0][k - 1], m.win[k]);
    model.middle_upto[1][k] = first ? m.loss[k] : std::min(model.middle_upto[1][k - 1], m.loss[k]);
    model.middle_upto[2][k] = first ? m.extra_win[k] : std::max(model.middle_upto[2][k - 1], m.extra_win[k]);
    model.middle_upto[3][k] = first ? m.extra_loss[k] : std::min(model.middle_upto[3][k - 1], m.extra_loss[k]);
    model.middle_upto[4][k] = first ? m.always[k] : std::max(model.middle_upto[4][k - 1], m.always[k]);
  }
  FieldSample& sample = model.sample;
  const std::size_t size = sample.size();
  sample.extra_sum.assign(size, 0);
  sample.always_mean = 0;
  for (int row = 0; row < 3; ++row) {
    const auto r = static_cast<std::size_t>(row);
    sample.below[r].clear();
    sample.above[r].clear();
    sample.extra_above[r].clear();
  }
  // Rows of unequal lengths, classes out of range or royalty extras that are not whole units get no derived
  // values, which validate_model reports.
  if (!whole_royalty_extras(model)) return;
  double always_sum = 0;
  for (int row = 0; row < 3; ++row) {
    const auto r = static_cast<std::size_t>(row);
    const RowModel& rm = model.row[r];
    const std::size_t classes = rm.classes.size();
    if (sample.row_class[r].size() != size || rm.extra_win.size() != classes || rm.always.size() != classes) return;
    std::vector<std::int32_t> held(classes, 0);  // sampled rows of each class (at most kMaxFieldSample in all)
    for (std::size_t j = 0; j < size; ++j) {
      const std::int16_t k = sample.row_class[r][j];
      if (k < 0 || static_cast<std::size_t>(k) >= classes) return;
      const auto c = static_cast<std::size_t>(k);
      ++held[c];
      // A whole number of units in 0..kMaxUnits (validate_model), so the cast is exact.
      sample.extra_sum[j] += static_cast<std::int32_t>(rm.extra_win[c]);
      always_sum += rm.always[c];
    }
    sample.below[r].assign(classes, 0);
    sample.above[r].assign(classes, 0);
    sample.extra_above[r].assign(classes, 0.0);
    std::int32_t weaker = 0;
    for (std::size_t c = 0; c < classes; ++c) {
      sample.below[r][c] = weaker;
      weaker += held[c];
    }
    std::int32_t stronger = 0;
    double extra = 0;
    for (std::size_t c = classes; c-- > 0;) {
      sample.above[r][c] = stronger;
      sample.extra_above[r][c] = extra;
      stronger += held[c];
      extra += held[c] * rm.extra_win[c];
    }
  }
  if (size > 0) sample.always_mean = always_sum / static_cast<double>(size);
}

double sample_units(const ExpectedModel& model, const std::int16_t row_class[3]) noexcept {
  const FieldSample& sample = model.sample;
  const std::size_t n = sample.size();
  if (n == 0) return 0;
  const std::int16_t a0 = row_class[0], a1 = row_class[1], a2 = row_class[2];
  const auto c0 = static_cast<std::size_t>(a0), c1 = static_cast<std::size_t>(a1), c2 = static_cast<std::size_t>(a2);
  // Row by row, from the derived counts: the rows won and lost, the royalties of ours that win and of
  // theirs that beat ours.
  const RowModel* const rows = model.row;
  const double ours_extra[3] = {rows[0].extra_win[c0], rows[1].extra_win[c1], rows[2].extra_win[c2]};
  const std::int32_t won[3] = {sample.below[0][c0], sample.below[1][c1], sample.below[2][c2]};
  const std::int32_t lost = sample.above[0][c0] + sample.above[1][c1] + sample.above[2][c2];
  const double theirs = sample.extra_above[0][c0] + sample.extra_above[1][c1] + sample.extra_above[2][c2];
  // The opponent's three rows together: two rows or more won and lost, scoops. Counts over at most
  // kMaxFieldSample sampled settings (set_field_sample), so no 32-bit sum overflows; 16-bit classes and
  // plain sums of comparisons, so that the loop vectorizes.
  const std::int16_t* const b0 = sample.row_class[0].data();
  const std::int16_t* const b1 = sample.row_class[1].data();
  const std::int16_t* const b2 = sample.row_class[2].data();
  std::int32_t two_rows = 0, scoops = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const std::int32_t wins = (a0 > b0[j]) + (a1 > b1[j]) + (a2 > b2[j]);
    const std::int32_t losses = (a0 < b0[j]) + (a1 < b1[j]) + (a2 < b2[j]);
    two_rows += static_cast<std::int32_t>(wins >= 2) - static_cast<std::int32_t>(losses >= 2);
    scoops += static_cast<std::int32_t>(wins == 3) - static_cast<std::int32_t>(losses == 3);
  }
  const detail::ModelPairTerms pair = detail::model_pair_terms(model);
  double total = static_cast<double>(won[0] + won[1] + won[2] - lost) - theirs;
  for (int r = 0; r < 3; ++r) total += ours_extra[r] * won[r];
  total += pair.overall * two_rows + pair.scoop * scoops;
  if (pair.royalty_scoop != 0) {
    // The multiplier takes the scooping rows' royalties along: ours when we scoop, theirs when they do.
    // Whole units (validate_model): each sum is under 3,000 x kMaxFieldSample (2^19) < 2^31.
    std::int32_t our_scoops = 0, theirs_scooping = 0;
    const std::int32_t* const sum = sample.extra_sum.data();
    for (std::size_t j = 0; j < n; ++j) {
      our_scoops += (a0 > b0[j]) & (a1 > b1[j]) & (a2 > b2[j]);
      theirs_scooping += ((a0 < b0[j]) & (a1 < b1[j]) & (a2 < b2[j])) * sum[j];
    }
    total += pair.royalty_scoop * (our_scoops * (ours_extra[0] + ours_extra[1] + ours_extra[2]) - theirs_scooping);
  }
  return total / static_cast<double>(n) + rows[0].always[c0] + rows[1].always[c1] + rows[2].always[c2] -
         sample.always_mean;
}

}  // namespace chinese_poker
