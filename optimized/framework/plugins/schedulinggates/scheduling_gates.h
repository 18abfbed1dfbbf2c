// SchedulingGates: keeps a pod out of activeQ while spec.schedulingGates is
// not empty (PreEnqueue). Specification: upstream
// pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go, v1.32
// (PodSchedulingReadiness GA, SchedulerQueueingHints on);
// docs/semantics/plugins.md.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_SCHEDULINGGATES_SCHEDULING_GATES_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_SCHEDULINGGATES_SCHEDULING_GATES_H_

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/framework/events.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::framework::plugins::schedulinggates {

class SchedulingGates final : public PreEnqueuePlugin,
                              public EnqueueExtensions {
 public:
  // Takes no args; whatever the configuration gives is ignored, as upstream
  // and the reference do.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);

  std::string Name() const override;

  // Success iff the pod has no gates; otherwise UnschedulableAndUnresolvable
  // "waiting for scheduling gates: [g1 g2]" (spec order, Go's %v of a
  // string slice).
  Status PreEnqueue(const api::Pod& pod) override;

  // Pod/UpdatePodSchedulingGatesEliminated with
  // IsSchedulableAfterUpdatePodSchedulingGatesEliminated.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Queue iff the updated pod is the gated pod itself (same UID).
  static StatusOr<QueueingHint>
  IsSchedulableAfterUpdatePodSchedulingGatesEliminated(
      const api::Pod& pod, const EventObjects& objects);
};

}  // namespace schedref::optimized::framework::plugins::schedulinggates

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_SCHEDULINGGATES_SCHEDULING_GATES_H_
