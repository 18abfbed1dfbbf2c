// TaintToleration: Filter rejects nodes with a NoSchedule/NoExecute taint
// the pod does not tolerate; Score counts the PreferNoSchedule taints the pod
// does not tolerate (fewer is better: NormalizeScore is reversed).
// Specification: upstream
// pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go,
// v1.32 (SchedulerQueueingHints on: Node Add|UpdateNodeTaint and Pod
// UpdatePodTolerations); docs/semantics/plugins.md.
//
// Speed: Filter and Score read the node's taints and the pod's tolerations
// in place and allocate only to word a rejection. PreScore keeps the
// tolerations that can matter for PreferNoSchedule once per pod.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_TAINTTOLERATION_TAINT_TOLERATION_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_TAINTTOLERATION_TAINT_TOLERATION_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/framework/events.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::framework::plugins::tainttoleration {

// The first taint (in node order) with effect NoSchedule or NoExecute that
// no toleration tolerates (upstream v1helper.FindMatchingUntoleratedTaint
// with DoNotScheduleTaintsFilterFunc); nullptr if there is none. The result
// points into `taints`.
const api::Taint* FindUntoleratedNoScheduleTaint(
    const std::vector<api::Taint>& taints,
    const std::vector<api::Toleration>& tolerations);

class TaintToleration final : public NodeObjectFilterPlugin,
                              public PreScorePlugin,
                              public ScorePlugin,
                              public EnqueueExtensions {
 public:
  // Takes no args; whatever the configuration gives is ignored, as upstream
  // and the reference do.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);

  std::string Name() const override;

  // UnschedulableAndUnresolvable "node(s) had untolerated taint {k: v}" for
  // the first untolerated NoSchedule/NoExecute taint.
  Status Filter(const CycleState& state, const PodInfo& pod,
                const NodeInfo& node) const override;
  bool NarrowHotCheck(const CycleState& state, const PodInfo& pod,
                      HotCheck* check) const override;

  // Stores the pod's tolerations whose effect is empty or PreferNoSchedule.
  // Never skips.
  Status PreScore(CycleState& state, const PodInfo& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // The number of the node's PreferNoSchedule taints that none of the
  // stored tolerations tolerates. Error `failed to read
  // "PreScoreTaintToleration" from cycleState: not found` without PreScore.
  ScoreOutput Score(const CycleState& state, const PodInfo& pod,
                    const NodeInfo& node) const override;
  size_t ScoreMany(const CycleState& state, const PodInfo& pod, const NodeInfo* const* nodes,
                   size_t n, int64_t* scores, Status* failure) const override;
  // No node has a PreferNoSchedule taint: every raw score is 0, which the
  // reversed normalization makes 100.
  std::optional<int64_t> UniformScore(const CycleState& state, const PodInfo& pod,
                                      uint32_t flags) const override;
  bool HasScoreExtensions() const override { return true; }
  // DefaultNormalizeScore(100, reverse=true).
  Status NormalizeScore(const CycleState& state, const PodInfo& pod,
                        const std::vector<const NodeInfo*>& nodes,
                        std::vector<int64_t>& scores) override;

  // Node Add|UpdateNodeTaint and Pod UpdatePodTolerations.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Queue iff the node's NoSchedule/NoExecute taints were not all tolerated
  // before (or the node is new) and are all tolerated now.
  static StatusOr<QueueingHint> IsSchedulableAfterNodeChange(
      const api::Pod& pod, const EventObjects& objects);
  // Queue iff the updated pod is this pod (same UID).
  static StatusOr<QueueingHint> IsSchedulableAfterPodTolerationChange(
      const api::Pod& pod, const EventObjects& objects);
};

}  // namespace schedref::optimized::framework::plugins::tainttoleration

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_TAINTTOLERATION_TAINT_TOLERATION_H_
