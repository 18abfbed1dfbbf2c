// What a pod update means for scheduling: the fine-grained update events a
// change of a pod produces, and whether a change can matter at all.
// Specification: upstream pkg/scheduler/framework/events.go
// (PodSchedulingPropertiesChange and its extractors) and
// backend/queue/scheduling_queue.go isPodUpdated, v1.32.
#ifndef SCHEDREF_OPTIMIZED_BACKEND_QUEUE_POD_EVENTS_H_
#define SCHEDREF_OPTIMIZED_BACKEND_QUEUE_POD_EVENTS_H_

#include <vector>

#include "api/types/objects.h"
#include "optimized/framework/events.h"

namespace schedref::optimized::backend::queue {

// One event per changed scheduling property, in this order: UpdatePodLabel
// (labels differ), UpdatePodScaleDown (some resource of the pod's requests,
// component-helpers PodRequests, shrank or disappeared),
// UpdatePodSchedulingGatesEliminated (the last gate went away),
// UpdatePodTolerations (the number of tolerations changed); UpdatePodOther
// iff none of these. Resource Pod; the label is "AssignedPod<...>" if
// new_pod is bound, else "UnschedulablePod<...>".
// Note: upstream also extracts UpdatePodGeneratedResourceClaim when DRA is
// on; DRA is out of scope (docs/deviations.md).
std::vector<framework::ClusterEvent> PodSchedulingPropertiesChange(
    const api::Pod& new_pod, const api::Pod& old_pod);

// True iff the pods differ in anything but their status
// (nominated_node_name, start_time).
bool IsPodUpdated(const api::Pod& old_pod, const api::Pod& new_pod);

}  // namespace schedref::optimized::backend::queue

#endif  // SCHEDREF_OPTIMIZED_BACKEND_QUEUE_POD_EVENTS_H_
