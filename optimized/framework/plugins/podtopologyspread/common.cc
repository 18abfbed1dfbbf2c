#include "optimized/framework/plugins/podtopologyspread/common.h"

#include "api/types/labels.h"
#include "optimized/framework/plugins/helper/spread.h"

namespace schedref::optimized::framework::plugins::podtopologyspread {

std::vector<Constraint> FilterTopologySpreadConstraints(
    const std::vector<api::TopologySpreadConstraint>& constraints,
    const api::Labels& pod_labels, const std::string& action) {
  std::vector<Constraint> out;
  for (const api::TopologySpreadConstraint& c : constraints) {
    if (c.when_unsatisfiable != action) continue;
    Constraint tsc;
    tsc.max_skew = c.max_skew;
    tsc.topology_key = c.topology_key;
    tsc.selector = c.label_selector;
    // upstream mergeLabelSetWithSelector; labels.Nothing() stays Nothing.
    if (tsc.selector) {
      for (const std::string& key : c.match_label_keys) {
        auto it = pod_labels.find(key);
        if (it != pod_labels.end()) {
          tsc.selector->match_expressions.push_back({key, "In", {it->second}});
        }
      }
    }
    if (c.min_domains) tsc.min_domains = *c.min_domains;
    if (c.node_affinity_policy) tsc.honor_node_affinity = *c.node_affinity_policy == kHonor;
    if (c.node_taints_policy) tsc.honor_node_taints = *c.node_taints_policy == kHonor;
    out.push_back(std::move(tsc));
  }
  return out;
}

std::vector<Constraint> BuildDefaultConstraints(
    const std::vector<api::TopologySpreadConstraint>& default_constraints,
    const api::Pod& pod, const std::string& action, const api::SelectorObjects& listers) {
  // The selector first: most pods have none, and then no list is built.
  const std::optional<api::LabelSelector> selector = helper::DefaultSelector(pod, listers);
  if (!selector.has_value()) return {};
  std::vector<Constraint> constraints =
      FilterTopologySpreadConstraints(default_constraints, pod.labels, action);
  for (Constraint& c : constraints) c.selector = selector;
  return constraints;
}

bool NodeLabelsMatchSpreadConstraints(const api::Labels& labels,
                                      const std::vector<Constraint>& constraints) {
  for (const Constraint& c : constraints) {
    if (!labels.contains(c.topology_key)) return false;
  }
  return true;
}

bool SelectorMatches(const std::optional<api::LabelSelector>& selector,
                     const api::Labels& labels) {
  return selector.has_value() && api::Matches(*selector, labels);
}

int CountPodsMatchSelector(const std::vector<PodInfoPtr>& pods,
                           const std::optional<api::LabelSelector>& selector,
                           const std::string& ns) {
  if (!selector) return 0;
  if (selector->match_labels.empty() && selector->match_expressions.empty()) {
    return 0;
  }
  int count = 0;
  for (const PodInfoPtr& p : pods) {
    // Terminating pods do not count (upstream #87621).
    if (p->pod.deletion_timestamp.has_value() || p->pod.ns != ns) continue;
    if (api::Matches(*selector, p->pod.labels)) ++count;
  }
  return count;
}

bool PodMatchesNodeAffinity(const api::Pod& pod, const api::Node& node) {
  return api::RequiredNodeAffinityMatches(pod, node);
}

bool PodHasRequiredNodeAffinity(const api::Pod& pod) {
  return !pod.node_selector.empty() ||
         (pod.affinity && pod.affinity->node_affinity &&
          pod.affinity->node_affinity->required);
}

bool PodToleratesNodeTaints(const api::Pod& pod, const api::Node& node) {
  for (const api::Taint& taint : node.taints) {
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
    if (!api::TolerationsTolerateTaint(pod.tolerations, taint)) return false;
  }
  return true;
}

bool MatchNodeInclusionPolicies(const Constraint& constraint, const api::Pod& pod,
                                const api::Node& node) {
  if (constraint.honor_node_affinity && !PodMatchesNodeAffinity(pod, node)) {
    return false;
  }
  return !constraint.honor_node_taints || PodToleratesNodeTaints(pod, node);
}

bool PodLabelsMatchSpreadConstraints(const std::vector<Constraint>& constraints,
                                     const api::Labels& labels) {
  for (const Constraint& c : constraints) {
    if (SelectorMatches(c.selector, labels)) return true;
  }
  return false;
}

}  // namespace schedref::optimized::framework::plugins::podtopologyspread
