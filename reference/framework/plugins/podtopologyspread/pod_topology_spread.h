// PodTopologySpread: the pod's DoNotSchedule topology spread constraints as
// a filter, its ScheduleAnyway constraints as a score. Specification:
// upstream pkg/scheduler/framework/plugins/podtopologyspread/, v1.32
// semantics (NodeInclusionPolicyInPodTopologySpread, MinDomains and
// MatchLabelKeysInPodTopologySpread on; SchedulerQueueingHints on):
//   filtering.go read at the v1.26-v1.32 layout (find_string id 2617016:
//     TpKeyToCriticalPaths / TpKeyToDomainsNum / TpPairToMatchNum) plus the
//     PreFilter Skip of PR #117683 (v1.28);
//   scoring.go read at 7d6a59c19f3147cff6e089b6250b5ca045417cae's family
//     (the stored copy, id 47109082386, is a fork; the upstream parts used
//     are initPreScoreState, PreScore, Score, NormalizeScore,
//     topologyNormalizingWeight, scoreForCount);
//   plugin.go read at the content-identified v1.33+ version (id 216613741:
//     EventsToRegister, isSchedulableAfterPodChange,
//     isSchedulableAfterNodeChange);
//   common.go id 5334701.
// Tests from filtering_test.go (id 6322630) and scoring_test.go
// (id 110788862).
//
// Note: upstream (until v1.33) keys its counts by topology key, not by
// constraint, so two constraints with the same key and whenUnsatisfiable
// would share them. The API server rejects such pods, and so does the
// scenario decoder (api/codec/decode.cc ReadSpreadConstraints; validation rejects
// such defaults), so counting per constraint, as here, is the same for
// every pod a scenario can hold.
//
// Cycle state:
//   "PreFilterPodTopologySpread" (PreFilterState): the DoNotSchedule
//     constraints and, per constraint, domain -> number of matching pods
//     over the eligible nodes. Every eligible node's domain has an entry,
//     possibly 0. AddPod/RemovePod adjust the counts.
//   "PreScorePodTopologySpread" (PreScoreState): the ScheduleAnyway
//     constraints, the filtered nodes ignored for missing keys, per
//     constraint domain -> count (not for kubernetes.io/hostname, counted
//     per node in Score) and the normalizing weight ln(#domains + 2).
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_POD_TOPOLOGY_SPREAD_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_POD_TOPOLOGY_SPREAD_H_

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/config/pluginargs/podtopologyspread_args.h"
#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"
#include "reference/framework/plugins/podtopologyspread/common.h"

namespace schedref::reference::framework::plugins::podtopologyspread {

inline constexpr char kErrReasonConstraintsNotMatch[] =
    "node(s) didn't match pod topology spread constraints";
inline constexpr char kErrReasonNodeLabelNotMatch[] =
    "node(s) didn't match pod topology spread constraints (missing required "
    "label)";

inline constexpr char kPreFilterStateKey[] = "PreFilterPodTopologySpread";
inline constexpr char kPreScoreStateKey[] = "PreScorePodTopologySpread";

// The args, their decoding, defaults, validation and the system default
// constraints: api/config/pluginargs/podtopologyspread_args.h.
using api::pluginargs::kListDefaulting;
using api::pluginargs::kSystemDefaulting;
using api::pluginargs::PodTopologySpreadArgs;

struct PreFilterState {
  std::vector<Constraint> constraints;
  // Indexed like constraints: topology value -> matching pods.
  std::vector<std::map<std::string, int>> tp_value_to_match_num;

  // The global minimum for constraint i: the smallest count over its
  // domains, or 0 when it has fewer domains than minDomains.
  // Note: upstream tracks two "critical paths" per key instead of the
  // minimum; both agree because AddPod/RemovePod only ever change the
  // domain of one node per state copy (docs/deviations.md, "Inter-pod
  // plugins", "Topology spread minimum").
  int MinMatchNum(size_t i) const;
};

struct PreScoreState {
  std::vector<Constraint> constraints;
  // Filtered nodes lacking some constraint's topologyKey (when all keys
  // are required): scored 0.
  std::set<std::string> ignored_nodes;
  // Indexed like constraints: topology value -> matching pods (no entries
  // for kubernetes.io/hostname constraints).
  std::vector<std::map<std::string, int64_t>> topology_value_to_pod_counts;
  std::vector<double> topology_normalizing_weight;
};

class PodTopologySpread final : public PreFilterPlugin,
                                public FilterPlugin,
                                public PreScorePlugin,
                                public ScorePlugin,
                                public EnqueueExtensions {
 public:
  // The registry factory. Errors: a nil handle ("SnapshotSharedlister is
  // nil") and bad args.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  // REQUIRES: handle != nullptr,
  // api::pluginargs::ValidatePodTopologySpreadArgs(args).ok().
  PodTopologySpread(PodTopologySpreadArgs args, Handle* handle);

  std::string Name() const override;

  // The pod's DoNotSchedule constraints (the defaults' when the pod has no
  // constraints at all); Skip when there are none. Otherwise counts, over
  // every node of the snapshot that carries all constraint keys, the
  // matching pods per domain for each constraint whose inclusion policies
  // the node passes.
  PreFilterOutput PreFilter(CycleState& state, const api::Pod& pod,
                            const std::vector<const NodeInfo*>& nodes) override;
  bool HasPreFilterExtensions() const override { return true; }
  // Adds (removes) `pod` to the count of `node`'s domain for each
  // constraint whose selector matches it, when it is in the incoming pod's
  // namespace and the node is eligible.
  Status AddPod(CycleState& state, const api::Pod& pod_to_schedule,
                const api::Pod& pod_to_add, const NodeInfo& node) override;
  Status RemovePod(CycleState& state, const api::Pod& pod_to_schedule,
                   const api::Pod& pod_to_remove,
                   const NodeInfo& node) override;
  // For each constraint in order: a node without the key is
  // UnschedulableAndUnresolvable kErrReasonNodeLabelNotMatch;
  // count(node's domain) + (selector matches the pod ? 1 : 0) - global
  // minimum > maxSkew is Unschedulable kErrReasonConstraintsNotMatch.
  Status Filter(CycleState& state, const api::Pod& pod,
                const NodeInfo& node) override;

  // The pod's ScheduleAnyway constraints (or the defaults'); Skip when
  // there are none or the snapshot has no nodes.
  Status PreScore(CycleState& state, const api::Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // 0 for an ignored node; else round(sum over constraints whose key the
  // node has of count * weight + maxSkew - 1), count being the node's own
  // matching pods for kubernetes.io/hostname and its domain's otherwise.
  ScoreOutput Score(CycleState& state, const api::Pod& pod,
                    const NodeInfo& node) override;
  bool HasScoreExtensions() const override { return true; }
  // Ignored nodes 0; max == 0 -> 100; else 100 * (max + min - s) / max,
  // min and max over the non-ignored nodes.
  Status NormalizeScore(CycleState& state, const api::Pod& pod,
                        NodeScoreList& scores) override;

  // Pod Add|UpdatePodLabel|UpdatePodTolerations|Delete with
  // IsSchedulableAfterPodChange; Node Add|Delete|UpdateNodeLabel|
  // UpdateNodeTaint with IsSchedulableAfterNodeChange.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Skip for a pod that is neither the target itself nor an assigned pod
  // of its namespace. Update: Queue if the target itself got new
  // tolerations and some constraint honors taints, or if the labels
  // changed whether some constraint's selector matches. Add / Delete:
  // Queue iff some constraint's selector matches the pod.
  StatusOr<QueueingHint> IsSchedulableAfterPodChange(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj) const;
  // With matching = node carries all DoNotSchedule constraint keys:
  // Update: Queue if matching changed, or the new node matches and a
  // constraint key's value or the taints changed. Add / Delete: Queue iff
  // the node matches.
  StatusOr<QueueingHint> IsSchedulableAfterNodeChange(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj) const;

  // The DoNotSchedule constraints of `pod` (upstream getConstraints).
  std::vector<Constraint> GetConstraints(const api::Pod& pod) const;

 private:
  // Constant after construction.
  Handle* handle_;
  std::vector<api::TopologySpreadConstraint> default_constraints_;
  // defaultingType System: then nodes missing a zone label still score
  // (hostname spreading alone).
  bool system_defaulted_ = false;
};

}  // namespace schedref::reference::framework::plugins::podtopologyspread

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_POD_TOPOLOGY_SPREAD_H_
