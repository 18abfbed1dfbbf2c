// A framework::Handle for plugin tests: a snapshot, a fixed clock, and a
// BindPod that records calls and fails for pods the test names. testonly.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_TESTING_FAKE_HANDLE_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_TESTING_FAKE_HANDLE_H_

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "api/objects.h"
#include "api/status.h"
#include "reference/framework/interface.h"
#include "reference/framework/snapshot.h"

namespace schedref::reference::framework::st {

class FakeHandle : public Handle {
 public:
  FakeHandle() = default;
  explicit FakeHandle(Snapshot snapshot) : snapshot_(std::move(snapshot)) {}

  const Snapshot& SnapshotSharedLister() const override { return snapshot_; }
  api::TimeMs Now() const override { return now_; }
  const std::map<std::string, api::Labels>& NamespaceLabels() const override {
    return namespace_labels_;
  }
  const std::vector<api::PodDisruptionBudget>& PodDisruptionBudgets()
      const override {
    return pdbs_;
  }
  std::vector<api::Pod> NominatedPodsForNode(
      const std::string& node_name) const override {
    auto it = nominated_.find(node_name);
    return it == nominated_.end() ? std::vector<api::Pod>{} : it->second;
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

  void SetSnapshot(Snapshot snapshot) { snapshot_ = std::move(snapshot); }
  void SetNow(api::TimeMs now) { now_ = now; }

  // Test knobs and observations.
  std::set<std::string> fail_binding;
  std::string bind_error = "binding rejected";
  std::vector<std::pair<std::string, std::string>> bind_calls;

 private:
  Snapshot snapshot_;
  api::TimeMs now_ = 0;
  std::map<std::string, api::Labels> namespace_labels_;
  std::vector<api::PodDisruptionBudget> pdbs_;
  std::map<std::string, std::vector<api::Pod>> nominated_;
};

}  // namespace schedref::reference::framework::st

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_TESTING_FAKE_HANDLE_H_
