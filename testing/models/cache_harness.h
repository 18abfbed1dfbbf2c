// CacheHarness: runs the model's operations on a real scheduler cache,
// through its CacheUnderTest adapter, and compares the cache with the model
// (cache_model.h) after every step. testonly; depends on no implementation.
#ifndef SCHEDREF_TESTING_MODELS_CACHE_HARNESS_H_
#define SCHEDREF_TESTING_MODELS_CACHE_HARNESS_H_

#include <memory>
#include <optional>
#include <string>

#include "testing/models/cache_model.h"
#include "testing/models/cache_under_test.h"

namespace schedref::testing::models {

class CacheHarness {
 public:
  // REQUIRES: cache != nullptr, configured as the model it is compared with.
  explicit CacheHarness(std::unique_ptr<CacheUnderTest> cache);
  CacheHarness(const CacheHarness&) = delete;
  CacheHarness& operator=(const CacheHarness&) = delete;

  // Runs `op` on the cache and compares it with the model after `op`: the
  // first disagreement, or nullopt. Also checks that the call succeeded iff
  // the model accepts it, that assumed pods left only through AddPod,
  // ForgetPod, RemovePod or expiry, (SnapshotOp) that the snapshot equals a
  // recomputation from the model, and the implementation's own invariants.
  // REQUIRES: IsValid(before, op) and the cache agreed with `before`.
  std::optional<std::string> RunAndCheck(const CacheModel& before,
                                         const CacheOp& op);
  // Compares the whole cache with `m`: node tree order, every NodeInfo
  // (ghosts included) with its pods in order, the pod states, the assumed
  // set, counts; and that every cached pod sits on exactly its node.
  std::optional<std::string> Check(const CacheModel& m) const;

 private:
  std::unique_ptr<CacheUnderTest> cache_;
};

}  // namespace schedref::testing::models

#endif  // SCHEDREF_TESTING_MODELS_CACHE_HARNESS_H_
