#include "api/binding.h"

namespace schedref::api {

std::optional<std::string> BindingConflict(const Pod& current,
                                           std::string_view node_name) {
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
