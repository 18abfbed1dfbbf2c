// `schedref summarize SCENARIO`: runs a scenario and prints its summary
// (summary.h) as JSON or one CSV table; `schedref compare` (compare_command.h)
// builds on the same run. docs/summaries.md describes both.
#ifndef SCHEDREF_CMD_SCHEDREF_SUMMARIZE_COMMAND_H_
#define SCHEDREF_CMD_SCHEDREF_SUMMARIZE_COMMAND_H_

#include <optional>
#include <ostream>
#include <string>

#include <CLI/CLI.hpp>

#include "api/status.h"
#include "api/types/scenario.h"
#include "api/types/trace.h"
#include "cmd/schedref/summary.h"

namespace schedref::cmd {

struct SummarizeOptions {
  std::string scenario;
  std::string impl = "optimized";
  // A KubeSchedulerConfiguration file replacing the scenario's `config`.
  std::string config;
  std::string interval = "10s";  // between cluster samples
  std::string output = "json";   // json or csv
  std::string table = "pods";    // csv: pods, cluster or nodes
  // When non-empty: the summary as an HTML page (summary_page.h) written
  // to this file instead of the output on stdout.
  std::string html;
};

// Registers `summarize` on `app`; its options land in *options.
CLI::App* AddSummarizeCommand(CLI::App& app, SummarizeOptions* options);

// Exit codes: 0, 1 (bad input or a failed run; the message on `err`).
[[nodiscard]] int RunSummarize(const SummarizeOptions& options, std::ostream& out,
                               std::ostream& err);

// What summarize and compare share: the scenario file read, with `config`
// (when non-empty) as its configuration. Errors name the file.
[[nodiscard]] StatusOr<api::Scenario> LoadScenario(const std::string& path,
                                                   const std::string& config);
// The scenario run through `impl`, and its summary. Errors: the run's.
[[nodiscard]] StatusOr<Summary> SummarizeRun(const api::Scenario& scenario,
                                             const std::string& impl, api::TimeMs interval_ms);
// A duration option ("10s") in milliseconds, > 0; errors name the option.
[[nodiscard]] StatusOr<api::TimeMs> ParseIntervalOption(const std::string& option,
                                                        const std::string& text);

}  // namespace schedref::cmd

#endif  // SCHEDREF_CMD_SCHEDREF_SUMMARIZE_COMMAND_H_
