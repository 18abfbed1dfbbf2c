// What deleting a running pod means at the API server: the grace period a
// delete without options gets, the deadline it sets, and the status
// condition a disrupting component records first. Specification: upstream
// pkg/registry/core/pod/strategy.go (podStrategy.CheckGracefulDelete),
// pkg/api/v1/pod/util.go (UpdatePodCondition) and
// pkg/scheduler/framework/preemption/preemption.go (prepareCandidate),
// v1.32.
#ifndef SCHEDREF_API_POD_DELETION_H_
#define SCHEDREF_API_POD_DELETION_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "api/types/objects.h"

namespace schedref::api {

// The grace period, in seconds, of a delete without options: the pod's
// spec.terminationGracePeriodSeconds (30 by default), 0 for a pod the API
// server has not bound (no spec.nodeName) or one in a terminal phase
// (Succeeded, Failed), 1 for a negative one.
// 0 deletes at once; otherwise the pod gets a deletionTimestamp and stays
// until its kubelet has stopped it.
// `node_name` is the pod's spec.nodeName, passed apart (as to
// BindingConflict) so that an implementation keeping it outside the object
// need not copy the pod.
[[nodiscard]] int64_t DeleteGracePeriodSeconds(const Pod& pod, std::string_view node_name);

// `t` plus `seconds`, saturating at the largest TimeMs (a grace period
// that ends after any scenario). REQUIRES: seconds >= 0.
[[nodiscard]] TimeMs AddSecondsSaturating(TimeMs t, int64_t seconds);

// Upstream UpdatePodCondition: replaces the first of a pod's `conditions`
// of `condition.type`, or appends `condition` when there is none. Returns
// true iff the conditions changed, i.e. iff a status patch is sent.
bool UpdatePodCondition(std::vector<PodCondition>& conditions, const PodCondition& condition);

// The condition preemption adds to a victim before deleting it
// (DisruptionTarget=True, reason PreemptionByScheduler; its message is not
// modelled).
[[nodiscard]] PodCondition PreemptionByScheduler();

}  // namespace schedref::api

#endif  // SCHEDREF_API_POD_DELETION_H_
