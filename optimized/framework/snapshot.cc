#include "optimized/framework/snapshot.h"

#include <set>

namespace schedref::optimized::framework {

const NodeInfo* Snapshot::Get(const std::string& name) const {
  auto it = nodes_.find(name);
  return it == nodes_.end() ? nullptr : &it->second->info;
}

int Snapshot::NumNodesWithImage(const std::string& image) const {
  auto it = image_nodes_.find(image);
  return it == image_nodes_.end() ? 0 : it->second;
}

NodeInfo& Snapshot::Mutable(const std::string& name) {
  std::unique_ptr<AlignedNodeInfo>& slot = nodes_[name];
  if (!slot) slot = std::make_unique<AlignedNodeInfo>();
  NodeInfo& info = slot->info;
  touched_had_affinity_ = touched_had_affinity_ || !info.pods_with_affinity().empty() ||
                          !info.pods_with_required_anti_affinity().empty();
  touched_.push_back(&info);
  return info;
}

void Snapshot::Erase(const std::string& name) {
  auto it = nodes_.find(name);
  if (it == nodes_.end()) return;
  std::erase(touched_, &it->second->info);
  touched_had_affinity_ = true;  // conservatively: the lists drop it
  nodes_.erase(it);
}

bool Snapshot::ChangedSince(int64_t since, std::vector<int32_t>* positions) const {
  if (since < log_floor_ || since > rebuilds_) return false;
  for (auto it = log_.rbegin(); it != log_.rend() && it->first > since; ++it) {
    positions->push_back(it->second);
  }
  return true;
}

void Snapshot::Rebuild(const std::vector<std::string>& order, bool nodes_changed) {
  if (nodes_changed) {
    list_.clear();
    list_.reserve(order.size());
    image_nodes_.clear();
    for (const std::string& name : order) {
      NodeInfo* info = &nodes_.at(name)->info;
      info->index = static_cast<int32_t>(list_.size());
      list_.push_back(info);
      std::set<std::string> names;
      for (const api::ContainerImage& img : info->node()->images) {
        names.insert(img.names.begin(), img.names.end());
      }
      for (const std::string& n : names) ++image_nodes_[n];
    }
    const_list_.assign(list_.begin(), list_.end());
  }
  ++rebuilds_;
  if (nodes_changed) {
    log_.clear();
    log_floor_ = rebuilds_;
  } else {
    for (const NodeInfo* info : touched_) {
      if (info->index < 0) {  // not listed: cannot happen without nodes_changed
        log_.clear();
        log_floor_ = rebuilds_;
        break;
      }
      log_.emplace_back(rebuilds_, info->index);
    }
    while (log_.size() > kMaxLog) {
      log_floor_ = log_.front().first;
      log_.pop_front();
    }
  }
  bool affinity_changed = nodes_changed || touched_had_affinity_;
  if (!affinity_changed) {  // else touched_ may hold erased nodes
    for (const NodeInfo* info : touched_) {
      affinity_changed = affinity_changed || !info->pods_with_affinity().empty() ||
                         !info->pods_with_required_anti_affinity().empty();
    }
  }
  touched_.clear();
  touched_had_affinity_ = false;
  if (!affinity_changed) return;
  with_affinity_.clear();
  with_required_anti_affinity_.clear();
  for (NodeInfo* info : list_) {
    if (!info->pods_with_affinity().empty()) with_affinity_.push_back(info);
    if (!info->pods_with_required_anti_affinity().empty()) {
      with_required_anti_affinity_.push_back(info);
    }
  }
}

}  // namespace schedref::optimized::framework
