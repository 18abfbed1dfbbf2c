// Generated workloads shaped like upstream's scheduler_perf
// (test/integration/scheduler_perf/config/performance-config.yaml and its
// templates): same node and pod templates, counts as parameters.
#ifndef SCHEDREF_CMD_SCHEDREF_WORKLOADS_H_
#define SCHEDREF_CMD_SCHEDREF_WORKLOADS_H_

#include <string>
#include <vector>

#include "api/scenario.h"
#include "api/status.h"

namespace schedref::cmd {

std::vector<std::string> WorkloadNames();

// Errors: Invalid for an unknown workload name.
[[nodiscard]] StatusOr<api::Scenario> MakeWorkload(const std::string& name,
                                                   int nodes, int init_pods,
                                                   int measured_pods);

}  // namespace schedref::cmd

#endif  // SCHEDREF_CMD_SCHEDREF_WORKLOADS_H_
