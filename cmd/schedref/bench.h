// `schedref bench`: scheduler_perf-shaped workloads (workloads.h) through
// the reference and the optimized implementation side by side: pods/s of
// the measured phase, peak memory, thread scaling, and a check that both
// made the same decisions. The method and the figures are in
// docs/performance.md.
//
// Method. Every measurement runs in a forked child, so that its peak
// resident memory can be read from wait4() and no implementation's threads
// exist in the parent when it forks. A child runs the workload's init-only
// scenario once (the init phase; reported, not part of any rate), moves the
// init pods that run bound into the cluster (BindInitPods), and times
// api::Scheduler::Run with a steady clock on that cluster alone (t_base) and
// with the measured pods (t_full); the measured phase's rate is
//   measured pods / (t_full - t_base).
// The reference may run a smaller measured phase (reference_measured_pods);
// the optimized implementation also runs that small scenario, and both
// traces (the init phase's and the small measured phase's) must be
// identical.
#ifndef SCHEDREF_CMD_SCHEDREF_BENCH_H_
#define SCHEDREF_CMD_SCHEDREF_BENCH_H_

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "api/status.h"

namespace schedref::cmd {

struct BenchOptions {
  // A workload name (workloads.h) or "all".
  std::string workload = "SchedulingBasic";
  // Unset: the workload's upstream default.
  std::optional<int> nodes;
  std::optional<int> init_pods;
  std::optional<int> measured_pods;
  // Measured pods of the reference's (and the comparison's) scenario;
  // capped at the measured pods. Unset: the workload's
  // default_reference_measured_pods.
  std::optional<int> reference_measured_pods;
  // Thread counts the optimized implementation runs with.
  std::vector<int> threads = {1, 2};
  bool skip_reference = false;
  // Timed runs per scenario of the optimized implementation, interleaved
  // (base, full, small, base, ...); the fastest counts. The reference runs
  // each scenario once: its runs are long enough for warm-up effects to be
  // noise.
  int repeat = 3;
};

// Errors (Invalid), each naming the option: "--workload: unknown workload
// \"X\" (known: ..., or all)", "--nodes: must be in [1, 100000], got 0",
// "--threads: must not be empty", "--threads: 0 is not in [1, 256]",
// "--threads: 2 is listed twice", ...
[[nodiscard]] Status ValidateBenchOptions(const BenchOptions& options);

// Exit codes of RunBench.
inline constexpr int kBenchOk = 0;
// A run failed, the implementations' decisions differ, or nothing could run.
inline constexpr int kBenchFailed = 1;
// ValidateBenchOptions rejected the options.
inline constexpr int kBenchUsage = 2;

// Runs the benchmark: the report goes to `out`, progress lines and errors
// to `err`. The optimized implementation is looked up by name
// (conformance::MakeImplementation("optimized")); while it is not
// registered the report says so and only the reference runs.
// REQUIRES: no thread other than the caller's is running (it forks).
[[nodiscard]] int RunBench(const BenchOptions& options, std::ostream& out,
                           std::ostream& err);

}  // namespace schedref::cmd

#endif  // SCHEDREF_CMD_SCHEDREF_BENCH_H_
