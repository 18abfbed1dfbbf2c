// `schedref compare --config A.yaml --config B.yaml SCENARIO`: the same
// scenario under several KubeSchedulerConfigurations, one summary table
// side by side (summary.h) and the pods each placed differently.
// docs/summaries.md, "compare".
#ifndef SCHEDREF_CMD_SCHEDREF_COMPARE_COMMAND_H_
#define SCHEDREF_CMD_SCHEDREF_COMPARE_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cmd/schedref/summary.h"

namespace schedref::cmd {

struct CompareOptions {
  std::string scenario;
  std::vector<std::string> configs;  // at least two
  std::string impl = "optimized";
  std::string interval = "10s";
  std::string output = "text";  // text or json
};

CLI::App* AddCompareCommand(CLI::App& app, CompareOptions* options);

// Exit codes: 0, 1 (bad input or a failed run), 2 (fewer than two configs).
[[nodiscard]] int RunCompare(const CompareOptions& options, std::ostream& out,
                             std::ostream& err);

// The side-by-side table (one column per summary, labelled by `labels`)
// and the differently placed pods, as RunCompare prints them.
// REQUIRES: labels.size() == summaries.size() >= 1.
[[nodiscard]] std::string CompareTable(const std::vector<std::string>& labels,
                                       const std::vector<Summary>& summaries);

}  // namespace schedref::cmd

#endif  // SCHEDREF_CMD_SCHEDREF_COMPARE_COMMAND_H_
