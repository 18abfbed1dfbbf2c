#include "reference/framework/plugins/nodename/node_name.h"

#include "reference/framework/plugins/helper/event_objects.h"
#include "reference/framework/plugins/names/names.h"

namespace schedref::reference::framework::plugins::nodename {

bool Fits(const api::Pod& pod, const api::Node& node) {
  return pod.node_name.empty() || pod.node_name == node.name;
}

StatusOr<std::unique_ptr<Plugin>> NodeName::New(const nlohmann::json& /*args*/,
                                                Handle* /*handle*/) {
  return std::unique_ptr<Plugin>(new NodeName());
}

std::string NodeName::Name() const { return names::kNodeName; }

Status NodeName::Filter(CycleState& /*state*/, const api::Pod& pod,
                        const NodeInfo& node) {
  if (!Fits(pod, *node.node)) {
    return Status(Code::kUnschedulableAndUnresolvable, kErrReason);
  }
  return Status::Success();
}

std::vector<ClusterEventWithHint> NodeName::EventsToRegister() const {
  return {{{EventResource::kNode, kAdd, "NodeAdd"},
           &NodeName::IsSchedulableAfterNodeAdd}};
}

StatusOr<QueueingHint> NodeName::IsSchedulableAfterNodeAdd(
    const api::Pod& pod, const EventObject& old_obj,
    const EventObject& new_obj) {
  auto objs = helper::As<api::Node>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  if (objs->new_obj == nullptr || !Fits(pod, *objs->new_obj)) {
    return QueueingHint::kSkip;
  }
  return QueueingHint::kQueue;
}

}  // namespace schedref::reference::framework::plugins::nodename
