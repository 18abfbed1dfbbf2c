// Snapshot: the immutable view of the cluster one scheduling cycle works on.
// Specification: upstream pkg/scheduler/backend/cache/snapshot.go.
//
// The node list is in the cache's node-tree order (zone round-robin), which
// is what the round-robin start index of findNodesThatFitPod walks.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_SNAPSHOT_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_SNAPSHOT_H_

#include <map>
#include <string>
#include <vector>

#include "api/objects.h"
#include "reference/framework/node_info.h"

namespace schedref::reference::framework {

class Snapshot {
 public:
  Snapshot() = default;
  // REQUIRES: every element has a node, names are unique.
  explicit Snapshot(std::vector<NodeInfo> nodes);

  // Nodes in node-tree order.
  const std::vector<NodeInfo>& List() const { return nodes_; }
  // nullptr iff no such node.
  const NodeInfo* Get(const std::string& name) const;
  int NumNodes() const { return static_cast<int>(nodes_.size()); }
  // How many nodes of the snapshot list `image` (as written in their
  // status.images names, already normalized by the caller).
  int NumNodesWithImage(const std::string& image) const;

 private:
  std::vector<NodeInfo> nodes_;
  std::map<std::string, size_t> index_;
};

}  // namespace schedref::reference::framework

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_SNAPSHOT_H_
