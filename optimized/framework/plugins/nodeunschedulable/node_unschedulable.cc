#include "optimized/framework/plugins/nodeunschedulable/node_unschedulable.h"

#include "api/types/labels.h"
#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::nodeunschedulable {

bool ToleratesUnschedulable(const api::Pod& pod) {
  // Built once: Filter must not allocate.
  static const api::Taint kUnschedulableTaint{"node.kubernetes.io/unschedulable",
                                              "", "NoSchedule"};
  return api::TolerationsTolerateTaint(pod.tolerations, kUnschedulableTaint);
}

StatusOr<std::unique_ptr<Plugin>> NodeUnschedulable::New(
    const nlohmann::json& /*args*/, Handle* /*handle*/) {
  return std::unique_ptr<Plugin>(new NodeUnschedulable());
}

std::string NodeUnschedulable::Name() const {
  return names::kNodeUnschedulable;
}

Status NodeUnschedulable::Filter(const CycleState& /*state*/,
                                 const PodInfo& pod,
                                 const NodeInfo& node) const {
  if (node.node() == nullptr) {
    return Status(Code::kUnschedulableAndUnresolvable,
                  kErrReasonUnknownCondition);
  }
  if (!node.unschedulable() || ToleratesUnschedulable(pod.pod)) {
    return Status::Success();
  }
  return SharedRejectionOf<Code::kUnschedulableAndUnresolvable, kErrReasonUnschedulable,
                           names::kNodeUnschedulable>();
}

bool NodeUnschedulable::NarrowHotCheck(const CycleState& /*state*/, const PodInfo& /*pod*/,
                                       HotCheck* check) const {
  // A node object that is not unschedulable passes whatever the pod
  // tolerates.
  check->And({.flags_clear = NodeInfo::kUnschedulable, .flags_set = NodeInfo::kHasNode});
  return true;
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
    const api::Pod& /*pod*/, const EventObjects& objects) {
  const api::Node* modified = objects.new_node;
  if (modified == nullptr || modified->unschedulable) {
    return QueueingHint::kSkip;
  }
  const api::Node* original = objects.old_node;
  // Added schedulable, or turned schedulable.
  if (original == nullptr || original->unschedulable) {
    return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

StatusOr<QueueingHint> NodeUnschedulable::IsSchedulableAfterPodTolerationChange(
    const api::Pod& pod, const EventObjects& objects) {
  const api::Pod* modified = objects.new_pod;
  if (modified == nullptr || modified->uid != pod.uid) {
    return QueueingHint::kSkip;
  }
  return ToleratesUnschedulable(*modified) ? QueueingHint::kQueue
                                           : QueueingHint::kSkip;
}

}  // namespace schedref::optimized::framework::plugins::nodeunschedulable
