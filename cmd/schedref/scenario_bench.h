// `schedref bench SCENARIO`: a user's scenario timed under the reference
// and the optimized implementation (at each thread count): wall time,
// pods bound per second, peak memory, and a check that every run made the
// same decisions (its canonical trace). docs/performance.md, "Any
// scenario as a benchmark".
//
// Method. Each run is a forked child that decodes the scenario itself (so
// its peak resident memory, read from wait4, is that of one run: the
// scenario, the scheduler and the trace) and times api::Scheduler::Run
// with a steady clock; it reports the time, the pods bound and a 64-bit
// FNV-1a hash of the canonical trace over a pipe.
#ifndef SCHEDREF_CMD_SCHEDREF_SCENARIO_BENCH_H_
#define SCHEDREF_CMD_SCHEDREF_SCENARIO_BENCH_H_

#include <ostream>
#include <string>
#include <vector>

namespace schedref::cmd {

struct ScenarioBenchOptions {
  std::string scenario;
  std::vector<int> threads = {1, 2};  // of the optimized implementation
  bool skip_reference = false;
  // Progress lines on stderr from each run (every 2 s of wall time).
  bool progress = false;
};

// Exit codes: 0; 1 when the scenario is bad, a run fails or the runs'
// decisions differ; 2 for bad options. REQUIRES: no other thread runs (it
// forks).
[[nodiscard]] int RunScenarioBench(const ScenarioBenchOptions& options, std::ostream& out,
                                   std::ostream& err);

}  // namespace schedref::cmd

#endif  // SCHEDREF_CMD_SCHEDREF_SCENARIO_BENCH_H_
