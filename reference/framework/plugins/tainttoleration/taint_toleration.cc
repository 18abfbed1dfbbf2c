#include "reference/framework/plugins/tainttoleration/taint_toleration.h"

#include "api/types/labels.h"
#include "reference/framework/plugins/helper/event_objects.h"
#include "reference/framework/plugins/helper/normalize_score.h"
#include "reference/framework/plugins/helper/typed_state.h"
#include "reference/framework/plugins/names/names.h"

namespace schedref::reference::framework::plugins::tainttoleration {
namespace {

const std::string kPreScoreStateKey =
    std::string("PreScore") + names::kTaintToleration;

using PreferNoScheduleTolerations = std::vector<api::Toleration>;

}  // namespace

std::optional<api::Taint> FindUntoleratedNoScheduleTaint(
    const std::vector<api::Taint>& taints,
    const std::vector<api::Toleration>& tolerations) {
  for (const api::Taint& taint : taints) {
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
    if (!api::TolerationsTolerateTaint(tolerations, taint)) return taint;
  }
  return std::nullopt;
}

StatusOr<std::unique_ptr<Plugin>> TaintToleration::New(
    const nlohmann::json& /*args*/, Handle* /*handle*/) {
  return std::unique_ptr<Plugin>(new TaintToleration());
}

std::string TaintToleration::Name() const { return names::kTaintToleration; }

Status TaintToleration::Filter(CycleState& /*state*/, const api::Pod& pod,
                               const NodeInfo& node) {
  std::optional<api::Taint> taint =
      FindUntoleratedNoScheduleTaint(node.node->taints, pod.tolerations);
  if (!taint) return Status::Success();
  return Status(Code::kUnschedulableAndUnresolvable,
                "node(s) had untolerated taint {" + taint->key + ": " +
                    taint->value + "}");
}

Status TaintToleration::PreScore(CycleState& state, const api::Pod& pod,
                                 const std::vector<const NodeInfo*>& /*nodes*/) {
  PreferNoScheduleTolerations tolerations;
  for (const api::Toleration& t : pod.tolerations) {
    // An empty effect matches every effect, PreferNoSchedule included.
    if (t.effect.empty() || t.effect == "PreferNoSchedule") {
      tolerations.push_back(t);
    }
  }
  helper::WriteState(state, kPreScoreStateKey, std::move(tolerations));
  return Status::Success();
}

ScoreOutput TaintToleration::Score(CycleState& state, const api::Pod& /*pod*/,
                                   const NodeInfo& node) {
  const auto* tolerations =
      helper::ReadState<PreferNoScheduleTolerations>(state, kPreScoreStateKey);
  if (tolerations == nullptr) {
    return {0, Status::Error("failed to read \"" + kPreScoreStateKey +
                             "\" from cycleState: not found")};
  }
  int64_t intolerable = 0;
  for (const api::Taint& taint : node.node->taints) {
    if (taint.effect != "PreferNoSchedule") continue;
    if (!api::TolerationsTolerateTaint(*tolerations, taint)) ++intolerable;
  }
  return {intolerable, Status::Success()};
}

Status TaintToleration::NormalizeScore(CycleState& /*state*/,
                                       const api::Pod& /*pod*/,
                                       NodeScoreList& scores) {
  helper::DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/true, scores);
  return Status::Success();
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
    const api::Pod& pod, const EventObject& old_obj,
    const EventObject& new_obj) {
  auto objs = helper::As<api::Node>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  if (objs->new_obj == nullptr) return QueueingHint::kSkip;
  bool was_untolerated = true;
  if (objs->old_obj != nullptr) {
    was_untolerated = FindUntoleratedNoScheduleTaint(objs->old_obj->taints,
                                                     pod.tolerations)
                          .has_value();
  }
  const bool is_untolerated =
      FindUntoleratedNoScheduleTaint(objs->new_obj->taints, pod.tolerations)
          .has_value();
  return was_untolerated && !is_untolerated ? QueueingHint::kQueue
                                            : QueueingHint::kSkip;
}

StatusOr<QueueingHint> TaintToleration::IsSchedulableAfterPodTolerationChange(
    const api::Pod& pod, const EventObject& old_obj,
    const EventObject& new_obj) {
  auto objs = helper::As<api::Pod>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  if (objs->new_obj != nullptr && objs->new_obj->uid == pod.uid) {
    return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

}  // namespace schedref::reference::framework::plugins::tainttoleration
