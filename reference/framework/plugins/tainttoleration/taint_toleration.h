// TaintToleration: Filter rejects nodes with a NoSchedule/NoExecute taint
// the pod does not tolerate; Score counts the PreferNoSchedule taints the
// pod does not tolerate (fewer is better: NormalizeScore is reversed).
// Specification: upstream
// pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go, the
// v1.31/v1.32 form (EventsToRegister(ctx) with SchedulerQueueingHints on:
// Node Add|UpdateNodeTaint and Pod UpdatePodToleration(s)); tests from
// taint_toleration_test.go at cb6ff2d8ce3595f88570f82c7d0e6d98910afd3c.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_TAINTTOLERATION_TAINT_TOLERATION_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_TAINTTOLERATION_TAINT_TOLERATION_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"

namespace schedref::reference::framework::plugins::tainttoleration {

// The first taint (in node order) with effect NoSchedule or NoExecute that
// no toleration tolerates (upstream v1helper.FindMatchingUntoleratedTaint
// with DoNotScheduleTaintsFilterFunc); nullopt if there is none.
std::optional<api::Taint> FindUntoleratedNoScheduleTaint(
    const std::vector<api::Taint>& taints,
    const std::vector<api::Toleration>& tolerations);

class TaintToleration final : public FilterPlugin,
                              public PreScorePlugin,
                              public ScorePlugin,
                              public EnqueueExtensions {
 public:
  // Takes no args.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);

  std::string Name() const override;

  // UnschedulableAndUnresolvable "node(s) had untolerated taint {k: v}" for
  // the first untolerated NoSchedule/NoExecute taint.
  Status Filter(CycleState& state, const api::Pod& pod,
                const NodeInfo& node) override;

  // Stores the pod's tolerations whose effect is empty or PreferNoSchedule.
  // Never skips.
  Status PreScore(CycleState& state, const api::Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // Number of the node's PreferNoSchedule taints not tolerated by the
  // tolerations PreScore stored. Error if PreScore did not run.
  ScoreOutput Score(CycleState& state, const api::Pod& pod,
                    const NodeInfo& node) override;
  bool HasScoreExtensions() const override { return true; }
  // DefaultNormalizeScore(100, reverse=true).
  Status NormalizeScore(CycleState& state, const api::Pod& pod,
                        NodeScoreList& scores) override;

  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Queue iff the node's NoSchedule/NoExecute taints were not all tolerated
  // before (or the node is new) and are all tolerated now.
  static StatusOr<QueueingHint> IsSchedulableAfterNodeChange(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj);
  // Queue iff the updated pod is this pod (same UID).
  static StatusOr<QueueingHint> IsSchedulableAfterPodTolerationChange(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj);
};

}  // namespace schedref::reference::framework::plugins::tainttoleration

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_TAINTTOLERATION_TAINT_TOLERATION_H_
