// What it means for a pod (anti-)affinity term to match a pod, over the
// terms PodInfo already holds (optimized/framework/types.h AffinityTerm).
// Specification: upstream pkg/scheduler/framework/types.go
// (AffinityTerm.Matches) and plugins/interpodaffinity/plugin.go
// (mergeAffinityTermNamespacesIfNotEmpty, GetNamespaceLabelsSnapshot),
// v1.32; docs/semantics/interpodaffinity.md "Terms".
//
// A term of pod P matches pod Q iff (Q's namespace is in the term's
// namespaces, or the term's namespaceSelector matches the labels of Q's
// namespace) and the term's labelSelector matches Q's labels. An absent
// labelSelector or namespaceSelector matches nothing; an empty one
// everything.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_INTERPODAFFINITY_AFFINITY_MATCH_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_INTERPODAFFINITY_AFFINITY_MATCH_H_

#include <map>
#include <string>
#include <vector>

#include "api/types/objects.h"
#include "optimized/framework/types.h"

namespace schedref::optimized::framework::plugins::interpodaffinity {

// upstream AffinityTerm.Matches: `ns_labels` are the labels of `pod`'s
// namespace (empty when unknown or not looked up).
bool TermMatches(const AffinityTerm& term, const api::Pod& pod,
                 const api::Labels& ns_labels);

// True iff `terms` is non-empty and `pod` matches every term, namespace
// labels not looked up (upstream podMatchesAllAffinityTerms).
bool PodMatchesAllAffinityTerms(const std::vector<AffinityTerm>& terms,
                                const api::Pod& pod);

// upstream mergeAffinityTermNamespacesIfNotEmpty, for the incoming pod's
// terms: a namespaceSelector with requirements is replaced by the names of
// the cluster's namespaces whose labels it matches, added to `namespaces`,
// and then matches nothing. An empty or absent selector is kept. Afterwards
// the term is matched without looking up namespace labels.
void MergeAffinityTermNamespaces(
    AffinityTerm& term,
    const std::map<std::string, api::Labels>& namespace_labels);

// The labels of namespace `ns`, or empty when the cluster has no such
// namespace.
const api::Labels& NamespaceLabelsOf(
    const std::string& ns,
    const std::map<std::string, api::Labels>& namespace_labels);

}  // namespace schedref::optimized::framework::plugins::interpodaffinity

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_INTERPODAFFINITY_AFFINITY_MATCH_H_
