// Diagnosis and FitError: why a pod fits no node, and the message users see
// in the FailedScheduling event. Specification: upstream
// pkg/scheduler/framework/types.go (Diagnosis, FitError.Error), v1.31+ form:
// absent nodes' default status counted, PostFilter message appended without
// a trailing period.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_FIT_ERROR_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_FIT_ERROR_H_

#include <set>
#include <string>

#include "reference/framework/interface.h"

namespace schedref::reference::framework {

struct Diagnosis {
  NodeToStatus node_to_status;
  std::set<std::string> unschedulable_plugins;
  std::set<std::string> pending_plugins;
  std::string pre_filter_msg;
  std::string post_filter_msg;

  // Records which plugin rejected (upstream Diagnosis.AddPluginStatus).
  void AddPluginStatus(const Status& status);
};

struct FitError {
  int num_all_nodes = 0;
  Diagnosis diagnosis;

  // "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated
  // taint {k: v}. preemption: ..."
  std::string Error() const;
};

// Upstream truncates event messages to 1024 bytes: the first 1020 bytes and
// " ..." (validation.NoteLengthLimit).
std::string TruncateEventMessage(const std::string& message);

}  // namespace schedref::reference::framework

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_FIT_ERROR_H_
