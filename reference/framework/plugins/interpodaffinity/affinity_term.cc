#include "reference/framework/plugins/interpodaffinity/affinity_term.h"

#include <utility>

#include "api/types/labels.h"

namespace schedref::reference::framework::plugins::interpodaffinity {
namespace {

bool IsEmptySelector(const api::LabelSelector& s) {
  return s.match_labels.empty() && s.match_expressions.empty();
}

bool SelectorMatches(const std::optional<api::LabelSelector>& s,
                     const api::Labels& labels) {
  return s.has_value() && api::Matches(*s, labels);
}

const api::PodAffinity* PodAffinityOf(const api::Pod& pod) {
  if (!pod.affinity || !pod.affinity->pod_affinity) return nullptr;
  return &*pod.affinity->pod_affinity;
}

const api::PodAffinity* PodAntiAffinityOf(const api::Pod& pod) {
  if (!pod.affinity || !pod.affinity->pod_anti_affinity) return nullptr;
  return &*pod.affinity->pod_anti_affinity;
}

std::vector<AffinityTerm> Required(const api::Pod& pod,
                                   const api::PodAffinity* a) {
  std::vector<AffinityTerm> out;
  if (a == nullptr) return out;
  for (const api::PodAffinityTerm& t : a->required) {
    out.push_back(MakeAffinityTerm(pod, t));
  }
  return out;
}

std::vector<WeightedAffinityTerm> Preferred(const api::Pod& pod,
                                            const api::PodAffinity* a) {
  std::vector<WeightedAffinityTerm> out;
  if (a == nullptr) return out;
  for (const api::WeightedPodAffinityTerm& t : a->preferred) {
    out.push_back({MakeAffinityTerm(pod, t.term), t.weight});
  }
  return out;
}

}  // namespace

std::optional<api::LabelSelector> EffectiveLabelSelector(
    const api::PodAffinityTerm& term, const api::Pod& owner) {
  std::optional<api::LabelSelector> selector = term.label_selector;
  if (!selector) return selector;
  for (const std::string& key : term.match_label_keys) {
    auto it = owner.labels.find(key);
    if (it == owner.labels.end()) continue;
    selector->match_expressions.push_back({key, "In", {it->second}});
  }
  for (const std::string& key : term.mismatch_label_keys) {
    auto it = owner.labels.find(key);
    if (it == owner.labels.end()) continue;
    selector->match_expressions.push_back({key, "NotIn", {it->second}});
  }
  return selector;
}

AffinityTerm MakeAffinityTerm(const api::Pod& owner,
                              const api::PodAffinityTerm& term) {
  AffinityTerm out;
  out.selector = EffectiveLabelSelector(term, owner);
  out.topology_key = term.topology_key;
  out.namespace_selector = term.namespace_selector;
  if (term.namespaces.empty() && !term.namespace_selector) {
    out.namespaces.insert(owner.ns);
  } else {
    out.namespaces.insert(term.namespaces.begin(), term.namespaces.end());
  }
  return out;
}

std::vector<AffinityTerm> RequiredAffinityTerms(const api::Pod& pod) {
  return Required(pod, PodAffinityOf(pod));
}
std::vector<AffinityTerm> RequiredAntiAffinityTerms(const api::Pod& pod) {
  return Required(pod, PodAntiAffinityOf(pod));
}
std::vector<WeightedAffinityTerm> PreferredAffinityTerms(const api::Pod& pod) {
  return Preferred(pod, PodAffinityOf(pod));
}
std::vector<WeightedAffinityTerm> PreferredAntiAffinityTerms(
    const api::Pod& pod) {
  return Preferred(pod, PodAntiAffinityOf(pod));
}

bool TermMatches(const AffinityTerm& term, const api::Pod& pod,
                 const api::Labels& ns_labels) {
  if (term.namespaces.contains(pod.ns) ||
      SelectorMatches(term.namespace_selector, ns_labels)) {
    return SelectorMatches(term.selector, pod.labels);
  }
  return false;
}

bool PodMatchesAllAffinityTerms(const std::vector<AffinityTerm>& terms,
                                const api::Pod& pod) {
  if (terms.empty()) return false;
  for (const AffinityTerm& t : terms) {
    if (!TermMatches(t, pod, api::Labels{})) return false;
  }
  return true;
}

void MergeAffinityTermNamespaces(
    AffinityTerm& term,
    const std::map<std::string, api::Labels>& namespace_labels) {
  // Upstream checks Selector.Empty(): true only for a present selector
  // without requirements; labels.Nothing() (absent) is not empty, is
  // "listed" (finding nothing) and stays Nothing.
  if (!term.namespace_selector) return;
  if (IsEmptySelector(*term.namespace_selector)) return;
  for (const auto& [name, labels] : namespace_labels) {
    if (api::Matches(*term.namespace_selector, labels)) {
      term.namespaces.insert(name);
    }
  }
  term.namespace_selector.reset();
}

api::Labels NamespaceLabelsOf(
    const std::string& ns,
    const std::map<std::string, api::Labels>& namespace_labels) {
  auto it = namespace_labels.find(ns);
  return it == namespace_labels.end() ? api::Labels{} : it->second;
}

}  // namespace schedref::reference::framework::plugins::interpodaffinity
