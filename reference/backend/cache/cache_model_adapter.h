// The reference Cache behind the model's CacheUnderTest interface
// (testing/models/cache_under_test.h). testonly.
#ifndef SCHEDREF_REFERENCE_BACKEND_CACHE_CACHE_MODEL_ADAPTER_H_
#define SCHEDREF_REFERENCE_BACKEND_CACHE_CACHE_MODEL_ADAPTER_H_

#include <memory>

#include "testing/models/cache_model.h"
#include "testing/models/cache_under_test.h"

namespace schedref::reference::cache {

std::unique_ptr<testing::models::CacheUnderTest> NewCacheUnderTest(
    const testing::models::CacheModel::Config& config);

}  // namespace schedref::reference::cache

#endif  // SCHEDREF_REFERENCE_BACKEND_CACHE_CACHE_MODEL_ADAPTER_H_
