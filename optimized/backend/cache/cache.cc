#include "optimized/backend/cache/cache.h"

#include <algorithm>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "api/crash.h"

namespace schedref::optimized::backend::cache {
namespace {

// klog.KObj: "namespace/name", or "name" without a namespace.
std::string KObj(const api::Pod& pod) {
  return pod.ns.empty() ? pod.name : pod.ns + "/" + pod.name;
}

// Upstream's "%v(%v)" of the pod's cache key and klog.KObj(pod).
std::string Describe(const api::Pod& pod) { return pod.uid + "(" + KObj(pod) + ")"; }

// Upstream framework.GetPodKey: the UID, which must not be empty.
schedref::Status CheckKey(const api::Pod& pod) {
  if (pod.uid.empty()) {
    return schedref::Status::Invalid("cannot get cache key for pod with empty UID");
  }
  return schedref::Status::Ok();
}

}  // namespace

// --- NodeInfos and the most-recently-updated list ----------------------------

Cache::NodeItem& Cache::ItemFor(const std::string& name) {
  std::unique_ptr<NodeItem>& slot = nodes_[name];
  if (!slot) slot = NewItem();
  return *slot;
}

std::unique_ptr<Cache::NodeItem> Cache::NewItem() {
  auto item = std::make_unique<NodeItem>();
  item->info.cache_id = static_cast<int32_t>(items_by_id_.size());
  items_by_id_.push_back(item.get());
  return item;
}

Cache::NodeItem* Cache::ItemByHint(const framework::NodeInfo* hint, const std::string& name) {
  if (hint == nullptr || hint->cache_id < 0 ||
      static_cast<size_t>(hint->cache_id) >= items_by_id_.size()) {
    return nullptr;
  }
  NodeItem* item = items_by_id_[hint->cache_id];
  return item != nullptr && item->info.node() != nullptr && item->info.Name() == name ? item
                                                                                        : nullptr;
}

void Cache::Touch(NodeItem& item) {
  item.info.generation = ++generation_;
  if (head_ == &item) return;
  if (item.prev != nullptr) item.prev->next = item.next;
  if (item.next != nullptr) item.next->prev = item.prev;
  item.prev = nullptr;
  item.next = head_;
  if (head_ != nullptr) head_->prev = &item;
  head_ = &item;
}

void Cache::EraseItem(const std::string& name) {
  auto it = nodes_.find(name);
  if (it == nodes_.end()) return;
  NodeItem* item = it->second.get();
  items_by_id_[item->info.cache_id] = nullptr;  // ids are not reused
  if (item->prev != nullptr) item->prev->next = item->next;
  if (item->next != nullptr) item->next->prev = item->prev;
  if (head_ == item) head_ = item->next;
  nodes_.erase(it);
}

void Cache::SetNode(NodeItem& item, const api::Node& node) {
  item.info.SetNode(std::make_shared<const api::Node>(node));
  Touch(item);
  item.node_generation = generation_;
}

// --- pods ----------------------------------------------------------------------

void Cache::AddPodInternal(framework::PodInfoPtr pod, bool assumed, PodState* state,
                           const framework::NodeInfo* node_hint) {
  // A pod may arrive before its node: it gets a node-less NodeInfo.
  NodeItem* hinted = ItemByHint(node_hint, pod->node_name());
  NodeItem& item = hinted != nullptr ? *hinted : ItemFor(pod->node_name());
  item.info.AddPod(pod);
  Touch(item);
  if (state == nullptr) state = &pod_states_[pod->uid()];
  // (A fresh state: AssumePod's new one, or one RemovePodInternal erased.)
  if (assumed) ++num_assumed_;
  *state = PodState{std::move(pod), std::nullopt, false, assumed, &item};
}

schedref::Status Cache::RemovePodInternal(const api::Pod& p) {
  return RemovePodInternal(p.uid, p.node_name, p.name);
}

schedref::Status Cache::RemovePodInternal(const framework::PodInfo& p) {
  return RemovePodInternal(p.uid(), p.node_name(), p.pod.name);
}

schedref::Status Cache::RemovePodInternal(const std::string& pod_uid,
                                          const std::string& node_name,
                                          const std::string& pod_name) {
  // The arguments may be the cached pod's, which the pod's state keeps
  // alive: the state is erased last.
  auto node = nodes_.find(node_name);
  // Upstream logs "Node not found when trying to remove pod" and goes on.
  if (node != nodes_.end()) {
    NodeItem& item = *node->second;
    if (!item.info.RemovePod(pod_uid)) {
      return schedref::Status::NotFound(
          "no corresponding pod " + pod_name + " in pods of node " +
          (item.info.node() != nullptr ? item.info.Name() : std::string()));
    }
    Touch(item);
    if (item.info.pods().empty() && item.info.node() == nullptr) EraseItem(node_name);
  }
  auto state = pod_states_.find(pod_uid);
  if (state != pod_states_.end()) {
    if (state->second.assumed) --num_assumed_;
    pod_states_.erase(state);
  }
  return schedref::Status::Ok();
}

schedref::Status Cache::UpdatePodInternal(const api::Pod& old_pod,
                                          framework::PodInfoPtr new_pod) {
  SCHEDREF_RETURN_IF_ERROR(RemovePodInternal(old_pod));
  AddPodInternal(std::move(new_pod), /*assumed=*/false);
  return schedref::Status::Ok();
}

schedref::Status Cache::UpdatePodInternal(const framework::PodInfo& old_pod,
                                          framework::PodInfoPtr new_pod) {
  SCHEDREF_RETURN_IF_ERROR(RemovePodInternal(old_pod));
  AddPodInternal(std::move(new_pod), /*assumed=*/false);
  return schedref::Status::Ok();
}

schedref::Status Cache::AssumePod(const api::Pod& pod) {
  return AssumePod(framework::NewPodInfo(pod));
}

schedref::Status Cache::AssumePod(framework::PodInfoPtr pod,
                                  const framework::NodeInfo* node_hint) {
  SCHEDREF_RETURN_IF_ERROR(CheckKey(pod->pod));
  auto [state, inserted] = pod_states_.try_emplace(pod->uid());
  if (!inserted) {
    return schedref::Status::FailedPrecondition(
        "pod " + Describe(pod->pod) + " is in the cache, so can't be assumed");
  }
  AddPodInternal(std::move(pod), /*assumed=*/true, &state->second, node_hint);
  return schedref::Status::Ok();
}

schedref::Status Cache::FinishBinding(const api::Pod& pod, api::TimeMs now) {
  SCHEDREF_RETURN_IF_ERROR(CheckKey(pod));
  // Without a TTL nothing reads what this records (CleanupAssumedPods
  // returns at once; a state starts with no deadline): no lookup.
  if (options_.assumed_pod_ttl_ms == 0) return schedref::Status::Ok();
  auto state = pod_states_.find(pod.uid);
  if (state != pod_states_.end() && state->second.assumed) {
    state->second.deadline = now + options_.assumed_pod_ttl_ms;
    state->second.binding_finished = true;
  }
  return schedref::Status::Ok();
}

schedref::Status Cache::ForgetPod(const api::Pod& pod) {
  return ForgetPod(pod, pod.node_name);
}

schedref::Status Cache::ForgetPod(const framework::PodInfo& pod) {
  return ForgetPod(pod.pod, pod.node_name());
}

schedref::Status Cache::ForgetPod(const api::Pod& pod, const std::string& node_name) {
  SCHEDREF_RETURN_IF_ERROR(CheckKey(pod));
  auto state = pod_states_.find(pod.uid);
  if (state != pod_states_.end()) {
    const std::string& cached_node = state->second.pod->node_name();
    if (cached_node != node_name) {
      return schedref::Status::FailedPrecondition("pod " + Describe(pod) +
                                                  " was assumed on " + node_name +
                                                  " but assigned to " + cached_node);
    }
    // The cached object: on the node both name.
    if (state->second.assumed) return RemovePodInternal(*state->second.pod);
  }
  return schedref::Status::FailedPrecondition(
      "pod " + Describe(pod) + " wasn't assumed so cannot be forgotten");
}

schedref::Status Cache::AddPod(const api::Pod& pod) {
  return AddPod(framework::NewPodInfo(pod));
}

schedref::Status Cache::AddPod(framework::PodInfoPtr pod) {
  SCHEDREF_RETURN_IF_ERROR(CheckKey(pod->pod));
  auto state = pod_states_.find(pod->uid());
  if (state == pod_states_.end()) {
    // Never assumed, or expired.
    AddPodInternal(std::move(pod), /*assumed=*/false);
    return schedref::Status::Ok();
  }
  if (state->second.assumed) {
    if (state->second.pod == pod) {
      // The informer's object is the assumed one itself (the scheduler's
      // binding stored the assumed PodInfo). Upstream's remove-then-add of
      // the same pod leaves every aggregate as it was and moves the pod to
      // the end of each of its NodeInfo's lists: done here without the two
      // lookups by node name and the pod's state erased and re-inserted.
      NodeItem& item = *state->second.item;
      item.info.MoveToBack(*pod);
      Touch(item);
      state->second = PodState{std::move(pod), std::nullopt, false, false, &item};
      --num_assumed_;
      return schedref::Status::Ok();
    }
    // Confirmed: the informer's object replaces the assumed one, on the
    // node it was actually bound to.
    framework::PodInfoPtr assumed = state->second.pod;
    CheckOk(UpdatePodInternal(*assumed, std::move(pod)),
            "confirming an assumed pod");
    return schedref::Status::Ok();
  }
  return schedref::Status::FailedPrecondition("pod " + Describe(pod->pod) +
                                              " was already in added state");
}

schedref::Status Cache::CheckUpdate(const api::Pod& old_pod,
                                    const std::string& new_node) const {
  SCHEDREF_RETURN_IF_ERROR(CheckKey(old_pod));
  auto state = pod_states_.find(old_pod.uid);
  if (state == pod_states_.end()) {
    return schedref::Status::FailedPrecondition(
        "pod " + Describe(old_pod) + " is not added to scheduler cache, so cannot be updated");
  }
  // An assumed pod gets Add before any Update.
  if (state->second.assumed) {
    return schedref::Status::FailedPrecondition("assumed pod " + Describe(old_pod) +
                                                " should not be updated");
  }
  if (state->second.pod->node_name() != new_node) {
    // Note: upstream exits the process here (docs/deviations.md "Cache").
    return schedref::Status::FailedPrecondition(
        "pod " + Describe(old_pod) +
        " updated on a different node than previously added to: scheduler cache is "
        "corrupted");
  }
  return schedref::Status::Ok();
}

schedref::Status Cache::UpdatePod(const api::Pod& old_pod, const api::Pod& new_pod) {
  // The PodInfo is built only for an update that will be applied.
  SCHEDREF_RETURN_IF_ERROR(CheckUpdate(old_pod, new_pod.node_name));
  return UpdatePodInternal(old_pod, framework::NewPodInfo(new_pod));
}

schedref::Status Cache::UpdatePod(const api::Pod& old_pod, framework::PodInfoPtr new_pod) {
  SCHEDREF_RETURN_IF_ERROR(CheckUpdate(old_pod, new_pod->node_name()));
  return UpdatePodInternal(old_pod, std::move(new_pod));
}

schedref::Status Cache::RemovePod(const api::Pod& pod) {
  SCHEDREF_RETURN_IF_ERROR(CheckKey(pod));
  auto state = pod_states_.find(pod.uid);
  if (state == pod_states_.end()) {
    return schedref::Status::FailedPrecondition(
        "pod " + Describe(pod) +
        " is not found in scheduler cache, so cannot be removed from it");
  }
  const std::string& cached_node = state->second.pod->node_name();
  // An empty node name: a missed delete replayed from the informer's last
  // known state; the cached pod is removed.
  if (cached_node != pod.node_name && !pod.node_name.empty()) {
    // Note: upstream exits the process here (docs/deviations.md "Cache").
    return schedref::Status::FailedPrecondition("pod " + Describe(pod) + " was added to " +
                                                cached_node + " but removed from " +
                                                pod.node_name +
                                                ": scheduler cache is corrupted");
  }
  framework::PodInfoPtr cached = state->second.pod;  // outlives the state
  return RemovePodInternal(*cached);
}

bool Cache::IsAssumedPod(const api::Pod& pod) const {
  if (num_assumed_ == 0 || pod.uid.empty()) return false;
  auto state = pod_states_.find(pod.uid);
  return state != pod_states_.end() && state->second.assumed;
}

std::set<std::string> Cache::AssumedPodUids() const {
  std::set<std::string> uids;
  for (const auto& [uid, state] : pod_states_) {
    if (state.assumed) uids.emplace(uid);
  }
  return uids;
}

framework::PodInfoPtr Cache::GetPod(const api::Pod& pod) const {
  if (pod.uid.empty()) return nullptr;
  auto state = pod_states_.find(pod.uid);
  return state == pod_states_.end() ? nullptr : state->second.pod;
}

void Cache::CleanupAssumedPods(api::TimeMs now) {
  if (options_.assumed_pod_ttl_ms == 0) return;  // v1.32: never expires
  // Note: upstream ranges over a Go set; removal order changes the order of
  // the remaining pods on a node, so it is pinned to UID order
  // (docs/deviations.md "Cache").
  std::vector<framework::PodInfoPtr> expired;
  for (const auto& [uid, state] : pod_states_) {
    if (state.assumed && state.binding_finished && state.deadline.has_value() &&
        now > *state.deadline) {
      expired.push_back(state.pod);
    }
  }
  std::sort(expired.begin(), expired.end(),
            [](const framework::PodInfoPtr& a, const framework::PodInfoPtr& b) {
              return a->uid() < b->uid();
            });
  for (const framework::PodInfoPtr& pod : expired) {
    CheckOk(RemovePodInternal(*pod), "expiring an assumed pod");
  }
}

// --- nodes ---------------------------------------------------------------------

schedref::Status Cache::AddNode(const api::Node& node) {
  NodeItem& item = ItemFor(node.name);
  node_tree_.AddNode(node);
  SetNode(item, node);
  membership_generation_ = generation_;
  return schedref::Status::Ok();
}

schedref::Status Cache::UpdateNode(const api::Node& old_node, const api::Node& new_node) {
  auto it = nodes_.find(new_node.name);
  bool membership = false;
  if (it == nodes_.end()) {
    it = nodes_.emplace(new_node.name, NewItem()).first;
    node_tree_.AddNode(new_node);
    membership = true;
  }
  NodeItem& item = *it->second;
  // Only these can change the set or order of snapshot nodes: a revived
  // ghost (or node-less NodeInfo), and a zone change.
  if (item.info.node() == nullptr || GetZoneKey(old_node) != GetZoneKey(new_node)) {
    membership = true;
  }
  node_tree_.UpdateNode(old_node, new_node);
  SetNode(item, new_node);
  if (membership) membership_generation_ = generation_;
  return schedref::Status::Ok();
}

schedref::Status Cache::RemoveNode(const api::Node& node) {
  auto it = nodes_.find(node.name);
  if (it == nodes_.end()) {
    return schedref::Status::NotFound("node " + node.name + " is not found");
  }
  NodeItem& item = *it->second;
  item.info.RemoveNode();
  Touch(item);
  item.node_generation = generation_;
  membership_generation_ = generation_;
  // Pod deletions come on another watch and may arrive later: keep a ghost
  // until they do.
  if (item.info.pods().empty()) EraseItem(node.name);
  return node_tree_.RemoveNode(node);
}

// --- snapshots -----------------------------------------------------------------

Cache::SnapshotUpdate Cache::UpdateSnapshot(framework::Snapshot& snapshot) {
  SnapshotUpdate result;
  const int64_t since = snapshot.generation;
  auto copy_into = [&](NodeItem& item, framework::NodeInfo& dst) {
    const int32_t index = dst.index;
    dst = item.info;
    dst.index = index;  // Rebuild owns the index
    item.snapshot_copy = &dst;
    item.copy_stamp = snapshot.Stamp();
    ++result.nodes_copied;
    if (item.node_generation > since) result.nodes_changed = true;
  };
  auto copy = [&](NodeItem& item) { copy_into(item, snapshot.Mutable(item.info.Name())); };

  // 1. The set of snapshot nodes: recomputed only if a node operation may
  // have changed it: the tree's nodes that have a node object. A node
  // joining or leaving usually leaves a long common prefix of the old and
  // new lists (the tree appends within a zone), so only what follows it is
  // compared as sets.
  bool set_changed = false;
  std::vector<std::string> current;
  // Names in the new set that the snapshot lacks.
  std::unordered_set<std::string_view> entering;
  if (membership_generation_ > since) {
    for (std::string& name : node_tree_.List()) {
      auto it = nodes_.find(name);
      if (it != nodes_.end() && it->second->info.node() != nullptr) {
        current.push_back(std::move(name));
      }
    }
    const std::vector<framework::NodeInfo*>& previous = snapshot.List();
    size_t prefix = 0;
    while (prefix < current.size() && prefix < previous.size() &&
           previous[prefix]->Name() == current[prefix]) {
      ++prefix;
    }
    std::unordered_set<std::string_view> current_rest(current.begin() + prefix, current.end());
    std::unordered_set<std::string_view> previous_rest;
    for (size_t i = prefix; i < previous.size(); ++i) previous_rest.insert(previous[i]->Name());
    // The tree may list a name twice (added in two zones), so a name of one
    // rest may still be in the common prefix: the sets differ iff a name of
    // either rest is in neither the other rest nor the prefix.
    auto in_prefix = [&](std::string_view name) {
      return std::any_of(current.begin(), current.begin() + prefix,
                         [name](const std::string& n) { return n == name; });
    };
    std::vector<std::string> gone;
    for (std::string_view name : previous_rest) {
      if (current_rest.count(name) == 0 && !in_prefix(name)) gone.emplace_back(name);
    }
    for (std::string_view name : current_rest) {
      if (previous_rest.count(name) == 0 && !in_prefix(name)) entering.insert(name);
    }
    set_changed = !gone.empty() || !entering.empty();
    if (set_changed) {
      result.nodes_changed = true;
      for (const std::string& name : gone) snapshot.Erase(name);
      // Nodes entering the set are copied here, whatever their generation
      // (the walk below copies the others), and in tree order: their slots
      // in the snapshot then lie in roughly the order a filter scan visits.
      for (const std::string& name : current) {
        if (entering.count(name) != 0) copy(*nodes_.at(name));
      }
    }
  }

  // 2. Every NodeInfo changed since the snapshot and in the (new) set,
  // except those that entered it above. The list is sorted by generation,
  // newest first. A node in the set and not entering is in the snapshot.
  for (NodeItem* item = head_; item != nullptr && item->info.generation > since;
       item = item->next) {
    if (item->info.node() == nullptr) continue;  // ghosts are never listed
    const std::string& name = item->info.Name();
    if (!entering.empty() && entering.count(name) != 0) continue;
    framework::NodeInfo* dst = item->snapshot_copy != nullptr &&
                                       item->copy_stamp == snapshot.Stamp()
                                   ? &snapshot.MutableSlot(item->snapshot_copy)
                                   : snapshot.MutableIfPresent(name);
    if (dst != nullptr) copy_into(*item, *dst);
  }

  // 3. The lists. The order is the tree's iff the set changed, else the
  // snapshot's own.
  std::vector<std::string> order;
  if (set_changed) {
    order = std::move(current);
  } else if (result.nodes_changed) {
    order.reserve(snapshot.List().size());
    for (const framework::NodeInfo* info : snapshot.List()) order.push_back(info->Name());
  }
  snapshot.Rebuild(order, result.nodes_changed);
  snapshot.generation = generation_;
  return result;
}

// --- introspection ---------------------------------------------------------------

std::vector<std::string> Cache::GhostNodes() const {
  std::vector<std::string> names;
  for (const auto& [name, item] : nodes_) {
    if (item->info.node() == nullptr) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

const framework::NodeInfo* Cache::GetNodeInfo(const std::string& node_name) const {
  auto it = nodes_.find(node_name);
  return it == nodes_.end() ? nullptr : &it->second->info;
}

}  // namespace schedref::optimized::backend::cache
