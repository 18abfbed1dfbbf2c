#include "optimized/backend/queue/cross_topology.h"

#include <algorithm>

#include "api/types/labels.h"

namespace schedref::optimized::backend::queue {
namespace {

bool TermMatches(const api::PodAffinityTerm& term, const api::Pod& owner,
                 const api::Pod& candidate, const api::Labels& ns_labels) {
  bool namespace_ok = false;
  if (term.namespaces.empty() && !term.namespace_selector.has_value()) {
    namespace_ok = candidate.ns == owner.ns;
  } else {
    namespace_ok =
        std::find(term.namespaces.begin(), term.namespaces.end(), candidate.ns) !=
            term.namespaces.end() ||
        (term.namespace_selector.has_value() &&
         api::Matches(*term.namespace_selector, ns_labels));
  }
  return namespace_ok && term.label_selector.has_value() &&
         api::Matches(*term.label_selector, candidate.labels);
}

}  // namespace

bool HasCrossTopologyTermMatching(const framework::QueuedPodInfo& unschedulable,
                                  const api::Pod& assigned,
                                  const api::Labels& assigned_ns_labels) {
  const api::Pod& pod = unschedulable.pod();
  if (unschedulable.unschedulable_plugins.count(kPodTopologySpreadPlugin) != 0 &&
      assigned.ns == pod.ns) {
    return true;
  }
  if (!pod.affinity.has_value() || !pod.affinity->pod_affinity.has_value()) return false;
  for (const api::PodAffinityTerm& term : pod.affinity->pod_affinity->required) {
    if (TermMatches(term, pod, assigned, assigned_ns_labels)) return true;
  }
  return false;
}

}  // namespace schedref::optimized::backend::queue
