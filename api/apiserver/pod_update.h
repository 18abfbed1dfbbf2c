// What a pod update written in a scenario's timeline does to the stored pod:
// the fields the API server keeps whatever the new object says.
// Specification: upstream staging/src/k8s.io/apiserver/pkg/registry/rest/
// update.go (BeforeUpdate: a deletionTimestamp never changes or goes away)
// and pkg/registry/core/pod/strategy.go (PrepareForUpdate keeps the status;
// the binding owns spec.nodeName), v1.32.
#ifndef SCHEDREF_API_POD_UPDATE_H_
#define SCHEDREF_API_POD_UPDATE_H_

#include "api/types/objects.h"

namespace schedref::api {

// The pod stored after a timeline update of `current` to `updated`:
// `updated`, except that
//  - an empty spec.nodeName keeps current's (the scheduler owns it once it
//    bound the pod);
//  - current's deletionTimestamp, once set, stays as it is (an update may
//    start a graceful deletion, schedref's way of writing one, but never
//    change or end it);
//  - empty status.conditions keep current's (an update that leaves them
//    out keeps what others, such as preemption's DisruptionTarget patch,
//    wrote; scenario updates otherwise stand for the object and its
//    status together).
[[nodiscard]] Pod ApplyPodUpdate(const Pod& current, Pod updated);

}  // namespace schedref::api

#endif  // SCHEDREF_API_POD_UPDATE_H_
