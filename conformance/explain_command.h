// `schedref explain`: runs a scenario through the reference with full
// detail and prints, for each scheduling attempt of one pod (or the one of
// a given cycle), the explanation conformance/explain.h renders, as text
// or as JSON (docs/explain.md).
#ifndef SCHEDREF_CONFORMANCE_EXPLAIN_COMMAND_H_
#define SCHEDREF_CONFORMANCE_EXPLAIN_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "api/types/scenario.h"

namespace schedref::conformance {

struct ExplainCommandOptions {
  std::string pod;    // namespace/name
  int64_t cycle = 0;  // 0: every attempt of the pod
  std::string output = "text";  // "text" or "json"
  // Non-empty: write the explanations as one HTML page to this file
  // (view/explain_page.h) instead of printing them.
  std::string html;
};

// Prints the explanations to `out` (or writes the page); errors, and the
// pod's warnings when it has no attempt to explain, to `err`. Returns the
// exit code: 0, or 1 when the reference fails, the pod has no (such)
// attempt or the page cannot be written.
int RunExplainCommand(const api::Scenario& scenario, const ExplainCommandOptions& options,
                      std::ostream& out, std::ostream& err);

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_EXPLAIN_COMMAND_H_
