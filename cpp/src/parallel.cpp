#include "chinese_poker/parallel.hpp"

#include <algorithm>
#include <thread>

namespace chinese_poker {

unsigned available_threads() noexcept {
  // hardware_concurrency() may report 0 when it cannot tell.
  return std::clamp(std::thread::hardware_concurrency(), 1u, kMaxThreads);
}

}  // namespace chinese_poker
