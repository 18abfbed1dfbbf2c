#include "optimized/backend/cache/cache_model_adapter.h"

#include <optional>
#include <string>
#include <vector>

#include "api/types/objects.h"
#include "optimized/backend/cache/cache.h"
#include "optimized/backend/cache/cache_invariants.h"
#include "optimized/framework/snapshot.h"
#include "optimized/framework/types.h"
#include "testing/models/cache_adapter.h"

namespace schedref::optimized::backend::cache {
namespace {

namespace models = testing::models;
using models::NodeInfoView;

NodeInfoView View(const framework::NodeInfo& info) {
  NodeInfoView view;
  if (info.node() != nullptr) view.node = *info.node();
  for (const framework::PodInfoPtr& p : info.pods()) view.pods.push_back(p->pod);
  return view;
}

// What the fixture's objects use (testing/models/cache_model.h).
Probes ModelProbes() {
  Probes probes;
  probes.host_ports = {8080, 9090};
  probes.images = {"img-a", "img-b"};
  probes.node_names = models::ModelNodeNames();
  return probes;
}

// The optimized cache's side of CacheAdapter (testing/models/cache_adapter.h).
// Its API differs from the reference's in types only: pods come back as
// shared PodInfos, NodeInfos by pointer, and one Snapshot object is
// refreshed in place (where the reference returns a fresh copy), which is
// what this keeps.
class Optimized {
 public:
  using Cache = cache::Cache;

  std::vector<NodeInfoView> UpdateSnapshot(Cache& cache) {
    (void)cache.UpdateSnapshot(snapshot_);
    snapshot_mismatch_ = CheckSnapshots(cache);
    std::vector<NodeInfoView> out;
    for (const framework::NodeInfo* info : snapshot_.List()) {
      out.push_back(View(*info));
    }
    return out;
  }
  static std::optional<NodeInfoView> GetNodeInfo(const Cache& cache,
                                                 const std::string& name) {
    const framework::NodeInfo* info = cache.GetNodeInfo(name);
    if (info == nullptr) return std::nullopt;
    return View(*info);
  }
  static std::optional<api::Pod> GetPod(const Cache& cache, const api::Pod& pod) {
    framework::PodInfoPtr cached = cache.GetPod(pod);
    if (cached == nullptr) return std::nullopt;
    return cached->pod;
  }
  // Every NodeInfo's aggregates, after every operation; what the last
  // refresh found.
  std::optional<std::string> CheckOwnInvariants(const Cache& cache) const {
    for (const std::string& name : models::ModelNodeNames()) {
      if (const framework::NodeInfo* info = cache.GetNodeInfo(name)) {
        if (auto e = AggregatesMismatch(*info, probes_)) return e;
      }
    }
    return snapshot_mismatch_;
  }

 private:
  // Right after a refresh: the incremental snapshot equals one built from
  // scratch in its own order (which the harness compares with the model's),
  // at the cache's generation; a snapshot never refreshed, refreshed once,
  // equals one built from scratch in the node tree's order now. (Another
  // snapshot only reads the cache: several may be refreshed by it.)
  std::optional<std::string> CheckSnapshots(Cache& cache) const {
    if (snapshot_.generation != cache.Generation()) {
      return "snapshot generation " + std::to_string(snapshot_.generation) +
             ", cache generation " + std::to_string(cache.Generation());
    }
    std::vector<std::string> order;
    for (const framework::NodeInfo* info : snapshot_.List()) {
      order.push_back(info->Name());
    }
    if (auto e = SnapshotMismatch(snapshot_, *SnapshotFromScratch(cache, order),
                                  probes_)) {
      return "incremental " + *e;
    }
    framework::Snapshot fresh;
    (void)cache.UpdateSnapshot(fresh);
    if (auto e = SnapshotMismatch(
            fresh, *SnapshotFromScratch(cache, SnapshotNodesNow(cache)), probes_)) {
      return "fresh " + *e;
    }
    return std::nullopt;
  }

  // --- constant after construction ---
  const Probes probes_ = ModelProbes();
  // Refreshed by every UpdateSnapshot, never rebuilt.
  framework::Snapshot snapshot_;
  // What CheckSnapshots found at the last refresh.
  std::optional<std::string> snapshot_mismatch_;
};

}  // namespace

std::unique_ptr<models::CacheUnderTest> NewCacheUnderTest(
    const models::CacheModel::Config& config) {
  return std::make_unique<models::CacheAdapter<Optimized>>(config);
}

}  // namespace schedref::optimized::backend::cache
