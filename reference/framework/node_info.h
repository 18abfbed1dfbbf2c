// NodeInfo: one node and the pods the scheduler believes run on it (bound and
// assumed). Specification: upstream pkg/scheduler/framework/types.go NodeInfo.
//
// Note: upstream keeps running aggregates (Requested, NonZeroRequested,
// UsedPorts, ...) updated on every AddPod/RemovePod. The reference keeps only
// the node and its pods; the aggregates are recomputed by the functions in
// reference/framework/resource.h when a plugin needs them, so there is no
// incremental state to get wrong.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_NODE_INFO_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_NODE_INFO_H_

#include <optional>
#include <string>
#include <vector>

#include "api/types/objects.h"

namespace schedref::reference::framework {

struct NodeInfo {
  // Absent for a "ghost": a node deleted while pods were still on it.
  // Ghosts are never in a Snapshot's node list.
  std::optional<api::Node> node;
  // In the order they were added (upstream appends and removes by swapping
  // with the last element; see RemovePod).
  std::vector<api::Pod> pods;

  const std::string& Name() const { return node->name; }

  void AddPod(const api::Pod& pod) { pods.push_back(pod); }
  // Removes the pod with pod's UID. Returns false iff it was not there.
  // Keeps upstream's order rule: the last pod takes the removed one's slot.
  bool RemovePod(const api::Pod& pod) {
    for (size_t i = 0; i < pods.size(); ++i) {
      if (pods[i].uid == pod.uid) {
        pods[i] = std::move(pods.back());
        pods.pop_back();
        return true;
      }
    }
    return false;
  }
};

}  // namespace schedref::reference::framework

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_NODE_INFO_H_
