// The nominator: which pending pods are nominated to which node, i.e. which
// pods preemption made room for; filters treat a node's nominated pods of
// equal or higher priority as if they already ran there. Specification:
// upstream pkg/scheduler/backend/queue/nominator.go, v1.32
// (docs/semantics/queue.md "Nominator").
//
// Model: node name -> pods in nomination order, plus pod UID -> node. A pod
// is nominated to at most one node; nominating it again first drops the old
// nomination. Lookups by node and by UID are O(1) expected; dropping a
// nomination is O(pods nominated to that node) (the order of the others is
// kept).
#ifndef SCHEDREF_OPTIMIZED_BACKEND_QUEUE_NOMINATOR_H_
#define SCHEDREF_OPTIMIZED_BACKEND_QUEUE_NOMINATOR_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/types/objects.h"
#include "optimized/framework/types.h"

namespace schedref::optimized::backend::queue {

// How a scheduling attempt changes the pod's nomination (upstream
// framework.NominatingInfo).
struct NominatingInfo {
  enum Mode {
    // Keep what the pod object says (status.nominatedNodeName).
    kNoop,
    // Nominate to `nominated_node_name`; "" files the pod under node "",
    // like upstream, which nominates it to no real node.
    kOverride,
  };
  Mode mode = kNoop;
  std::string nominated_node_name;
};

// The API server's current view of a pod, by "namespace/name"; nullopt iff
// the pod no longer exists (upstream's pod lister).
using PodLister = std::function<std::optional<api::Pod>(const std::string& pod_key)>;

class Nominator {
 public:
  // Drops the pod's nomination, then nominates it: to info's node under
  // kOverride, else (kNoop or no info) to pod.nominated_node_name, and not
  // at all if that is empty. With a `lister`, a pod that no longer exists or
  // is already bound is not nominated.
  void Add(const framework::PodInfoPtr& pod, const std::optional<NominatingInfo>& info,
           const PodLister& lister);
  // Replaces old_pod's nomination by new_pod's (appended at the end of its
  // node's list). If neither object names a node but the nominator holds
  // one for the pod (nominated in memory, API update pending), that node is
  // kept.
  void Update(const api::Pod& old_pod, const framework::PodInfoPtr& new_pod,
              const PodLister& lister);
  // Drops the nomination of the pod with pod's UID, if any.
  void Delete(const api::Pod& pod);

  // The pods nominated to `node_name`, in nomination order, as they were
  // when nominated; nullptr iff none.
  const std::vector<framework::PodInfoPtr>* PodsForNode(const std::string& node_name) const;
  // The names under which pods are nominated (each at least one pod), in
  // no particular order; "" among them iff a pod was nominated to "".
  std::vector<std::string> NodeNames() const;
  // Node name -> nominated pod keys, in nomination order (introspection).
  std::map<std::string, std::vector<std::string>> PodKeysByNode() const;
  // The node the pod with `uid` is nominated to, if any.
  std::optional<std::string> NodeOf(const std::string& uid) const;
  bool Empty() const { return pod_to_node_.empty(); }

  // --- Change log (the scheduler's nominated-pods view between cycles) ------

  // Notes that the queue's entry for `pod_key` changed (inserted, removed or
  // given another PodInfo), which changes what the queue reports for the
  // nodes a pod with that key is nominated to.
  void NoteQueueEntryChanged(std::string_view pod_key);
  // The node names whose nominated pods, as the queue reports them, may
  // have changed since the last call, possibly repeated; `all` instead when
  // the log overflowed (or on the first call).
  struct Changes {
    bool all = false;
    std::vector<std::string> nodes;
  };
  Changes TakeChanges();

 private:
  void NoteChanged(const std::string& node_name);

  // Beyond this many logged names the log says `all` instead of growing.
  static constexpr size_t kMaxLoggedChanges = 4096;

  std::unordered_map<std::string, std::vector<framework::PodInfoPtr>> nominated_pods_;
  std::unordered_map<std::string, std::string> pod_to_node_;  // by UID
  // Pod key -> the nodes pods with that key are nominated to (one entry per
  // nominated pod; a key is usually nominated once).
  std::unordered_map<std::string, std::vector<std::string>> nodes_by_key_;
  Changes changes_{.all = true, .nodes = {}};
};

}  // namespace schedref::optimized::backend::queue

#endif  // SCHEDREF_OPTIMIZED_BACKEND_QUEUE_NOMINATOR_H_
