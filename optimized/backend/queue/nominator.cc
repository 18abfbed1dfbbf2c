#include "optimized/backend/queue/nominator.h"

#include <algorithm>

namespace schedref::optimized::backend::queue {

void Nominator::Add(const framework::PodInfoPtr& pod, const std::optional<NominatingInfo>& info,
                    const PodLister& lister) {
  // Never more than one entry per pod.
  Delete(pod->pod);

  const std::string* node_name = nullptr;
  if (info.has_value() && info->mode == NominatingInfo::kOverride) {
    node_name = &info->nominated_node_name;
  } else {
    if (pod->pod.nominated_node_name.empty()) return;
    node_name = &pod->pod.nominated_node_name;
  }

  if (lister) {
    std::optional<api::Pod> current = lister(pod->key);
    if (!current.has_value() || !current->node_name.empty()) return;
  }

  pod_to_node_[pod->uid()] = *node_name;
  std::vector<framework::PodInfoPtr>& pods = nominated_pods_[*node_name];
  for (const framework::PodInfoPtr& p : pods) {
    if (p->uid() == pod->uid()) return;
  }
  pods.push_back(pod);
  nodes_by_key_[pod->key].push_back(*node_name);
  NoteChanged(*node_name);
}

void Nominator::Update(const api::Pod& old_pod, const framework::PodInfoPtr& new_pod,
                       const PodLister& lister) {
  std::optional<NominatingInfo> info;
  // Neither object carries a nomination: keep the one held in memory.
  if (old_pod.nominated_node_name.empty() && new_pod->pod.nominated_node_name.empty()) {
    auto it = pod_to_node_.find(old_pod.uid);
    if (it != pod_to_node_.end()) info = NominatingInfo{NominatingInfo::kOverride, it->second};
  }
  Delete(old_pod);
  Add(new_pod, info, lister);
}

void Nominator::Delete(const api::Pod& pod) {
  if (pod_to_node_.empty()) return;  // the usual case: no hashing
  auto it = pod_to_node_.find(pod.uid);
  if (it == pod_to_node_.end()) return;
  NoteChanged(it->second);
  auto node = nominated_pods_.find(it->second);
  if (node != nominated_pods_.end()) {
    std::vector<framework::PodInfoPtr>& pods = node->second;
    auto p = std::find_if(pods.begin(), pods.end(), [&](const framework::PodInfoPtr& x) {
      return x->uid() == pod.uid;
    });
    if (p != pods.end()) {
      // The key's entry for this node goes with the pod.
      auto by_key = nodes_by_key_.find((*p)->key);
      if (by_key != nodes_by_key_.end()) {
        std::vector<std::string>& nodes = by_key->second;
        auto n = std::find(nodes.begin(), nodes.end(), it->second);
        if (n != nodes.end()) nodes.erase(n);
        if (nodes.empty()) nodes_by_key_.erase(by_key);
      }
      pods.erase(p);  // keeps the order of the others
    }
    if (pods.empty()) nominated_pods_.erase(node);
  }
  pod_to_node_.erase(it);
}

const std::vector<framework::PodInfoPtr>* Nominator::PodsForNode(
    const std::string& node_name) const {
  if (nominated_pods_.empty()) return nullptr;
  auto it = nominated_pods_.find(node_name);
  return it == nominated_pods_.end() ? nullptr : &it->second;
}

std::vector<std::string> Nominator::NodeNames() const {
  std::vector<std::string> names;
  names.reserve(nominated_pods_.size());
  for (const auto& [node, pods] : nominated_pods_) names.push_back(node);
  return names;
}

std::map<std::string, std::vector<std::string>> Nominator::PodKeysByNode() const {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& [node, pods] : nominated_pods_) {
    std::vector<std::string>& keys = out[node];
    for (const framework::PodInfoPtr& p : pods) keys.push_back(p->key);
  }
  return out;
}

std::optional<std::string> Nominator::NodeOf(const std::string& uid) const {
  auto it = pod_to_node_.find(uid);
  if (it == pod_to_node_.end()) return std::nullopt;
  return it->second;
}

void Nominator::NoteQueueEntryChanged(std::string_view pod_key) {
  if (nodes_by_key_.empty()) return;  // the usual case: no hashing
  auto it = nodes_by_key_.find(std::string(pod_key));
  if (it == nodes_by_key_.end()) return;
  for (const std::string& node : it->second) NoteChanged(node);
}

void Nominator::NoteChanged(const std::string& node_name) {
  if (changes_.all) return;
  if (changes_.nodes.size() == kMaxLoggedChanges) {
    changes_.all = true;
    changes_.nodes.clear();
    return;
  }
  changes_.nodes.push_back(node_name);
}

Nominator::Changes Nominator::TakeChanges() {
  Changes out = std::move(changes_);
  changes_ = Changes{};
  return out;
}

}  // namespace schedref::optimized::backend::queue
