#include "conformance/legal_choice.h"

#include <utility>

#include "api/trace_codec.h"
#include "conformance/trace_diff.h"

namespace schedref::conformance {
namespace {

// The attempt on trace line `line` (line 0 is the header, line k the
// record k-1), or nullptr.
const api::Attempt* AttemptAtLine(const api::Trace& trace, size_t line) {
  if (line == 0 || line > trace.records.size()) return nullptr;
  const api::Trace::Record& r = trace.records[line - 1];
  return r.attempt ? &*r.attempt : nullptr;
}

bool HasIllegalChoiceNote(const api::Trace& trace) {
  for (const api::Trace::Record& r : trace.records) {
    if (r.note && r.note->what == "illegalChoice") return true;
  }
  return false;
}

}  // namespace

StatusOr<LegalChoiceResult> CompareLegalChoice(api::Scheduler& oracle,
                                               const api::Scenario& scenario,
                                               const api::Trace& actual) {
  const std::vector<std::string> actual_lines = api::EncodeTraceLines(actual);
  LegalChoiceResult result;
  api::RunOptions options;
  StatusOr<api::Trace> reference = oracle.Run(scenario, options);
  if (!reference.ok()) return reference.status().WithPrefix("reference");
  for (;;) {
    result.oracle_lines = api::EncodeTraceLines(*reference);
    result.difference = FirstDifference(result.oracle_lines, actual_lines);
    if (!result.difference) return result;
    const api::Attempt* want = AttemptAtLine(*reference, *result.difference);
    const api::Attempt* got = AttemptAtLine(actual, *result.difference);
    if (want == nullptr || got == nullptr || want->cycle != got->cycle ||
        want->pod != got->pod || want->node.empty() || got->node.empty() ||
        want->node == got->node || result.forced.count(got->cycle) > 0) {
      return result;
    }
    Choice choice{got->cycle, got->pod, got->node, want->node};
    options.forced_choices = result.forced;
    options.forced_choices[choice.cycle] = choice.node;
    StatusOr<api::Trace> forced = oracle.Run(scenario, options);
    if (!forced.ok()) return forced.status().WithPrefix("reference");
    if (HasIllegalChoiceNote(*forced)) {
      result.refused = std::move(choice);
      return result;
    }
    result.forced = options.forced_choices;
    result.accepted.push_back(std::move(choice));
    reference = std::move(forced);
  }
}

}  // namespace schedref::conformance
