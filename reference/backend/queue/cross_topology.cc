#include "reference/backend/queue/cross_topology.h"

#include <algorithm>
#include <string>

namespace schedref::reference::queue {
namespace {

bool RequirementMatches(const api::LabelSelectorRequirement& r,
                        const api::Labels& labels) {
  auto it = labels.find(r.key);
  bool has = it != labels.end();
  auto in_values = [&]() {
    return has && std::find(r.values.begin(), r.values.end(), it->second) !=
                      r.values.end();
  };
  if (r.op == "In") return in_values();
  if (r.op == "NotIn") return !in_values();
  if (r.op == "Exists") return has;
  if (r.op == "DoesNotExist") return !has;
  return false;
}

bool TermMatches(const api::PodAffinityTerm& term, const api::Pod& owner,
                 const api::Pod& candidate, const api::Labels& ns_labels) {
  bool namespace_ok = false;
  if (term.namespaces.empty() && !term.namespace_selector.has_value()) {
    namespace_ok = candidate.ns == owner.ns;
  } else {
    namespace_ok = std::find(term.namespaces.begin(), term.namespaces.end(),
                             candidate.ns) != term.namespaces.end() ||
                   (term.namespace_selector.has_value() &&
                    LabelSelectorMatches(*term.namespace_selector, ns_labels));
  }
  if (!namespace_ok) return false;
  return term.label_selector.has_value() &&
         LabelSelectorMatches(*term.label_selector, candidate.labels);
}

}  // namespace

bool LabelSelectorMatches(const api::LabelSelector& selector,
                          const api::Labels& labels) {
  for (const auto& [key, value] : selector.match_labels) {
    auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return false;
  }
  for (const api::LabelSelectorRequirement& r : selector.match_expressions) {
    if (!RequirementMatches(r, labels)) return false;
  }
  return true;
}

bool HasCrossTopologyTermMatching(const framework::QueuedPodInfo& unschedulable,
                                  const api::Pod& assigned,
                                  const api::Labels& assigned_ns_labels) {
  const api::Pod& pod = unschedulable.pod;
  if (unschedulable.unschedulable_plugins.count(kPodTopologySpreadPlugin) &&
      assigned.ns == pod.ns) {
    return true;
  }
  if (!pod.affinity.has_value() || !pod.affinity->pod_affinity.has_value()) {
    return false;
  }
  for (const api::PodAffinityTerm& term :
       pod.affinity->pod_affinity->required) {
    if (TermMatches(term, pod, assigned, assigned_ns_labels)) return true;
  }
  return false;
}

}  // namespace schedref::reference::queue
