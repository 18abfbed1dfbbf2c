// Conformance runner: runs one golden scenario through an engine and judges
// its trace, in one of two modes (docs/conformance.md):
//   strict        the trace must equal the golden's expectedTrace, line for
//                 line (our pinned RNG and iteration order);
//   legal-choice  the reference is run as an oracle that accepts every
//                 choice upstream could legally make
//                 (conformance/legal_choice.h); expectedTrace is not used.
// A failure names the first differing record with its context, both lines,
// the fields that differ, and the reference's full-detail view of that
// scheduling cycle (conformance/trace_diff.h, conformance/explain.h).
#ifndef SCHEDREF_CONFORMANCE_RUNNER_H_
#define SCHEDREF_CONFORMANCE_RUNNER_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/scheduler.h"
#include "api/status.h"
#include "conformance/engine.h"
#include "reference/scheduler/scheduler.h"

namespace schedref::conformance {

enum class Mode { kStrict, kLegalChoice };

// "strict", "legal-choice".
[[nodiscard]] std::string ModeName(Mode mode);

struct CheckOptions {
  Mode mode = Mode::kStrict;
  // The reference: the oracle in legal-choice mode and the explainer's
  // source in both. Not owned. REQUIRES: non-null.
  reference::ReferenceScheduler* reference = nullptr;
};

// The first difference between an expected and an actual trace, and the
// reference's explanation of it (CheckResult::divergence).
struct CheckDivergence {
  size_t line = 0;               // 1-based trace line of the first difference
  std::string expected, actual;  // the two lines; "": the trace ended
  std::vector<std::string> fields;  // FieldDifferences(expected, actual)
  // The reference's full-detail attempt at the difference, as
  // ExplainAttemptJson gives it; null when there is none.
  nlohmann::json explanation;
  std::string actual_node;  // the actual line's chosen node, "" if none
  std::string judgement;    // JudgeChoice of actual_node, "" if not judged
};

struct CheckResult {
  enum class Outcome { kPass, kFail, kSkip };
  std::string path;
  std::string scenario;  // the scenario's name; empty if it did not decode
  std::string engine;
  Outcome outcome = Outcome::kFail;
  // One line. kFail: what differs or what went wrong; kSkip: why; kPass:
  // empty, or the legal choices that were accepted.
  std::string message;
  // kFail only: the explanation, one entry per line, indented for printing
  // under the result line.
  std::vector<std::string> details;
  // kFail at a difference between traces: the same story as `details`,
  // unrendered, for reports that lay it out (the HTML page).
  using Divergence = CheckDivergence;
  std::optional<Divergence> divergence;
  // Wall time of the whole check, oracle and explainer included.
  double seconds = 0;
  // Strict mode: the golden has no expectedTrace (outcome kSkip). The
  // golden tests count this as a failure; `schedref check` as a skip.
  bool stale = false;
};

// Loads `path`, runs it through `engine` and judges the trace.
CheckResult CheckScenario(Engine& engine, const std::string& path,
                          const CheckOptions& options);

// The same for a scenario held in memory (one built from a cluster dump,
// cmd/schedref): `label` stands for its path in results and messages.
CheckResult CheckScenarioText(Engine& engine, const std::string& label,
                              const std::string& text, const CheckOptions& options);

// Reads a whole file. Errors: NotFound naming the path.
[[nodiscard]] StatusOr<std::string> ReadFile(const std::string& path);

// Every *.yaml file under `dir` (recursively), in path order; none if `dir`
// cannot be read.
std::vector<std::string> YamlFilesUnder(const std::string& dir);

// Returns `text` (a scenario file) with its expectedTrace replaced by
// `trace_lines`. The expectedTrace key must be the last key of the file, or
// absent. Used by the golden update workflow.
std::string WithExpectedTrace(const std::string& text,
                              const std::vector<std::string>& trace_lines);

// `text` without its expectedTrace (the last key of the file, when present):
// what an external engine is sent.
std::string WithoutExpectedTrace(const std::string& text);

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_RUNNER_H_
