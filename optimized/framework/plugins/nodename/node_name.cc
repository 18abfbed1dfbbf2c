#include "optimized/framework/plugins/nodename/node_name.h"

#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::nodename {

bool Fits(const api::Pod& pod, const api::Node& node) {
  return pod.node_name.empty() || pod.node_name == node.name;
}

StatusOr<std::unique_ptr<Plugin>> NodeName::New(const nlohmann::json& /*args*/,
                                                Handle* /*handle*/) {
  return std::unique_ptr<Plugin>(new NodeName());
}

std::string NodeName::Name() const { return names::kNodeName; }

Status NodeName::Filter(const CycleState& /*state*/, const PodInfo& pod,
                        const NodeInfo& node) const {
  if (Fits(pod.pod, *node.node())) return Status::Success();
  return SharedRejectionOf<Code::kUnschedulableAndUnresolvable, kErrReason, names::kNodeName>();
}

bool NodeName::NarrowHotCheck(const CycleState& /*state*/, const PodInfo& pod,
                              HotCheck* /*check*/) const {
  // Without spec.nodeName every node fits; with it, the name decides.
  return pod.pod.node_name.empty();
}

std::vector<ClusterEventWithHint> NodeName::EventsToRegister() const {
  return {{{EventResource::kNode, kAdd, "NodeAdd"},
           &NodeName::IsSchedulableAfterNodeAdd}};
}

StatusOr<QueueingHint> NodeName::IsSchedulableAfterNodeAdd(
    const api::Pod& pod, const EventObjects& objects) {
  if (objects.new_node == nullptr || !Fits(pod, *objects.new_node)) {
    return QueueingHint::kSkip;
  }
  return QueueingHint::kQueue;
}

}  // namespace schedref::optimized::framework::plugins::nodename
