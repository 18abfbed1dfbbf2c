// The parts of PodTopologySpread shared by filtering and scoring: a pod's
// constraints as the scheduler evaluates them, which nodes count, and which
// pods count. Specification: docs/semantics/podtopologyspread.md
// ("Constraints", "Counting") and upstream
// pkg/scheduler/framework/plugins/podtopologyspread/common.go, v1.32 with
// NodeInclusionPolicy, MinDomains and matchLabelKeys on.
//
// A constraint of pod P counts, per topology domain (a value of the node
// label topologyKey), the pods in P's namespace, not terminating, whose
// labels match the constraint's selector, on the eligible nodes of that
// domain. A node is eligible iff it carries every constraint's topologyKey
// and passes the constraint's inclusion policies: nodeAffinityPolicy Honor
// (default) - P's nodeSelector and required node affinity match the node;
// nodeTaintsPolicy Honor (default Ignore) - P tolerates the node's
// NoSchedule and NoExecute taints.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_COMMON_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_COMMON_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/types/objects.h"
#include "optimized/framework/types.h"

namespace schedref::optimized::framework::plugins::podtopologyspread {

inline constexpr char kHonor[] = "Honor";
inline constexpr char kIgnore[] = "Ignore";

// upstream topologySpreadConstraint: a constraint with its selector
// resolved and its defaults applied.
struct Constraint {
  int32_t max_skew = 0;
  std::string topology_key;
  // nullopt matches nothing (upstream labels.Nothing()).
  std::optional<api::LabelSelector> selector;
  int32_t min_domains = 1;
  // nodeAffinityPolicy / nodeTaintsPolicy == "Honor".
  bool honor_node_affinity = true;
  bool honor_node_taints = false;

  friend bool operator==(const Constraint&, const Constraint&) = default;
};

// The constraints with whenUnsatisfiable == `action`, in order (upstream
// filterTopologySpreadConstraints): minDomains defaults to 1,
// nodeAffinityPolicy to Honor, nodeTaintsPolicy to Ignore; matchLabelKeys
// values found in `pod_labels` are ANDed into the selector as `key In
// (value)` (an absent selector stays absent).
std::vector<Constraint> FilterTopologySpreadConstraints(
    const std::vector<api::TopologySpreadConstraint>& constraints,
    const api::Labels& pod_labels, const std::string& action);

// upstream buildDefaultConstraints: the default constraints with
// whenUnsatisfiable == `action`, given the selector built from the
// Services, ReplicationControllers, ReplicaSets and StatefulSets selecting
// the pod; none when that selector is empty.
// (helper::DefaultSelector over `listers`).
std::vector<Constraint> BuildDefaultConstraints(
    const std::vector<api::TopologySpreadConstraint>& default_constraints,
    const api::Pod& pod, const std::string& action, const api::SelectorObjects& listers);

// True iff `labels` has every constraint's topologyKey.
bool NodeLabelsMatchSpreadConstraints(const api::Labels& labels,
                                      const std::vector<Constraint>& constraints);

// True iff `selector` is present and matches `labels`.
bool SelectorMatches(const std::optional<api::LabelSelector>& selector,
                     const api::Labels& labels);

// The pods of `pods` in namespace `ns`, without deletionTimestamp, whose
// labels `selector` matches. 0 for a present selector without requirements
// (upstream returns early when selector.Empty(), although such a selector
// matches every label set elsewhere).
int CountPodsMatchSelector(const std::vector<PodInfoPtr>& pods,
                           const std::optional<api::LabelSelector>& selector,
                           const std::string& ns);

// The two halves of the inclusion policies, computed once per node.
bool PodMatchesNodeAffinity(const api::Pod& pod, const api::Node& node);
// False iff PodMatchesNodeAffinity(pod, node) holds for every node: the
// pod has no nodeSelector entry and no required node affinity.
bool PodHasRequiredNodeAffinity(const api::Pod& pod);
bool PodToleratesNodeTaints(const api::Pod& pod, const api::Node& node);

// True iff `node` passes the constraint's node inclusion policies for `pod`.
bool MatchNodeInclusionPolicies(const Constraint& constraint, const api::Pod& pod,
                                const api::Node& node);

// True iff some constraint's selector matches `labels`.
bool PodLabelsMatchSpreadConstraints(const std::vector<Constraint>& constraints,
                                     const api::Labels& labels);

}  // namespace schedref::optimized::framework::plugins::podtopologyspread

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_COMMON_H_
