// CacheUnderTest: what CacheHarness (cache_harness.h) needs from a scheduler
// cache implementation, in api types only, so that one model and one command
// set drive every implementation. Each implementation has one adapter beside
// its cache (testonly): reference/backend/cache and optimized/backend/cache,
// cache_model_adapter.h. An adapter translates calls and results and
// nothing else: every decision is the cache's.
#ifndef SCHEDREF_TESTING_MODELS_CACHE_UNDER_TEST_H_
#define SCHEDREF_TESTING_MODELS_CACHE_UNDER_TEST_H_

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/status.h"
#include "api/types/objects.h"
#include "testing/models/cache_model.h"

namespace schedref::testing::models {

// A NodeInfo in api types: its node object (none for a ghost) and its pods
// in NodeInfo order.
struct NodeInfoView {
  std::optional<api::Node> node;
  std::vector<api::Pod> pods;
};

class CacheUnderTest {
 public:
  virtual ~CacheUnderTest() = default;

  // --- operations (Cache's, same names) ---
  virtual schedref::Status AddNode(const api::Node& node) = 0;
  virtual schedref::Status UpdateNode(const api::Node& old_node,
                                      const api::Node& new_node) = 0;
  virtual schedref::Status RemoveNode(const api::Node& node) = 0;
  virtual schedref::Status AssumePod(const api::Pod& pod) = 0;
  virtual schedref::Status FinishBinding(const api::Pod& pod, api::TimeMs now) = 0;
  virtual schedref::Status ForgetPod(const api::Pod& pod) = 0;
  virtual schedref::Status AddPod(const api::Pod& pod) = 0;
  virtual schedref::Status UpdatePod(const api::Pod& old_pod,
                                     const api::Pod& new_pod) = 0;
  virtual schedref::Status RemovePod(const api::Pod& pod) = 0;
  virtual void CleanupAssumedPods(api::TimeMs now) = 0;
  // Brings the adapter's one snapshot up to date (a fresh one, or the
  // incremental refresh of the previous one, as the implementation does it)
  // and lists it in order.
  virtual std::vector<NodeInfoView> UpdateSnapshot() = 0;

  // --- introspection ---
  virtual std::vector<std::string> NodeTreeOrder() const = 0;
  virtual std::vector<std::string> GhostNodes() const = 0;
  virtual std::optional<NodeInfoView> GetNodeInfo(const std::string& name) const = 0;
  virtual int NodeCount() const = 0;
  virtual int PodCount() const = 0;
  virtual std::set<std::string> AssumedPodUids() const = 0;
  virtual std::optional<api::Pod> GetPod(const api::Pod& pod) const = 0;
  virtual bool IsAssumedPod(const api::Pod& pod) const = 0;

  // What the implementation keeps beyond the model's state, checked against
  // a recomputation from its own pods and nodes after every operation (the
  // optimized cache: running aggregates, and the incremental snapshot
  // against one built from scratch). The first violation, or nullopt.
  virtual std::optional<std::string> CheckOwnInvariants() const {
    return std::nullopt;
  }
};

// Builds an implementation's cache configured as the model says.
using CacheFactory =
    std::function<std::unique_ptr<CacheUnderTest>(const CacheModel::Config&)>;

}  // namespace schedref::testing::models

#endif  // SCHEDREF_TESTING_MODELS_CACHE_UNDER_TEST_H_
