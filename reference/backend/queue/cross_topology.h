// The pre-filter the legacy (QueueingHints disabled) path applies before an
// assigned-pod event may requeue unschedulable pods: only pods with a
// cross-topology term the event could satisfy are considered. Specification:
// upstream pkg/scheduler/backend/queue/scheduling_queue.go
// getUnschedulablePodsWithCrossTopologyTerm and framework/types.go
// AffinityTerm.Matches, v1.32.
#ifndef SCHEDREF_REFERENCE_BACKEND_QUEUE_CROSS_TOPOLOGY_H_
#define SCHEDREF_REFERENCE_BACKEND_QUEUE_CROSS_TOPOLOGY_H_

#include "api/types/objects.h"
#include "reference/framework/interface.h"

namespace schedref::reference::queue {

// Upstream's plugin names, as they appear in UnschedulablePlugins.
inline constexpr char kPodTopologySpreadPlugin[] = "PodTopologySpread";
inline constexpr char kSchedulingGatesPlugin[] = "SchedulingGates";

// metav1.LabelSelector semantics: matchLabels and matchExpressions (In,
// NotIn, Exists, DoesNotExist) all hold. An empty selector matches
// everything; an unknown operator matches nothing.
bool LabelSelectorMatches(const api::LabelSelector& selector,
                          const api::Labels& labels);

// True iff `unschedulable` was rejected by PodTopologySpread and `assigned`
// is in its namespace, or one of its required pod-affinity terms matches
// `assigned`. `assigned_ns_labels` are the labels of assigned's namespace.
// A term's namespaces default to the owning pod's own namespace when it
// lists none and has no namespaceSelector; an absent labelSelector or
// namespaceSelector matches nothing.
// Note: matchLabelKeys / mismatchLabelKeys are not read here: the API server
// merges them into labelSelector (v1.31+), as upstream assumes.
bool HasCrossTopologyTermMatching(const framework::QueuedPodInfo& unschedulable,
                                  const api::Pod& assigned,
                                  const api::Labels& assigned_ns_labels);

}  // namespace schedref::reference::queue

#endif  // SCHEDREF_REFERENCE_BACKEND_QUEUE_CROSS_TOPOLOGY_H_
