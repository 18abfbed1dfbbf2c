#include "reference/framework/plugins/noderesources/balanced_allocation.h"

#include <cmath>

#include "reference/framework/plugins/helper/typed_state.h"
#include "reference/framework/plugins/names/names.h"

namespace schedref::reference::framework::plugins::noderesources {
namespace {

const std::string kPreScoreStateKey =
    std::string("PreScore") + names::kNodeResourcesBalancedAllocation;

struct BalancedPreScoreState {
  std::vector<int64_t> pod_requests;
};

}  // namespace

int64_t BalancedResourceScore(const std::vector<int64_t>& requested,
                              const std::vector<int64_t>& allocatable) {
  std::vector<double> fractions;
  double total = 0;
  for (size_t i = 0; i < requested.size(); ++i) {
    if (allocatable[i] == 0) continue;
    double fraction = static_cast<double>(requested[i]) /
                      static_cast<double>(allocatable[i]);
    if (fraction > 1) fraction = 1;
    total += fraction;
    fractions.push_back(fraction);
  }
  double std = 0.0;
  if (fractions.size() == 2) {
    std = std::abs((fractions[0] - fractions[1]) / 2);
  } else if (fractions.size() > 2) {
    const double mean = total / static_cast<double>(fractions.size());
    double sum = 0;
    for (double f : fractions) sum = sum + (f - mean) * (f - mean);
    std = std::sqrt(sum / static_cast<double>(fractions.size()));
  }
  return static_cast<int64_t>((1 - std) * static_cast<double>(kMaxNodeScore));
}

StatusOr<std::unique_ptr<Plugin>> BalancedAllocation::New(
    const nlohmann::json& args, Handle* /*handle*/) {
  auto decoded =
      api::pluginargs::DecodeNodeResourcesBalancedAllocationArgs(args);
  if (!decoded.ok()) return decoded.status();
  return std::unique_ptr<Plugin>(new BalancedAllocation(*decoded));
}

BalancedAllocation::BalancedAllocation(
    const NodeResourcesBalancedAllocationArgs& args)
    : scorer_(names::kNodeResourcesBalancedAllocation, /*use_requested=*/true,
              args.resources, &BalancedResourceScore) {}

std::string BalancedAllocation::Name() const {
  return names::kNodeResourcesBalancedAllocation;
}

Status BalancedAllocation::PreScore(
    CycleState& state, const api::Pod& pod,
    const std::vector<const NodeInfo*>& /*nodes*/) {
  // v1.32 scores best-effort pods too (by the node's own balance); the
  // skip for pods that request nothing is v1.33's (PR #130260).
  std::vector<int64_t> requests = scorer_.PodRequestList(pod);
  helper::WriteState(state, kPreScoreStateKey,
                     BalancedPreScoreState{std::move(requests)});
  return Status::Success();
}

ScoreOutput BalancedAllocation::Score(CycleState& state, const api::Pod& pod,
                                      const NodeInfo& node) {
  const auto* s =
      helper::ReadState<BalancedPreScoreState>(state, kPreScoreStateKey);
  if (s != nullptr) return scorer_.Score(node, s->pod_requests);
  return scorer_.Score(node, scorer_.PodRequestList(pod));
}

}  // namespace schedref::reference::framework::plugins::noderesources
