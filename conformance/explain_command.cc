#include "conformance/explain_command.h"

#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/types/unmodelled.h"
#include "conformance/explain.h"
#include "reference/scheduler/scheduler.h"
#include "view/explain_page.h"

namespace schedref::conformance {

int RunExplainCommand(const api::Scenario& scenario, const ExplainCommandOptions& options,
                      std::ostream& out, std::ostream& err) {
  reference::ReferenceScheduler reference;
  api::RunOptions run;
  run.full_detail = true;
  run.record_feasible_nodes = true;  // the order a tie is broken in
  StatusOr<api::Trace> trace = reference.Run(scenario, run);
  if (!trace.ok()) {
    err << "error: " << trace.status().message() << "\n";
    return 1;
  }
  nlohmann::json attempts = nlohmann::json::array();
  for (const api::Trace::Record& record : trace->records) {
    const api::Attempt* a = api::AsAttempt(record);
    if (a == nullptr || a->pod != options.pod) continue;
    if (options.cycle != 0 && a->cycle != options.cycle) continue;
    attempts.push_back(
        ExplainAttemptJson(*a, ExplainContextFor(reference, scenario, *trace, *a)));
  }
  if (attempts.empty()) {
    err << "error: " << scenario.file << ": no attempt for pod " << options.pod;
    if (options.cycle != 0) err << " in cycle " << options.cycle;
    err << "\n";
    for (const api::Warning& w : trace->warnings) {
      if (w.pod == options.pod) err << api::WarningLine(w) << "\n";
    }
    return 1;
  }
  const nlohmann::json document = {{"pod", options.pod}, {"attempts", attempts}};
  if (!options.html.empty()) {
    std::ofstream page(options.html, std::ios::binary | std::ios::trunc);
    page << view::ExplainPage(document, scenario.file);
    if (!page.flush()) {
      err << "error: --html " << options.html << ": cannot write the page\n";
      return 1;
    }
    return 0;
  }
  if (options.output == "json") {
    out << document.dump(2) << "\n";
    return 0;
  }
  for (size_t i = 0; i < attempts.size(); ++i) {
    if (i > 0) out << "\n";
    for (const std::string& line : RenderExplanation(attempts[i])) out << line << "\n";
  }
  return 0;
}

}  // namespace schedref::conformance
