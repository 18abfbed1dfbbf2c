// `schedref perf-import performance-config.yaml --workload TESTCASE/WORKLOAD`:
// expands one workload of an upstream scheduler_perf config
// (test/integration/scheduler_perf/*/performance-config.yaml) and the
// templates it names into a scenario, so that upstream's workloads run as
// they are. The operations it reads and their mapping onto the virtual
// clock are in docs/performance.md, "perf-import".
#ifndef SCHEDREF_CMD_SCHEDREF_PERF_IMPORT_H_
#define SCHEDREF_CMD_SCHEDREF_PERF_IMPORT_H_

#include <ostream>
#include <string>

#include <CLI/CLI.hpp>

#include "api/status.h"
#include "api/types/scenario.h"

namespace schedref::cmd {

struct PerfImportOptions {
  std::string config;    // the performance-config.yaml
  std::string workload;  // "<test case>/<workload>", e.g. SchedulingBasic/5000Nodes
  std::string output;    // empty or "-": stdout
  std::string churn_for = "10s";  // how long each churn operation runs
};

// How long a churn operation runs on the virtual clock unless told.
inline constexpr api::TimeMs kDefaultChurnForMs = 10000;

CLI::App* AddPerfImportCommand(CLI::App& app, PerfImportOptions* options);

// The scenario of one workload, decoded (it meets api::Scheduler::Run's
// precondition). Errors (Invalid, NotFound for files) name the file and the
// field: "perf.yaml: [0].workloadTemplate[3].opcode: \"createAny\" is not
// supported by perf-import (supported: ...)", "perf.yaml: no test case
// \"X\" (test cases: ...)", "perf.yaml: [0].workloads[1].params: no
// parameter \"initPods\" for countParam \"$initPods\"".
// `churn_for_ms`: the virtual time each churn operation runs from its
// instant (upstream: until the workload ends).
[[nodiscard]] StatusOr<api::Scenario> ImportPerfWorkload(
    const std::string& config_path, const std::string& workload,
    api::TimeMs churn_for_ms = kDefaultChurnForMs);

// Exit codes: 0; 1 for bad input (the message on `err`).
[[nodiscard]] int RunPerfImport(const PerfImportOptions& options, std::ostream& out,
                                std::ostream& err);

}  // namespace schedref::cmd

#endif  // SCHEDREF_CMD_SCHEDREF_PERF_IMPORT_H_
