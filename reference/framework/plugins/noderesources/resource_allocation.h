// The scoring machinery shared by NodeResourcesFit's strategies and
// NodeResourcesBalancedAllocation: per resource, what the node would have
// requested with the pod on it, and what it has allocatable. Specification:
// upstream pkg/scheduler/framework/plugins/noderesources/resource_allocation.go
// and least_allocated.go, most_allocated.go, requested_to_capacity_ratio.go
// (v1.32, without the DRA and pod-level-resources paths, which are off).
//
// For each configured resource r (in args order), given the pod's request
// p_r (PodRequestList below):
//   - an extended/hugepages/other scalar resource with p_r == 0 is skipped;
//   - cpu/memory: requested = node NonZeroRequested (or Requested when
//     use_requested) + p_r; ephemeral-storage: node Requested + p_r; a
//     scalar resource: node Requested + p_r if the node's allocatable lists
//     it, else skipped; any other name (e.g. "pods") is skipped;
//   - a resource whose allocatable is 0 is skipped.
// Skipped resources enter the strategy as allocatable 0, which every
// strategy ignores.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODERESOURCES_RESOURCE_ALLOCATION_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODERESOURCES_RESOURCE_ALLOCATION_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "api/config/pluginargs/noderesources_args.h"
#include "api/types/objects.h"
#include "reference/framework/interface.h"
#include "reference/framework/node_info.h"

namespace schedref::reference::framework::plugins::noderesources {

// The args vocabulary of both plugins (upstream config.*), defined with its
// decoding, defaults and validation in api/config/pluginargs/noderesources_args.h.
using api::pluginargs::kLeastAllocated;
using api::pluginargs::kMaxCustomPriorityScore;
using api::pluginargs::kMostAllocated;
using api::pluginargs::kRequestedToCapacityRatio;
using api::pluginargs::NodeResourcesBalancedAllocationArgs;
using api::pluginargs::NodeResourcesFitArgs;
using api::pluginargs::ResourceSpec;
using api::pluginargs::ScoringStrategy;
using api::pluginargs::UtilizationShapePoint;

// requested[i], allocatable[i] per configured resource -> node score.
using Scorer = std::function<int64_t(const std::vector<int64_t>& requested,
                                     const std::vector<int64_t>& allocatable)>;

// leastResourceScorer: per resource ((alloc - req) * 100) / alloc (0 when
// req > alloc); weighted average Σ(score·w)/Σw over resources with alloc > 0
// (integer division; 0 when no resource counts).
Scorer LeastAllocatedScorer(std::vector<ResourceSpec> resources);
// mostResourceScorer: per resource (min(req, alloc) * 100) / alloc; same
// weighted average.
Scorer MostAllocatedScorer(std::vector<ResourceSpec> resources);
// requestedToCapacityRatioScorer: shape scores scaled by 100/10; per
// resource the broken-linear function of utilisation req*100/alloc (100
// when req > alloc); only resources scoring > 0 enter the weighted average,
// which is rounded (math.Round) instead of truncated.
Scorer RequestedToCapacityRatioScorer(
    std::vector<ResourceSpec> resources,
    const std::vector<UtilizationShapePoint>& shape);

class ResourceAllocationScorer {
 public:
  // `use_requested`: cpu and memory use the node's actual Requested and the
  // pod's actual requests (BalancedAllocation); otherwise NonZeroRequested
  // and the pod's requests with the 100m/200Mi defaults (Fit's strategies).
  ResourceAllocationScorer(std::string name, bool use_requested,
                           std::vector<ResourceSpec> resources, Scorer scorer);

  // The pod's request for each configured resource, in args order
  // (upstream calculatePodResourceRequestList).
  std::vector<int64_t> PodRequestList(const api::Pod& pod) const;

  // Error "resources not found" when no resource is configured.
  ScoreOutput Score(const NodeInfo& node,
                    const std::vector<int64_t>& pod_requests) const;

  const std::string& name() const { return name_; }
  const std::vector<ResourceSpec>& resources() const { return resources_; }

 private:
  // Constant after construction.
  std::string name_;
  bool use_requested_;
  std::vector<ResourceSpec> resources_;
  Scorer scorer_;
};

}  // namespace schedref::reference::framework::plugins::noderesources

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODERESOURCES_RESOURCE_ALLOCATION_H_
