// The scheduler cache: the nodes and the pods the scheduler believes run on
// them, including pods it has assumed onto a node before the binding is
// confirmed. Each scheduling cycle works on a Snapshot taken from it.
// Specification: upstream pkg/scheduler/backend/cache/cache.go, interface.go
// and snapshot.go, v1.32 (durationToExpireAssumedPod = 0 in scheduler.go).
// Read at (newer than v1.32, TTL removed):
//   kubernetes@037891575693e3b8446e9ec2767fcb33ed46c511 backend/cache
// and (older, TTL without the TTL-0 rule):
//   kubernetes@007f7ae7dc217d27dad994dce003cfe1c5bc6706 internal/cache;
// the v1.32 rules are the ones both share, plus v1.32's TTL-0 rule, which
// upstream's TestExpirePod ("assumed pod would never expire") pins.
// node_tree.go: kubernetes@8519d3399f10be33a45da368a48ee763acbe3999.
//
// Pod state machine (keyed by UID):
//
//   +-------------------------------------------+  +----+
//   |                            Add            |  |    |
//   |                                           |  |    | Update
//   +      Assume                Add            v  v    |
// Initial +--------> Assumed +------------+---> Added <--+
//   ^                +   +               |       +
//   |                |   |               |       |
//   |                |   |           Add |       | Remove
//   |                |   |               |       |
//   |                |   |               +       |
//   +----------------+   +-----------> Expired   +----> Deleted
//         Forget             Expire
//
// - Assume: the scheduling cycle chose a node (pod.node_name set).
// - Forget: the binding cycle failed; only an assumed pod can be forgotten.
// - Add: the informer saw the pod bound; an assumed pod is confirmed (moved
//   if it was bound elsewhere), an unknown one (e.g. expired) added.
// - Update / Remove: informer events of a bound pod; only Added pods (Update
//   checks it; Remove, like upstream's, does not, and removes an assumed pod
//   too).
// - Expire: an assumed pod whose binding finished more than the TTL ago.
//   Upstream runs the scheduler with TTL 0, which disables expiry: an
//   assumed pod leaves only through Add or Forget (or Remove). FinishBinding
//   still records that the binding finished.
//
// Nodes: AddNode / UpdateNode / RemoveNode. A node removed while pods are
// still on it stays as a "ghost" (a NodeInfo without a node) until the last
// pod is removed; ghosts are never in a snapshot. A pod whose node the cache
// has never seen creates such a node-less NodeInfo too.
//
// Upstream corrupts-and-exits (klog.Fatal) when an update or removal names a
// node other than the cached one; here those return FailedPrecondition and
// leave the cache unchanged (docs/deviations.md).
//
// Single-threaded; no background goroutine: the owner calls
// CleanupAssumedPods on its 1 s timer if it wants expiry.
#ifndef SCHEDREF_REFERENCE_BACKEND_CACHE_CACHE_H_
#define SCHEDREF_REFERENCE_BACKEND_CACHE_CACHE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/backend/cache/node_tree.h"
#include "reference/framework/node_info.h"
#include "reference/framework/snapshot.h"

namespace schedref::reference::cache {

class Cache {
 public:
  struct Options {
    // How long after FinishBinding an assumed pod expires; 0 (upstream's
    // value since v1.23) means never. Non-zero only for upstream's expiry
    // tests.
    int64_t assumed_pod_ttl_ms = 0;
  };

  Cache() = default;
  explicit Cache(Options options) : options_(options) {}

  // Every pod operation fails with Invalid("cannot get cache key for pod
  // with empty UID") for a pod without a UID. Other messages are upstream's,
  // with the pod named "<uid>(<namespace>/<name>)".

  // Adds the pod to node pod.node_name as assumed. Errors iff the UID is
  // already cached ("pod %v(%v) is in the cache, so can't be assumed").
  schedref::Status AssumePod(const api::Pod& pod);
  // Records that the pod's binding finished at `now` (starts its TTL). No-op
  // unless the pod is assumed.
  schedref::Status FinishBinding(const api::Pod& pod, api::TimeMs now);
  // Undoes AssumePod. Errors if the cached pod is on another node ("was
  // assumed on %v but assigned to %v") or is not assumed ("wasn't assumed so
  // cannot be forgotten").
  schedref::Status ForgetPod(const api::Pod& pod);
  // The informer saw a bound pod: confirms an assumed pod (replacing the
  // cached object, on pod's node), adds an unknown one. Errors iff the pod
  // is already Added ("was already in added state").
  schedref::Status AddPod(const api::Pod& pod);
  // Replaces an Added pod. Errors if unknown ("is not added to scheduler
  // cache, so cannot be updated"), assumed ("assumed pod %v(%v) should not
  // be updated"), or if new_pod is on another node (upstream: fatal).
  schedref::Status UpdatePod(const api::Pod& old_pod, const api::Pod& new_pod);
  // Removes the cached pod. Errors if unknown ("is not found in scheduler
  // cache, so cannot be removed from it") or if pod names another non-empty
  // node (upstream: fatal). An empty node name removes the cached pod. An
  // assumed pod is removed like an added one (upstream does not check).
  schedref::Status RemovePod(const api::Pod& pod);
  // False for a pod without a UID (upstream returns an error).
  bool IsAssumedPod(const api::Pod& pod) const;
  // The cached object for pod's UID (even if its node was removed).
  std::optional<api::Pod> GetPod(const api::Pod& pod) const;

  // Adds or replaces the node (a ghost comes back to life). Never fails.
  schedref::Status AddNode(const api::Node& node);
  // Replaces the node, creating it if unknown; the node tree moves it only
  // if its zone changed. Never fails.
  schedref::Status UpdateNode(const api::Node& old_node,
                              const api::Node& new_node);
  // Removes the node; it stays as a ghost while pods remain on it. Errors
  // ("node %v is not found") if unknown, or the node tree's NotFound if the
  // node's labels name a zone it is not in (the NodeInfo is removed anyway,
  // as upstream).
  schedref::Status RemoveNode(const api::Node& node);

  // The 1 s timer: removes assumed pods whose binding finished and whose
  // TTL ran out strictly before `now`, in UID order. No-op with TTL 0.
  void CleanupAssumedPods(api::TimeMs now);

  // A fresh, immutable snapshot: every node in the node tree that has a
  // node object, each with its pods (bound and assumed, in the NodeInfo's
  // order), listed in node-tree order.
  // Order rule (upstream's incremental UpdateSnapshot): the order is
  // recomputed from the node tree only when the set of nodes differs from
  // the previous snapshot's; otherwise the previous snapshot's order is
  // kept. So a zone-label change, or a node removed and re-added between
  // two snapshots, does not reorder the list until some node is added or
  // removed. This is why the call is not const.
  // Image rule (upstream's NodeInfo.Snapshot of changed nodes only): each
  // node's count of nodes listing each of its images is taken at the first
  // snapshot after the node changed, and kept until it changes again.
  framework::Snapshot UpdateSnapshot();

  // --- introspection (tests, invariants) ---

  // NodeInfos held, ghosts and node-less ones included (upstream NodeCount).
  int NodeCount() const { return static_cast<int>(nodes_.size()); }
  // Pods held on any NodeInfo (upstream PodCount).
  int PodCount() const;
  // The node tree's round-robin order now.
  std::vector<std::string> NodeTreeOrder() const { return node_tree_.List(); }
  const NodeTree& Tree() const { return node_tree_; }
  // UIDs of the assumed pods.
  const std::set<std::string>& AssumedPodUids() const { return assumed_pods_; }
  // Names of NodeInfos without a node: removed nodes that still hold pods,
  // and nodes known only from their pods.
  std::vector<std::string> GhostNodes() const;
  // The NodeInfo held for `node_name`, ghost or not.
  std::optional<framework::NodeInfo> GetNodeInfo(
      const std::string& node_name) const;

 private:
  struct PodState {
    api::Pod pod;
    // Set by FinishBinding when the TTL is non-zero.
    std::optional<api::TimeMs> deadline;
    bool binding_finished = false;
  };

  // Upstream addPod / removePod / updatePod on the NodeInfo and the pod
  // states; the pod's node is pod.node_name.
  void AddPodInternal(const api::Pod& pod, bool assumed);
  schedref::Status RemovePodInternal(const api::Pod& pod);
  schedref::Status UpdatePodInternal(const api::Pod& old_pod,
                                     const api::Pod& new_pod);

  Options options_;
  // Node name -> NodeInfo (ghosts and node-less ones included).
  std::map<std::string, framework::NodeInfo> nodes_;
  std::map<std::string, PodState> pod_states_;  // by UID
  std::set<std::string> assumed_pods_;          // UIDs
  NodeTree node_tree_;
  // The node order of the last snapshot (see UpdateSnapshot).
  std::vector<std::string> snapshot_order_;
  // Nodes changed (a pod added or removed, the node object set or removed:
  // upstream's generation bumps) since the last snapshot.
  std::set<std::string> changed_;
  // For each snapshot node, its images' node counts as of the first
  // snapshot after its last change (Snapshot::ImageNumNodes).
  framework::Snapshot::ImageCounts image_num_nodes_;
};

}  // namespace schedref::reference::cache

#endif  // SCHEDREF_REFERENCE_BACKEND_CACHE_CACHE_H_
