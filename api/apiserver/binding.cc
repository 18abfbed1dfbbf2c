#include "api/apiserver/binding.h"

namespace schedref::api {

std::optional<std::string> BindingConflict(const Pod& current,
                                           std::string_view node_name,
                                           std::string_view binding_uid) {
  if (current.uid != binding_uid) {
    return "Operation cannot be fulfilled on pods \"" + current.name +
           "\": StorageError: invalid object, Code: 4, Key: /registry/pods/" +
           current.ns + "/" + current.name +
           ", ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in "
           "precondition: " + std::string(binding_uid) +
           ", UID in object meta: " + current.uid;
  }
  std::string problem;
  if (current.deletion_timestamp.has_value()) {
    problem = "is being deleted, cannot be assigned to a host";
  } else if (!node_name.empty()) {
    problem = "is already assigned to node \"" + std::string(node_name) + "\"";
  } else if (!current.scheduling_gates.empty()) {
    problem = "has non-empty .spec.schedulingGates";
  } else {
    return std::nullopt;
  }
  return "Operation cannot be fulfilled on pods/binding \"" + current.name +
         "\": pod " + current.name + " " + problem;
}

}  // namespace schedref::api
