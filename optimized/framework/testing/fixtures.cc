#include "optimized/framework/testing/fixtures.h"

#include <cstdlib>
#include <utility>

namespace schedref::optimized::framework::testing {

NodeInfo MakeNodeInfo(const api::Node& node, const std::vector<api::Pod>& pods) {
  NodeInfo info(std::make_shared<const api::Node>(node));
  for (const api::Pod& p : pods) info.AddPod(NewPodInfo(p));
  return info;
}

std::unique_ptr<Snapshot> MakeSnapshot(const std::vector<api::Node>& nodes,
                                       const std::vector<api::Pod>& pods) {
  auto snapshot = std::make_unique<Snapshot>();
  std::vector<std::string> order;
  for (const api::Node& n : nodes) {
    snapshot->Mutable(n.name).SetNode(std::make_shared<const api::Node>(n));
    order.push_back(n.name);
  }
  for (const api::Pod& p : pods) {
    for (const api::Node& n : nodes) {
      if (n.name == p.node_name) snapshot->Mutable(n.name).AddPod(NewPodInfo(p));
    }
  }
  snapshot->Rebuild(order, /*nodes_changed=*/true);
  return snapshot;
}

SnapshotStepper::SnapshotStepper(Snapshot& snapshot) : snapshot_(snapshot) {
  for (NodeInfo* info : snapshot_.List()) info->generation = ++generation_;
  snapshot_.generation = generation_;
}

void SnapshotStepper::Step(const std::string& node_name,
                           const std::function<void(NodeInfo&)>& edit) {
  NodeInfo& info = snapshot_.Mutable(node_name);
  edit(info);
  info.generation = ++generation_;
  snapshot_.Rebuild({}, /*nodes_changed=*/false);
  snapshot_.generation = generation_;
}

void SnapshotStepper::AddNode(const api::Node& node) {
  std::vector<std::string> order;
  for (const NodeInfo* info : snapshot_.List()) order.push_back(info->Name());
  order.push_back(node.name);
  NodeInfo& info = snapshot_.Mutable(node.name);
  info.SetNode(std::make_shared<const api::Node>(node));
  info.generation = ++generation_;
  snapshot_.Rebuild(order, /*nodes_changed=*/true);
  snapshot_.generation = generation_;
}

void SnapshotStepper::RemoveNode(const std::string& node_name) {
  std::vector<std::string> order;
  for (const NodeInfo* info : snapshot_.List()) {
    if (info->Name() != node_name) order.push_back(info->Name());
  }
  snapshot_.Erase(node_name);
  ++generation_;
  snapshot_.Rebuild(order, /*nodes_changed=*/true);
  snapshot_.generation = generation_;
}

void RandomNodeChange(NodeInfo& info, int kind, const std::function<api::Pod()>& make_pod,
                      const std::function<size_t(size_t)>& pick,
                      const std::function<void(api::Node&)>& relabel) {
  switch (kind) {
    case 0:
    case 1:
      info.AddPod(NewPodInfo(make_pod()));
      break;
    case 2:
      if (!info.pods().empty()) {
        const std::string uid = info.pods()[pick(info.pods().size())]->uid();
        if (!info.RemovePod(uid)) std::abort();  // the pod was just listed
      }
      break;
    case 3: {
      auto changed = std::make_shared<api::Node>(*info.node());
      relabel(*changed);
      info.SetNode(changed);
      break;
    }
    default:
      break;
  }
}

std::vector<PodInfoPtr> FakeHandle::NominatedPodsForNode(const std::string& node) const {
  std::vector<PodInfoPtr> out;
  auto it = nominated.find(node);
  if (it == nominated.end()) return out;
  for (const api::Pod& p : it->second) out.push_back(NewPodInfo(p));
  return out;
}

std::vector<std::string> FakeHandle::NominatedNodeNames() const {
  std::vector<std::string> out;
  for (const auto& [node, pods] : nominated) out.push_back(node);
  return out;
}

schedref::Status FakeHandle::BindPod(const api::Pod& pod, const std::string& node_name) {
  if (bind_error) return schedref::Status::Invalid(*bind_error);
  binds.push_back(pod.Key() + " -> " + node_name);
  return schedref::Status::Ok();
}

std::optional<api::Pod> FakeHandle::GetPod(const std::string& key) const {
  auto it = pods.find(key);
  if (it == pods.end()) return std::nullopt;
  return it->second;
}

}  // namespace schedref::optimized::framework::testing
