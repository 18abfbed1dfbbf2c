// Test fixtures for the optimized framework: NodeInfos, snapshots and a fake
// Handle built from api objects (which testing/st/wrappers.h builds).
// testonly.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_TESTING_FIXTURES_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_TESTING_FIXTURES_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/types/objects.h"
#include "optimized/framework/interface.h"
#include "testing/st/wrappers.h"

namespace schedref::optimized::framework::testing {

// A NodeInfo holding `node` and `pods` (added in order).
NodeInfo MakeNodeInfo(const api::Node& node, const std::vector<api::Pod>& pods = {});

// A snapshot of `nodes` (in that order) with each pod of `pods` placed on the
// node its spec.nodeName names (pods naming no listed node are ignored).
std::unique_ptr<Snapshot> MakeSnapshot(const std::vector<api::Node>& nodes,
                                       const std::vector<api::Pod>& pods = {});

// Publishes changes to a snapshot the way the cache does, for tests of what
// is refreshed incrementally from it: construction stamps every NodeInfo
// with its own generation; each Step edits one node, stamps it with the
// next generation and rebuilds the snapshot without a node-list change;
// AddNode and RemoveNode change the list.
class SnapshotStepper {
 public:
  // REQUIRES: `snapshot` outlives the stepper and nothing else changes it.
  explicit SnapshotStepper(Snapshot& snapshot);

  // Applies `edit` to the node named `node_name` (the edit may change
  // nothing; the node is republished either way).
  void Step(const std::string& node_name, const std::function<void(NodeInfo&)>& edit);
  // Node-list changes, as the cache publishes a node added (at the end of
  // the list, as the node tree appends within a zone) or deleted (wherever
  // it was). REQUIRES: AddNode's name is new; RemoveNode's is listed.
  void AddNode(const api::Node& node);
  void RemoveNode(const std::string& node_name);

 private:
  Snapshot& snapshot_;
  int64_t generation_ = 0;
};

// The random one-node change differential tests make, chosen by `kind` in
// [0, 5): 0 and 1 add make_pod(); 2 removes the pod at index
// pick(number of pods), if the node has any; 3 replaces the node object by
// a copy that relabel() edited; 4 changes nothing. The callbacks run only
// for the kind that needs them, so a caller's RNG is drawn only then.
void RandomNodeChange(NodeInfo& info, int kind, const std::function<api::Pod()>& make_pod,
                      const std::function<size_t(size_t)>& pick,
                      const std::function<void(api::Node&)>& relabel);

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
  const api::StorageObjects& StorageListers() const override { return storage; }
  int64_t StorageRevision() const override { return storage_revision; }
  const api::SelectorObjects& SelectorListers() const override { return selectors; }
  std::vector<PodInfoPtr> NominatedPodsForNode(const std::string& node) const override;
  std::vector<std::string> NominatedNodeNames() const override;
  schedref::Status BindPod(const api::Pod& pod, const std::string& node_name) override;
  PluginsRunner* RunnerFor(const api::Pod&) override { return runner; }
  std::optional<api::Pod> GetPod(const std::string& key) const override;
  Status PreemptVictim(const api::Pod& victim, const api::Pod&) override {
    preempted.push_back(victim.Key());
    return Status::Success();
  }
  void ClearNominatedNodeName(const api::Pod& pod) override {
    cleared_nominations.push_back(pod.Key());
  }
  uint64_t NextRandom() override { return next_random++; }
  Parallelizer& Parallel() override { return parallelizer; }

  api::TimeMs now = 0;
  // -1: untracked (tests change `storage` freely); a test that sets it
  // must change it with every change of `storage`.
  int64_t storage_revision = -1;
  std::map<std::string, api::Labels> namespaces;
  std::vector<api::PodDisruptionBudget> pdbs;
  api::StorageObjects storage;
  api::SelectorObjects selectors;
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
