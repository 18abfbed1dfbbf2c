#include "reference/backend/cache/cache.h"

#include <utility>

#include "api/crash.h"

namespace schedref::reference::cache {
namespace {

// klog.KObj: "namespace/name", or "name" without a namespace.
std::string KObj(const api::Pod& pod) {
  return pod.ns.empty() ? pod.name : pod.ns + "/" + pod.name;
}

// Upstream's "%v(%v)" of the pod's cache key and klog.KObj(pod).
std::string Describe(const api::Pod& pod) {
  return pod.uid + "(" + KObj(pod) + ")";
}

// Upstream framework.GetPodKey: the UID, which must not be empty.
schedref::Status CheckKey(const api::Pod& pod) {
  if (pod.uid.empty()) {
    return schedref::Status::Invalid(
        "cannot get cache key for pod with empty UID");
  }
  return schedref::Status::Ok();
}

}  // namespace

// --- pods -------------------------------------------------------------------

void Cache::AddPodInternal(const api::Pod& pod, bool assumed) {
  // A pod may arrive before its node: it gets a node-less NodeInfo.
  nodes_[pod.node_name].AddPod(pod);
  changed_.insert(pod.node_name);
  pod_states_[pod.uid] = PodState{pod, std::nullopt, false};
  if (assumed) assumed_pods_.insert(pod.uid);
}

schedref::Status Cache::RemovePodInternal(const api::Pod& pod) {
  auto node = nodes_.find(pod.node_name);
  // Upstream logs "Node not found when trying to remove pod" and goes on.
  if (node != nodes_.end()) {
    changed_.insert(pod.node_name);
    framework::NodeInfo& info = node->second;
    if (!info.RemovePod(pod)) {
      return schedref::Status::NotFound(
          "no corresponding pod " + pod.name + " in pods of node " +
          (info.node.has_value() ? info.node->name : std::string()));
    }
    if (info.pods.empty() && !info.node.has_value()) nodes_.erase(node);
  }
  pod_states_.erase(pod.uid);
  assumed_pods_.erase(pod.uid);
  return schedref::Status::Ok();
}

schedref::Status Cache::UpdatePodInternal(const api::Pod& old_pod,
                                          const api::Pod& new_pod) {
  SCHEDREF_RETURN_IF_ERROR(RemovePodInternal(old_pod));
  AddPodInternal(new_pod, /*assumed=*/false);
  return schedref::Status::Ok();
}

schedref::Status Cache::AssumePod(const api::Pod& pod) {
  SCHEDREF_RETURN_IF_ERROR(CheckKey(pod));
  if (pod_states_.count(pod.uid) != 0) {
    return schedref::Status::FailedPrecondition(
        "pod " + Describe(pod) + " is in the cache, so can't be assumed");
  }
  AddPodInternal(pod, /*assumed=*/true);
  return schedref::Status::Ok();
}

schedref::Status Cache::FinishBinding(const api::Pod& pod, api::TimeMs now) {
  SCHEDREF_RETURN_IF_ERROR(CheckKey(pod));
  auto state = pod_states_.find(pod.uid);
  if (state != pod_states_.end() && assumed_pods_.count(pod.uid) != 0) {
    if (options_.assumed_pod_ttl_ms == 0) {
      state->second.deadline.reset();
    } else {
      state->second.deadline = now + options_.assumed_pod_ttl_ms;
    }
    state->second.binding_finished = true;
  }
  return schedref::Status::Ok();
}

schedref::Status Cache::ForgetPod(const api::Pod& pod) {
  SCHEDREF_RETURN_IF_ERROR(CheckKey(pod));
  auto state = pod_states_.find(pod.uid);
  if (state != pod_states_.end() &&
      state->second.pod.node_name != pod.node_name) {
    return schedref::Status::FailedPrecondition(
        "pod " + Describe(pod) + " was assumed on " + pod.node_name +
        " but assigned to " + state->second.pod.node_name);
  }
  if (state != pod_states_.end() && assumed_pods_.count(pod.uid) != 0) {
    return RemovePodInternal(pod);
  }
  return schedref::Status::FailedPrecondition(
      "pod " + Describe(pod) + " wasn't assumed so cannot be forgotten");
}

schedref::Status Cache::AddPod(const api::Pod& pod) {
  SCHEDREF_RETURN_IF_ERROR(CheckKey(pod));
  auto state = pod_states_.find(pod.uid);
  if (state != pod_states_.end() && assumed_pods_.count(pod.uid) != 0) {
    // Confirmed: the informer's object replaces the assumed one, on the node
    // it was actually bound to (upstream logs when that differs).
    api::Pod assumed = state->second.pod;
    // Upstream logs an error here and reports success; the assumed pod is
    // on its node, so there is none.
    CheckOk(UpdatePodInternal(assumed, pod), "confirming an assumed pod");
    return schedref::Status::Ok();
  }
  if (state == pod_states_.end()) {
    // Never assumed, or expired.
    AddPodInternal(pod, /*assumed=*/false);
    return schedref::Status::Ok();
  }
  return schedref::Status::FailedPrecondition("pod " + Describe(pod) +
                                              " was already in added state");
}

schedref::Status Cache::UpdatePod(const api::Pod& old_pod,
                                  const api::Pod& new_pod) {
  SCHEDREF_RETURN_IF_ERROR(CheckKey(old_pod));
  auto state = pod_states_.find(old_pod.uid);
  if (state == pod_states_.end()) {
    return schedref::Status::FailedPrecondition(
        "pod " + Describe(old_pod) +
        " is not added to scheduler cache, so cannot be updated");
  }
  // An assumed pod gets Add before any Update.
  if (assumed_pods_.count(old_pod.uid) != 0) {
    return schedref::Status::FailedPrecondition(
        "assumed pod " + Describe(old_pod) + " should not be updated");
  }
  if (state->second.pod.node_name != new_pod.node_name) {
    // Note: upstream exits the process here (docs/deviations.md).
    return schedref::Status::FailedPrecondition(
        "pod " + Describe(old_pod) +
        " updated on a different node than previously added to: scheduler "
        "cache is corrupted");
  }
  return UpdatePodInternal(old_pod, new_pod);
}

schedref::Status Cache::RemovePod(const api::Pod& pod) {
  SCHEDREF_RETURN_IF_ERROR(CheckKey(pod));
  auto state = pod_states_.find(pod.uid);
  if (state == pod_states_.end()) {
    return schedref::Status::FailedPrecondition(
        "pod " + Describe(pod) +
        " is not found in scheduler cache, so cannot be removed from it");
  }
  // An empty node name: a missed delete replayed from the informer's last
  // known state; the cached pod is removed.
  if (state->second.pod.node_name != pod.node_name && !pod.node_name.empty()) {
    // Note: upstream exits the process here (docs/deviations.md).
    return schedref::Status::FailedPrecondition(
        "pod " + Describe(pod) + " was added to " +
        state->second.pod.node_name + " but removed from " + pod.node_name +
        ": scheduler cache is corrupted");
  }
  api::Pod cached = state->second.pod;
  return RemovePodInternal(cached);
}

bool Cache::IsAssumedPod(const api::Pod& pod) const {
  return !pod.uid.empty() && assumed_pods_.count(pod.uid) != 0;
}

std::optional<api::Pod> Cache::GetPod(const api::Pod& pod) const {
  auto state = pod_states_.find(pod.uid);
  if (pod.uid.empty() || state == pod_states_.end()) return std::nullopt;
  return state->second.pod;
}

void Cache::CleanupAssumedPods(api::TimeMs now) {
  // Note: upstream ranges over a Go set; removal order changes the order of
  // the remaining pods on a node, so it is pinned to UID order.
  const std::set<std::string> assumed = assumed_pods_;
  for (const std::string& uid : assumed) {
    const PodState& state = pod_states_.at(uid);
    if (!state.binding_finished) continue;
    if (options_.assumed_pod_ttl_ms != 0 && state.deadline.has_value() &&
        now > *state.deadline) {
      api::Pod pod = state.pod;
      // Upstream logs "ExpirePod failed"; the assumed pod is on its node.
      CheckOk(RemovePodInternal(pod), "expiring an assumed pod");
    }
  }
}

// --- nodes ------------------------------------------------------------------

schedref::Status Cache::AddNode(const api::Node& node) {
  framework::NodeInfo& info = nodes_[node.name];
  node_tree_.AddNode(node);
  info.node = node;
  changed_.insert(node.name);
  return schedref::Status::Ok();
}

schedref::Status Cache::UpdateNode(const api::Node& old_node,
                                   const api::Node& new_node) {
  auto it = nodes_.find(new_node.name);
  if (it == nodes_.end()) {
    it = nodes_.emplace(new_node.name, framework::NodeInfo{}).first;
    node_tree_.AddNode(new_node);
  }
  node_tree_.UpdateNode(old_node, new_node);
  it->second.node = new_node;
  changed_.insert(new_node.name);
  return schedref::Status::Ok();
}

schedref::Status Cache::RemoveNode(const api::Node& node) {
  auto it = nodes_.find(node.name);
  if (it == nodes_.end()) {
    return schedref::Status::NotFound("node " + node.name + " is not found");
  }
  it->second.node.reset();
  changed_.insert(node.name);
  // Pod deletions come on another watch and may arrive later: keep a ghost
  // until they do.
  if (it->second.pods.empty()) nodes_.erase(it);
  return node_tree_.RemoveNode(node);
}

// --- snapshot
// -----------------------------------------------------------------

framework::Snapshot Cache::UpdateSnapshot() {
  std::vector<std::string> current;
  for (const std::string& name : node_tree_.List()) {
    auto it = nodes_.find(name);
    if (it != nodes_.end() && it->second.node.has_value()) {
      current.push_back(name);
    }
  }
  std::set<std::string> current_set(current.begin(), current.end());
  std::set<std::string> previous_set(snapshot_order_.begin(),
                                     snapshot_order_.end());
  // Note: upstream re-lists only when a node was added to or removed from
  // the snapshot; otherwise its list keeps the old order
  // (docs/deviations.md "Snapshot node order").
  if (current_set != previous_set) snapshot_order_ = std::move(current);

  std::vector<framework::NodeInfo> infos;
  infos.reserve(snapshot_order_.size());
  for (const std::string& name : snapshot_order_) {
    infos.push_back(nodes_.at(name));
  }
  // Image counts: taken now for nodes new to the snapshots or changed since
  // the last one, over the snapshot's nodes (every node that has a node
  // object); kept for the others (see the image rule in the header).
  framework::Snapshot::ImageCounts kept;
  for (const framework::NodeInfo& info : infos) {
    auto old = image_num_nodes_.find(info.Name());
    if (old != image_num_nodes_.end() && changed_.count(info.Name()) == 0) {
      kept.insert(*old);
      continue;
    }
    std::map<std::string, int>& counts = kept[info.Name()];
    for (const api::ContainerImage& image : info.node->images) {
      for (const std::string& name : image.names) {
        counts[name] = framework::CountNodesWithImage(infos, name);
      }
    }
  }
  image_num_nodes_ = kept;
  changed_.clear();
  return framework::Snapshot(std::move(infos), std::move(kept));
}

// --- introspection
// --------------------------------------------------------------

int Cache::PodCount() const {
  int count = 0;
  for (const auto& [name, info] : nodes_) {
    count += static_cast<int>(info.pods.size());
  }
  return count;
}

std::vector<std::string> Cache::GhostNodes() const {
  std::vector<std::string> names;
  for (const auto& [name, info] : nodes_) {
    if (!info.node.has_value()) names.push_back(name);
  }
  return names;
}

std::optional<framework::NodeInfo> Cache::GetNodeInfo(
    const std::string& node_name) const {
  auto it = nodes_.find(node_name);
  if (it == nodes_.end()) return std::nullopt;
  return it->second;
}

}  // namespace schedref::reference::cache
