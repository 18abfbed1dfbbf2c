// CacheAdapter<Impl>: the CacheUnderTest (cache_under_test.h) of an
// implementation whose Cache has the shape the reference's and the
// optimized one's share: the same operations with the same api-object
// arguments and Status results, Options{assumed_pod_ttl_ms}, and the same
// introspection names. What differs between implementations comes from
// `Impl`, which may keep state of its own (the optimized cache's snapshot):
//
//   class Impl {
//    public:
//     using Cache = ...;
//     // Refreshes (or takes) the snapshot; lists it.
//     std::vector<NodeInfoView> UpdateSnapshot(Cache& cache);
//     static std::optional<NodeInfoView> GetNodeInfo(const Cache& cache,
//                                                    const std::string& name);
//     static std::optional<api::Pod> GetPod(const Cache& cache, const api::Pod& pod);
//     // CacheUnderTest::CheckOwnInvariants.
//     std::optional<std::string> CheckOwnInvariants(const Cache& cache) const;
//   };
//
// Header-only so that testing/models depends on no implementation; each
// implementation instantiates it in its cache_model_adapter.cc. testonly.
#ifndef SCHEDREF_TESTING_MODELS_CACHE_ADAPTER_H_
#define SCHEDREF_TESTING_MODELS_CACHE_ADAPTER_H_

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/status.h"
#include "api/types/objects.h"
#include "testing/models/cache_model.h"
#include "testing/models/cache_under_test.h"

namespace schedref::testing::models {

template <typename Impl>
class CacheAdapter final : public CacheUnderTest {
 public:
  using Cache = typename Impl::Cache;

  explicit CacheAdapter(const CacheModel::Config& config)
      : cache_(typename Cache::Options{config.assumed_pod_ttl_ms}) {}

  schedref::Status AddNode(const api::Node& node) override {
    return cache_.AddNode(node);
  }
  schedref::Status UpdateNode(const api::Node& old_node,
                              const api::Node& new_node) override {
    return cache_.UpdateNode(old_node, new_node);
  }
  schedref::Status RemoveNode(const api::Node& node) override {
    return cache_.RemoveNode(node);
  }
  schedref::Status AssumePod(const api::Pod& pod) override {
    return cache_.AssumePod(pod);
  }
  schedref::Status FinishBinding(const api::Pod& pod, api::TimeMs now) override {
    return cache_.FinishBinding(pod, now);
  }
  schedref::Status ForgetPod(const api::Pod& pod) override {
    return cache_.ForgetPod(pod);
  }
  schedref::Status AddPod(const api::Pod& pod) override {
    return cache_.AddPod(pod);
  }
  schedref::Status UpdatePod(const api::Pod& old_pod,
                             const api::Pod& new_pod) override {
    return cache_.UpdatePod(old_pod, new_pod);
  }
  schedref::Status RemovePod(const api::Pod& pod) override {
    return cache_.RemovePod(pod);
  }
  void CleanupAssumedPods(api::TimeMs now) override {
    cache_.CleanupAssumedPods(now);
  }
  std::vector<NodeInfoView> UpdateSnapshot() override {
    return impl_.UpdateSnapshot(cache_);
  }

  std::vector<std::string> NodeTreeOrder() const override {
    return cache_.NodeTreeOrder();
  }
  std::vector<std::string> GhostNodes() const override {
    return cache_.GhostNodes();
  }
  std::optional<NodeInfoView> GetNodeInfo(const std::string& name) const override {
    return Impl::GetNodeInfo(cache_, name);
  }
  int NodeCount() const override { return cache_.NodeCount(); }
  int PodCount() const override { return cache_.PodCount(); }
  std::set<std::string> AssumedPodUids() const override {
    return cache_.AssumedPodUids();
  }
  std::optional<api::Pod> GetPod(const api::Pod& pod) const override {
    return Impl::GetPod(cache_, pod);
  }
  bool IsAssumedPod(const api::Pod& pod) const override {
    return cache_.IsAssumedPod(pod);
  }
  std::optional<std::string> CheckOwnInvariants() const override {
    return impl_.CheckOwnInvariants(cache_);
  }

 private:
  Cache cache_;
  Impl impl_;
};

}  // namespace schedref::testing::models

#endif  // SCHEDREF_TESTING_MODELS_CACHE_ADAPTER_H_
