#include "optimized/framework/plugins/tainttoleration/taint_toleration.h"

#include <algorithm>
#include <utility>

#include "api/types/labels.h"
#include "optimized/framework/cycle_state.h"
#include "optimized/framework/plugins/helper/normalize_score.h"
#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::tainttoleration {
namespace {

constexpr char kNoSchedule[] = "NoSchedule";
constexpr char kNoExecute[] = "NoExecute";
constexpr char kPreferNoSchedule[] = "PreferNoSchedule";

// Upstream's state key, named in Score's error.
constexpr char kPreScoreStateKey[] = "PreScoreTaintToleration";

// The pod's tolerations with an empty or PreferNoSchedule effect.
struct PreScoreState final : StateData {
  std::vector<api::Toleration> tolerations;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

const int kPreScoreKey = CycleState::NewKey();

}  // namespace

const api::Taint* FindUntoleratedNoScheduleTaint(
    const std::vector<api::Taint>& taints,
    const std::vector<api::Toleration>& tolerations) {
  for (const api::Taint& taint : taints) {
    if (taint.effect != kNoSchedule && taint.effect != kNoExecute) continue;
    if (!api::TolerationsTolerateTaint(tolerations, taint)) return &taint;
  }
  return nullptr;
}

StatusOr<std::unique_ptr<Plugin>> TaintToleration::New(
    const nlohmann::json& /*args*/, Handle* /*handle*/) {
  return std::unique_ptr<Plugin>(new TaintToleration());
}

std::string TaintToleration::Name() const { return names::kTaintToleration; }

Status TaintToleration::Filter(const CycleState& /*state*/, const PodInfo& pod,
                               const NodeInfo& node) const {
  if (!node.has_no_schedule_or_no_execute_taints()) return Status::Success();
  const api::Taint* taint =
      FindUntoleratedNoScheduleTaint(node.node()->taints, pod.pod.tolerations);
  if (taint == nullptr) return Status::Success();
  return Status(Code::kUnschedulableAndUnresolvable,
                "node(s) had untolerated taint {" + taint->key + ": " +
                    taint->value + "}");
}

Status TaintToleration::PreScore(CycleState& state, const PodInfo& pod,
                                 const std::vector<const NodeInfo*>& /*nodes*/) {
  auto s = std::make_unique<PreScoreState>();
  for (const api::Toleration& t : pod.pod.tolerations) {
    // An empty effect tolerates every effect, PreferNoSchedule included.
    if (t.effect.empty() || t.effect == kPreferNoSchedule) {
      s->tolerations.push_back(t);
    }
  }
  state.Write(kPreScoreKey, std::move(s));
  return Status::Success();
}

ScoreOutput TaintToleration::Score(const CycleState& state,
                                   const PodInfo& /*pod*/,
                                   const NodeInfo& node) const {
  const auto* s = state.ReadAs<PreScoreState>(kPreScoreKey);
  if (s == nullptr) {
    return {0, Status::Error(std::string("failed to read \"") +
                             kPreScoreStateKey +
                             "\" from cycleState: not found")};
  }
  int64_t intolerable = 0;
  if (!node.has_prefer_no_schedule_taints()) return {intolerable, Status::Success()};
  for (const api::Taint& taint : node.node()->taints) {
    if (taint.effect != kPreferNoSchedule) continue;
    if (!api::TolerationsTolerateTaint(s->tolerations, taint)) ++intolerable;
  }
  return {intolerable, Status::Success()};
}

size_t TaintToleration::ScoreMany(const CycleState& state, const PodInfo& pod,
                                  const NodeInfo* const* nodes, size_t n, int64_t* scores,
                                  Status* failure) const {
  if (state.ReadAs<PreScoreState>(kPreScoreKey) == nullptr) {
    return ScorePlugin::ScoreMany(state, pod, nodes, n, scores, failure);
  }
  // Score counts PreferNoSchedule taints only; usually no node of the run
  // has one.
  if ((HotFlagsOf(nodes, n) & NodeInfo::kPreferTaints) == 0) {
    std::fill_n(scores, n, 0);
    return n;
  }
  for (size_t i = 0; i < n; ++i) {
    scores[i] = nodes[i]->has_prefer_no_schedule_taints() ? Score(state, pod, *nodes[i]).score : 0;
  }
  return n;
}

std::optional<int64_t> TaintToleration::UniformScore(const CycleState& state,
                                                     const PodInfo& /*pod*/,
                                                     uint32_t flags) const {
  // Without the PreScore state Score fails: leave it to ScoreMany.
  if (state.ReadAs<PreScoreState>(kPreScoreKey) == nullptr) return std::nullopt;
  if ((flags & NodeInfo::kPreferTaints) != 0) return std::nullopt;
  return kMaxNodeScore;
}

Status TaintToleration::NormalizeScore(
    const CycleState& /*state*/, const PodInfo& /*pod*/,
    const std::vector<const NodeInfo*>& /*nodes*/,
    std::vector<int64_t>& scores) {
  helper::DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/true, scores);
  return Status::Success();
}

bool TaintToleration::NarrowHotCheck(const CycleState& /*state*/, const PodInfo& /*pod*/,
                                     HotCheck* check) const {
  // Without NoSchedule or NoExecute taints there is nothing to tolerate.
  check->And({.flags_clear = NodeInfo::kHardTaints});
  return true;
}

std::vector<ClusterEventWithHint> TaintToleration::EventsToRegister() const {
  return {
      {{EventResource::kNode, kAdd | kUpdateNodeTaint,
        "NodeAdd|UpdateNodeTaint"},
       &TaintToleration::IsSchedulableAfterNodeChange},
      {{EventResource::kPod, kUpdatePodTolerations, "PodUpdatePodTolerations"},
       &TaintToleration::IsSchedulableAfterPodTolerationChange},
  };
}

StatusOr<QueueingHint> TaintToleration::IsSchedulableAfterNodeChange(
    const api::Pod& pod, const EventObjects& objects) {
  if (objects.new_node == nullptr) return QueueingHint::kSkip;
  if (FindUntoleratedNoScheduleTaint(objects.new_node->taints,
                                     pod.tolerations) != nullptr) {
    return QueueingHint::kSkip;
  }
  // Now tolerated: only news if it was not before (a new node counts).
  const bool was_untolerated =
      objects.old_node == nullptr ||
      FindUntoleratedNoScheduleTaint(objects.old_node->taints,
                                     pod.tolerations) != nullptr;
  return was_untolerated ? QueueingHint::kQueue : QueueingHint::kSkip;
}

StatusOr<QueueingHint> TaintToleration::IsSchedulableAfterPodTolerationChange(
    const api::Pod& pod, const EventObjects& objects) {
  if (objects.new_pod != nullptr && objects.new_pod->uid == pod.uid) {
    return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

}  // namespace schedref::optimized::framework::plugins::tainttoleration
