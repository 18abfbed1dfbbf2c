// Diagnosis and FitError: why a pod fits no node, and the FailedScheduling
// message. Specification: upstream pkg/scheduler/framework/types.go
// (Diagnosis, FitError.Error), v1.31+ form.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_FIT_ERROR_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_FIT_ERROR_H_

#include <set>
#include <string>

#include "optimized/framework/interface.h"

namespace schedref::optimized::framework {

struct Diagnosis {
  NodeToStatus node_to_status;
  std::set<std::string> unschedulable_plugins;
  std::set<std::string> pending_plugins;
  std::string pre_filter_msg;
  std::string post_filter_msg;

  // Records the rejecting plugin (upstream Diagnosis.AddPluginStatus).
  void AddPluginStatus(const Status& status);
};

struct FitError {
  int num_all_nodes = 0;
  Diagnosis diagnosis;

  // "0/<n> nodes are available: " + the PreFilter message, or the reason
  // histogram ("<count> <reason>" entries sorted as strings, absent nodes
  // counted with the absent status), "." and " <PostFilter message>".
  std::string Error() const;
};

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_FIT_ERROR_H_
