// Parallelizer: the one place the optimized scheduler uses threads. A
// oneTBB task_arena limited to RunOptions.threads workers; everything else
// in optimized/ is single-threaded and calls in here for data-parallel loops
// (Filter and Score over nodes). Upstream: pkg/scheduler/framework/
// parallelize/parallelism.go (Until with chunks).
//
// Determinism: For() gives no ordering guarantee between indices; callers
// write each index's result to its own slot and combine the slots in index
// order afterwards, so results never depend on the thread count.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PARALLELIZE_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PARALLELIZE_H_

#include <algorithm>
#include <cstdint>
#include <memory>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

namespace schedref::optimized::framework {

class Parallelizer {
 public:
  // threads <= 0: one per hardware thread.
  explicit Parallelizer(int threads);

  int threads() const { return threads_; }

  // Calls fn(b, e) for consecutive runs [b, e) of at most `chunk` indices
  // covering [0, n) exactly once, possibly concurrently; in increasing order
  // on one thread. For loops whose body works on a run at a time.
  template <typename Fn>
  void ForChunks(int64_t n, int64_t chunk, const Fn& fn) {
    if (threads_ == 1 || n <= chunk) {
      for (int64_t b = 0; b < n; b += chunk) fn(b, std::min(n, b + chunk));
      return;
    }
    arena_->execute([&] {
      oneapi::tbb::parallel_for(
          oneapi::tbb::blocked_range<int64_t>(0, n, chunk),
          [&](const oneapi::tbb::blocked_range<int64_t>& r) {
            for (int64_t b = r.begin(); b < r.end(); b += chunk) {
              fn(b, std::min(r.end(), b + chunk));
            }
          },
          oneapi::tbb::simple_partitioner());
    });
  }

  // Calls fn(i) once for every i in [begin, end), possibly concurrently.
  // REQUIRES: fn is safe to call concurrently for distinct i.
  template <typename Fn>
  void For(int64_t begin, int64_t end, const Fn& fn) {
    if (end - begin <= kGrain || threads_ == 1) {
      for (int64_t i = begin; i < end; ++i) fn(i);
      return;
    }
    arena_->execute([&] {
      oneapi::tbb::parallel_for(
          oneapi::tbb::blocked_range<int64_t>(begin, end, kGrain),
          [&](const oneapi::tbb::blocked_range<int64_t>& r) {
            for (int64_t i = r.begin(); i != r.end(); ++i) fn(i);
          });
    });
  }

 private:
  // Below this many items a loop runs inline: a node's filters take well
  // under a microsecond, less than handing a chunk to another thread.
  static constexpr int64_t kGrain = 32;
  int threads_;
  // Set iff threads_ exceeds the hardware threads: TBB otherwise caps its
  // workers there, and a request for more (to test oversubscription) would
  // silently run with fewer.
  std::unique_ptr<oneapi::tbb::global_control> oversubscribe_;
  std::unique_ptr<oneapi::tbb::task_arena> arena_;
};

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PARALLELIZE_H_
