// InterPodAffinity: required pod affinity and anti-affinity as a filter
// (including existing pods' required anti-affinity against the incoming
// pod), preferred terms of both sides as a score. Specification: upstream
// pkg/scheduler/framework/plugins/interpodaffinity/, v1.32 semantics:
//   filtering.go read at the content-identified version with
//     existingAntiAffinityCounts/affinityCounts (find_string id 498204109,
//     v1.34 layout; the logic is v1.32's apart from where the node list
//     comes from, see PreFilter);
//   scoring.go read at the v1.30-v1.32 version (id 46158958: PreScore over
//     NodeInfos, ignorePreferredTermsOfExistingPods, MaxInt64/MinInt64
//     normalisation baseline);
//   plugin.go read at the v1.31 version (id 59578219: EventsToRegister with
//     isSchedulableAfterPodChange) plus the finer node hint of PR #127470
//     (merged for v1.32), whose rows are in plugin_test.go at
//     01c2588bf4a3eb6bb3524b1e2bd60efb38a4b577.
// Tests from filtering_test.go (id 34794596) and scoring_test.go
// (id 30376605).
//
// Cycle state (both deep-copied on Clone, as preemption's dry runs need):
//   "PreFilterInterPodAffinity": counts per topology pair (key, value):
//     existing_anti_affinity_counts - existing pods whose required
//       anti-affinity terms match the incoming pod, once per matching term
//       (the term's namespaceSelector evaluated against the incoming pod's
//       namespace labels), at the pair of the existing pod's node;
//     affinity_counts - existing pods that match *all* the incoming pod's
//       required affinity terms, once per term at that term's pair;
//     anti_affinity_counts - existing pods matching each of the incoming
//       pod's required anti-affinity terms.
//     Only nodes carrying the term's topology key contribute; a count that
//     drops to 0 (RemovePod) is erased.
//   "PreScoreInterPodAffinity": topology key -> value -> score.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_INTERPODAFFINITY_INTERPOD_AFFINITY_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_INTERPODAFFINITY_INTERPOD_AFFINITY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/config/pluginargs/interpodaffinity_args.h"
#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"
#include "reference/framework/plugins/interpodaffinity/affinity_term.h"

namespace schedref::reference::framework::plugins::interpodaffinity {

inline constexpr char kErrReasonExistingAntiAffinityRulesNotMatch[] =
    "node(s) didn't satisfy existing pods anti-affinity rules";
inline constexpr char kErrReasonAffinityRulesNotMatch[] =
    "node(s) didn't match pod affinity rules";
inline constexpr char kErrReasonAntiAffinityRulesNotMatch[] =
    "node(s) didn't match pod anti-affinity rules";

inline constexpr char kPreFilterStateKey[] = "PreFilterInterPodAffinity";
inline constexpr char kPreScoreStateKey[] = "PreScoreInterPodAffinity";

// The args, their decoding, defaults and validation:
// api/config/pluginargs/interpodaffinity_args.h.
using api::pluginargs::InterPodAffinityArgs;

// (topology key, topology value).
using TopologyPair = std::pair<std::string, std::string>;
// Zero counts are never stored.
using TopologyToMatchedTermCount = std::map<TopologyPair, int64_t>;

struct PreFilterState {
  TopologyToMatchedTermCount existing_anti_affinity_counts;
  TopologyToMatchedTermCount affinity_counts;
  TopologyToMatchedTermCount anti_affinity_counts;
  // The incoming pod and its required terms, namespaceSelectors merged
  // into the namespaces (MergeAffinityTermNamespaces).
  api::Pod pod;
  std::vector<AffinityTerm> required_affinity_terms;
  std::vector<AffinityTerm> required_anti_affinity_terms;
  // Labels of the incoming pod's namespace.
  api::Labels namespace_labels;
};

struct PreScoreState {
  // topology key -> topology value -> accumulated weight.
  std::map<std::string, std::map<std::string, int64_t>> topology_score;
};

class InterPodAffinity final : public PreFilterPlugin,
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
  // api::pluginargs::ValidateInterPodAffinityArgs(args).ok().
  InterPodAffinity(InterPodAffinityArgs args, Handle* handle);

  std::string Name() const override;

  // Computes PreFilterState over every node of the snapshot. Skip iff no
  // existing pod's anti-affinity matches the pod and the pod has no
  // required affinity and no required anti-affinity terms.
  // Note: v1.32 reads the node list from the snapshot lister; newer
  // releases take it as an argument. Both are the snapshot's list.
  PreFilterOutput PreFilter(CycleState& state, const api::Pod& pod,
                            const std::vector<const NodeInfo*>& nodes) override;
  bool HasPreFilterExtensions() const override { return true; }
  // Update the counts as if `pod_to_add` ran on `node` (RemovePod: no
  // longer ran there). Error if PreFilter state is missing.
  Status AddPod(CycleState& state, const api::Pod& pod_to_schedule,
                const api::Pod& pod_to_add, const NodeInfo& node) override;
  Status RemovePod(CycleState& state, const api::Pod& pod_to_schedule,
                   const api::Pod& pod_to_remove,
                   const NodeInfo& node) override;

  // In this order:
  //  - required affinity: the node must carry every term's topology key,
  //    and each term's pair must have a positive count, unless no pod
  //    anywhere matches (affinity_counts empty) and the pod matches all its
  //    own terms (the first pod of a group) -> UnschedulableAndUnresolvable
  //    kErrReasonAffinityRulesNotMatch;
  //  - required anti-affinity: some term's pair on this node has a positive
  //    count -> Unschedulable kErrReasonAntiAffinityRulesNotMatch;
  //  - existing pods' anti-affinity: some (key, value) label of the node has
  //    a positive count -> Unschedulable
  //    kErrReasonExistingAntiAffinityRulesNotMatch.
  Status Filter(CycleState& state, const api::Pod& pod,
                const NodeInfo& node) override;

  // Accumulates, for every existing pod on a node with labels, at the pair
  // of that node: +w for each preferred affinity term of the incoming pod
  // the existing pod matches, -w for its preferred anti-affinity terms;
  // +hardPodAffinityWeight for each required affinity term of the existing
  // pod the incoming pod matches (when the weight is > 0); +w / -w for the
  // existing pod's preferred affinity / anti-affinity terms the incoming pod
  // matches. Skip if nothing was accumulated, or when
  // ignorePreferredTermsOfExistingPods is set and the pod has no preferred
  // terms.
  Status PreScore(CycleState& state, const api::Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // Sum over the node's labels of the accumulated pair scores (may be
  // negative).
  ScoreOutput Score(CycleState& state, const api::Pod& pod,
                    const NodeInfo& node) override;
  bool HasScoreExtensions() const override { return true; }
  // int(100 * (s - min) / (max - min)) in float64, min/max over the list
  // (starting at MaxInt64/MinInt64); every score 0 when max == min; no-op
  // when nothing was accumulated.
  Status NormalizeScore(CycleState& state, const api::Pod& pod,
                        NodeScoreList& scores) override;

  // Pod Add|UpdatePodLabel|Delete with IsSchedulableAfterPodChange; Node
  // Add|UpdateNodeLabel with IsSchedulableAfterNodeChange.
  // Note: v1.32 with SchedulerQueueingHints on (its default) drops
  // UpdateNodeTaint from the node event, as the other plugins here do.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Skip for unscheduled pods. Update: Queue iff the pod now matches all
  // the target's required affinity terms and did not before, or no longer
  // matches all its anti-affinity terms and did before. Add: Queue iff it
  // matches all affinity terms. Delete: Queue iff it matched all
  // anti-affinity terms.
  static StatusOr<QueueingHint> IsSchedulableAfterPodChange(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj);
  // Required affinity terms: Queue for an added node carrying a term's
  // topology key, or an updated node that gained the key or changed its
  // value. Required anti-affinity terms: Queue for any added node, or an
  // updated node that lost a term's key or changed its value. Else Skip.
  static StatusOr<QueueingHint> IsSchedulableAfterNodeChange(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj);

 private:
  // Constant after construction.
  InterPodAffinityArgs args_;
  Handle* handle_;
};

}  // namespace schedref::reference::framework::plugins::interpodaffinity

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_INTERPODAFFINITY_INTERPOD_AFFINITY_H_
