#include "reference/framework/testing/wrappers.h"

#include <utility>

namespace schedref::reference::framework::st {

// --- NodeInfo / QueuedPodInfo ----------------------------------------------------

NodeInfo MakeNodeInfo(const api::Node& node, std::vector<api::Pod> pods) {
  NodeInfo info;
  info.node = node;
  info.pods = std::move(pods);
  return info;
}

NodeInfo MakeNodeInfoWithoutNode(std::vector<api::Pod> pods) {
  NodeInfo info;
  info.pods = std::move(pods);
  return info;
}

QueuedPodInfo MakeQueuedPodInfo(const api::Pod& pod, api::TimeMs timestamp) {
  QueuedPodInfo info;
  info.pod = pod;
  info.timestamp = timestamp;
  return info;
}

}  // namespace schedref::reference::framework::st
