// NodeResourcesFit: the node must have room for the pod's requests (Filter),
// and nodes are ranked by a scoring strategy (LeastAllocated,
// MostAllocated, RequestedToCapacityRatio). Specification: upstream
// pkg/scheduler/framework/plugins/noderesources/fit.go (read at
// 903b1f7e2884a152477f870ece3460be3d5025d1 and the v1.34 form; v1.32 sits
// between them and its default feature gates are used: SidecarContainers
// on, SchedulerQueueingHints on, InPlacePodVerticalScaling and
// PodLevelResources off). Tests from fit_test.go at
// 24fbb13eafec665e6f4b64961930774babd8b6d1, least_allocated_test.go and
// requested_to_capacity_ratio_test.go at
// 8519d3399f10be33a45da368a48ee763acbe3999, most_allocated_test.go at
// 072825f9a367e9ca0f73f91830945f1b7f46e0d9.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODERESOURCES_FIT_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODERESOURCES_FIT_H_

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"
#include "reference/framework/plugins/noderesources/resource_allocation.h"
#include "reference/framework/resource.h"

namespace schedref::reference::framework::plugins::noderesources {

// What is short on a node for a pod (upstream InsufficientResource).
struct InsufficientResource {
  std::string resource_name;
  std::string reason;  // "Too many pods", "Insufficient cpu", ...
  int64_t requested = 0;
  int64_t used = 0;
  int64_t capacity = 0;
  friend bool operator==(const InsufficientResource&,
                         const InsufficientResource&) = default;
};

// upstream fitsRequest, in its order: pods ("Too many pods" iff
// #pods + 1 > allowed pods, checked even for pods requesting nothing); then,
// unless every request is 0: cpu, memory, ephemeral-storage (each only when
// requested > 0 and request > allocatable - node Requested), then each
// scalar resource with a request > 0, skipping extended resources named in
// `ignored_resources` or whose prefix before "/" is in
// `ignored_resource_groups`. Equality fits.
// Note: upstream visits scalar resources in Go map order, so the order of
// several "Insufficient <scalar>" reasons is random; here it is sorted by
// resource name (docs/deviations.md).
std::vector<InsufficientResource> FitsRequest(
    const Resource& pod_request, const NodeInfo& node,
    const std::set<std::string>& ignored_resources,
    const std::set<std::string>& ignored_resource_groups);

// FitsRequest(PodRequests(pod), node, {}, {}) (upstream Fits).
std::vector<InsufficientResource> Fits(const api::Pod& pod,
                                       const NodeInfo& node);

class Fit final : public PreFilterPlugin,
                  public FilterPlugin,
                  public PreScorePlugin,
                  public ScorePlugin,
                  public EnqueueExtensions {
 public:
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  // REQUIRES: Validate(args).ok() and args.scoring_strategy is set (as
  // SetDefaults leaves it).
  explicit Fit(const NodeResourcesFitArgs& args);

  std::string Name() const override;

  // Stores the pod's requests (component-helpers PodRequests). Never
  // rejects: SidecarContainers is on in v1.32.
  PreFilterOutput PreFilter(CycleState& state, const api::Pod& pod,
                            const std::vector<const NodeInfo*>& nodes) override;
  // Unschedulable with every InsufficientResource reason, in FitsRequest's
  // order. Error if PreFilter did not run.
  Status Filter(CycleState& state, const api::Pod& pod,
                const NodeInfo& node) override;

  // Stores the pod's per-resource requests (with non-zero defaults). Never
  // skips.
  Status PreScore(CycleState& state, const api::Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // The strategy's score; recomputes the pod's requests if PreScore did not
  // run. No NormalizeScore.
  ScoreOutput Score(CycleState& state, const api::Pod& pod,
                    const NodeInfo& node) override;

  // Pod/Delete with IsSchedulableAfterPodEvent; Node
  // Add|UpdateNodeAllocatable with IsSchedulableAfterNodeChange.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Delete of a pod that was bound -> Queue; of an unbound pod -> Skip. An
  // update (scale-down) -> Skip: InPlacePodVerticalScaling is off in v1.32.
  static StatusOr<QueueingHint> IsSchedulableAfterPodEvent(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj);
  // Skip if the pod does not fit the new/updated node when it is empty
  // (ignoredResources not applied); Queue for a new node; for an update,
  // Queue iff the allowed pod count or the allocatable of a resource the pod
  // requests went up.
  static StatusOr<QueueingHint> IsSchedulableAfterNodeChange(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj);

 private:
  // Constant after construction.
  std::set<std::string> ignored_resources_;
  std::set<std::string> ignored_resource_groups_;
  ResourceAllocationScorer scorer_;
};

}  // namespace schedref::reference::framework::plugins::noderesources

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODERESOURCES_FIT_H_
