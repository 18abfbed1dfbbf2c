// NodeResourcesBalancedAllocation: prefers nodes whose resource usage
// fractions, with the pod placed, are close to each other. Specification:
// upstream pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go
// as of v1.32: actual requests (no 100m / 200Mi defaults), and pods that
// request none of the configured resources are scored like any other
// (v1.33's PreScore Skip, kubernetes#129138, is not in v1.32);
// docs/semantics/plugins.md. Formula:
// resource_allocation.h (ScoringKind::kBalancedAllocation).
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODERESOURCES_BALANCED_ALLOCATION_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODERESOURCES_BALANCED_ALLOCATION_H_

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "optimized/framework/interface.h"
#include "optimized/framework/plugins/noderesources/resource_allocation.h"

namespace schedref::optimized::framework::plugins::noderesources {

class BalancedAllocation final : public PreScorePlugin, public ScorePlugin {
 public:
  // Decodes, defaults and validates the args (api/config/pluginargs).
  static StatusOr<std::unique_ptr<framework::Plugin>> New(
      const nlohmann::json& args, framework::Handle* handle);
  // `handle` (may be null: no memo) gives PreScore the cycle's snapshot.
  explicit BalancedAllocation(const NodeResourcesBalancedAllocationArgs& args,
                              Handle* handle = nullptr);

  std::string Name() const override;

  // Skip iff the pod requests 0 of every configured resource (scoring
  // best-effort pods would pile them onto one node); otherwise stores the
  // resources that can count and the pod's request for each.
  Status PreScore(CycleState& state, const PodInfo& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // Computes the pod's part itself if PreScore did not run. No
  // NormalizeScore.
  ScoreOutput Score(const CycleState& state, const PodInfo& pod,
                    const NodeInfo& node) const override;
  // The scorer's memo by position (ResourceAllocationScorer::ScoresByPosition).
  const uint8_t* ScoresByPosition(const CycleState& state) const override;
  size_t ScoreMany(const CycleState& state, const PodInfo& pod, const NodeInfo* const* nodes,
                   size_t n, int64_t* scores, Status* failure) const override;

 private:
  // Constant after construction.
  Handle* const handle_;
  ResourceAllocationScorer scorer_;
};

}  // namespace schedref::optimized::framework::plugins::noderesources

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODERESOURCES_BALANCED_ALLOCATION_H_
