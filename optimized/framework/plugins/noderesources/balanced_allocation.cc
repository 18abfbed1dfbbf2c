#include "optimized/framework/plugins/noderesources/balanced_allocation.h"

#include <algorithm>
#include <utility>

#include "api/config/pluginargs/noderesources_args.h"
#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::noderesources {
namespace {

struct PreScoreState final : StateData {
  // Relevant resources; shared with other cycles' states
  // (ResourceAllocationScorer::SharedRelevant), never changed.
  std::shared_ptr<const std::vector<PodResource>> pod;
  // The cycle's snapshot, for the scorer's memo; null without a handle.
  const Snapshot* memo = nullptr;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

const int kPreScoreKey = CycleState::NewKey();

}  // namespace

StatusOr<std::unique_ptr<framework::Plugin>> BalancedAllocation::New(
    const nlohmann::json& args, framework::Handle* handle) {
  auto decoded = api::pluginargs::DecodeNodeResourcesBalancedAllocationArgs(args);
  if (!decoded.ok()) return decoded.status();
  return std::unique_ptr<framework::Plugin>(new BalancedAllocation(*decoded, handle));
}

BalancedAllocation::BalancedAllocation(const NodeResourcesBalancedAllocationArgs& args,
                                       Handle* handle)
    : handle_(handle), scorer_(ScoringKind::kBalancedAllocation, args.resources) {}

std::string BalancedAllocation::Name() const {
  return names::kNodeResourcesBalancedAllocation;
}

Status BalancedAllocation::PreScore(CycleState& state, const PodInfo& pod,
                                    const std::vector<const NodeInfo*>& /*nodes*/) {
  // v1.32 scores best-effort pods too (v1.33 skips them, PR #130260).
  scorer_.PodRequests(pod);  // SharedRelevant() below is made from it
  auto s = std::make_unique<PreScoreState>();
  s->pod = scorer_.SharedRelevant();
  s->memo = scorer_.BeginMemo(handle_, *s->pod);
  state.Write(kPreScoreKey, std::move(s));
  return Status::Success();
}

ScoreOutput BalancedAllocation::Score(const CycleState& state, const PodInfo& pod,
                                      const NodeInfo& node) const {
  if (const auto* s = state.ReadAs<PreScoreState>(kPreScoreKey)) {
    return scorer_.Score(node, *s->pod);
  }
  return scorer_.Score(node, scorer_.Relevant(scorer_.PodRequestList(pod)));
}

const uint8_t* BalancedAllocation::ScoresByPosition(const CycleState& state) const {
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreKey);
  return s == nullptr ? nullptr : scorer_.ScoresByPosition(*s->pod);
}

size_t BalancedAllocation::ScoreMany(const CycleState& state, const PodInfo& pod,
                                     const NodeInfo* const* nodes, size_t n, int64_t* scores,
                                     Status* failure) const {
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreKey);
  if (s == nullptr) return ScorePlugin::ScoreMany(state, pod, nodes, n, scores, failure);
  return scorer_.ScoreMany(nodes, n, *s->pod, scores, failure, s->memo);
}

}  // namespace schedref::optimized::framework::plugins::noderesources
