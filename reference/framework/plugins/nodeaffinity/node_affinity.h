// NodeAffinity: spec.nodeSelector and required node affinity as a filter
// (plus the scheduler-enforced args.addedAffinity), preferred node affinity
// as a score. Specification: upstream
// pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go (read at
// 5ae369a03439e3654c6fa01a1de5c3d9615fe897; the logic is the same as v1.32's,
// with SchedulerQueueingHints on: Node Add|UpdateNodeLabel) and
// component-helpers/scheduling/corev1/nodeaffinity (NodeSelector,
// PreferredSchedulingTerms). Tests from node_affinity_test.go at
// 17bae91f207a5f2b101e581c90f7a72fc9adef96.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODEAFFINITY_NODE_AFFINITY_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODEAFFINITY_NODE_AFFINITY_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/config/pluginargs/nodeaffinity_args.h"
#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"

namespace schedref::reference::framework::plugins::nodeaffinity {

inline constexpr char kErrReasonPod[] =
    "node(s) didn't match Pod's node affinity/selector";
inline constexpr char kErrReasonEnforced[] =
    "node(s) didn't match scheduler-enforced node affinity";
inline constexpr char kErrReasonConflict[] = "pod affinity terms conflict";

// The args, their decoding and validation:
// api/config/pluginargs/nodeaffinity_args.h.
using api::pluginargs::NodeAffinityArgs;

// The pod's preferred terms as upstream's NewPreferredSchedulingTerms parses
// them: terms with weight 0 or an empty preference are dropped; a term that
// does not parse is an error "[i].<field>: <problem>".
[[nodiscard]] StatusOr<std::vector<api::PreferredSchedulingTerm>>
ParsePreferredSchedulingTerms(
    const std::vector<api::PreferredSchedulingTerm>& terms);

class NodeAffinity final : public PreFilterPlugin,
                           public FilterPlugin,
                           public PreScorePlugin,
                           public ScorePlugin,
                           public EnqueueExtensions {
 public:
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  // REQUIRES: api::pluginargs::ValidateNodeAffinityArgs(args).ok().
  explicit NodeAffinity(NodeAffinityArgs args);

  std::string Name() const override;

  // Skip iff the pod has no required node affinity, no nodeSelector and
  // there is no added required affinity. Otherwise restricts the nodes to
  // the union over terms of the intersection of each term's
  // `metadata.name In` matchFields; any term without one means all nodes;
  // an empty union is UnschedulableAndUnresolvable kErrReasonConflict.
  PreFilterOutput PreFilter(CycleState& state, const api::Pod& pod,
                            const std::vector<const NodeInfo*>& nodes) override;

  // UnschedulableAndUnresolvable kErrReasonEnforced if the added required
  // affinity does not match; kErrReasonPod if the pod's nodeSelector or
  // required affinity does not.
  Status Filter(CycleState& state, const api::Pod& pod,
                const NodeInfo& node) override;

  // Error if the pod's preferred terms do not parse; Skip if neither the pod
  // nor the args have preferred terms.
  Status PreScore(CycleState& state, const api::Pod& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // Sum of the weights of the matching preferred terms (added + pod's).
  ScoreOutput Score(CycleState& state, const api::Pod& pod,
                    const NodeInfo& node) override;
  bool HasScoreExtensions() const override { return true; }
  // DefaultNormalizeScore(100, reverse=false).
  Status NormalizeScore(CycleState& state, const api::Pod& pod,
                        NodeScoreList& scores) override;

  // Node Add|UpdateNodeLabel with IsSchedulableAfterNodeChange.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Skip if the node does not match the added required affinity or the
  // pod's required affinity; Queue for a matching new node, and for an
  // updated node iff the old one did not match. An error (Queue) when the
  // pod's required terms do not parse and none matches.
  StatusOr<QueueingHint> IsSchedulableAfterNodeChange(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj) const;

 private:
  bool MatchesAddedSelector(const api::Node& node) const;

  // Constant after construction.
  std::optional<api::NodeSelector> added_node_selector_;
  // Preferred terms with a weight and a non-empty preference.
  std::vector<api::PreferredSchedulingTerm> added_pref_terms_;
  // True iff args listed any preferred term (upstream addedPrefSchedTerms
  // != nil): then PreScore never skips.
  bool has_added_pref_terms_ = false;
};

}  // namespace schedref::reference::framework::plugins::nodeaffinity

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODEAFFINITY_NODE_AFFINITY_H_
