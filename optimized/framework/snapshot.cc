#include "optimized/framework/snapshot.h"

#include <algorithm>
#include <atomic>
#include <set>

namespace schedref::optimized::framework {

namespace {
// Snapshot ids, for SlotStamp; 0 means none.
std::atomic<uint64_t> next_snapshot_id{1};
}  // namespace

Snapshot::Snapshot() : id_(next_snapshot_id.fetch_add(1, std::memory_order_relaxed)) {}

const NodeInfo* Snapshot::Get(const std::string& name) const {
  auto it = nodes_.find(name);
  return it == nodes_.end() ? nullptr : &it->second->info;
}

int Snapshot::NumNodesWithImage(const std::string& image) const {
  auto it = image_nodes_.find(image);
  return it == image_nodes_.end() ? 0 : it->second;
}

Snapshot::AlignedNodeInfo* Snapshot::NewSlot() {
  if (!free_slots_.empty()) {
    AlignedNodeInfo* slot = free_slots_.back();
    free_slots_.pop_back();
    return slot;
  }
  if (used_in_last_slab_ == kSlab) {
    slabs_.push_back(std::make_unique<AlignedNodeInfo[]>(kSlab));
    used_in_last_slab_ = 0;
  }
  return &slabs_.back()[used_in_last_slab_++];
}

NodeInfo& Snapshot::Mutable(const std::string& name) {
  AlignedNodeInfo*& slot = nodes_[name];
  if (slot == nullptr) slot = NewSlot();
  return MutableSlot(&slot->info);
}

NodeInfo* Snapshot::MutableIfPresent(const std::string& name) {
  auto it = nodes_.find(name);
  if (it == nodes_.end()) return nullptr;
  return &MutableSlot(&it->second->info);
}

NodeInfo& Snapshot::MutableSlot(NodeInfo* info) {
  touched_.push_back({info, info->hot()});
  return *info;
}

void Snapshot::Erase(const std::string& name) {
  auto it = nodes_.find(name);
  if (it == nodes_.end()) return;
  std::erase_if(touched_, [&](const Touched& t) { return t.info == &it->second->info; });
  erased_ = true;
  ++erasures_;
  it->second->info = NodeInfo();
  free_slots_.push_back(it->second);
  nodes_.erase(it);
}

void Snapshot::SetMembership(std::vector<NodeInfo*>& list, NodeInfo* info, bool member) {
  auto it = std::lower_bound(list.begin(), list.end(), info->index,
                             [](const NodeInfo* a, int32_t index) { return a->index < index; });
  const bool present = it != list.end() && *it == info;
  if (member && !present) list.insert(it, info);
  if (!member && present) list.erase(it);
}

const std::vector<int32_t>& Snapshot::NameRanks() const {
  if (name_ranks_valid_) return name_ranks_;
  std::vector<int32_t> by_name(list_.size());
  for (size_t i = 0; i < by_name.size(); ++i) by_name[i] = static_cast<int32_t>(i);
  std::stable_sort(by_name.begin(), by_name.end(), [this](int32_t a, int32_t b) {
    return list_[a]->Name() < list_[b]->Name();
  });
  name_ranks_.resize(list_.size());
  for (size_t r = 0; r < by_name.size(); ++r) name_ranks_[by_name[r]] = static_cast<int32_t>(r);
  name_ranks_valid_ = true;
  return name_ranks_;
}

bool Snapshot::ChangedSince(int64_t since, std::vector<int32_t>* positions) const {
  if (since < log_floor_ || since > rebuilds_) return false;
  for (auto it = log_.rbegin(); it != log_.rend() && it->first > since; ++it) {
    positions->push_back(it->second);
  }
  return true;
}

void Snapshot::SummarizeBlock(size_t block) {
  HotSummary s;
  const size_t end = std::min(list_.size(), (block + 1) * kSummaryBlock);
  for (size_t i = block * kSummaryBlock; i < end; ++i) s.Add(list_[i]->hot());
  hot_summaries_[block] = s;
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
    name_ranks_valid_ = false;
  }
  // The image counts of the copies made since the last rebuild (the
  // others keep theirs, see NodeInfo::image_num_nodes).
  for (const Touched& t : touched_) {
    NodeInfo& info = *t.info;
    info.image_num_nodes.clear();
    if (!info.has_images()) continue;
    for (const api::ContainerImage& img : info.node()->images) {
      for (const std::string& name : img.names) {
        const bool seen = std::any_of(info.image_num_nodes.begin(), info.image_num_nodes.end(),
                                      [&](const auto& e) { return e.first == name; });
        if (!seen) info.image_num_nodes.emplace_back(name, NumNodesWithImage(name));
      }
    }
  }
  ++rebuilds_;
  if (nodes_changed) {
    log_.clear();
    log_floor_ = rebuilds_;
  } else {
    for (const auto& [info, before] : touched_) {
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
  // What a touched node changed is kept up to date by its position: the
  // Hot-line summary of its block and its membership of the affinity lists
  // (both in list order). Not after a list change or an erasure, while the
  // list names a node twice (a touched node's index then names one of its
  // positions), or for a touched node not at its index (cannot happen
  // without a list change): then everything is recomputed over the list.
  bool recompute = nodes_changed || erased_ || list_.size() != nodes_.size();
  for (size_t i = 0; i < touched_.size() && !recompute; ++i) {
    const NodeInfo* t = touched_[i].info;
    recompute = t->index < 0 || static_cast<size_t>(t->index) >= list_.size() ||
                list_[t->index] != t;
  }
  const size_t num_blocks = (list_.size() + kSummaryBlock - 1) / kSummaryBlock;
  // any_hot_flags_ is recomputed over every block only when a block may
  // have lost a flag; a block's Add below never changes its flags.
  bool flags_lost = false;
  if (recompute || hot_summaries_.size() != num_blocks) {
    hot_summaries_.resize(num_blocks);
    for (size_t b = 0; b < num_blocks; ++b) SummarizeBlock(b);
    flags_lost = true;
  } else {
    // A node whose Hot line only lost room (flags unchanged, every free
    // amount at most what it was when handed out) lowers its block's
    // minima to its own: the summary's Add. The first hand-out of a node
    // since the last rebuild carries the line the summary was built from,
    // so that entry decides; a later one's Add only repeats a value the
    // block holds. Any other change recomputes the block.
    for (const auto& [t, before] : touched_) {
      const NodeInfo::Hot& now = t->hot();
      const bool only_less_room =
          now.flags == before.flags &&
          now.allocatable_milli_cpu - now.requested_milli_cpu <=
              before.allocatable_milli_cpu - before.requested_milli_cpu &&
          now.allocatable_memory - now.requested_memory <=
              before.allocatable_memory - before.requested_memory &&
          now.allowed_pod_number - int64_t{now.num_pods} <=
              before.allowed_pod_number - int64_t{before.num_pods};
      const size_t block = static_cast<size_t>(t->index) / kSummaryBlock;
      if (only_less_room) {
        hot_summaries_[block].Add(now);
      } else {
        const uint32_t had = hot_summaries_[block].any_flags;
        SummarizeBlock(block);
        const uint32_t has = hot_summaries_[block].any_flags;
        flags_lost |= (had & ~has) != 0;
        any_hot_flags_ |= has;
      }
    }
  }
  if (flags_lost) {
    any_hot_flags_ = 0;
    for (const HotSummary& s : hot_summaries_) any_hot_flags_ |= s.any_flags;
  }
  if (!recompute) {
    for (const auto& [t, before] : touched_) {
      NodeInfo* info = list_[t->index];
      SetMembership(with_affinity_, info, !info->pods_with_affinity().empty());
      SetMembership(with_required_anti_affinity_, info,
                    !info->pods_with_required_anti_affinity().empty());
    }
  }
  touched_.clear();
  erased_ = false;
  if (!recompute) return;
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
