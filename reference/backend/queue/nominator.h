// The nominator: which pending pods are nominated to which node, i.e. which
// pods preemption made room for. Filters treat a node's nominated pods of
// equal or higher priority as if they already ran there. Specification:
// upstream pkg/scheduler/backend/queue/nominator.go, v1.32.
//
// Model: node name -> pods in nomination order, plus pod UID -> node. A pod
// is nominated to at most one node. Adding a nomination first drops the
// pod's old one.
#ifndef SCHEDREF_REFERENCE_BACKEND_QUEUE_NOMINATOR_H_
#define SCHEDREF_REFERENCE_BACKEND_QUEUE_NOMINATOR_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/types/objects.h"

namespace schedref::reference::queue {

// How a scheduling attempt changes the pod's nomination (upstream
// framework.NominatingInfo).
struct NominatingInfo {
  enum Mode {
    // Keep what the pod object says (status.nominatedNodeName).
    kNoop,
    // Nominate to `nominated_node_name`; "" clears the nomination.
    kOverride,
  };
  Mode mode = kNoop;
  std::string nominated_node_name;
};

// The API server's current view of a pod, by "namespace/name"; nullopt iff
// the pod no longer exists (upstream's pod lister).
using PodLister =
    std::function<std::optional<api::Pod>(const std::string& pod_key)>;

class Nominator {
 public:
  // Nominates `pod`: to info's node under kOverride, else (kNoop or no info)
  // to pod.nominated_node_name, and not at all if that is empty. When
  // `lister` is set, a pod that no longer exists or is already bound is not
  // nominated (its old nomination is still dropped).
  void Add(const api::Pod& pod, const std::optional<NominatingInfo>& info,
           const PodLister& lister);
  // Replaces old_pod's entry by new_pod's. If neither object names a
  // nominated node but the nominator holds one for the pod (nominated in
  // memory, API update still pending), that node is kept.
  void Update(const api::Pod& old_pod, const api::Pod& new_pod,
              const PodLister& lister);
  // Drops the nomination of the pod with pod's UID, if any.
  void Delete(const api::Pod& pod);

  // The pods nominated to `node_name`, in nomination order, as they were
  // when nominated.
  std::vector<api::Pod> PodsForNode(const std::string& node_name) const;
  // Node name -> nominated pod keys, in nomination order (introspection).
  std::map<std::string, std::vector<std::string>> PodKeysByNode() const;
  // The node the pod with `uid` is nominated to, if any.
  std::optional<std::string> NodeOf(const std::string& uid) const;

 private:
  std::map<std::string, std::vector<api::Pod>> nominated_pods_;  // by node
  std::map<std::string, std::string> pod_to_node_;               // by UID
};

}  // namespace schedref::reference::queue

#endif  // SCHEDREF_REFERENCE_BACKEND_QUEUE_NOMINATOR_H_
