#include "reference/framework/plugins/nodeunschedulable/node_unschedulable.h"

#include "api/types/labels.h"
#include "reference/framework/plugins/helper/event_objects.h"
#include "reference/framework/plugins/names/names.h"

namespace schedref::reference::framework::plugins::nodeunschedulable {
namespace {

bool ToleratesUnschedulable(const api::Pod& pod) {
  return api::TolerationsTolerateTaint(
      pod.tolerations,
      api::Taint{"node.kubernetes.io/unschedulable", "", "NoSchedule"});
}

}  // namespace

StatusOr<std::unique_ptr<Plugin>> NodeUnschedulable::New(
    const nlohmann::json& /*args*/, Handle* /*handle*/) {
  return std::unique_ptr<Plugin>(new NodeUnschedulable());
}

std::string NodeUnschedulable::Name() const {
  return names::kNodeUnschedulable;
}

Status NodeUnschedulable::Filter(CycleState& /*state*/, const api::Pod& pod,
                                 const NodeInfo& node) {
  // Unreachable from a Snapshot (ghost nodes are never listed); kept from
  // older upstream releases as a defined answer.
  if (!node.node) {
    return Status(Code::kUnschedulableAndUnresolvable,
                  kErrReasonUnknownCondition);
  }
  if (!node.node->unschedulable) return Status::Success();
  if (!ToleratesUnschedulable(pod)) {
    return Status(Code::kUnschedulableAndUnresolvable,
                  kErrReasonUnschedulable);
  }
  return Status::Success();
}

std::vector<ClusterEventWithHint> NodeUnschedulable::EventsToRegister() const {
  return {
      {{EventResource::kNode, kAdd | kUpdateNodeTaint,
        "NodeAdd|UpdateNodeTaint"},
       &NodeUnschedulable::IsSchedulableAfterNodeChange},
      {{EventResource::kPod, kUpdatePodTolerations, "PodUpdatePodTolerations"},
       &NodeUnschedulable::IsSchedulableAfterPodTolerationChange},
  };
}

StatusOr<QueueingHint> NodeUnschedulable::IsSchedulableAfterNodeChange(
    const api::Pod& /*pod*/, const EventObject& old_obj,
    const EventObject& new_obj) {
  auto objs = helper::As<api::Node>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  const api::Node* original = objs->old_obj;
  const api::Node* modified = objs->new_obj;
  if (modified == nullptr) return QueueingHint::kSkip;
  if ((original != nullptr && original->unschedulable &&
       !modified->unschedulable) ||
      (original == nullptr && !modified->unschedulable)) {
    return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

StatusOr<QueueingHint> NodeUnschedulable::IsSchedulableAfterPodTolerationChange(
    const api::Pod& pod, const EventObject& old_obj,
    const EventObject& new_obj) {
  auto objs = helper::As<api::Pod>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  const api::Pod* modified = objs->new_obj;
  if (modified == nullptr || modified->uid != pod.uid) {
    return QueueingHint::kSkip;
  }
  return ToleratesUnschedulable(*modified) ? QueueingHint::kQueue
                                           : QueueingHint::kSkip;
}

}  // namespace schedref::reference::framework::plugins::nodeunschedulable
