// NodeAffinity: spec.nodeSelector and required node affinity as a filter
// (plus the scheduler-enforced args.addedAffinity), preferred node affinity
// as a score. Specification: upstream
// pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go, v1.32
// (SchedulerQueueingHints on: Node Add|UpdateNodeLabel), and
// component-helpers/scheduling/corev1/nodeaffinity; docs/semantics/plugins.md.
//
// Speed: PreFilter compiles the pod's required terms and PreScore its
// preferred terms once per attempt (node_selector.h), and the added
// affinity is compiled at construction, so Filter and Score only look up
// node labels. The compiled terms are shared (immutable) between a
// CycleState and its clones. Filter's verdict on a snapshot node is kept
// from one cycle to the next while the node (its NodeInfo generation) and
// the pod's nodeSelector and required affinity are unchanged
// (docs/optimized.md "Per-node memos"), so a node is matched once per
// change, not once per pod.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEAFFINITY_NODE_AFFINITY_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEAFFINITY_NODE_AFFINITY_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/config/pluginargs/nodeaffinity_args.h"
#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/framework/events.h"
#include "optimized/framework/interface.h"
#include "optimized/framework/plugins/nodeaffinity/node_selector.h"

namespace schedref::optimized::framework::plugins::nodeaffinity {

inline constexpr char kErrReasonPod[] =
    "node(s) didn't match Pod's node affinity/selector";
inline constexpr char kErrReasonEnforced[] =
    "node(s) didn't match scheduler-enforced node affinity";
inline constexpr char kErrReasonConflict[] = "pod affinity terms conflict";

// The args, their decoding and validation:
// api/config/pluginargs/nodeaffinity_args.h.
using api::pluginargs::NodeAffinityArgs;

// The pod's preferred terms as upstream's NewPreferredSchedulingTerms parses
// them: terms with weight 0 or an empty preference are dropped; terms that
// do not parse make an Invalid error "[i].<field>: <problem>" (several as
// "[e1, e2]").
[[nodiscard]] StatusOr<std::vector<CompiledPreferredTerm>>
CompilePreferredTerms(const std::vector<api::PreferredSchedulingTerm>& terms);

class NodeAffinity final : public PreFilterPlugin,
                           public NodeObjectFilterPlugin,
                           public PreScorePlugin,
                           public ScorePlugin,
                           public EnqueueExtensions {
 public:
  // Decodes and validates the args (api::pluginargs::DecodeNodeAffinityArgs);
  // their error is returned as is.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  // REQUIRES: api::pluginargs::ValidateNodeAffinityArgs(args).ok().
  // Without a handle Filter keeps no verdicts.
  explicit NodeAffinity(const NodeAffinityArgs& args, Handle* handle = nullptr);

  std::string Name() const override;

  // Filter's verdicts (never 0, which marks an empty slot).
  static constexpr int kMatch = 1;
  static constexpr int kEnforcedMismatch = 2;  // kErrReasonEnforced
  static constexpr int kPodMismatch = 3;       // kErrReasonPod

  // Skip iff the pod has no required node affinity, no nodeSelector and
  // there is no added required affinity. Otherwise stores the compiled
  // required terms and restricts the nodes to the union over terms of the
  // intersection of each term's `metadata.name In` matchFields; any term
  // without one means all nodes; an empty union is
  // UnschedulableAndUnresolvable kErrReasonConflict.
  PreFilterOutput PreFilter(CycleState& state, const PodInfo& pod,
                            const std::vector<NodeInfo*>& nodes) override;

  // UnschedulableAndUnresolvable kErrReasonEnforced if the added required
  // affinity does not match; kErrReasonPod if the pod's nodeSelector or
  // required affinity does not (terms that do not parse match nothing).
  // Without PreFilter's state the pod's terms are compiled here (upstream's
  // fallback; allocates).
  Status Filter(const CycleState& state, const PodInfo& pod,
                const NodeInfo& node) const override;

  // Error (the CompilePreferredTerms message) if the pod's preferred terms
  // do not parse; Skip if neither the pod nor the args have preferred terms;
  // otherwise stores the compiled terms.
  Status PreScore(CycleState& state, const PodInfo& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // Sum of the weights of the matching preferred terms (added + pod's).
  // Without PreScore's state the pod's terms are compiled here (upstream's
  // fallback; allocates; Error if they do not parse).
  ScoreOutput Score(const CycleState& state, const PodInfo& pod,
                    const NodeInfo& node) const override;
  bool HasScoreExtensions() const override { return true; }
  // DefaultNormalizeScore(100, reverse=false).
  Status NormalizeScore(const CycleState& state, const PodInfo& pod,
                        const std::vector<const NodeInfo*>& nodes,
                        std::vector<int64_t>& scores) override;

  // Node Add|UpdateNodeLabel with IsSchedulableAfterNodeChange.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Skip if there is no new node, or it does not match the added required
  // affinity or the pod's nodeSelector and required affinity; Queue for a
  // matching new node, and for an updated node iff the old one did not
  // match. An error (which counts as Queue) when the pod's required terms
  // do not parse and none matches.
  StatusOr<QueueingHint> IsSchedulableAfterNodeChange(
      const api::Pod& pod, const EventObjects& objects) const;

 private:
  bool MatchesAddedSelector(const api::Node& node) const {
    return !added_node_selector_ || added_node_selector_->Matches(node);
  }
  // The filter proper: kMatch, kEnforcedMismatch or kPodMismatch;
  // `required` is the pod's compiled required selector (nullptr: none).
  int FilterNode(const PodInfo& pod, const CompiledNodeSelector* required,
                 const api::Node& node) const;
  // Starts a cycle's verdicts for `pod` (PreFilter); returns the epoch
  // Filter must find in a slot.
  uint32_t BeginVerdicts(const PodInfo& pod);

  // Constant after construction.
  std::optional<CompiledNodeSelector> added_node_selector_;
  // Preferred terms with a weight and a non-empty preference.
  std::vector<CompiledPreferredTerm> added_pref_terms_;
  // True iff args listed any preferred term (upstream addedPrefSchedTerms
  // != nil): then PreScore never skips.
  bool has_added_pref_terms_ = false;
  Handle* handle_ = nullptr;

  // Filter verdicts kept across cycles, one slot per snapshot position:
  // (generation << 18) | (epoch << 2) | verdict (kMatch...); 0 is empty. A slot is read and
  // written only for a NodeInfo that is the snapshot's own at that position
  // in a cache-maintained snapshot (generation > 0), where the generation
  // names the node's state (helper/node_memo.h). Filter runs concurrently:
  // slots are relaxed atomics (racing writers store the same value).
  // PreFilter (one thread) sizes them and moves the epoch when the pod's
  // nodeSelector or required affinity differs from the last pod's.
  static constexpr uint32_t kEpochBits = 16;
  mutable std::unique_ptr<std::atomic<uint64_t>[]> verdicts_;
  size_t num_verdicts_ = 0;
  uint32_t epoch_ = 0;
  api::Labels last_node_selector_;
  std::optional<api::NodeSelector> last_required_;
};

}  // namespace schedref::optimized::framework::plugins::nodeaffinity

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEAFFINITY_NODE_AFFINITY_H_
