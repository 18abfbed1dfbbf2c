#include "api/binding.h"

namespace schedref::api {

std::optional<std::string> BindingConflict(const Pod& current) {
  const std::string prefix =
      "Operation cannot be fulfilled on pods/binding \"" + current.name + "\": ";
  if (current.deletion_timestamp.has_value()) {
    return prefix + "pod " + current.name +
           " is being deleted, cannot be assigned to a host";
  }
  if (!current.node_name.empty()) {
    return prefix + "pod " + current.name + " is already assigned to node \"" +
           current.node_name + "\"";
  }
  if (!current.scheduling_gates.empty()) {
    return prefix + "pod " + current.name +
           " has non-empty .spec.schedulingGates";
  }
  return std::nullopt;
}

}  // namespace schedref::api
