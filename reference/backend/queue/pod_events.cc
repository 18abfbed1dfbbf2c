#include "reference/backend/queue/pod_events.h"

#include <algorithm>
#include <string>

namespace schedref::reference::queue {
namespace {

void AddTo(api::ResourceList& sum, const api::ResourceList& add) {
  for (const auto& [name, value] : add) sum[name] += value;
}

void MaxInto(api::ResourceList& into, const api::ResourceList& other) {
  for (const auto& [name, value] : other) {
    auto it = into.find(name);
    if (it == into.end()) {
      into[name] = value;
    } else {
      it->second = std::max(it->second, value);
    }
  }
}

// Upstream component-helpers resource.PodRequests: regular containers
// summed; sidecars (restartable init containers) add to them; every init
// container runs alongside the sidecars started before it; the pod needs the
// larger of the two; then the overhead.
api::ResourceList PodRequests(const api::Pod& pod) {
  api::ResourceList reqs;
  for (const api::Container& c : pod.containers) AddTo(reqs, c.requests);
  api::ResourceList sidecars;
  api::ResourceList init_max;
  for (const api::Container& c : pod.init_containers) {
    api::ResourceList container_reqs = c.requests;
    if (c.restart_policy == "Always") {
      AddTo(reqs, c.requests);
      AddTo(sidecars, c.requests);
      container_reqs = sidecars;
    } else {
      AddTo(container_reqs, sidecars);
    }
    MaxInto(init_max, container_reqs);
  }
  MaxInto(reqs, init_max);
  AddTo(reqs, pod.overhead);
  return reqs;
}

bool ScaledDown(const api::Pod& new_pod, const api::Pod& old_pod) {
  api::ResourceList new_reqs = PodRequests(new_pod);
  for (const auto& [name, old_value] : PodRequests(old_pod)) {
    auto it = new_reqs.find(name);
    if (it == new_reqs.end() || old_value > it->second) return true;
  }
  return false;
}

}  // namespace

std::vector<framework::ClusterEvent> PodSchedulingPropertiesChange(
    const api::Pod& new_pod, const api::Pod& old_pod) {
  const std::string resource =
      new_pod.node_name.empty() ? "UnschedulablePod" : "AssignedPod";
  std::vector<framework::ClusterEvent> events;
  auto add = [&](framework::ActionType action, const char* name) {
    events.push_back({framework::EventResource::kPod, action, resource + name});
  };
  if (new_pod.labels != old_pod.labels) {
    add(framework::kUpdatePodLabel, "UpdatePodLabel");
  }
  if (ScaledDown(new_pod, old_pod)) {
    add(framework::kUpdatePodScaleDown, "UpdatePodScaleDown");
  }
  if (new_pod.scheduling_gates.empty() && !old_pod.scheduling_gates.empty()) {
    add(framework::kUpdatePodSchedulingGatesEliminated,
        "UpdatePodSchedulingGatesEliminated");
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
  auto strip = [](api::Pod pod) {
    pod.nominated_node_name.clear();
    pod.start_time.reset();
    return pod;
  };
  return strip(old_pod) != strip(new_pod);
}

}  // namespace schedref::reference::queue
