// A framework::Handle for plugin tests: a snapshot, a fixed clock, a
// BindPod that records calls and fails for pods the test names, and
// recording stubs for the preemption hooks. Every knob is a public field.
// testonly.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_TESTING_FAKE_HANDLE_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_TESTING_FAKE_HANDLE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/interface.h"
#include "reference/framework/snapshot.h"

namespace schedref::reference::framework::st {

class FakeHandle : public Handle {
 public:
  FakeHandle() = default;
  explicit FakeHandle(Snapshot snapshot) : snapshot(std::move(snapshot)) {}

  const Snapshot& SnapshotSharedLister() const override { return snapshot; }
  api::TimeMs Now() const override { return now; }
  const std::map<std::string, api::Labels>& NamespaceLabels() const override {
    return namespace_labels;
  }
  const std::vector<api::PodDisruptionBudget>& PodDisruptionBudgets()
      const override {
    return pdbs;
  }
  const api::StorageObjects& StorageListers() const override { return storage; }
  const api::SelectorObjects& SelectorListers() const override { return selectors; }
  std::vector<api::Pod> NominatedPodsForNode(
      const std::string& node_name) const override {
    auto it = nominated.find(node_name);
    return it == nominated.end() ? std::vector<api::Pod>{} : it->second;
  }
  // Records (pod key, node); fails with `bind_error` for keys in
  // fail_binding.
  schedref::Status BindPod(const api::Pod& pod,
                           const std::string& node_name) override {
    bind_calls.emplace_back(pod.Key(), node_name);
    if (fail_binding.contains(pod.Key())) {
      return schedref::Status::FailedPrecondition(bind_error);
    }
    return schedref::Status::Ok();
  }

  // Preemption hooks: a test sets `runner`, `pods` (by key) and
  // `random_values`; victims and cleared nominations are recorded.
  PluginsRunner* RunnerFor(const api::Pod& /*pod*/) override { return runner; }
  std::optional<api::Pod> GetPod(const std::string& pod_key) const override {
    auto it = pods.find(pod_key);
    if (it == pods.end()) return std::nullopt;
    return it->second;
  }
  Status PreemptVictim(const api::Pod& victim,
                       const api::Pod& preemptor) override {
    preempted.emplace_back(victim.Key(), preemptor.Key());
    return Status::Success();
  }
  void ClearNominatedNodeName(const api::Pod& pod) override {
    cleared_nominations.push_back(pod.Key());
  }
  // Returns random_values in turn (0 once they run out).
  uint64_t NextRandom() override {
    if (next_random_ >= random_values.size()) return 0;
    return random_values[next_random_++];
  }

  void SetSnapshot(Snapshot s) { snapshot = std::move(s); }
  void SetNow(api::TimeMs t) { now = t; }

  // Test knobs and observations.
  Snapshot snapshot;
  api::TimeMs now = 0;
  std::set<std::string> fail_binding;
  std::string bind_error = "binding rejected";
  std::vector<std::pair<std::string, std::string>> bind_calls;
  std::map<std::string, api::Labels> namespace_labels;
  std::vector<api::PodDisruptionBudget> pdbs;
  api::StorageObjects storage;
  api::SelectorObjects selectors;
  PluginsRunner* runner = nullptr;
  std::map<std::string, api::Pod> pods;
  std::vector<uint64_t> random_values;
  // (victim key, preemptor key) per PreemptVictim call.
  std::vector<std::pair<std::string, std::string>> preempted;
  std::vector<std::string> cleared_nominations;
  // Pods nominated to each node, for NominatedPodsForNode.
  std::map<std::string, std::vector<api::Pod>> nominated;

 private:
  size_t next_random_ = 0;
};

}  // namespace schedref::reference::framework::st

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_TESTING_FAKE_HANDLE_H_
