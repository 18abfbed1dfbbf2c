#include "reference/backend/cache/cache_model_adapter.h"

#include <optional>
#include <string>
#include <vector>

#include "api/types/objects.h"
#include "reference/backend/cache/cache.h"
#include "reference/framework/node_info.h"
#include "reference/framework/snapshot.h"
#include "testing/models/cache_adapter.h"

namespace schedref::reference::cache {
namespace {

namespace models = testing::models;
using models::NodeInfoView;

NodeInfoView View(const framework::NodeInfo& info) {
  return NodeInfoView{info.node, info.pods};
}

// The reference's side of CacheAdapter (testing/models/cache_adapter.h):
// every snapshot is a fresh copy; nothing is kept beyond the cache.
class Reference {
 public:
  using Cache = cache::Cache;

  std::vector<NodeInfoView> UpdateSnapshot(Cache& cache) {
    const framework::Snapshot snapshot = cache.UpdateSnapshot();
    std::vector<NodeInfoView> out;
    for (const framework::NodeInfo& info : snapshot.List()) {
      out.push_back(View(info));
    }
    return out;
  }
  static std::optional<NodeInfoView> GetNodeInfo(const Cache& cache,
                                                 const std::string& name) {
    std::optional<framework::NodeInfo> info = cache.GetNodeInfo(name);
    if (!info.has_value()) return std::nullopt;
    return View(*info);
  }
  static std::optional<api::Pod> GetPod(const Cache& cache, const api::Pod& pod) {
    return cache.GetPod(pod);
  }
  std::optional<std::string> CheckOwnInvariants(const Cache&) const {
    return std::nullopt;
  }
};

}  // namespace

std::unique_ptr<models::CacheUnderTest> NewCacheUnderTest(
    const models::CacheModel::Config& config) {
  return std::make_unique<models::CacheAdapter<Reference>>(config);
}

}  // namespace schedref::reference::cache
