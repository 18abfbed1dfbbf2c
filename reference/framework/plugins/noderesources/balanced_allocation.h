// NodeResourcesBalancedAllocation: prefers nodes whose resource usage
// fractions, with the pod placed, are close to each other. Specification:
// upstream pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go
// as of v1.32: actual requests (useRequested; no 100m/200Mi defaults), and
// pods that request none of the configured resources are scored like any
// other (v1.33's PreScore Skip for them, kubernetes#129138, is not in v1.32;
// docs/deviations.md). Test cases from
// balanced_allocation_test.go at f0032816cae31e46af116d0e13e6151cac8eb638 (an
// old version; expectations recomputed with the v1.32 formula).
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODERESOURCES_BALANCED_ALLOCATION_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODERESOURCES_BALANCED_ALLOCATION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/interface.h"
#include "reference/framework/plugins/noderesources/resource_allocation.h"

namespace schedref::reference::framework::plugins::noderesources {

// balancedResourceScorer: fraction_i = min(1, requested_i/allocatable_i)
// over resources with allocatable > 0; std = |f1-f2|/2 for two fractions,
// the population standard deviation for more, 0 for fewer;
// score = int((1 - std) * 100).
int64_t BalancedResourceScore(const std::vector<int64_t>& requested,
                              const std::vector<int64_t>& allocatable);

class BalancedAllocation final : public PreScorePlugin, public ScorePlugin {
 public:
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  // REQUIRES: Validate(args).ok().
  explicit BalancedAllocation(const NodeResourcesBalancedAllocationArgs& args);

  std::string Name() const override;

  // Skip iff the pod requests 0 of every configured resource; otherwise
  // stores the pod's requests.
  Status PreScore(CycleState& state, const api::Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // No NormalizeScore.
  ScoreOutput Score(CycleState& state, const api::Pod& pod,
                    const NodeInfo& node) override;

 private:
  // Constant after construction.
  ResourceAllocationScorer scorer_;
};

}  // namespace schedref::reference::framework::plugins::noderesources

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODERESOURCES_BALANCED_ALLOCATION_H_
