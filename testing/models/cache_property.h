// The scheduler cache's stateful property: RapidCheck (rc::state) command
// sequences over the model of cache_model.h, run against any implementation
// through its CacheUnderTest adapter. Each implementation's cache_model_test
// calls it from an RC_GTEST_PROP. testonly.
//
// One command per operation (add / update / remove node, assume, finish
// binding, forget, add / update / remove pod, clean up assumed pods,
// snapshot); illegal transitions are generated on purpose: the cache must
// reject them and change nothing. checkPreconditions / apply / run / show
// come from one base, because the meaning of an operation lives in the model
// (shared with fuzz/cache_ops_fuzz.cc). show() prints one line of an event
// log; every command carries its absolute time, and the clock advances only
// through those times. Replaying a failure: docs/fuzzing.md.
#ifndef SCHEDREF_TESTING_MODELS_CACHE_PROPERTY_H_
#define SCHEDREF_TESTING_MODELS_CACHE_PROPERTY_H_

#include "testing/models/cache_under_test.h"

namespace schedref::testing::models {

// Generates a configuration and a command sequence, and fails the current
// RapidCheck property at the first command after which the cache `make`
// builds disagrees with the model (or breaks its own invariants).
// REQUIRES: called inside a property.
void CheckCacheAgainstModel(const CacheFactory& make);

}  // namespace schedref::testing::models

#endif  // SCHEDREF_TESTING_MODELS_CACHE_PROPERTY_H_
