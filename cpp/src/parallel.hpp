// The one way a batch call runs on several threads (internal). Rows are claimed in chunks, in increasing
// order, by the calling thread and up to threads - 1 threads started for this call; each row is computed
// on its own, so the results are those of one thread whatever the thread count or chunk size. An error
// stops the work, and the error kept is the one of the lowest failing row, whatever the interleaving:
//  - within a chunk the rows run in order and stop at the first failure, which is the chunk's lowest;
//  - a chunk is skipped only when it starts after a failure already found, so the chunk holding the
//    lowest failing row is always run.
// Threads are started per call, not kept in a pool: starting and joining one costs about 20 us here, less
// than one chunk of any batch call, and a thread is only started when there is a second chunk for it. So
// there is no process-wide state: nothing to rebuild after fork(), nothing to stop at exit, and calls from
// many Python threads at once never wait on one another.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <limits>
#include <mutex>
#include <thread>

#include "chinese_poker/parallel.hpp"

namespace chinese_poker::detail {

// The Error of a body that cannot fail.
struct NoError {
  explicit operator bool() const noexcept { return false; }
};

// Threads for `count` rows in chunks of `chunk` when `requested` were asked for (0: every core): never
// more than there are chunks, so a small batch stays on the calling thread.
inline unsigned threads_for(std::size_t count, std::size_t chunk, unsigned requested) noexcept {
  const unsigned wanted = std::min(requested == 0 ? available_threads() : requested, kMaxThreads);
  const std::size_t chunks = count / chunk + (count % chunk != 0);
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(wanted, chunks)));
}

// Runs body(begin, end, &bad_row) over [0, count) in chunks. `body` computes rows begin..end-1 in order
// and returns a falsy Error, or the Error of the first row that failed with `bad_row` set to it. Returns
// the Error of the lowest failing row, or a falsy Error. Thread creation that fails (no resources) only
// means fewer threads: the calling thread always works too. Allocates only the started threads' states.
template <class Error, class Body>
Error for_each_chunk(std::size_t count, const Parallel& parallel, std::size_t default_chunk,
                     const Body& body) noexcept {
  const std::size_t chunk = std::max<std::size_t>(1, parallel.chunk != 0 ? parallel.chunk : default_chunk);
  const unsigned threads = threads_for(count, chunk, parallel.threads);
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  if (threads == 1) {
    // The common case, with no shared state: exactly the loop one thread would run.
    for (std::size_t begin = 0; begin < count; begin += chunk) {
      std::size_t bad = kNone;
      const Error error = body(begin, std::min(count, begin + chunk), &bad);
      if (error) return error;
    }
    return Error{};
  }
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> lowest_bad{kNone};
  std::mutex mutex;
  Error lowest_error{};
  std::size_t lowest_row = kNone;
  const auto work = [&]() noexcept {
    for (;;) {
      // Each thread claims at most one chunk past the end, so `next` stays below count + threads * chunk.
      const std::size_t begin = next.fetch_add(chunk, std::memory_order_relaxed);
      if (begin >= count || begin > lowest_bad.load(std::memory_order_relaxed)) return;
      std::size_t bad = kNone;
      const Error error = body(begin, std::min(count, begin + chunk), &bad);
      if (!error) continue;
      const std::lock_guard<std::mutex> lock(mutex);
      if (bad < lowest_row) {
        lowest_row = bad;
        lowest_error = error;
        lowest_bad.store(bad, std::memory_order_relaxed);
      }
      return;
    }
  };
  // A fixed array: no allocation for the container, only each started thread's own state.
  std::array<std::thread, kMaxThreads> pool;
  unsigned started = 0;
  for (; started + 1 < threads; ++started) {
    try {
      pool[started] = std::thread(work);
    } catch (...) {
      break;  // std::system_error or std::bad_alloc: go on with the threads there are
    }
  }
  work();
  for (unsigned k = 0; k < started; ++k) pool[k].join();
  return lowest_error;
}

}  // namespace chinese_poker::detail
