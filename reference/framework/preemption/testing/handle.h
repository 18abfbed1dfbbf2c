// A framework::Handle for the tests of the inter-pod plugins and preemption:
// a snapshot built from pods and nodes (upstream cache.NewSnapshot), a
// fixed clock, namespace labels, PDBs, nominated pods, and recorders for
// what preemption does through the handle. testonly.
//
// Unlike st::FakeHandle it implements every Handle method, so it can be
// instantiated; RunnerFor returns the runner the test installed.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PREEMPTION_TESTING_HANDLE_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PREEMPTION_TESTING_HANDLE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/objects.h"
#include "api/status.h"
#include "reference/framework/interface.h"
#include "reference/framework/node_info.h"
#include "reference/framework/snapshot.h"

namespace schedref::reference::framework::preemption::testing {

// Upstream cache.NewSnapshot(pods, nodes): one NodeInfo per node, in the
// given order, holding the pods whose spec.nodeName names it (in the given
// order). Pods on unknown nodes are dropped.
inline Snapshot MakeSnapshot(const std::vector<api::Pod>& pods,
                             const std::vector<api::Node>& nodes) {
  std::vector<NodeInfo> infos;
  for (const api::Node& node : nodes) {
    NodeInfo info;
    info.node = node;
    for (const api::Pod& pod : pods) {
      if (pod.node_name == node.name) info.AddPod(pod);
    }
    infos.push_back(std::move(info));
  }
  return Snapshot(std::move(infos));
}

class TestHandle : public Handle {
 public:
  TestHandle() = default;
  explicit TestHandle(Snapshot snapshot) : snapshot(std::move(snapshot)) {}

  const Snapshot& SnapshotSharedLister() const override { return snapshot; }
  api::TimeMs Now() const override { return now; }
  const std::map<std::string, api::Labels>& NamespaceLabels() const override {
    return namespace_labels;
  }
  const std::vector<api::PodDisruptionBudget>& PodDisruptionBudgets()
      const override {
    return pdbs;
  }
  std::vector<api::Pod> NominatedPodsForNode(
      const std::string& node_name) const override {
    auto it = nominated.find(node_name);
    return it == nominated.end() ? std::vector<api::Pod>{} : it->second;
  }
  schedref::Status BindPod(const api::Pod& /*pod*/,
                           const std::string& /*node_name*/) override {
    return schedref::Status::Ok();
  }
  PluginsRunner* RunnerFor(const api::Pod& /*pod*/) override { return runner; }
  std::optional<api::Pod> GetPod(const std::string& pod_key) const override {
    auto it = pods.find(pod_key);
    if (it == pods.end()) return std::nullopt;
    return it->second;
  }
  void PreemptVictim(const api::Pod& victim,
                     const api::Pod& preemptor) override {
    preempted.emplace_back(victim.Key(), preemptor.Key());
  }
  void ClearNominatedNodeName(const api::Pod& pod) override {
    cleared_nominations.push_back(pod.Key());
  }
  uint64_t NextRandom() override {
    return random_values.empty() ? 0 : random_values[next_random++ %
                                                     random_values.size()];
  }

  // Test knobs.
  Snapshot snapshot;
  api::TimeMs now = 0;
  std::map<std::string, api::Labels> namespace_labels;
  std::vector<api::PodDisruptionBudget> pdbs;
  std::map<std::string, std::vector<api::Pod>> nominated;
  // "namespace/name" -> the pod as the API server holds it (GetPod).
  std::map<std::string, api::Pod> pods;
  PluginsRunner* runner = nullptr;
  // NextRandom cycles through these (0 when empty).
  std::vector<uint64_t> random_values;
  size_t next_random = 0;

  // Observations: (victim key, preemptor key) and cleared pod keys, in
  // call order.
  std::vector<std::pair<std::string, std::string>> preempted;
  std::vector<std::string> cleared_nominations;
};

}  // namespace schedref::reference::framework::preemption::testing

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PREEMPTION_TESTING_HANDLE_H_
