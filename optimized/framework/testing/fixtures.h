// Test fixtures for the optimized framework: NodeInfos, snapshots and a fake
// Handle built from api objects (which testing/st/wrappers.h builds).
// testonly.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_TESTING_FIXTURES_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_TESTING_FIXTURES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/objects.h"
#include "optimized/framework/interface.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::testing {

// A NodeInfo holding `node` and `pods` (added in order).
NodeInfo MakeNodeInfo(const api::Node& node, const std::vector<api::Pod>& pods = {});

// A snapshot of `nodes` (in that order) with each pod of `pods` placed on the
// node its spec.nodeName names (pods naming no listed node are ignored).
std::unique_ptr<Snapshot> MakeSnapshot(const std::vector<api::Node>& nodes,
                                       const std::vector<api::Pod>& pods = {});

// A Handle over a snapshot; everything else is settable plain data.
class FakeHandle : public Handle {
 public:
  explicit FakeHandle(std::unique_ptr<Snapshot> snapshot = std::make_unique<Snapshot>())
      : snapshot_(std::move(snapshot)) {}

  const Snapshot& SnapshotSharedLister() const override { return *snapshot_; }
  void SetSnapshot(std::unique_ptr<Snapshot> s) { snapshot_ = std::move(s); }
  api::TimeMs Now() const override { return now; }
  const std::map<std::string, api::Labels>& NamespaceLabels() const override {
    return namespaces;
  }
  const std::vector<api::PodDisruptionBudget>& PodDisruptionBudgets() const override {
    return pdbs;
  }
  std::vector<PodInfoPtr> NominatedPodsForNode(const std::string& node) const override;
  schedref::Status BindPod(const api::Pod& pod, const std::string& node_name) override;
  PluginsRunner* RunnerFor(const api::Pod&) override { return runner; }
  std::optional<api::Pod> GetPod(const std::string& key) const override;
  void PreemptVictim(const api::Pod& victim, const api::Pod&) override {
    preempted.push_back(victim.Key());
  }
  void ClearNominatedNodeName(const api::Pod& pod) override {
    cleared_nominations.push_back(pod.Key());
  }
  uint64_t NextRandom() override { return next_random++; }
  Parallelizer& Parallel() override { return parallelizer; }

  api::TimeMs now = 0;
  std::map<std::string, api::Labels> namespaces;
  std::vector<api::PodDisruptionBudget> pdbs;
  // node name -> nominated pods, in nomination order.
  std::map<std::string, std::vector<api::Pod>> nominated;
  // pod key -> pod, for GetPod.
  std::map<std::string, api::Pod> pods;
  // Bind calls made, as "namespace/name -> node"; bind_error fails them.
  std::vector<std::string> binds;
  std::optional<std::string> bind_error;
  PluginsRunner* runner = nullptr;
  std::vector<std::string> preempted;
  std::vector<std::string> cleared_nominations;
  uint64_t next_random = 0;
  Parallelizer parallelizer{1};

 private:
  std::unique_ptr<Snapshot> snapshot_;
};

}  // namespace schedref::optimized::framework::testing

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_TESTING_FIXTURES_H_
