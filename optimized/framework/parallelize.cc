#include "optimized/framework/parallelize.h"

#include <oneapi/tbb/info.h>

namespace schedref::optimized::framework {

Parallelizer::Parallelizer(int threads)
    : threads_(threads > 0 ? threads : oneapi::tbb::info::default_concurrency()) {
  if (threads_ > oneapi::tbb::info::default_concurrency()) {
    oversubscribe_ = std::make_unique<oneapi::tbb::global_control>(
        oneapi::tbb::global_control::max_allowed_parallelism, threads_);
  }
  arena_ = std::make_unique<oneapi::tbb::task_arena>(threads_);
}

}  // namespace schedref::optimized::framework
