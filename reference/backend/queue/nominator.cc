#include "reference/backend/queue/nominator.h"

namespace schedref::reference::queue {

void Nominator::Add(const api::Pod& pod,
                    const std::optional<NominatingInfo>& info,
                    const PodLister& lister) {
  // Never more than one entry per pod.
  Delete(pod);

  std::string node_name;
  if (info.has_value() && info->mode == NominatingInfo::kOverride) {
    // Note: an override with "" files the pod under node "" exactly like
    // upstream; no node has that name, so it nominates nothing.
    node_name = info->nominated_node_name;
  } else {
    if (pod.nominated_node_name.empty()) return;
    node_name = pod.nominated_node_name;
  }

  if (lister) {
    std::optional<api::Pod> current = lister(pod.Key());
    if (!current.has_value() || !current->node_name.empty()) return;
  }

  pod_to_node_[pod.uid] = node_name;
  std::vector<api::Pod>& pods = nominated_pods_[node_name];
  for (const api::Pod& p : pods) {
    if (p.uid == pod.uid) return;
  }
  pods.push_back(pod);
}

void Nominator::Update(const api::Pod& old_pod, const api::Pod& new_pod,
                       const PodLister& lister) {
  std::optional<NominatingInfo> info;
  // Neither object carries a nomination: keep the one held in memory.
  if (old_pod.nominated_node_name.empty() &&
      new_pod.nominated_node_name.empty()) {
    auto it = pod_to_node_.find(old_pod.uid);
    if (it != pod_to_node_.end()) {
      info = NominatingInfo{NominatingInfo::kOverride, it->second};
    }
  }
  Delete(old_pod);
  Add(new_pod, info, lister);
}

void Nominator::Delete(const api::Pod& pod) {
  auto it = pod_to_node_.find(pod.uid);
  if (it == pod_to_node_.end()) return;
  auto node_it = nominated_pods_.find(it->second);
  if (node_it != nominated_pods_.end()) {
    std::vector<api::Pod>& pods = node_it->second;
    for (auto p = pods.begin(); p != pods.end(); ++p) {
      if (p->uid == pod.uid) {
        pods.erase(p);  // keeps the order of the others
        break;
      }
    }
    if (pods.empty()) nominated_pods_.erase(node_it);
  }
  pod_to_node_.erase(it);
}

std::vector<api::Pod> Nominator::PodsForNode(
    const std::string& node_name) const {
  auto it = nominated_pods_.find(node_name);
  if (it == nominated_pods_.end()) return {};
  return it->second;
}

std::map<std::string, std::vector<std::string>> Nominator::PodKeysByNode()
    const {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& [node, pods] : nominated_pods_) {
    for (const api::Pod& p : pods) out[node].push_back(p.Key());
  }
  return out;
}

std::optional<std::string> Nominator::NodeOf(const std::string& uid) const {
  auto it = pod_to_node_.find(uid);
  if (it == pod_to_node_.end()) return std::nullopt;
  return it->second;
}

}  // namespace schedref::reference::queue
