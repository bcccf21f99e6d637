// Internal to the core: what one row of a pair is worth (RULES.md 11.5), shared by the general settlement
// path (checked arithmetic) and the net-only kernel (plain arithmetic within its bound).
#pragma once

#include <cstdint>

#include "chinese_poker/rules.hpp"

namespace chinese_poker::detail {

// What a won row is worth to its winner under royalty_condition "win" (RULES.md 11.5): row_base plus the
// royalty under royalty_mode "add", else the royalty in place of row_base when there is one.
template <class Math>
std::int64_t won_row_worth(std::int64_t royalty, std::int64_t base, const RulesSpec& rules, Math& math) noexcept {
  return rules.royalty_add ? math.add(base, royalty) : (royalty > 0 ? royalty : base);
}

// Value to i of one row: `result` is +1 (i wins), -1 or 0; ri, rj the two sides' royalties; `base` what the
// row pays plainly (row_base, 1 by default). Math is CheckedMath or PlainMath (checked.hpp).
template <class Math>
std::int64_t row_value(int result, std::int64_t ri, std::int64_t rj, std::int64_t base, const RulesSpec& rules,
                       Math& math) noexcept {
  // result is -1, 0 or +1 and base at most kMaxUnits: result * base never overflows.
  if (rules.royalty_cancel && ri > 0 && rj > 0) return result * base;
  if (!rules.royalty_always) {
    // What a won row is worth to each side; selected without branching on the (random) result.
    const std::int64_t worth_i = won_row_worth(ri, base, rules, math);
    const std::int64_t worth_j = won_row_worth(rj, base, rules, math);
    return math.sub(static_cast<std::int64_t>(result > 0) * worth_i, static_cast<std::int64_t>(result < 0) * worth_j);
  }
  std::int64_t unit = result * base;
  if (!rules.royalty_add) {
    if (result > 0 && ri > 0) unit = 0;
    if (result < 0 && rj > 0) unit = 0;
  }
  return math.sub(math.add(unit, ri), rj);
}

}  // namespace chinese_poker::detail
