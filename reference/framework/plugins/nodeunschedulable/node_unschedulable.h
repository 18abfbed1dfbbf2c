// NodeUnschedulable: rejects nodes with spec.unschedulable unless the pod
// tolerates the node.kubernetes.io/unschedulable:NoSchedule taint.
// Specification: upstream
// pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go,
// v1.31/v1.32 form (EventsToRegister(ctx) with SchedulerQueueingHints on:
// Node Add|UpdateNodeTaint and Pod UpdatePodTolerations).
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODEUNSCHEDULABLE_NODE_UNSCHEDULABLE_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODEUNSCHEDULABLE_NODE_UNSCHEDULABLE_H_

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"

namespace schedref::reference::framework::plugins::nodeunschedulable {

inline constexpr char kErrReasonUnknownCondition[] =
    "node(s) had unknown conditions";
inline constexpr char kErrReasonUnschedulable[] = "node(s) were unschedulable";

class NodeUnschedulable final : public FilterPlugin, public EnqueueExtensions {
 public:
  // Takes no args.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);

  std::string Name() const override;

  // UnschedulableAndUnresolvable kErrReasonUnschedulable iff the node is
  // unschedulable and the pod does not tolerate
  // {node.kubernetes.io/unschedulable, NoSchedule}.
  Status Filter(CycleState& state, const api::Pod& pod,
                const NodeInfo& node) override;

  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Queue iff the node was added schedulable, or went from unschedulable to
  // schedulable.
  static StatusOr<QueueingHint> IsSchedulableAfterNodeChange(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj);
  // Queue iff the updated pod is this pod and now tolerates the
  // unschedulable taint.
  static StatusOr<QueueingHint> IsSchedulableAfterPodTolerationChange(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj);
};

}  // namespace schedref::reference::framework::plugins::nodeunschedulable

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODEUNSCHEDULABLE_NODE_UNSCHEDULABLE_H_
