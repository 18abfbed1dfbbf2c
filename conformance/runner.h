// Conformance runner: runs a golden scenario through an implementation and
// compares its trace with the scenario's expectedTrace, naming the first
// differing record. Specification of the comparison: docs/trace-format.md
// ("Strict conformance").
#ifndef SCHEDREF_CONFORMANCE_RUNNER_H_
#define SCHEDREF_CONFORMANCE_RUNNER_H_

#include <string>
#include <vector>

#include "api/scheduler.h"
#include "api/status.h"

namespace schedref::conformance {

struct CheckResult {
  enum class Outcome { kPass, kFail, kSkip };
  std::string path;
  Outcome outcome = Outcome::kFail;
  // For kFail: the first difference (or the error); for kSkip: why.
  std::string message;
};

// Loads `path`, runs it through `impl` and compares traces line by line.
CheckResult CheckScenario(api::Scheduler& impl, const std::string& path);

// Reads a whole file. Errors: NotFound naming the path.
[[nodiscard]] StatusOr<std::string> ReadFile(const std::string& path);

// Returns `text` (a scenario file) with its expectedTrace replaced by
// `trace_lines`. The expectedTrace key must be the last key of the file, or
// absent. Used by the golden update workflow.
std::string WithExpectedTrace(const std::string& text,
                              const std::vector<std::string>& trace_lines);

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_RUNNER_H_
