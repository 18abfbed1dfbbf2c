// NodeUnschedulable: rejects nodes with spec.unschedulable unless the pod
// tolerates the node.kubernetes.io/unschedulable:NoSchedule taint.
// Specification: upstream
// pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go,
// v1.32 (SchedulerQueueingHints on: Node Add|UpdateNodeTaint and Pod
// UpdatePodTolerations); docs/semantics/plugins.md.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEUNSCHEDULABLE_NODE_UNSCHEDULABLE_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEUNSCHEDULABLE_NODE_UNSCHEDULABLE_H_

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/framework/events.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::framework::plugins::nodeunschedulable {

inline constexpr char kErrReasonUnknownCondition[] =
    "node(s) had unknown conditions";
inline constexpr char kErrReasonUnschedulable[] = "node(s) were unschedulable";

// True iff the pod tolerates {node.kubernetes.io/unschedulable, NoSchedule}.
bool ToleratesUnschedulable(const api::Pod& pod);

// Stateless; safe to call from many threads.
class NodeUnschedulable final : public NodeObjectFilterPlugin, public EnqueueExtensions {
 public:
  // Takes no args; whatever the configuration gives is ignored, as upstream
  // and the reference do.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);

  std::string Name() const override;

  // UnschedulableAndUnresolvable kErrReasonUnschedulable iff the node is
  // unschedulable and !ToleratesUnschedulable(pod);
  // kErrReasonUnknownCondition for a NodeInfo without a node (a ghost, never
  // listed in a snapshot).
  Status Filter(const CycleState& state, const PodInfo& pod,
                const NodeInfo& node) const override;
  bool NarrowHotCheck(const CycleState& state, const PodInfo& pod,
                      HotCheck* check) const override;

  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Queue iff a schedulable node was added, or an update made the node
  // schedulable.
  static StatusOr<QueueingHint> IsSchedulableAfterNodeChange(
      const api::Pod& pod, const EventObjects& objects);
  // Queue iff the updated pod is this pod (same UID) and now tolerates the
  // unschedulable taint.
  static StatusOr<QueueingHint> IsSchedulableAfterPodTolerationChange(
      const api::Pod& pod, const EventObjects& objects);
};

}  // namespace schedref::optimized::framework::plugins::nodeunschedulable

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEUNSCHEDULABLE_NODE_UNSCHEDULABLE_H_
