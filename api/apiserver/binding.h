// The API server's answer to a Binding, the call every bind plugin ends in.
// Specification: upstream pkg/registry/core/pod/storage/storage.go
// (BindingREST.setPodHostAndAnnotations, whose errors assignPod returns as
// a Conflict on pods/binding), v1.32.
#ifndef SCHEDREF_API_BINDING_H_
#define SCHEDREF_API_BINDING_H_

#include <optional>
#include <string>
#include <string_view>

#include "api/types/objects.h"

namespace schedref::api {

// Why the API server refuses a Binding carrying `binding_uid` (the
// scheduler's Binding carries the pod's UID) for `current`, the stored pod
// of that name, whose spec.nodeName is `node_name` (passed apart so that an
// implementation keeping it outside the object need not copy the pod), or
// nullopt when it accepts. In upstream's order:
//   a UID precondition naming an earlier pod of the same name: the storage
//   layer's InvalidObj error as a Conflict on pods,
//   Operation cannot be fulfilled on pods "p": StorageError: invalid
//   object, Code: 4, Key: /registry/pods/<ns>/p, ResourceVersion: 0,
//   AdditionalErrorMsg: Precondition failed: UID in precondition: <uid of
//   the Binding>, UID in object meta: <uid of current>
//   Operation cannot be fulfilled on pods/binding "p": pod p is being
//   deleted, cannot be assigned to a host
//   Operation cannot be fulfilled on pods/binding "p": pod p is already
//   assigned to node "n2"
//   Operation cannot be fulfilled on pods/binding "p": pod p has non-empty
//   .spec.schedulingGates (reachable when a profile disables the
//   SchedulingGates PreEnqueue plugin)
[[nodiscard]] std::optional<std::string> BindingConflict(
    const Pod& current, std::string_view node_name, std::string_view binding_uid);

}  // namespace schedref::api

#endif  // SCHEDREF_API_BINDING_H_
