#include "reference/framework/plugins/podtopologyspread/common.h"

#include "api/types/labels.h"
#include "reference/framework/plugins/helper/spread.h"

namespace schedref::reference::framework::plugins::podtopologyspread {

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
    // upstream mergeLabelSetWithSelector: the pod's values for the listed
    // keys become requirements ANDed with the selector's own; an absent
    // selector (labels.Nothing()) stays absent.
    if (tsc.selector) {
      for (const std::string& key : c.match_label_keys) {
        auto it = pod_labels.find(key);
        if (it == pod_labels.end()) continue;
        tsc.selector->match_expressions.push_back({key, "In", {it->second}});
      }
    }
    if (c.min_domains) tsc.min_domains = *c.min_domains;
    if (c.node_affinity_policy) tsc.node_affinity_policy = *c.node_affinity_policy;
    if (c.node_taints_policy) tsc.node_taints_policy = *c.node_taints_policy;
    out.push_back(std::move(tsc));
  }
  return out;
}

std::vector<Constraint> BuildDefaultConstraints(
    const std::vector<api::TopologySpreadConstraint>& default_constraints,
    const api::Pod& pod, const std::string& action, const api::SelectorObjects& listers) {
  std::vector<Constraint> constraints =
      FilterTopologySpreadConstraints(default_constraints, pod.labels, action);
  if (constraints.empty()) return {};
  const std::optional<api::LabelSelector> selector = helper::DefaultSelector(pod, listers);
  if (!selector.has_value()) return {};
  for (Constraint& c : constraints) c.selector = selector;
  return constraints;
}

bool NodeLabelsMatchSpreadConstraints(
    const api::Labels& labels, const std::vector<Constraint>& constraints) {
  for (const Constraint& c : constraints) {
    if (!labels.contains(c.topology_key)) return false;
  }
  return true;
}

bool SelectorMatches(const std::optional<api::LabelSelector>& selector,
                     const api::Labels& labels) {
  return selector.has_value() && api::Matches(*selector, labels);
}

int CountPodsMatchSelector(const std::vector<api::Pod>& pods,
                           const std::optional<api::LabelSelector>& selector,
                           const std::string& ns) {
  if (selector && selector->match_labels.empty() &&
      selector->match_expressions.empty()) {
    return 0;
  }
  int count = 0;
  for (const api::Pod& p : pods) {
    // Terminating pods do not count (upstream #87621).
    if (p.deletion_timestamp.has_value() || p.ns != ns) continue;
    if (SelectorMatches(selector, p.labels)) ++count;
  }
  return count;
}

bool MatchNodeInclusionPolicies(const Constraint& constraint,
                                const api::Pod& pod, const api::Node& node) {
  if (constraint.node_affinity_policy == kHonor &&
      !api::RequiredNodeAffinityMatches(pod, node)) {
    return false;
  }
  if (constraint.node_taints_policy == kHonor) {
    for (const api::Taint& taint : node.taints) {
      if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
      if (!api::TolerationsTolerateTaint(pod.tolerations, taint)) return false;
    }
  }
  return true;
}

bool PodLabelsMatchSpreadConstraints(const std::vector<Constraint>& constraints,
                                     const api::Labels& labels) {
  for (const Constraint& c : constraints) {
    if (SelectorMatches(c.selector, labels)) return true;
  }
  return false;
}

}  // namespace schedref::reference::framework::plugins::podtopologyspread
