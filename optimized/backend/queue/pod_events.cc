#include "optimized/backend/queue/pod_events.h"

#include <string>

#include "api/types/resource.h"

namespace schedref::optimized::backend::queue {
namespace {

// Some resource of the old requests is gone or smaller in the new ones
// (upstream extractPodScaleDown over resource.PodRequests).
bool ScaledDown(const api::Pod& new_pod, const api::Pod& old_pod) {
  const api::ResourceList new_reqs = api::PodRequestList(new_pod);
  for (const auto& [name, old_value] : api::PodRequestList(old_pod)) {
    auto it = new_reqs.find(name);
    if (it == new_reqs.end() || old_value > it->second) return true;
  }
  return false;
}

}  // namespace

std::vector<framework::ClusterEvent> PodSchedulingPropertiesChange(
    const api::Pod& new_pod, const api::Pod& old_pod) {
  const char* prefix = new_pod.node_name.empty() ? "UnschedulablePod" : "AssignedPod";
  std::vector<framework::ClusterEvent> events;
  auto add = [&](framework::ActionType action, const char* name) {
    events.push_back({framework::EventResource::kPod, action, std::string(prefix) + name});
  };
  if (new_pod.labels != old_pod.labels) add(framework::kUpdatePodLabel, "UpdatePodLabel");
  if (ScaledDown(new_pod, old_pod)) add(framework::kUpdatePodScaleDown, "UpdatePodScaleDown");
  if (new_pod.scheduling_gates.empty() && !old_pod.scheduling_gates.empty()) {
    add(framework::kUpdatePodSchedulingGatesEliminated, "UpdatePodSchedulingGatesEliminated");
  }
  // The API only lets tolerations be added, so a length change is every
  // change.
  if (new_pod.tolerations.size() != old_pod.tolerations.size()) {
    add(framework::kUpdatePodTolerations, "UpdatePodTolerations");
  }
  if (events.empty()) add(framework::kUpdatePodOther, "UpdatePodOther");
  return events;
}

bool IsPodUpdated(const api::Pod& old_pod, const api::Pod& new_pod) {
  // Everything but the two status fields (one copy, not two).
  api::Pod a = old_pod;
  a.nominated_node_name = new_pod.nominated_node_name;
  a.start_time = new_pod.start_time;
  return !(a == new_pod);
}

}  // namespace schedref::optimized::backend::queue
