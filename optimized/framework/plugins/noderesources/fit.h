// NodeResourcesFit: the node must have room for the pod's requests (Filter),
// and nodes are ranked by a scoring strategy (Score). Specification: upstream
// pkg/scheduler/framework/plugins/noderesources/fit.go, v1.32 with its
// default feature gates (SidecarContainers and SchedulerQueueingHints on,
// InPlacePodVerticalScaling and PodLevelResources off);
// docs/semantics/plugins.md. Scoring: resource_allocation.h.
//
// Speed: the pod's requests are PodInfo::requests, computed once per pod;
// PreFilter turns them into the list of checks Filter makes (ignored
// resources dropped), and Filter compares them with NodeInfo's running
// aggregates (requested(), allocatable(), pods().size()) without walking the
// node's pods and without allocating when the pod fits.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODERESOURCES_FIT_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODERESOURCES_FIT_H_

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/framework/interface.h"
#include "optimized/framework/plugins/noderesources/resource_allocation.h"

namespace schedref::optimized::framework::plugins::noderesources {

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

// The checks upstream's fitsRequest makes for one pod, computed once.
struct FitRequest {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  // Nothing but the pod count to check. (Upstream returns early only when
  // the pod names no scalar resource at all, but every check below needs a
  // request > 0, so a scalar requested at 0 changes nothing.)
  bool only_pod_count = false;
  // Scalar resources requested > 0 and not ignored, sorted by name.
  std::vector<std::pair<std::string, int64_t>> scalars;
};

// The checks for `request`: extended resources named in `ignored_resources`
// or whose prefix before "/" is in `ignored_resource_groups` are dropped.
FitRequest MakeFitRequest(const Resource& request,
                          const std::set<std::string>& ignored_resources,
                          const std::set<std::string>& ignored_resource_groups);

// upstream fitsRequest, in its order: pods ("Too many pods" iff
// num_pods + 1 > allowed pods, checked even for pods requesting nothing);
// then, unless only_pod_count: cpu, memory, ephemeral-storage (each only when
// requested > 0 and request > allocatable - used), then each scalar check.
// Equality fits. Appends every shortage to `out`; with out == nullptr stops
// at the first. Returns true iff nothing is short.
// Note: upstream visits scalar resources in Go map order, so the order of
// several "Insufficient <scalar>" reasons is random; here it is sorted by
// resource name (docs/deviations.md).
bool FitsRequest(const FitRequest& request, const Resource& allocatable,
                 const Resource& used, int64_t num_pods,
                 std::vector<InsufficientResource>* out);

class Fit final : public PreFilterPlugin,
                  public FilterPlugin,
                  public PreScorePlugin,
                  public ScorePlugin,
                  public EnqueueExtensions {
 public:
  // Decodes, defaults and validates the args (api/config/pluginargs).
  static StatusOr<std::unique_ptr<framework::Plugin>> New(
      const nlohmann::json& args, framework::Handle* handle);
  // REQUIRES: args.scoring_strategy is set, and a RequestedToCapacityRatio
  // strategy has a valid shape (as SetDefaults + Validate leave them).
  // `handle` (may be null: no score memo) gives PreScore the snapshot.
  explicit Fit(const NodeResourcesFitArgs& args, Handle* handle = nullptr);

  std::string Name() const override;

  // Stores the pod's checks. Never rejects (SidecarContainers is on in v1.32).
  PreFilterOutput PreFilter(CycleState& state, const PodInfo& pod,
                            const std::vector<NodeInfo*>& nodes) override;
  // Unschedulable with every shortage's reason, in FitsRequest's order.
  // Error if PreFilter did not store its state.
  Status Filter(const CycleState& state, const PodInfo& pod,
                const NodeInfo& node) const override;
  // Filter with the PreFilter state's request.
  static Status FilterWith(const FitRequest& request, const NodeInfo& node);
  bool NarrowHotCheck(const CycleState& state, const PodInfo& pod,
                      HotCheck* check) const override;
  // The default's meaning, with the PreFilter state read once for the run.
  size_t FilterPass(const CycleState& state, const PodInfo& pod, const NodeInfo* const* nodes,
                    size_t n, uint8_t* pass, Status* statuses) const override;
  // Filter against node's requested() less each removed pod's requests (in
  // order, as NodeInfo::RemovePod subtracts them) and its pod count less
  // removed.size(). REQUIRES: every removed pod is on node, once.
  std::optional<Status> FilterWithoutPods(const CycleState& state, const PodInfo& pod,
                                          const NodeInfo& node,
                                          const std::vector<const PodInfo*>& removed) const override;
  // FilterWithoutPods of all of node's pods: nothing used, no pods.
  std::optional<Status> FilterWithoutAllPods(const CycleState& state, const PodInfo& pod,
                                             const NodeInfo& node) const override;
  // Filter against node's requested() plus each added pod's requests and
  // its pod count plus added.size(). REQUIRES: no added pod is on node.
  std::optional<Status> FilterWithPods(const CycleState& state, const PodInfo& pod,
                                       const NodeInfo& node,
                                       const std::vector<const PodInfo*>& added) const override;

  // Stores the resources that can count and the pod's request for each (with
  // the non-zero defaults). Never skips.
  Status PreScore(CycleState& state, const PodInfo& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // The strategy's score; computes the pod's part itself if PreScore did not
  // run. No NormalizeScore.
  ScoreOutput Score(const CycleState& state, const PodInfo& pod,
                    const NodeInfo& node) const override;
  // The scorer's memo by position (ResourceAllocationScorer::ScoresByPosition).
  const uint8_t* ScoresByPosition(const CycleState& state) const override;
  size_t ScoreMany(const CycleState& state, const PodInfo& pod, const NodeInfo* const* nodes,
                   size_t n, int64_t* scores, Status* failure) const override;

  // Pod/Delete with IsSchedulableAfterPodEvent; Node
  // Add|UpdateNodeAllocatable with IsSchedulableAfterNodeChange.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Delete of a pod that was bound (spec.nodeName set) -> Queue; of an
  // unbound pod, or no old pod -> Skip. An update (a scale-down) -> Skip:
  // InPlacePodVerticalScaling is off in v1.32.
  static StatusOr<QueueingHint> IsSchedulableAfterPodEvent(
      const api::Pod& pod, const EventObjects& objects);
  // Skip if there is no new node or the pod does not fit it when empty
  // (ignored resources not applied, as upstream); Queue for an added node;
  // for an update, Queue iff the allowed pod count or the allocatable of a
  // resource the pod requests went up.
  static StatusOr<QueueingHint> IsSchedulableAfterNodeChange(
      const api::Pod& pod, const EventObjects& objects);

 private:
  // Constant after construction.
  Handle* const handle_;
  std::set<std::string> ignored_resources_;
  std::set<std::string> ignored_resource_groups_;
  ResourceAllocationScorer scorer_;
};

}  // namespace schedref::optimized::framework::plugins::noderesources

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODERESOURCES_FIT_H_
