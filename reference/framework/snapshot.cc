#include "reference/framework/snapshot.h"

#include <utility>

namespace schedref::reference::framework {

Snapshot::Snapshot(std::vector<NodeInfo> nodes) : nodes_(std::move(nodes)) {
  for (size_t i = 0; i < nodes_.size(); ++i) index_[nodes_[i].Name()] = i;
}

const NodeInfo* Snapshot::Get(const std::string& name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &nodes_[it->second];
}

int Snapshot::NumNodesWithImage(const std::string& image) const {
  int count = 0;
  for (const NodeInfo& info : nodes_) {
    bool has = false;
    for (const api::ContainerImage& img : info.node->images) {
      for (const std::string& name : img.names) has = has || name == image;
    }
    if (has) ++count;
  }
  return count;
}

}  // namespace schedref::reference::framework
