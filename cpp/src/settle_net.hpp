// Internal to the core: the net-only settlement kernel of settle_batch. It serves the common call (no
// per-round inputs, net units only, one 52-card pack without jokers, no fantasyland) without building a
// RoundResult: per player three strengths, royalties and a foul flag, per pair a few lines of arithmetic.
// A round it does not settle itself (a natural is held, or two rows need the suit tie-break) goes through
// settle_round, so every number is the general path's; property tests compare the two on random rules.
#pragma once

#include <cstddef>
#include <cstdint>

#include "chinese_poker/settle.hpp"

namespace chinese_poker::detail {

// Whether settle_batch may use the kernel for these rules, inputs and outputs.
[[nodiscard]] bool net_kernel_applies(const RulesSpec& rules, int num_players, const BatchInputs& inputs,
                                      const BatchOutputs& outputs) noexcept;

// Settles rounds [begin, end) of `cards` (rounds x players x 13) into `net` (rounds x players), as
// settle_batch's body: on an error, *bad is the round and the error names it.
[[nodiscard]] SettleError settle_rounds_net(const std::uint8_t* cards, std::size_t begin, std::size_t end,
                                            int num_players, const RulesSpec& rules, std::int64_t* net,
                                            std::size_t* bad) noexcept;

}  // namespace chinese_poker::detail
