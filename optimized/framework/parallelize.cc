#include "optimized/framework/parallelize.h"

namespace schedref::optimized::framework {

Parallelizer::Parallelizer(int threads)
    : threads_(threads > 0 ? threads
                           : oneapi::tbb::this_task_arena::max_concurrency()),
      arena_(std::make_unique<oneapi::tbb::task_arena>(threads_)) {}

}  // namespace schedref::optimized::framework
