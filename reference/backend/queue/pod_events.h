// What a pod update means for scheduling: the fine-grained update events a
// change of a pod produces, and whether a change can matter at all.
// Specification: upstream pkg/scheduler/framework/events.go
// (PodSchedulingPropertiesChange and its extractors) and
// pkg/scheduler/backend/queue/scheduling_queue.go isPodUpdated, v1.32.
#ifndef SCHEDREF_REFERENCE_BACKEND_QUEUE_POD_EVENTS_H_
#define SCHEDREF_REFERENCE_BACKEND_QUEUE_POD_EVENTS_H_

#include <vector>

#include "api/types/objects.h"
#include "reference/framework/events.h"

namespace schedref::reference::queue {

// One event per changed scheduling property of the pod, in this order:
// UpdatePodLabel (labels differ), UpdatePodScaleDown (some resource request
// of the pod, upstream resourcehelper.PodRequests, shrank or disappeared),
// UpdatePodSchedulingGatesEliminated (the last gate went away),
// UpdatePodTolerations (the number of tolerations changed); UpdatePodOther
// iff none of these. The resource is Pod; the label says whether the pod is
// assigned ("AssignedPod...") or not ("UnschedulablePod...") after the
// update.
// Note: upstream also extracts UpdatePodGeneratedResourceClaim when DRA is
// on; DRA is out of scope (docs/deviations.md).
std::vector<framework::ClusterEvent> PodSchedulingPropertiesChange(
    const api::Pod& new_pod, const api::Pod& old_pod);

// True iff the pods differ in anything but their status (upstream strips
// resourceVersion, generation, managedFields, finalizers and the status
// except resourceClaimStatuses, none of which api::Pod holds besides the
// status fields nominated_node_name and start_time).
bool IsPodUpdated(const api::Pod& old_pod, const api::Pod& new_pod);

}  // namespace schedref::reference::queue

#endif  // SCHEDREF_REFERENCE_BACKEND_QUEUE_POD_EVENTS_H_
