// Stateful property test of the optimized scheduler cache: the shared model
// of testing/models/cache_model.h and its RapidCheck commands
// (testing/models/cache_property.h) against Cache, through
// cache_model_adapter.h. Random sequences of node and pod informer events,
// assume / finish binding / forget from the scheduling loop, expiry ticks
// and snapshots, legal or not; after every command the cache must agree with
// the model (accepted iff legal, node tree order, every NodeInfo with its
// pods in order, ghosts, pod states, the assumed set; each snapshot against
// a recomputation from the model); and the optimized cache's own state
// must equal a recomputation from its pods (every NodeInfo's running
// aggregates; each incremental snapshot against one built from scratch).
//
// A failure prints the shrunk command sequence as an event log and
// RC_PARAMS="reproduce=..." to rerun it (docs/fuzzing.md).
#include "gtest/gtest.h"
// After gtest.h: rapidcheck/gtest.h uses its macros.
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "optimized/backend/cache/cache_model_adapter.h"
#include "testing/models/cache_property.h"

namespace schedref::optimized::backend::cache {
namespace {

RC_GTEST_PROP(CacheModelTest, CacheAgreesWithModel, ()) {
  testing::models::CheckCacheAgainstModel(NewCacheUnderTest);
}

}  // namespace
}  // namespace schedref::optimized::backend::cache
