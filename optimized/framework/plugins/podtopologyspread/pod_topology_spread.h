// PodTopologySpread: the pod's DoNotSchedule topology spread constraints as
// a filter, its ScheduleAnyway constraints as a score. Specification:
// docs/semantics/podtopologyspread.md and upstream
// pkg/scheduler/framework/plugins/podtopologyspread/ (filtering.go,
// scoring.go, plugin.go, common.go), v1.32 with NodeInclusionPolicy,
// MinDomains, matchLabelKeys and SchedulerQueueingHints on; decisions,
// messages and codes equal the reference's
// (reference/framework/plugins/podtopologyspread/), whose test rows are
// ported here.
//
// How this differs from the reference, for speed (each is equivalent):
//  - Each constraint's topology values (domains) are interned to small ids
//    for the plugin's lifetime (domain_table.h), and PreFilter keeps, per
//    snapshot position, the node's domain id and whether it is eligible.
//    Filter is then integer lookups.
//  - PreFilter keeps each node's domain ids and matching pod counts from
//    one cycle to the next while the node (its NodeInfo generation) and
//    the constraints' keys, selectors and namespace are unchanged
//    (helper/node_memo.h; docs/optimized.md "Per-node memos"): a cycle
//    recounts only the nodes that changed, on Handle::Parallel(), found
//    through the snapshot's change log. It also keeps each domain's totals
//    (nodes and matching pods), updated by the changed nodes only, which
//    are PreFilter's counts whenever no inclusion policy can exclude a node
//    (then a node counts iff it carries every key); otherwise it sums
//    integers over the nodes in node order.
//  - The global minimum per constraint is kept, not recomputed per node:
//    PreFilter stores the two smallest domains, a clone's AddPod/RemovePod
//    record the domains they changed, and the minimum is recomputed from
//    those in O(changed) (a full scan only when both smallest domains
//    changed), so it is exact for any number of changed domains, as the
//    reference's full scan is. Upstream's two "critical paths" are the same
//    idea (docs/deviations.md "Topology spread minimum").
//  - Clones share the PreFilter counts and copy only their changes
//    (preemption clones the state once per candidate node).
//  - PreScore computes every candidate node's score, so Score is an array
//    read.
//
// Note: upstream (until v1.33) keys its counts by topology key, not by
// constraint; the API server and the scenario decoder reject pods whose
// constraints share a (topologyKey, whenUnsatisfiable), so counting per
// constraint is the same for every pod a scenario can hold (as in the
// reference).
//
// Lifetime: domain values are string_views into the labels of the cycle's
// snapshot nodes; states are read only during the scheduling cycle.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_POD_TOPOLOGY_SPREAD_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_POD_TOPOLOGY_SPREAD_H_

#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/config/pluginargs/podtopologyspread_args.h"
#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/framework/cycle_state.h"
#include "optimized/framework/events.h"
#include "optimized/framework/interface.h"
#include "optimized/framework/plugins/helper/node_memo.h"
#include "optimized/framework/plugins/podtopologyspread/common.h"
#include "optimized/framework/plugins/podtopologyspread/domain_table.h"

namespace schedref::optimized::framework::plugins::podtopologyspread {

inline constexpr char kErrReasonConstraintsNotMatch[] =
    "node(s) didn't match pod topology spread constraints";
inline constexpr char kErrReasonNodeLabelNotMatch[] =
    "node(s) didn't match pod topology spread constraints (missing required "
    "label)";

// Upstream's state keys; they appear in the "not found" error messages.
inline constexpr char kPreFilterStateKey[] = "PreFilterPodTopologySpread";
inline constexpr char kPreScoreStateKey[] = "PreScorePodTopologySpread";

using api::pluginargs::PodTopologySpreadArgs;

// Domain lookups return a domain id >= 0, or one of these.
inline constexpr int32_t kNoKey = -1;     // the node lacks the topology key
inline constexpr int32_t kNoDomain = -2;  // it has it; the value has no id

// What PreFilter computes once and every clone shares. Immutable.
struct PreFilterShared {
  // The two smallest counts over a constraint's eligible domains and their
  // domains (-1 when there are fewer domains).
  struct Minimum {
    int32_t min1 = INT32_MAX;
    int32_t arg1 = -1;
    int32_t min2 = INT32_MAX;
    int32_t arg2 = -1;
  };

  std::vector<Constraint> constraints;
  // Per constraint: 1 iff its selector matches the incoming pod.
  std::vector<int32_t> self_match;
  // The api::Node of each snapshot position (a NodeInfo with that node()
  // at that index is the snapshot's node or a copy of it).
  std::vector<const api::Node*> nodes;
  // [pos * constraints + c]: the node's domain id, or kNoKey.
  std::vector<int32_t> node_domains;
  // [pos * constraints + c]: the node carries every key and passes c's
  // inclusion policies.
  std::vector<uint8_t> node_eligible;
  // Per constraint: value <-> domain id (the plugin's table for the key,
  // holding at least every value a snapshot node carries) and its size at
  // PreFilter; only eligible nodes' domains are registered (counted).
  std::vector<std::shared_ptr<const DomainTable>> domains;
  std::vector<int32_t> num_domains;
  std::vector<std::vector<int32_t>> counts;
  std::vector<std::vector<uint8_t>> registered;
  std::vector<int32_t> num_registered;
  std::vector<Minimum> minimum;

  bool Indexed(const NodeInfo& node) const {
    return node.index >= 0 && node.index < static_cast<int32_t>(nodes.size()) &&
           nodes[node.index] == node.node();
  }
};

class PreFilterState final : public StateData {
 public:
  static const int kKey;

  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }

  // Matching pods in domain `domain` of constraint `c` (0 for kNoDomain).
  int32_t Count(size_t c, int32_t domain) const;
  // The global minimum for constraint c: the smallest count over its
  // domains, or 0 when it has fewer domains than minDomains (INT32_MAX with
  // no domain at all, reachable only with minDomains <= 0).
  int32_t MinMatchNum(size_t c) const { return per_constraint[c].min_match; }
  // `node`'s domain for constraint c: kNoKey, an id, or kNoDomain.
  int32_t DomainOf(size_t c, const NodeInfo& node) const;
  // upstream updateWithPod: `pod` running on `node` changes the counts by
  // `delta` for the incoming pod.
  void UpdateWithPod(const PodInfo& incoming, const PodInfo& pod,
                     const NodeInfo& node, int32_t delta);
  // Constraint c's counts as upstream's map: every registered domain's
  // value -> count.
  std::map<std::string, int> Counts(size_t c) const;

  struct PerConstraint {
    // domain -> change from the shared counts; domains unique.
    std::vector<std::pair<int32_t, int32_t>> delta;
    // Domains registered after PreFilter (by AddPod).
    std::vector<int32_t> extra_registered;
    // Values of nodes outside the snapshot that the table lacks;
    // id = num_domains + i.
    std::vector<std::string> extra_values;
    int32_t min_match = 0;
  };

  std::shared_ptr<const PreFilterShared> shared;
  std::vector<PerConstraint> per_constraint;

  void RecomputeMinimum(size_t c);

 private:
  bool Registered(size_t c, int32_t domain) const;
  int32_t NumDomains(size_t c) const;
};

// Immutable once PreScore wrote it; clones share it.
struct PreScoreData {
  std::vector<Constraint> constraints;
  // Only nodes carrying every key are scored (false under system
  // defaulting for a pod without constraints).
  bool require_all_topologies = true;
  // ln(#domains + 2) per constraint.
  std::vector<double> weight;
  // The incoming pod's namespace (hostname constraints count in Score).
  std::string ns;
  // Per constraint (none for kubernetes.io/hostname): the candidate
  // nodes' domains and their matching pods over the cluster.
  std::vector<std::unordered_map<std::string_view, int32_t>> domain_ids;
  std::vector<std::vector<int64_t>> counts;
  // Indexed by NodeInfo::index, for the nodes PreScore was given.
  std::vector<int64_t> score;
  std::vector<uint8_t> ignored;
  std::vector<const NodeInfo*> scored_node;

  // Filtered nodes lacking some key are ignored (scored 0).
  bool Ignored(const api::Node& node) const;
  int64_t ScoreOf(const NodeInfo& node) const;
  bool Computed(const NodeInfo& node) const {
    return node.index >= 0 && static_cast<size_t>(node.index) < scored_node.size() &&
           scored_node[node.index] == &node;
  }
};

class PreScoreState final : public StateData {
 public:
  static const int kKey;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
  std::shared_ptr<const PreScoreData> data;
};

class PodTopologySpread final : public PreFilterPlugin,
                                public FilterPlugin,
                                public PreScorePlugin,
                                public ScorePlugin,
                                public EnqueueExtensions {
 public:
  // The registry factory. Errors: a nil handle ("SnapshotSharedlister is
  // nil") and bad args (api/config/pluginargs/podtopologyspread_args.h).
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  // REQUIRES: handle != nullptr,
  // api::pluginargs::ValidatePodTopologySpreadArgs(args).ok().
  PodTopologySpread(PodTopologySpreadArgs args, Handle* handle);

  std::string Name() const override;

  // Skip when the pod has no DoNotSchedule constraint (the defaults' when
  // it has no constraints at all); otherwise the counts over the snapshot.
  PreFilterOutput PreFilter(CycleState& state, const PodInfo& pod,
                            const std::vector<NodeInfo*>& nodes) override;
  bool HasPreFilterExtensions() const override { return true; }
  // Adds (removes) `pod` to the count of `node`'s domain for each
  // constraint whose selector matches it, when it is in the incoming pod's
  // namespace and the node is eligible. Error if PreFilter state is
  // missing.
  Status AddPod(CycleState& state, const PodInfo& pod_to_schedule,
                const PodInfo& pod_to_add, const NodeInfo& node) override;
  Status RemovePod(CycleState& state, const PodInfo& pod_to_schedule,
                   const PodInfo& pod_to_remove, const NodeInfo& node) override;
  // For each constraint in order: a node without the key is
  // UnschedulableAndUnresolvable kErrReasonNodeLabelNotMatch;
  // count(node's domain) + (selector matches the pod ? 1 : 0) - global
  // minimum > maxSkew is Unschedulable kErrReasonConstraintsNotMatch.
  Status Filter(const CycleState& state, const PodInfo& pod,
                const NodeInfo& node) const override;

  // The pod's ScheduleAnyway constraints (or the defaults'); Skip when
  // there are none or the snapshot has no nodes.
  Status PreScore(CycleState& state, const PodInfo& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // 0 for an ignored node; else round(sum over constraints whose key the
  // node has of count * weight + maxSkew - 1), count being the node's own
  // matching pods for kubernetes.io/hostname and its domain's otherwise.
  ScoreOutput Score(const CycleState& state, const PodInfo& pod,
                    const NodeInfo& node) const override;
  bool HasScoreExtensions() const override { return true; }
  // Ignored nodes 0; max == 0 -> 100; else 100 * (max + min - s) / max,
  // min and max over the non-ignored nodes.
  Status NormalizeScore(const CycleState& state, const PodInfo& pod,
                        const std::vector<const NodeInfo*>& nodes,
                        std::vector<int64_t>& scores) override;

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
      const api::Pod& pod, const EventObjects& objects) const;
  // With matching = node carries all DoNotSchedule constraint keys:
  // Update: Queue if matching changed, or the new node matches and a
  // constraint key's value or the taints changed. Add / Delete: Queue iff
  // the node matches.
  StatusOr<QueueingHint> IsSchedulableAfterNodeChange(
      const api::Pod& pod, const EventObjects& objects) const;

  // The DoNotSchedule constraints of `pod` (upstream getConstraints).
  std::vector<Constraint> GetConstraints(const api::Pod& pod) const;

 private:
  // What PreFilter keeps from one cycle to the next (docs/optimized.md
  // "Per-node memos"): per snapshot position, the node's domain id and
  // its matching pods for each constraint, valid while memo.nodes says the
  // node is unchanged and the inputs below are the cycle's.
  struct Memo {
    helper::NodeMemo nodes;
    // The inputs: the constraints' keys and selectors, and the namespace.
    std::vector<std::string> keys;
    std::vector<std::optional<api::LabelSelector>> selectors;
    std::string ns;
    std::vector<std::shared_ptr<DomainTable>> tables;
    // [pos * keys.size() + c]: the node's domain id in tables[c], or
    // kNoKey; CountPodsMatchSelector(pods, selectors[c], ns) when the
    // node carries every key (else 0); and 1 iff it carries every key.
    std::vector<int32_t> domain;
    std::vector<int32_t> matching;
    std::vector<uint8_t> all_keys;
    // [pos]: the node object.
    std::vector<const api::Node*> node;
    // [c][domain id]: over the nodes carrying every key, how many are in
    // the domain, and the sum of their `matching`. Kept up to date by
    // taking a changed node's old values out and its new ones in.
    std::vector<std::vector<int32_t>> nodes_in;
    std::vector<std::vector<int32_t>> matching_in;
    std::vector<size_t> stale;  // RefreshMemo's scratch

    // Adds (sign 1) or takes out (-1) position pos's share of the totals.
    void Contribute(size_t pos, int32_t sign);
  };

  // Brings memo_ up to date for `constraints` and the pod's namespace on
  // the handle's snapshot.
  void RefreshMemo(const std::vector<Constraint>& constraints, const std::string& ns);

  // Constant after construction.
  Handle* handle_;
  std::vector<api::TopologySpreadConstraint> default_constraints_;
  // defaultingType System: then nodes missing a key still score.
  bool system_defaulted_ = false;

  // Used by PreFilter only (one thread).
  // Topology key -> its domains; entries are never removed.
  std::map<std::string, std::shared_ptr<DomainTable>> domain_tables_;
  Memo memo_;
};

}  // namespace schedref::optimized::framework::plugins::podtopologyspread

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_POD_TOPOLOGY_SPREAD_H_
