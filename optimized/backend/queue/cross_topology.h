// The pre-filter the legacy (QueueingHints disabled) path applies before an
// assigned-pod event may requeue unschedulable pods: only pods with a
// cross-topology term the event could satisfy are considered.
// Specification: upstream pkg/scheduler/backend/queue/scheduling_queue.go
// getUnschedulablePodsWithCrossTopologyTerm and framework/types.go
// AffinityTerm.Matches, v1.32.
#ifndef SCHEDREF_OPTIMIZED_BACKEND_QUEUE_CROSS_TOPOLOGY_H_
#define SCHEDREF_OPTIMIZED_BACKEND_QUEUE_CROSS_TOPOLOGY_H_

#include "api/types/objects.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::backend::queue {

// Upstream's plugin names, as they appear in UnschedulablePlugins.
inline constexpr char kPodTopologySpreadPlugin[] = "PodTopologySpread";
inline constexpr char kSchedulingGatesPlugin[] = "SchedulingGates";

// True iff `unschedulable` was rejected by PodTopologySpread and `assigned`
// is in its namespace, or one of its required pod-affinity terms (as
// written in the pod spec) matches `assigned`: namespace (the owner's own
// when the term lists none and has no namespaceSelector; else listed, or
// selected by the namespaceSelector through `assigned_ns_labels`) and
// labelSelector (api::Matches; an absent selector matches nothing).
// Note: matchLabelKeys / mismatchLabelKeys are not read here: the API
// server merges them into labelSelector (v1.31+), as upstream assumes.
bool HasCrossTopologyTermMatching(const framework::QueuedPodInfo& unschedulable,
                                  const api::Pod& assigned,
                                  const api::Labels& assigned_ns_labels);

}  // namespace schedref::optimized::backend::queue

#endif  // SCHEDREF_OPTIMIZED_BACKEND_QUEUE_CROSS_TOPOLOGY_H_
