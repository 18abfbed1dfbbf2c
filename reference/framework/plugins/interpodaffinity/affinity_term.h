// AffinityTerm: a pod (anti-)affinity term as the scheduler evaluates it,
// and what it means for a term to match a pod. Specification: upstream
// pkg/scheduler/framework/types.go (AffinityTerm, AffinityTerm.Matches,
// newAffinityTerm, getNamespacesFromPodAffinityTerm, NewPodInfo) and
// plugins/interpodaffinity/plugin.go (mergeAffinityTermNamespacesIfNotEmpty),
// read at the v1.31/v1.32 layout (types.go as vendored with plugin.go
// 59578219-era; see interpod_affinity.h for the commits).
//
// Model. A term of pod P matches pod Q iff
//   (Q's namespace is in the term's namespaces, or the term's
//    namespaceSelector matches the labels of Q's namespace)
//   and the term's labelSelector matches Q's labels.
// The namespaces are the listed ones; when the term lists none and has no
// namespaceSelector, P's own namespace. An absent labelSelector or
// namespaceSelector matches nothing; an empty one matches everything.
//
// matchLabelKeys / mismatchLabelKeys (MatchLabelKeysInPodAffinity, beta and
// on by default since v1.31): the API server rewrites the term when the pod
// is created, appending `key In (P's value)` / `key NotIn (P's value)` to
// the labelSelector for every listed key P has a label for (nothing when
// the term has no labelSelector). The scheduler then only sees the
// rewritten selector.
// Note: the manifest decoder keeps the fields as written, so the rewrite is
// applied here, every time a term is read, with the owner's current labels
// (docs/deviations.md "matchLabelKeys in pod affinity").
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_INTERPODAFFINITY_AFFINITY_TERM_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_INTERPODAFFINITY_AFFINITY_TERM_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/types/objects.h"

namespace schedref::reference::framework::plugins::interpodaffinity {

struct AffinityTerm {
  std::set<std::string> namespaces;
  // nullopt matches nothing (upstream labels.Nothing()).
  std::optional<api::LabelSelector> selector;
  std::string topology_key;
  // nullopt matches nothing; an empty selector matches every namespace.
  std::optional<api::LabelSelector> namespace_selector;

  friend bool operator==(const AffinityTerm&, const AffinityTerm&) = default;
};

struct WeightedAffinityTerm {
  AffinityTerm term;
  int32_t weight = 0;

  friend bool operator==(const WeightedAffinityTerm&,
                         const WeightedAffinityTerm&) = default;
};

// The labelSelector of `term` after the API server's matchLabelKeys /
// mismatchLabelKeys rewrite with `owner`'s labels (see the file comment).
std::optional<api::LabelSelector> EffectiveLabelSelector(
    const api::PodAffinityTerm& term, const api::Pod& owner);

// upstream newAffinityTerm(owner, term).
AffinityTerm MakeAffinityTerm(const api::Pod& owner,
                              const api::PodAffinityTerm& term);

// The pod's terms as upstream's PodInfo holds them, in spec order.
std::vector<AffinityTerm> RequiredAffinityTerms(const api::Pod& pod);
std::vector<AffinityTerm> RequiredAntiAffinityTerms(const api::Pod& pod);
std::vector<WeightedAffinityTerm> PreferredAffinityTerms(const api::Pod& pod);
std::vector<WeightedAffinityTerm> PreferredAntiAffinityTerms(
    const api::Pod& pod);

// upstream AffinityTerm.Matches(pod, nsLabels): `ns_labels` are the labels
// of `pod`'s namespace (empty when unknown or not looked up).
bool TermMatches(const AffinityTerm& term, const api::Pod& pod,
                 const api::Labels& ns_labels);

// True iff `terms` is non-empty and `pod` matches every term, namespace
// labels not looked up (upstream podMatchesAllAffinityTerms).
bool PodMatchesAllAffinityTerms(const std::vector<AffinityTerm>& terms,
                                const api::Pod& pod);

// upstream mergeAffinityTermNamespacesIfNotEmpty, for the incoming pod's
// terms: a namespaceSelector with requirements is replaced by the names of
// the namespaces (of `namespace_labels`, the cluster's namespaces) whose
// labels it matches, added to `namespaces`, and then matches nothing. An
// empty or absent selector is left as it is. Afterwards the term can be
// matched without looking up namespace labels.
void MergeAffinityTermNamespaces(
    AffinityTerm& term,
    const std::map<std::string, api::Labels>& namespace_labels);

// The labels of namespace `ns`, or empty when the cluster has no such
// namespace (upstream GetNamespaceLabelsSnapshot).
api::Labels NamespaceLabelsOf(
    const std::string& ns,
    const std::map<std::string, api::Labels>& namespace_labels);

}  // namespace schedref::reference::framework::plugins::interpodaffinity

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_INTERPODAFFINITY_AFFINITY_TERM_H_
