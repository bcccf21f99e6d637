// Internal to the core: the pair terms of an expected-units model, read by the search (arrange.cpp) and
// by the re-scoring of candidates against the field sample (expected_model.cpp).
#pragma once

#include "chinese_poker/arrange.hpp"

namespace chinese_poker::detail {

// The pair terms of the model: the overall unit, the scoop (bonus and multiplier) and the royalties the
// multiplier takes along.
struct ModelPairTerms {
  double overall, scoop, royalty_scoop;
};

inline ModelPairTerms model_pair_terms(const ExpectedModel& model) noexcept {
  ModelPairTerms terms{model.overall_unit, model.scoop_bonus, 0};
  if (model.scoop_multiplier != 1) {
    const double extra = model.scoop_multiplier - 1;
    terms.scoop += extra * (3 + model.overall_unit + model.scoop_bonus);
    if (model.royalties_in_multiplier) terms.royalty_scoop = extra;
  }
  return terms;
}

}  // namespace chinese_poker::detail
