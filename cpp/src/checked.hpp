// Overflow-checked arithmetic on int64 amounts. Each function stores the result in *out and returns true
// when the exact result does not fit (then *out holds no meaningful amount). The compiler builtins are
// kept inside one per-compiler block; the portable versions test the operands before computing, so they
// never perform a signed overflow themselves.
#pragma once

#include <cstdint>
#include <limits>

namespace chinese_poker::detail {

// Portable versions, always defined (the tests compare them with the builtins).
[[nodiscard]] inline bool portable_add_overflows(std::int64_t a, std::int64_t b, std::int64_t* out) noexcept {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  if ((b > 0 && a > kMax - b) || (b < 0 && a < kMin - b)) {
    *out = 0;
    return true;
  }
  *out = a + b;
  return false;
}

[[nodiscard]] inline bool portable_sub_overflows(std::int64_t a, std::int64_t b, std::int64_t* out) noexcept {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  if ((b < 0 && a > kMax + b) || (b > 0 && a < kMin + b)) {
    *out = 0;
    return true;
  }
  *out = a - b;
  return false;
}

[[nodiscard]] inline bool portable_mul_overflows(std::int64_t a, std::int64_t b, std::int64_t* out) noexcept {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  bool overflow;
  if (a == 0 || b == 0) {
    overflow = false;
  } else if (a > 0) {
    overflow = b > 0 ? a > kMax / b : b < kMin / a;
  } else {
    // a < 0: neither quotient divides kMin by -1.
    overflow = b > 0 ? a < kMin / b : a < kMax / b;
  }
  *out = overflow ? 0 : a * b;
  return overflow;
}

#if defined(__GNUC__) || defined(__clang__)

[[nodiscard]] inline bool add_overflows(std::int64_t a, std::int64_t b, std::int64_t* out) noexcept {
  return __builtin_add_overflow(a, b, out);
}

[[nodiscard]] inline bool sub_overflows(std::int64_t a, std::int64_t b, std::int64_t* out) noexcept {
  return __builtin_sub_overflow(a, b, out);
}

[[nodiscard]] inline bool mul_overflows(std::int64_t a, std::int64_t b, std::int64_t* out) noexcept {
  return __builtin_mul_overflow(a, b, out);
}

#else

[[nodiscard]] inline bool add_overflows(std::int64_t a, std::int64_t b, std::int64_t* out) noexcept {
  return portable_add_overflows(a, b, out);
}

[[nodiscard]] inline bool sub_overflows(std::int64_t a, std::int64_t b, std::int64_t* out) noexcept {
  return portable_sub_overflows(a, b, out);
}

[[nodiscard]] inline bool mul_overflows(std::int64_t a, std::int64_t b, std::int64_t* out) noexcept {
  return portable_mul_overflows(a, b, out);
}

#endif

// Accumulates the overflow of a chain of operations, so that a computation reads as arithmetic and is
// checked once at its end.
class CheckedMath {
 public:
  std::int64_t add(std::int64_t a, std::int64_t b) noexcept {
    std::int64_t r;
    overflow_ |= add_overflows(a, b, &r);
    return r;
  }
  std::int64_t sub(std::int64_t a, std::int64_t b) noexcept {
    std::int64_t r;
    overflow_ |= sub_overflows(a, b, &r);
    return r;
  }
  std::int64_t mul(std::int64_t a, std::int64_t b) noexcept {
    std::int64_t r;
    overflow_ |= mul_overflows(a, b, &r);
    return r;
  }
  std::int64_t neg(std::int64_t a) noexcept { return sub(0, a); }
  [[nodiscard]] bool overflow() const noexcept { return overflow_; }

 private:
  bool overflow_ = false;
};

// The same interface in plain arithmetic, for a caller that has shown its amounts cannot overflow (the
// settlement kernel's bound, settle_net.cpp), so one formula serves both.
class PlainMath {
 public:
  std::int64_t add(std::int64_t a, std::int64_t b) const noexcept { return a + b; }
  std::int64_t sub(std::int64_t a, std::int64_t b) const noexcept { return a - b; }
  std::int64_t mul(std::int64_t a, std::int64_t b) const noexcept { return a * b; }
  std::int64_t neg(std::int64_t a) const noexcept { return -a; }
  [[nodiscard]] bool overflow() const noexcept { return false; }
};

}  // namespace chinese_poker::detail
