#include "cmd/schedref/summarize_command.h"

#include <fstream>
#include <memory>
#include <utility>

#include "api/codec/cluster_dump.h"
#include "api/codec/input_file.h"
#include "api/codec/scenario_decode.h"
#include "api/gocompat/go_duration.h"
#include "api/scheduler.h"
#include "cmd/schedref/summary_page.h"
#include "conformance/implementations.h"

namespace schedref::cmd {

CLI::App* AddSummarizeCommand(CLI::App& app, SummarizeOptions* options) {
  CLI::App* cmd = app.add_subcommand(
      "summarize",
      "Run a scenario and print its summary: per pod the wait from creation to binding, "
      "attempts and preemptions; the cluster and every node over virtual time "
      "(requested/allocatable, nodes in use, fragmentation, pending pods); percentiles "
      "(docs/summaries.md)");
  cmd->add_option("scenario", options->scenario, "Scenario file (YAML or JSON)")->required();
  cmd->add_option("--impl", options->impl, "Implementation to run (default optimized)")
      ->check(CLI::IsMember(conformance::ImplementationNames()));
  cmd->add_option("--config", options->config,
                  "A KubeSchedulerConfiguration file to run with instead of the scenario's")
      ->type_name("FILE");
  cmd->add_option("--interval", options->interval,
                  "Virtual time between cluster samples (a Go duration, default 10s)");
  cmd->add_option("--output", options->output, "json (default) or csv")
      ->check(CLI::IsMember({"json", "csv"}));
  cmd->add_option("--table", options->table,
                  "With --output csv: pods (default), cluster or nodes")
      ->check(CLI::IsMember({"pods", "cluster", "nodes"}));
  cmd->add_option("--html", options->html,
                  "Write the summary as an HTML page to FILE instead: the cluster over "
                  "virtual time as charts and a table, and the pods (docs/html-view.md)")
      ->type_name("FILE");
  return cmd;
}

StatusOr<api::Scenario> LoadScenario(const std::string& path, const std::string& config) {
  StatusOr<std::string> text = api::ReadInputFile(path);
  if (!text.ok()) return text.status();
  StatusOr<api::Scenario> s = api::DecodeScenario(*text, path);
  if (!s.ok()) return s.status();
  if (!config.empty()) {
    StatusOr<api::SchedulerConfiguration> c = api::ReadSchedulerConfigFile(config);
    if (!c.ok()) return c.status();
    s->config = std::move(c).value();
  }
  return s;
}

StatusOr<Summary> SummarizeRun(const api::Scenario& scenario, const std::string& impl,
                               api::TimeMs interval_ms) {
  std::unique_ptr<api::Scheduler> scheduler = conformance::MakeImplementation(impl);
  StatusOr<api::Trace> trace = scheduler->Run(scenario, api::RunOptions{});
  if (!trace.ok()) return trace.status();
  return Summarize(scenario, *trace, interval_ms);
}

StatusOr<api::TimeMs> ParseIntervalOption(const std::string& option, const std::string& text) {
  const std::optional<int64_t> ms = api::ParseDurationMs(text);
  if (!ms.has_value() || *ms <= 0) {
    return Status::Invalid(option + ": expected a positive duration such as \"10s\", got \"" +
                           text + "\"");
  }
  return *ms;
}

int RunSummarize(const SummarizeOptions& options, std::ostream& out, std::ostream& err) {
  StatusOr<api::TimeMs> interval = ParseIntervalOption("--interval", options.interval);
  if (!interval.ok()) {
    err << "error: " << interval.status().message() << "\n";
    return 1;
  }
  StatusOr<api::Scenario> scenario = LoadScenario(options.scenario, options.config);
  if (!scenario.ok()) {
    err << "error: " << scenario.status().message() << "\n";
    return 1;
  }
  StatusOr<Summary> summary = SummarizeRun(*scenario, options.impl, *interval);
  if (!summary.ok()) {
    err << "error: " << summary.status().message() << "\n";
    return 1;
  }
  if (!options.html.empty()) {
    std::ofstream page(options.html, std::ios::binary | std::ios::trunc);
    page << SummaryPage(*summary, options.impl);
    if (!page.flush()) {
      err << "error: --html " << options.html << ": cannot write the page\n";
      return 1;
    }
    return 0;
  }
  out << (options.output == "csv" ? SummaryCsv(*summary, options.table) : SummaryJson(*summary));
  return out.flush() ? 0 : 1;
}

}  // namespace schedref::cmd
