// Bit counting without compiler-specific builtins outside this one per-compiler block.
#pragma once

#include <cstdint>

namespace chinese_poker::detail {

inline int popcount64(std::uint64_t x) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_popcountll(x);
#else
  // SWAR count: portable and branch-free.
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
#endif
}

inline int popcount32(std::uint32_t x) noexcept { return popcount64(x); }

}  // namespace chinese_poker::detail
