#include "reference/framework/snapshot.h"

#include <utility>

namespace schedref::reference::framework {

Snapshot::Snapshot(std::vector<NodeInfo> nodes) : nodes_(std::move(nodes)) {
  for (size_t i = 0; i < nodes_.size(); ++i) index_[nodes_[i].Name()] = i;
}

Snapshot::Snapshot(std::vector<NodeInfo> nodes, ImageCounts image_num_nodes)
    : Snapshot(std::move(nodes)) {
  image_num_nodes_ = std::move(image_num_nodes);
}

int Snapshot::ImageNumNodes(const NodeInfo& node,
                            const std::string& image) const {
  auto by_node = image_num_nodes_.find(node.Name());
  if (by_node != image_num_nodes_.end()) {
    auto it = by_node->second.find(image);
    if (it != by_node->second.end()) return it->second;
  }
  return NumNodesWithImage(image);
}

const NodeInfo* Snapshot::Get(const std::string& name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &nodes_[it->second];
}

int CountNodesWithImage(const std::vector<NodeInfo>& nodes,
                        const std::string& image) {
  int count = 0;
  for (const NodeInfo& info : nodes) {
    bool has = false;
    for (const api::ContainerImage& img : info.node->images) {
      for (const std::string& name : img.names) has = has || name == image;
    }
    if (has) ++count;
  }
  return count;
}

int Snapshot::NumNodesWithImage(const std::string& image) const {
  return CountNodesWithImage(nodes_, image);
}

}  // namespace schedref::reference::framework
