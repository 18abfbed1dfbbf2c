#include "optimized/framework/plugins/interpodaffinity/affinity_match.h"

#include "api/types/labels.h"

namespace schedref::optimized::framework::plugins::interpodaffinity {

bool TermMatches(const AffinityTerm& term, const api::Pod& pod,
                 const api::Labels& ns_labels) {
  const bool in_namespace =
      term.namespaces.contains(pod.ns) ||
      (term.namespace_selector && api::Matches(*term.namespace_selector, ns_labels));
  return in_namespace && term.selector && api::Matches(*term.selector, pod.labels);
}

bool PodMatchesAllAffinityTerms(const std::vector<AffinityTerm>& terms,
                                const api::Pod& pod) {
  static const api::Labels kNoLabels;
  if (terms.empty()) return false;
  for (const AffinityTerm& t : terms) {
    if (!TermMatches(t, pod, kNoLabels)) return false;
  }
  return true;
}

void MergeAffinityTermNamespaces(
    AffinityTerm& term,
    const std::map<std::string, api::Labels>& namespace_labels) {
  // Upstream asks Selector.Empty(): true only for a present selector without
  // requirements. An absent selector (labels.Nothing()) lists no namespace
  // and stays absent, which is what resetting it gives.
  if (!term.namespace_selector) return;
  const api::LabelSelector& sel = *term.namespace_selector;
  if (sel.match_labels.empty() && sel.match_expressions.empty()) return;
  for (const auto& [name, labels] : namespace_labels) {
    if (api::Matches(sel, labels)) term.namespaces.insert(name);
  }
  term.namespace_selector.reset();
}

const api::Labels& NamespaceLabelsOf(
    const std::string& ns,
    const std::map<std::string, api::Labels>& namespace_labels) {
  static const api::Labels kNoLabels;
  auto it = namespace_labels.find(ns);
  return it == namespace_labels.end() ? kNoLabels : it->second;
}

}  // namespace schedref::optimized::framework::plugins::interpodaffinity
