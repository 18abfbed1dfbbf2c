#include "reference/framework/plugins/defaultpreemption/default_preemption.h"

#include <algorithm>
#include <utility>

#include "api/types/labels.h"
#include "reference/framework/plugins/names/names.h"
#include "reference/framework/preemption/importance.h"

namespace schedref::reference::framework::plugins::defaultpreemption {

using preemption::PodPriority;

std::pair<std::vector<api::Pod>, std::vector<api::Pod>>
FilterPodsWithPDBViolation(const std::vector<api::Pod>& pods,
                           const std::vector<api::PodDisruptionBudget>& pdbs) {
  std::vector<int64_t> allowed;
  for (const api::PodDisruptionBudget& pdb : pdbs) {
    allowed.push_back(pdb.disruptions_allowed);
  }
  std::vector<api::Pod> violating;
  std::vector<api::Pod> non_violating;
  for (const api::Pod& pod : pods) {
    bool violated = false;
    // A pod without labels matches no PDB.
    if (!pod.labels.empty()) {
      for (size_t i = 0; i < pdbs.size(); ++i) {
        const api::PodDisruptionBudget& pdb = pdbs[i];
        if (pdb.ns != pod.ns) continue;
        // An absent or empty selector matches nothing here.
        if (!pdb.selector || (pdb.selector->match_labels.empty() &&
                              pdb.selector->match_expressions.empty())) {
          continue;
        }
        if (!api::Matches(*pdb.selector, pod.labels)) continue;
        // Already processed by the API server: not a violation.
        if (std::find(pdb.disrupted_pods.begin(), pdb.disrupted_pods.end(),
                      pod.name) != pdb.disrupted_pods.end()) {
          continue;
        }
        // Only a matching pod not yet disrupted takes from the budget.
        if (--allowed[i] < 0) violated = true;
      }
    }
    (violated ? violating : non_violating).push_back(pod);
  }
  return {std::move(violating), std::move(non_violating)};
}

// core/v1 DisruptionTarget and PodReasonPreemptionByScheduler.
constexpr char kDisruptionTarget[] = "DisruptionTarget";
constexpr char kPreemptionByScheduler[] = "PreemptionByScheduler";

bool PodTerminatingByPreemption(const api::Pod& pod) {
  if (!pod.deletion_timestamp.has_value()) return false;
  // The first DisruptionTarget condition decides.
  for (const api::PodCondition& c : pod.conditions) {
    if (c.type == kDisruptionTarget) {
      return c.status == "True" && c.reason == kPreemptionByScheduler;
    }
  }
  return false;
}

StatusOr<std::unique_ptr<Plugin>> DefaultPreemption::New(
    const nlohmann::json& args, Handle* handle) {
  if (handle == nullptr) {
    return schedref::Status::Invalid("DefaultPreemption needs a handle");
  }
  StatusOr<DefaultPreemptionArgs> decoded =
      api::pluginargs::DecodeDefaultPreemptionArgs(args);
  if (!decoded.ok()) return decoded.status();
  return std::unique_ptr<Plugin>(new DefaultPreemption(*decoded, handle));
}

DefaultPreemption::DefaultPreemption(DefaultPreemptionArgs args,
                                     Handle* handle)
    : args_(args), handle_(handle), evaluator_(handle, this) {}

std::string DefaultPreemption::Name() const {
  return names::kDefaultPreemption;
}

PostFilterOutput DefaultPreemption::PostFilter(CycleState& state,
                                               const api::Pod& pod,
                                               const NodeToStatus& statuses) {
  PostFilterOutput out = evaluator_.Preempt(state, pod, statuses);
  const std::string msg = out.status.Message();
  if (!msg.empty()) out.status = Status(out.status.code(), "preemption: " + msg);
  return out;
}

Status DefaultPreemption::PreEnqueue(const api::Pod& /*pod*/) {
  return Status::Success();
}

std::vector<ClusterEventWithHint> DefaultPreemption::EventsToRegister() const {
  return {};
}

int32_t DefaultPreemption::CalculateNumCandidates(int32_t num_nodes) const {
  int32_t n = (num_nodes * args_.min_candidate_nodes_percentage) / 100;
  if (n < args_.min_candidate_nodes_absolute) {
    n = args_.min_candidate_nodes_absolute;
  }
  if (n > num_nodes) n = num_nodes;
  return n;
}

std::pair<int32_t, int32_t> DefaultPreemption::GetOffsetAndNumCandidates(
    int32_t num_nodes) {
  // Note: docs/deviations.md "Preemption" (upstream rand.Int31n).
  const int32_t offset = static_cast<int32_t>(
      handle_->NextRandom() % static_cast<uint64_t>(num_nodes));
  return {offset, CalculateNumCandidates(num_nodes)};
}

std::pair<bool, std::string> DefaultPreemption::PodEligibleToPreemptOthers(
    const api::Pod& pod, const Status& nominated_node_status) {
  if (pod.preemption_policy && *pod.preemption_policy == "Never") {
    return {false, kNotEligibleNever};
  }
  const std::string& nominated = pod.nominated_node_name;
  if (nominated.empty()) return {true, ""};
  // A nominated node the filters consider UnschedulableAndUnresolvable:
  // preempt again elsewhere.
  if (nominated_node_status.code() == Code::kUnschedulableAndUnresolvable) {
    return {true, ""};
  }
  if (const NodeInfo* info = handle_->SnapshotSharedLister().Get(nominated)) {
    for (const api::Pod& p : info->pods) {
      if (PodPriority(p) < PodPriority(pod) && PodTerminatingByPreemption(p)) {
        // An earlier preemption's victim is still terminating there.
        return {false, kNotEligibleTerminating};
      }
    }
  }
  return {true, ""};
}

preemption::SelectVictimsResult DefaultPreemption::SelectVictimsOnNode(
    CycleState& state, const api::Pod& pod, NodeInfo& node,
    const std::vector<api::PodDisruptionBudget>& pdbs) {
  PluginsRunner* runner = handle_->RunnerFor(pod);
  if (runner == nullptr) {
    return {{}, 0, Status::Error("no framework for pod " + pod.Key())};
  }
  const api::TimeMs now = handle_->Now();
  auto remove_pod = [&](const api::Pod& p) {
    node.RemovePod(p);
    return runner->RunPreFilterExtensionRemovePod(state, pod, p, node);
  };
  auto add_pod = [&](const api::Pod& p) {
    node.AddPod(p);
    return runner->RunPreFilterExtensionAddPod(state, pod, p, node);
  };

  // Remove every pod eligible for preemption (lower priority), in the
  // node's pod order, and check whether the pod fits without them.
  std::vector<api::Pod> potential_victims;
  for (const api::Pod& p : node.pods) {
    if (PodPriority(p) < PodPriority(pod)) potential_victims.push_back(p);
  }
  for (const api::Pod& p : potential_victims) {
    Status s = remove_pod(p);
    if (!s.IsSuccess()) return {{}, 0, Status::Error(s.Message())};
  }
  if (potential_victims.empty()) {
    return {{}, 0, Status(Code::kUnschedulableAndUnresolvable, kNoVictims)};
  }
  // Note: if the pod only fails because of inter-pod affinity to a victim,
  // the node is not a candidate; upstream decided not to support that case.
  Status fits = runner->RunFilterPluginsWithNominatedPods(state, pod, node,
                                                          nullptr);
  if (!fits.IsSuccess()) return {{}, 0, fits};

  // Most important first, so that they are reprieved first.
  preemption::SortByImportance(potential_victims, now);
  auto [violating, non_violating] =
      FilterPodsWithPDBViolation(potential_victims, pdbs);

  std::vector<api::Pod> victims;
  int num_violating = 0;
  // Adds `p` back; if the pod no longer fits, removes it again for good.
  auto reprieve = [&](const api::Pod& p, bool* fits_out) -> Status {
    Status s = add_pod(p);
    if (!s.IsSuccess()) return Status::Error(s.Message());
    *fits_out = runner->RunFilterPluginsWithNominatedPods(state, pod, node,
                                                          nullptr)
                    .IsSuccess();
    if (!*fits_out) {
      Status r = remove_pod(p);
      if (!r.IsSuccess()) return Status::Error(r.Message());
      victims.push_back(p);
    }
    return Status::Success();
  };
  for (const api::Pod& p : violating) {
    bool reprieved = false;
    Status s = reprieve(p, &reprieved);
    if (!s.IsSuccess()) return {{}, 0, s};
    if (!reprieved) ++num_violating;
  }
  for (const api::Pod& p : non_violating) {
    bool reprieved = false;
    Status s = reprieve(p, &reprieved);
    if (!s.IsSuccess()) return {{}, 0, s};
  }
  // Keep the victims in order of importance.
  if (!violating.empty() && !non_violating.empty()) {
    preemption::SortByImportance(victims, now);
  }
  return {std::move(victims), num_violating, Status::Success()};
}

}  // namespace schedref::reference::framework::plugins::defaultpreemption
