// How a batch call of the core spreads its rows over threads.
#pragma once

#include <cstddef>

namespace chinese_poker {

// More threads than this are never started by one call (a larger request is an error in the bindings).
constexpr unsigned kMaxThreads = 256;

struct Parallel {
  unsigned threads = 1;   // 1: the calling thread only; 0: every available core (available_threads())
  std::size_t chunk = 0;  // rows per unit of work, 0: the call's own choice. Results never depend on it.
};

// What threads = 0 means: the cores the standard library reports, at least 1, at most kMaxThreads.
[[nodiscard]] unsigned available_threads() noexcept;

}  // namespace chinese_poker
