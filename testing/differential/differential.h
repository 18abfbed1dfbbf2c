// Differential runs: one scenario through two scheduler implementations (or
// one implementation under two RunOptions), their traces compared record by
// record, and the first divergence explained in words with
// conformance/trace_diff.h. The rule being checked is api/scheduler.h's:
// every implementation produces the same trace for a scenario, whatever
// RunOptions::threads says; docs/optimized.md ("How equivalence is tested")
// says where each driver of this library runs.
//
// Thread safety: none needed; the functions run schedulers one after another
// on the caller's thread (an implementation may use its own threads inside
// Run).
#ifndef SCHEDREF_TESTING_DIFFERENTIAL_DIFFERENTIAL_H_
#define SCHEDREF_TESTING_DIFFERENTIAL_DIFFERENTIAL_H_

#include <optional>
#include <string>
#include <vector>

#include "api/scheduler.h"
#include "api/status.h"
#include "api/types/scenario.h"
#include "api/types/trace.h"

namespace schedref::testing::differential {

// One finished run and what produced it.
struct Outcome {
  // "optimized threads=2 full-detail", "reference", ... (see Label).
  std::string label;
  StatusOr<api::Trace> trace = Status::Invalid("not run");
};

// "<scheduler.Name()>", then " threads=<n>" if options.threads != 0, then
// " full-detail" if options.full_detail, " feasible-nodes" if
// options.record_feasible_nodes. (Forced decisions are not named: the
// drivers never force.)
[[nodiscard]] std::string Label(const api::Scheduler& scheduler,
                                const api::RunOptions& options);

// Runs `scenario` once. REQUIRES: the scenario passed api::DecodeScenario.
[[nodiscard]] Outcome RunOnce(api::Scheduler& scheduler,
                              const api::Scenario& scenario,
                              const api::RunOptions& options);

// nullopt iff the two outcomes agree: both traces are ok and encode to the
// same lines (api/codec/trace_codec.h), or both runs failed with equal Status
// (code and message). Otherwise a few lines of text, first line
//   "<actual label> differs from <expected label>: <what>"
// where <what> is "trace line N: <DescribeLine>" followed by both lines and
// one line per differing field (conformance::FieldDifferences), or says
// which side failed and with what message. Lines longer than
// kMaxShownLine characters are cut (the field list is not).
[[nodiscard]] std::optional<std::string> Divergence(const Outcome& expected,
                                                    const Outcome& actual);

inline constexpr size_t kMaxShownLine = 4000;

// The thread counts every differential check uses for the implementation
// under test: 1 (no parallelism), 2 (the CI machine's cores) and 4
// (oversubscribed, so the interleaving varies further).
[[nodiscard]] const std::vector<int>& DefaultThreadCounts();

// Runs `scenario` through `expected` (threads 0) and through `actual` with
// each of `threads`, once plain and once with full detail and feasible-node
// lists, and returns the first Divergence of an `actual` run from the
// `expected` run of the same options, or nullopt if all agree.
[[nodiscard]] std::optional<std::string> FirstDivergence(
    const api::Scenario& scenario, api::Scheduler& expected,
    api::Scheduler& actual, const std::vector<int>& threads);

}  // namespace schedref::testing::differential

#endif  // SCHEDREF_TESTING_DIFFERENTIAL_DIFFERENTIAL_H_
