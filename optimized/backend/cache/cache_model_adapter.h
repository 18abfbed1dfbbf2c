// The optimized Cache behind the model's CacheUnderTest interface
// (testing/models/cache_under_test.h), with the optimized cache's own
// invariants (cache_invariants.h) checked after every operation: every
// NodeInfo's running aggregates equal a recomputation from its node and
// pods, and each incrementally refreshed snapshot equals one built from
// scratch (and so does a never-refreshed snapshot refreshed once). testonly.
#ifndef SCHEDREF_OPTIMIZED_BACKEND_CACHE_CACHE_MODEL_ADAPTER_H_
#define SCHEDREF_OPTIMIZED_BACKEND_CACHE_CACHE_MODEL_ADAPTER_H_

#include <memory>

#include "testing/models/cache_model.h"
#include "testing/models/cache_under_test.h"

namespace schedref::optimized::backend::cache {

std::unique_ptr<testing::models::CacheUnderTest> NewCacheUnderTest(
    const testing::models::CacheModel::Config& config);

}  // namespace schedref::optimized::backend::cache

#endif  // SCHEDREF_OPTIMIZED_BACKEND_CACHE_CACHE_MODEL_ADAPTER_H_
