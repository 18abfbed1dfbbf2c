// Generated workloads shaped like upstream's scheduler_perf benchmark
// (test/integration/scheduler_perf/{misc,affinity,topology_spreading,volumes}/
// performance-config.yaml): the same operations, node and pod templates
// (cmd/schedref/testdata/scheduler_perf/, decoded through api/), the same
// names, labels and namespaces as upstream's operations stamp on them, with
// the node and pod counts as parameters. docs/performance.md describes how
// each upstream operation maps onto a scenario's virtual clock.
//
// Every workload has the same shape:
//   initial objects   the namespaces and the nodes (createNodes,
//                     createNamespaces);
//   t = 0             the init pods are created; on the virtual clock they
//                     are all scheduled at that instant, which is what
//                     upstream's barrier after the init createPods waits for;
//   t >= 1 s          the measured phase: the measured pods (upstream's
//                     createPods with collectMetrics: true) and, for the
//                     churn workloads, the churn operation's creates and
//                     deletes.
// A workload generated with measured_pods = 0 is the init-only scenario:
// exactly the first two parts, so that a full run and an init-only run of
// the same sizes make the same decisions up to the measured phase.
// BindInitPods turns a scenario into its measured phase alone.
#ifndef SCHEDREF_CMD_SCHEDREF_WORKLOADS_H_
#define SCHEDREF_CMD_SCHEDREF_WORKLOADS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/status.h"
#include "api/types/scenario.h"

namespace schedref::cmd {

// One workload and the upstream entry it follows.
struct WorkloadInfo {
  std::string name;
  // "<config file> <test case>/<workload entry>", the entry whose counts are
  // the defaults and whose threshold is upstream_threshold.
  std::string upstream;
  int default_nodes = 0;
  int default_init_pods = 0;
  int default_measured_pods = 0;
  // The entry's `threshold`: the minimum pods/s upstream's CI accepts for
  // the measured pods.
  double upstream_threshold = 0;
  // Measured pods of the reference's run (bench's decision check): enough
  // to reach the workload's churn, if it has any.
  int default_reference_measured_pods = 200;
};

// Every workload, in the order `bench --workload all` runs them.
[[nodiscard]] const std::vector<WorkloadInfo>& Workloads();
[[nodiscard]] std::vector<std::string> WorkloadNames();
// nullptr iff `name` is not a workload.
[[nodiscard]] const WorkloadInfo* FindWorkload(std::string_view name);

struct WorkloadSize {
  int nodes = 0;
  int init_pods = 0;
  int measured_pods = 0;  // 0: the init-only scenario
};

// Limits on WorkloadSize (memory, not semantics).
inline constexpr int kMaxWorkloadNodes = 100000;
inline constexpr int kMaxWorkloadPods = 1000000;

struct Workload {
  // Equal to what api::DecodeScenario returns for its own encoding, so it
  // meets api::Scheduler::Run's precondition.
  api::Scenario scenario;
  // The namespace of the measured pods; no other pod is in it.
  std::string measured_namespace;
  // Every pod the scenario creates: init, measured and churn pods.
  int64_t pods_created = 0;
};

// Errors (Invalid): an unknown workload name ("unknown workload \"X\"
// (known: A, B, ...)"), nodes outside [1, kMaxWorkloadNodes], init or
// measured pods outside [0, kMaxWorkloadPods].
[[nodiscard]] StatusOr<Workload> MakeWorkload(std::string_view name,
                                              const WorkloadSize& size);

// The measured-phase scenario of `workload`: the init pods that `bound`
// lists (pod key and node, in the order they were bound, as an init-only
// run's trace has them) leave the timeline and join the initial objects,
// bound to their nodes in that order; everything else is unchanged. It
// starts where upstream's measured phase starts, a cluster holding the
// scheduled init pods, without the scheduler's memory of the init phase
// (RNG draws, cycle numbers), so its decisions differ from the full
// scenario's measured phase but are the same for every implementation.
// Errors (Invalid): a listed pod that the timeline does not create at t = 0,
// or one listed twice.
[[nodiscard]] StatusOr<Workload> BindInitPods(
    const Workload& workload,
    const std::vector<std::pair<std::string, std::string>>& bound);

}  // namespace schedref::cmd

#endif  // SCHEDREF_CMD_SCHEDREF_WORKLOADS_H_
