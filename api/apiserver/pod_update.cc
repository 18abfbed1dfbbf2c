#include "api/apiserver/pod_update.h"

#include <utility>

namespace schedref::api {

Pod ApplyPodUpdate(const Pod& current, Pod updated) {
  if (updated.node_name.empty()) updated.node_name = current.node_name;
  if (current.deletion_timestamp.has_value()) {
    updated.deletion_timestamp = current.deletion_timestamp;
  }
  if (updated.conditions.empty()) updated.conditions = current.conditions;
  return updated;
}

}  // namespace schedref::api
