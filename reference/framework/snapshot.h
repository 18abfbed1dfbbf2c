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

#include "api/types/objects.h"
#include "reference/framework/node_info.h"

namespace schedref::reference::framework {

// How many of `nodes` list `image` in status.images (a name as written
// there, already normalized by the caller). REQUIRES: every element has a
// node.
int CountNodesWithImage(const std::vector<NodeInfo>& nodes,
                        const std::string& image);

class Snapshot {
 public:
  // Node name -> image name -> how many nodes listed the image (see
  // ImageNumNodes).
  using ImageCounts = std::map<std::string, std::map<std::string, int>>;

  Snapshot() = default;
  // REQUIRES: every element has a node, names are unique.
  explicit Snapshot(std::vector<NodeInfo> nodes);
  // The same, with each node's image counts as the cache kept them.
  Snapshot(std::vector<NodeInfo> nodes, ImageCounts image_num_nodes);

  // Nodes in node-tree order.
  const std::vector<NodeInfo>& List() const { return nodes_; }
  // nullptr iff no such node.
  const NodeInfo* Get(const std::string& name) const;
  int NumNodes() const { return static_cast<int>(nodes_.size()); }
  // How many nodes of the snapshot list `image` (as written in their
  // status.images names, already normalized by the caller).
  int NumNodesWithImage(const std::string& image) const;
  // What ImageLocality reads for `node`, one of this snapshot's, and an
  // image it lists: how many nodes listed the image when the node last
  // changed. Upstream's NodeInfo.Snapshot freezes ImageStateSummary.NumNodes
  // into the copy, and UpdateSnapshot copies a node again only when its
  // generation moved, so a node that did not change keeps the count of its
  // last copy while nodes with the image come and go. The count the cache
  // kept for the node (Cache::UpdateSnapshot), else NumNodesWithImage.
  int ImageNumNodes(const NodeInfo& node, const std::string& image) const;

 private:
  std::vector<NodeInfo> nodes_;
  std::map<std::string, size_t> index_;
  ImageCounts image_num_nodes_;
};

}  // namespace schedref::reference::framework

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_SNAPSHOT_H_
