// DefaultPreemption: the PostFilter plugin that preempts lower-priority
// pods so that an unschedulable pod fits. Specification: upstream
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
// read at e4d77d9256504b95df4fd35f9b2e4308707951d7 (v1.34) and taken back
// to v1.32: no IsEligiblePod/MoreImportantPod hooks (the built-in rules
// are used), async preemption (alpha in v1.32) off, PodDisruptionConditions
// GA. The evaluator is reference/framework/preemption/preemption.h; the
// args are api/config/pluginargs/defaultpreemption_args.h. Tests from
// default_preemption_test.go (008b3652959ca58af8be3fb5b6ecfe9ae7638282).
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_DEFAULTPREEMPTION_DEFAULT_PREEMPTION_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_DEFAULTPREEMPTION_DEFAULT_PREEMPTION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/config/pluginargs/defaultpreemption_args.h"
#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"
#include "reference/framework/preemption/preemption.h"

namespace schedref::reference::framework::plugins::defaultpreemption {

inline constexpr char kNoVictims[] =
    "No preemption victims found for incoming pod";
inline constexpr char kNotEligibleNever[] =
    "not eligible due to preemptionPolicy=Never.";
inline constexpr char kNotEligibleTerminating[] =
    "not eligible due to a terminating pod on the nominated node.";

// The args, their decoding, defaults and validation:
// api/config/pluginargs/defaultpreemption_args.h.
using api::pluginargs::DefaultPreemptionArgs;

// upstream filterPodsWithPDBViolation: splits `pods` (order kept) into
// those whose eviction would violate a PDB and the others. Per PDB the
// budget starts at status.disruptionsAllowed; a pod with labels, in the
// PDB's namespace, matched by a present non-empty selector and not listed
// in status.disruptedPods (by name) takes one from it, and violates it iff
// the budget is then below 0.
std::pair<std::vector<api::Pod>, std::vector<api::Pod>>
FilterPodsWithPDBViolation(const std::vector<api::Pod>& pods,
                           const std::vector<api::PodDisruptionBudget>& pdbs);

// True iff `pod` is terminating because the scheduler preempted it
// (upstream podTerminatingByPreemption, PodDisruptionConditions GA in
// v1.31: deletionTimestamp set and its first DisruptionTarget condition
// True with reason PreemptionByScheduler): the scheduler's own victims
// with a grace period, and pods a scenario writes so.
bool PodTerminatingByPreemption(const api::Pod& pod);

class DefaultPreemption final : public PostFilterPlugin,
                                public PreEnqueuePlugin,
                                public EnqueueExtensions,
                                public preemption::Interface {
 public:
  // The registry factory. Errors: a nil handle and bad args.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  // REQUIRES: handle != nullptr,
  // api::pluginargs::ValidateDefaultPreemptionArgs(args).ok().
  DefaultPreemption(DefaultPreemptionArgs args, Handle* handle);

  std::string Name() const override;

  // The evaluator's Preempt; a non-empty message is prefixed "preemption: ".
  PostFilterOutput PostFilter(CycleState& state, const api::Pod& pod,
                              const NodeToStatus& statuses) override;

  // Always Success: it only gates pods while an asynchronous preemption
  // runs, and async preemption (alpha in v1.32) is off.
  Status PreEnqueue(const api::Pod& pod) override;
  // None while async preemption is off (the plugin then rejects nothing).
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // --- preemption::Interface ---
  // offset = Handle::NextRandom() % num_nodes.
  // Note: upstream draws rand.Int31n(num_nodes) (docs/deviations.md
  // "Preemption").
  std::pair<int32_t, int32_t> GetOffsetAndNumCandidates(
      int32_t num_nodes) override;
  // Not eligible with preemptionPolicy Never; nor while its nominated node
  // (unless that node's filter status is UnschedulableAndUnresolvable)
  // holds a lower-priority pod terminating by preemption.
  std::pair<bool, std::string> PodEligibleToPreemptOthers(
      const api::Pod& pod, const Status& nominated_node_status) override;
  // Removes every lower-priority pod from `node` (with the RemovePod
  // extensions on `state`), fails unless the pod then passes the filters
  // (with nominated pods); then adds back ("reprieves") the potential
  // victims in order of importance, PDB-violating ones first, keeping each
  // that still lets the pod fit. The rest are the victims, most important
  // first; the number of PDB-violating victims is counted.
  preemption::SelectVictimsResult SelectVictimsOnNode(
      CycleState& state, const api::Pod& pod, NodeInfo& node,
      const std::vector<api::PodDisruptionBudget>& pdbs) override;

  // max(num_nodes * percentage / 100, absolute), at most num_nodes.
  int32_t CalculateNumCandidates(int32_t num_nodes) const;

 private:
  // Constant after construction.
  DefaultPreemptionArgs args_;
  Handle* handle_;
  preemption::Evaluator evaluator_;
};

}  // namespace schedref::reference::framework::plugins::defaultpreemption

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_DEFAULTPREEMPTION_DEFAULT_PREEMPTION_H_
