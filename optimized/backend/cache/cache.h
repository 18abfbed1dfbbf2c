// The scheduler cache of the optimized implementation: the nodes and the
// pods the scheduler believes run on them (bound, and assumed before the
// binding is confirmed), kept as NodeInfos with running aggregates, and the
// incremental refresh of a cycle's Snapshot. Specification: upstream
// pkg/scheduler/backend/cache/cache.go, interface.go, snapshot.go, v1.32
// (durationToExpireAssumedPod = 0); the executable specification is
// reference/backend/cache/cache.h, docs/semantics/cache.md and
// docs/deviations.md "Cache". Every accepted / rejected operation, message,
// pod order on a node and snapshot node order equals the reference's.
//
// Pod state machine (keyed by UID), as upstream's interface.go draws it:
//
//            Assume              Add
//   Initial ---------> Assumed ---------> Added <--+ Update
//      ^                 |  |               |  ----+
//      +-----------------+  |               | Remove
//           Forget          | Expire        v
//                           +-----------> (gone)
//
// Nodes: a node removed while pods are still on it stays as a "ghost" (a
// NodeInfo without a node) until its last pod goes; a pod whose node the
// cache has never seen creates such a node-less NodeInfo. Ghosts are never
// in a snapshot.
//
// Incremental snapshots (why this is equivalent to the reference's fresh
// copy): every mutation of a NodeInfo stamps it with the next value of a
// cache-wide generation counter and moves it to the head of a
// most-recently-updated list, so the list is sorted by generation.
// UpdateSnapshot copies the NodeInfos from the head down to the first one
// not newer than the snapshot's generation: exactly the ones that changed
// since the snapshot was last refreshed. The set of snapshot nodes (nodes
// in the node tree that have a node object) can change only through node
// operations, which also stamp `membership_generation_`; only when that is
// newer than the snapshot is the set recomputed (O(nodes)) and compared, and
// the node-tree order re-read iff the set differs (the reference's order
// rule). Snapshot::Rebuild is told nodes_changed iff the set, the order or
// some node object changed; otherwise only pods moved and it keeps its node
// list, indexes and image counts. cache_snapshot_test checks the result
// against a snapshot built from scratch after random operation sequences.
//
// Note: upstream exits the process (klog.Fatal) when an update or removal
// names a node other than the cached one; here, as in the reference, those
// return FailedPrecondition and change nothing (docs/deviations.md "Cache").
//
// Thread-safety: none; the scheduler's thread owns the cache. Snapshots it
// refreshes are read concurrently by Filter/Score only between refreshes.
#ifndef SCHEDREF_OPTIMIZED_BACKEND_CACHE_CACHE_H_
#define SCHEDREF_OPTIMIZED_BACKEND_CACHE_CACHE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/backend/cache/node_tree.h"
#include "optimized/framework/snapshot.h"
#include "optimized/framework/string_map.h"
#include "optimized/framework/types.h"

namespace schedref::optimized::backend::cache {

class Cache {
 public:
  struct Options {
    // How long after FinishBinding an assumed pod expires; 0 (upstream's
    // value since v1.23) means never. Non-zero only for upstream's expiry
    // tests.
    int64_t assumed_pod_ttl_ms = 0;
  };

  // What one UpdateSnapshot did (tests and benchmarks).
  struct SnapshotUpdate {
    // NodeInfos copied into the snapshot.
    int nodes_copied = 0;
    // Rebuild was told the node set, order or a node object changed.
    bool nodes_changed = false;
  };

  Cache() = default;
  explicit Cache(Options options) : options_(options) {}
  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;

  // --- pods ------------------------------------------------------------------
  // Every pod operation fails with Invalid("cannot get cache key for pod
  // with empty UID") for a pod without a UID. The other messages are
  // upstream's, with the pod named "<uid>(<namespace>/<name>)". A rejected
  // operation changes nothing. The overloads taking an api::Pod build its
  // PodInfo (framework::NewPodInfo); pass a PodInfoPtr to share one.

  // The scheduling cycle chose pod->pod.node_name: the pod is added to that
  // NodeInfo as assumed. Errors iff the UID is already cached ("pod %v(%v)
  // is in the cache, so can't be assumed").
  // `node_hint`: the snapshot's copy of the pod's node, if the caller has
  // it; it saves the lookup by name (a stale or wrong hint is ignored).
  schedref::Status AssumePod(framework::PodInfoPtr pod,
                             const framework::NodeInfo* node_hint = nullptr);
  schedref::Status AssumePod(const api::Pod& pod);
  // Records that the pod's binding finished at `now` (with a TTL, starts
  // it). No-op unless the pod is assumed. Fails only for an empty UID.
  schedref::Status FinishBinding(const api::Pod& pod, api::TimeMs now);
  // Undoes AssumePod. Errors iff the cached pod is on another node than
  // pod.node_name ("was assumed on %v but assigned to %v"), or is not cached
  // or not assumed ("wasn't assumed so cannot be forgotten").
  schedref::Status ForgetPod(const api::Pod& pod);
  // The same for `pod`'s pod with spec.nodeName = pod.node_name() (a
  // BoundPodInfo's).
  schedref::Status ForgetPod(const framework::PodInfo& pod);
  // The informer saw the pod bound. An assumed pod is confirmed: the new
  // object replaces it on the node it names (moved if that differs), and it
  // is no longer assumed. An unknown pod is added. Errors iff the pod is
  // already Added ("was already in added state").
  schedref::Status AddPod(framework::PodInfoPtr pod);
  schedref::Status AddPod(const api::Pod& pod);
  // Replaces an Added pod (removed, then appended to its NodeInfo). Errors if
  // unknown ("is not added to scheduler cache, so cannot be updated"),
  // assumed ("assumed pod %v(%v) should not be updated") or if new_pod names
  // another node than the cached one (upstream: fatal).
  schedref::Status UpdatePod(const api::Pod& old_pod, const api::Pod& new_pod);
  schedref::Status UpdatePod(const api::Pod& old_pod, framework::PodInfoPtr new_pod);
  // Removes the cached pod (assumed or added: upstream does not check).
  // Errors if unknown ("is not found in scheduler cache, so cannot be
  // removed from it") or if pod.node_name is non-empty and not the cached
  // node (upstream: fatal). An empty node name removes the cached pod.
  schedref::Status RemovePod(const api::Pod& pod);
  // True iff the pod's UID is cached and assumed (false for an empty UID).
  bool IsAssumedPod(const api::Pod& pod) const;
  // The cached pod with pod's UID (even on a ghost); nullptr iff none.
  framework::PodInfoPtr GetPod(const api::Pod& pod) const;

  // --- nodes -----------------------------------------------------------------

  // Adds or replaces the node (a ghost comes back to life) and adds it to
  // the node tree. Never fails.
  schedref::Status AddNode(const api::Node& node);
  // Replaces the node object, creating the NodeInfo (and adding new_node to
  // the tree) if unknown; the tree moves the node iff its zone key changed.
  // Never fails.
  schedref::Status UpdateNode(const api::Node& old_node, const api::Node& new_node);
  // Drops the node object; a NodeInfo that still holds pods stays as a
  // ghost. Errors with NotFound ("node %v is not found") iff no NodeInfo is
  // held, or with the node tree's NotFound iff the tree does not list the
  // node in the zone `node`'s labels name (the node object is dropped
  // anyway, as upstream).
  schedref::Status RemoveNode(const api::Node& node);

  // The 1 s timer: removes, in UID order, every assumed pod whose binding
  // finished and whose TTL deadline is strictly before `now`. No-op with
  // TTL 0 (the default).
  void CleanupAssumedPods(api::TimeMs now);

  // --- snapshots -------------------------------------------------------------

  // Brings `snapshot` up to date: afterwards it holds a copy of every
  // NodeInfo that is in the node tree and has a node object, with its pods
  // in NodeInfo order, listed in node-tree order, where the order is re-read
  // from the tree only when the set of nodes differs from the snapshot's
  // (otherwise the snapshot's order is kept; docs/deviations.md "Snapshot
  // node order"), and snapshot.generation is the cache's generation.
  // Copies only the NodeInfos changed since the snapshot's generation; a
  // snapshot never refreshed (generation 0) gets everything.
  // REQUIRES: the snapshot is refreshed only by this cache (its generation
  // is this cache's), and nothing reads it during the call.
  SnapshotUpdate UpdateSnapshot(framework::Snapshot& snapshot);

  // --- introspection (tests, invariants) -------------------------------------

  // NodeInfos held, ghosts and node-less ones included (upstream NodeCount).
  int NodeCount() const { return static_cast<int>(nodes_.size()); }
  // Pods held on any NodeInfo (upstream PodCount).
  int PodCount() const { return static_cast<int>(pod_states_.size()); }
  // The node tree's round-robin order now.
  std::vector<std::string> NodeTreeOrder() const { return node_tree_.List(); }
  const NodeTree& Tree() const { return node_tree_; }
  // Room for `pods` pods without rehashing (a capacity hint).
  void Reserve(size_t pods) { pod_states_.reserve(pods); }

  // UIDs of the assumed pods.
  std::set<std::string> AssumedPodUids() const;
  // Names of NodeInfos without a node object, sorted.
  std::vector<std::string> GhostNodes() const;
  // The NodeInfo held for `node_name` (ghost or not); nullptr iff none.
  const framework::NodeInfo* GetNodeInfo(const std::string& node_name) const;
  // The generation of the latest change.
  int64_t Generation() const { return generation_; }

 private:
  // A NodeInfo and its links in the most-recently-updated list.
  struct NodeItem {
    framework::NodeInfo info;
    // Generation at which the node object last changed (image counts and
    // the node list of a snapshot depend on it).
    int64_t node_generation = 0;
    NodeItem* prev = nullptr;  // newer
    NodeItem* next = nullptr;  // older
    // The snapshot's copy of this node as of the last UpdateSnapshot that
    // copied it, and that snapshot's stamp then: still the node's slot iff
    // the stamp is the snapshot's current one.
    framework::NodeInfo* snapshot_copy = nullptr;
    framework::Snapshot::SlotStamp copy_stamp;
  };

  struct PodState {
    framework::PodInfoPtr pod;
    // Set by FinishBinding when the TTL is non-zero.
    std::optional<api::TimeMs> deadline;
    bool binding_finished = false;
    // Upstream's assumedPods set, kept here: one lookup answers both.
    bool assumed = false;
    // The item whose NodeInfo holds the pod. Stable: an item is erased
    // only once its NodeInfo has no pods.
    NodeItem* item = nullptr;
  };

  // The NodeInfo for `name`, created (node-less) if absent.
  NodeItem& ItemFor(const std::string& name);
  // Stamps the item with a new generation and moves it to the list head.
  void Touch(NodeItem& item);
  // Unlinks and erases the item.
  void EraseItem(const std::string& name);
  // `state`: the pod's entry of pod_states_ when the caller has it;
  // `node_hint` as AssumePod's.
  void AddPodInternal(framework::PodInfoPtr pod, bool assumed, PodState* state = nullptr,
                      const framework::NodeInfo* node_hint = nullptr);
  // A new item, registered under the next id.
  std::unique_ptr<NodeItem> NewItem();
  // The item `hint` names (NodeInfo::cache_id) iff it is the live item of
  // the node `name`; else nullptr.
  NodeItem* ItemByHint(const framework::NodeInfo* hint, const std::string& name);
  // Removes the pod with pod.uid from NodeInfo pod.node_name (upstream
  // removePod); `pod` may be the cached object.
  schedref::Status RemovePodInternal(const api::Pod& pod);
  // The same for a PodInfo's pod, on its node_name() (the cached object's
  // when it is a BoundPodInfo).
  schedref::Status RemovePodInternal(const framework::PodInfo& pod);
  schedref::Status RemovePodInternal(const std::string& uid, const std::string& node_name,
                                     const std::string& pod_name);
  schedref::Status UpdatePodInternal(const api::Pod& old_pod, framework::PodInfoPtr new_pod);
  schedref::Status UpdatePodInternal(const framework::PodInfo& old_pod,
                                     framework::PodInfoPtr new_pod);
  // ForgetPod of `pod` with spec.nodeName = node_name.
  schedref::Status ForgetPod(const api::Pod& pod, const std::string& node_name);
  // UpdatePod's preconditions.
  schedref::Status CheckUpdate(const api::Pod& old_pod, const std::string& new_node) const;
  void SetNode(NodeItem& item, const api::Node& node);

  // --- constant after construction ---
  Options options_;

  // --- state ---
  // Node name -> NodeInfo (ghosts and node-less ones included).
  framework::StringMap<std::unique_ptr<NodeItem>> nodes_;
  // Most recently updated first; sorted by generation, descending.
  NodeItem* head_ = nullptr;
  // By NodeInfo::cache_id; nullptr once erased (ids are not reused).
  std::vector<NodeItem*> items_by_id_;
  // By UID: a view of the UID of the state's own PodInfo, which the state
  // keeps alive (a state's PodInfo is replaced only by the same object or
  // with a fresh state).
  framework::StringViewMap<PodState> pod_states_;
  // How many of pod_states_ are assumed: IsAssumedPod, asked once per
  // scheduling cycle, answers without a lookup when none is.
  size_t num_assumed_ = 0;
  NodeTree node_tree_;
  int64_t generation_ = 0;
  // Generation of the last operation that may have changed the set of
  // snapshot nodes (node added, removed, ghosted, revived, moved in the tree).
  int64_t membership_generation_ = 0;
};

}  // namespace schedref::optimized::backend::cache

#endif  // SCHEDREF_OPTIMIZED_BACKEND_CACHE_CACHE_H_
