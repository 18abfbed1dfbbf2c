// SchedulingGates: keeps a pod out of activeQ while spec.schedulingGates is
// not empty (PreEnqueue). Specification: upstream
// pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go, v1.32
// (PodSchedulingReadiness GA, SchedulerQueueingHints on).
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_SCHEDULINGGATES_SCHEDULING_GATES_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_SCHEDULINGGATES_SCHEDULING_GATES_H_

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"

namespace schedref::reference::framework::plugins::schedulinggates {

class SchedulingGates final : public PreEnqueuePlugin,
                              public EnqueueExtensions {
 public:
  // Takes no args.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);

  std::string Name() const override;

  // Success iff the pod has no gates; otherwise UnschedulableAndUnresolvable
  // "waiting for scheduling gates: [g1 g2]" (gate names in spec order,
  // formatted as Go's %v of a string slice).
  Status PreEnqueue(const api::Pod& pod) override;

  // Pod/UpdatePodSchedulingGatesEliminated with
  // IsSchedulableAfterUpdatePodSchedulingGatesEliminated.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Queue iff the updated pod is the gated pod itself (same UID).
  static StatusOr<QueueingHint> IsSchedulableAfterUpdatePodSchedulingGatesEliminated(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj);
};

}  // namespace schedref::reference::framework::plugins::schedulinggates

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_SCHEDULINGGATES_SCHEDULING_GATES_H_
