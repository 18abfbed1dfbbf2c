// InterPodAffinity: required pod affinity and anti-affinity as a filter
// (including existing pods' required anti-affinity against the incoming
// pod), preferred terms of both sides as a score. Specification:
// docs/semantics/interpodaffinity.md and upstream
// pkg/scheduler/framework/plugins/interpodaffinity/ (filtering.go,
// scoring.go, plugin.go), v1.32; decisions, messages and codes equal the
// reference's (reference/framework/plugins/interpodaffinity/), which the
// tests here share rows with.
//
// How this differs from the reference, for speed (each is equivalent):
//  - PreFilter visits only HavePodsWithRequiredAntiAffinityList() for the
//    existing pods' anti-affinity (as upstream does: other pods have no
//    such terms) and every node only when the pod has required terms.
//  - PreFilter keeps the snapshot's pods, grouped into label classes and
//    anti-affinity term classes, and the nodes' topology pairs from one
//    cycle to the next, re-reading only the nodes that changed
//    (snapshot_index.h; docs/optimized.md "Per-node memos"); each term is
//    evaluated once per class, and the counts are integer sums over the
//    nodes. Upstream evaluates every term against every pod.
//  - The counts are vectors over interned (key, value) pairs with a
//    per-node pair table (topology_counts.h), so Filter does integer
//    lookups and never touches a string. Upstream's "pairs at count 0 are
//    erased" is kept as PairCounts::NonZero().
//  - PreScore visits only HavePodsWithAffinityList() and those nodes' pods
//    with affinity when the pod has no preferred terms (upstream does the
//    same; pods without terms add nothing), and none at all when the
//    snapshot index counts no pod with terms that score; it computes every
//    candidate node's score, so Score is an array read.
//
// Cycle state (kept per attempt; Clone is cheap, see topology_counts.h):
//   PreFilterState: counts per topology pair of
//     existing_anti_affinity - required anti-affinity terms of existing pods
//       matching the incoming pod (their namespaceSelector evaluated against
//       the incoming pod's namespace labels), at the existing pod's node;
//     affinity - existing pods matching *all* the incoming pod's required
//       affinity terms, once per term at that term's pair;
//     anti_affinity - existing pods matching each required anti-affinity
//       term of the incoming pod.
//     Nodes lacking a term's key contribute nothing.
//   PreScoreState: topology key -> value -> accumulated weight, and the
//     score of every node PreScore was given.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_INTERPODAFFINITY_INTERPOD_AFFINITY_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_INTERPODAFFINITY_INTERPOD_AFFINITY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/config/pluginargs/interpodaffinity_args.h"
#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/framework/cycle_state.h"
#include "optimized/framework/events.h"
#include "optimized/framework/interface.h"
#include "optimized/framework/plugins/interpodaffinity/snapshot_index.h"
#include "optimized/framework/plugins/interpodaffinity/topology_counts.h"

namespace schedref::optimized::framework::plugins::interpodaffinity {

inline constexpr char kErrReasonExistingAntiAffinityRulesNotMatch[] =
    "node(s) didn't satisfy existing pods anti-affinity rules";
inline constexpr char kErrReasonAffinityRulesNotMatch[] =
    "node(s) didn't match pod affinity rules";
inline constexpr char kErrReasonAntiAffinityRulesNotMatch[] =
    "node(s) didn't match pod anti-affinity rules";

// Upstream's state keys; they appear in the "not found" error messages.
inline constexpr char kPreFilterStateKey[] = "PreFilterInterPodAffinity";
inline constexpr char kPreScoreStateKey[] = "PreScoreInterPodAffinity";

using api::pluginargs::InterPodAffinityArgs;

// (topology key, topology value).
using TopologyPair = std::pair<std::string, std::string>;
// Upstream's map; only for reading the state in tests and diagnostics.
using TopologyToMatchedTermCount = std::map<TopologyPair, int64_t>;

// What PreFilter computes once and every clone shares. Immutable.
struct PreFilterShared {
  TopologyIndex index;
  // The incoming pod's required terms, namespaceSelectors merged into the
  // namespaces (MergeAffinityTermNamespaces), and their key ids.
  std::vector<AffinityTerm> affinity_terms;
  std::vector<AffinityTerm> anti_affinity_terms;
  std::vector<int32_t> affinity_keys;
  std::vector<int32_t> anti_affinity_keys;
  // Labels of the incoming pod's namespace.
  api::Labels namespace_labels;
  // The pod matches all its own (merged) affinity terms.
  bool pod_matches_own_affinity = false;
};

class PreFilterState final : public StateData {
 public:
  static const int kKey;

  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }

  // The pair id of `node`'s value for key id `key`: kNoKey, an id, or
  // kNoPair; extra pairs included.
  int32_t PairOf(const NodeInfo& node, int32_t key) const;
  // Applies `pod` running on `node` with multiplier +1 / -1 (upstream
  // preFilterState.updateWithPod).
  void UpdateWithPod(const PodInfo& incoming, const PodInfo& pod,
                     const NodeInfo& node, int64_t multiplier);

  // The counts as upstream's maps (zero counts absent).
  TopologyToMatchedTermCount ExistingAntiAffinityCounts() const;
  TopologyToMatchedTermCount AffinityCounts() const;
  TopologyToMatchedTermCount AntiAffinityCounts() const;

  std::shared_ptr<const PreFilterShared> shared;
  PairCounts existing_anti_affinity;
  PairCounts affinity;
  PairCounts anti_affinity;
  // Pairs AddPod met that the index lacks (a key no term had at PreFilter,
  // or a node outside the snapshot); id = index.num_pairs + position.
  std::vector<TopologyPair> extra_pairs;

 private:
  int32_t PairForUpdate(const NodeInfo& node, int32_t key_id,
                        const std::string& key);
  TopologyPair PairName(int32_t id) const;
  TopologyToMatchedTermCount ToMap(const PairCounts& counts) const;
};

// Immutable once PreScore wrote it; clones share it.
struct PreScoreData {
  std::vector<std::string> keys;
  // Per key: value -> accumulated weight.
  std::vector<std::unordered_map<std::string_view, int64_t>> value_scores;
  // Indexed by NodeInfo::index: the score of the nodes PreScore was given
  // (scored_node says which NodeInfo it was computed for).
  std::vector<int64_t> score;
  std::vector<const NodeInfo*> scored_node;

  int64_t ScoreOf(const api::Node& node) const;
};

class PreScoreState final : public StateData {
 public:
  static const int kKey;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
  std::shared_ptr<const PreScoreData> data;
};

class InterPodAffinity final : public PreFilterPlugin,
                               public FilterPlugin,
                               public PreScorePlugin,
                               public ScorePlugin,
                               public EnqueueExtensions {
 public:
  // The registry factory. Errors: a nil handle ("SnapshotSharedlister is
  // nil") and bad args (api/config/pluginargs/interpodaffinity_args.h).
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  // REQUIRES: handle != nullptr,
  // api::pluginargs::ValidateInterPodAffinityArgs(args).ok().
  InterPodAffinity(InterPodAffinityArgs args, Handle* handle);

  std::string Name() const override;

  // Skip iff no existing pod's anti-affinity matches the pod and the pod
  // has no required affinity and no required anti-affinity terms.
  PreFilterOutput PreFilter(CycleState& state, const PodInfo& pod,
                            const std::vector<NodeInfo*>& nodes) override;
  bool HasPreFilterExtensions() const override { return true; }
  // Update the counts as if `pod_to_add` ran on `node` (RemovePod: no
  // longer ran there). Error if the PreFilter state is missing.
  Status AddPod(CycleState& state, const PodInfo& pod_to_schedule,
                const PodInfo& pod_to_add, const NodeInfo& node) override;
  Status RemovePod(CycleState& state, const PodInfo& pod_to_schedule,
                   const PodInfo& pod_to_remove, const NodeInfo& node) override;

  // In this order: required affinity (UnschedulableAndUnresolvable
  // kErrReasonAffinityRulesNotMatch), required anti-affinity (Unschedulable
  // kErrReasonAntiAffinityRulesNotMatch), existing pods' anti-affinity
  // (Unschedulable kErrReasonExistingAntiAffinityRulesNotMatch); see
  // docs/semantics/interpodaffinity.md "Filter".
  Status Filter(const CycleState& state, const PodInfo& pod,
                const NodeInfo& node) const override;

  // Skip when nothing was accumulated anywhere, or when
  // ignorePreferredTermsOfExistingPods is set and the pod has no preferred
  // terms.
  Status PreScore(CycleState& state, const PodInfo& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // Sum over the node's labels of the accumulated pair scores (may be
  // negative).
  ScoreOutput Score(const CycleState& state, const PodInfo& pod,
                    const NodeInfo& node) const override;
  bool HasScoreExtensions() const override { return true; }
  // int(100 * (s - min) / (max - min)) in float64, min/max over the list
  // (starting at MaxInt64/MinInt64); all 0 when max == min.
  Status NormalizeScore(const CycleState& state, const PodInfo& pod,
                        const std::vector<const NodeInfo*>& nodes,
                        std::vector<int64_t>& scores) override;

  // Pod Add|UpdatePodLabel|Delete with IsSchedulableAfterPodChange; Node
  // Add|UpdateNodeLabel with IsSchedulableAfterNodeChange.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Skip for unscheduled pods. Update: Queue iff the pod now matches all
  // the target's required affinity terms and did not before, or no longer
  // matches all its anti-affinity terms and did before. Add: Queue iff it
  // matches all affinity terms. Delete: Queue iff it matched all
  // anti-affinity terms.
  static StatusOr<QueueingHint> IsSchedulableAfterPodChange(
      const api::Pod& pod, const EventObjects& objects);
  // Required affinity terms: Queue for an added node carrying a term's
  // topology key, or an updated node that gained the key or changed its
  // value. Required anti-affinity terms: Queue for any added node, or an
  // updated node that lost a term's key or changed its value. Else Skip.
  static StatusOr<QueueingHint> IsSchedulableAfterNodeChange(
      const api::Pod& pod, const EventObjects& objects);

 private:
  // Constant after construction.
  InterPodAffinityArgs args_;
  Handle* handle_;

  // Used by PreFilter and PreScore (one thread), kept across cycles.
  SnapshotIndex snapshot_index_;
  // PreFilter's counts as of its last SnapshotIndex::TakeChanges, for the
  // incoming pod of that cycle (signature: its namespace, labels,
  // namespace labels and merged terms); valid iff that call summed them.
  struct PreFilterSums {
    bool valid = false;
    std::string signature;
    size_t num_keys = 0;
    struct Kept {
      std::shared_ptr<const std::vector<int64_t>> counts =
          std::make_shared<const std::vector<int64_t>>();
      int64_t non_zero = 0;
    };
    Kept existing, affinity, anti;
    int64_t existing_total = 0;
  };
  PreFilterSums prefilter_sums_;
  std::vector<SnapshotIndex::Before> prefilter_changes_;  // scratch
};

}  // namespace schedref::optimized::framework::plugins::interpodaffinity

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_INTERPODAFFINITY_INTERPOD_AFFINITY_H_
