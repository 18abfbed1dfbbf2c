#include "cmd/schedref/compare_command.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "cmd/schedref/summarize_command.h"
#include "conformance/implementations.h"

namespace schedref::cmd {
namespace {

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string Seconds(int64_t ms) { return Fixed(static_cast<double>(ms) / 1000.0, 3); }
std::string Percent(double share) { return Fixed(share * 100.0, 1); }

struct Row {
  std::string metric;
  std::function<std::string(const Summary&)> value;
};

const std::vector<Row>& Rows() {
  static const auto* rows = new std::vector<Row>{
      {"pods", [](const Summary& s) { return std::to_string(s.pods.size()); }},
      {"bound by the scheduler", [](const Summary& s) { return std::to_string(s.pods_bound); }},
      {"never bound", [](const Summary& s) { return std::to_string(s.pods_never_bound); }},
      {"finished", [](const Summary& s) { return std::to_string(s.pods_finished); }},
      {"preemptions", [](const Summary& s) { return std::to_string(s.preemptions); }},
      {"wait mean (s)",
       [](const Summary& s) { return Fixed(s.wait_ms.mean / 1000.0, 3); }},
      {"wait p50 (s)", [](const Summary& s) { return Seconds(s.wait_ms.p50); }},
      {"wait p90 (s)", [](const Summary& s) { return Seconds(s.wait_ms.p90); }},
      {"wait p99 (s)", [](const Summary& s) { return Seconds(s.wait_ms.p99); }},
      {"wait max (s)", [](const Summary& s) { return Seconds(s.wait_ms.max); }},
      {"attempts mean", [](const Summary& s) { return Fixed(s.attempts.mean, 2); }},
      {"attempts p99", [](const Summary& s) { return std::to_string(s.attempts.p99); }},
      {"cpu requested/allocatable mean (%)",
       [](const Summary& s) { return Percent(s.mean_cpu_utilization); }},
      {"memory requested/allocatable mean (%)",
       [](const Summary& s) { return Percent(s.mean_memory_utilization); }},
      {"stranded free cpu mean (%)",
       [](const Summary& s) { return Percent(s.mean_stranded_cpu); }},
      {"pending mean", [](const Summary& s) { return Fixed(s.mean_pending, 2); }},
      {"pending peak", [](const Summary& s) { return std::to_string(s.peak_pending); }},
      {"nodes in use peak", [](const Summary& s) { return std::to_string(s.peak_nodes_in_use); }},
  };
  return *rows;
}

// Pod (key, occurrence) -> the node it was placed on ("" never).
std::map<std::pair<std::string, int>, std::string> Placements(const Summary& s) {
  std::map<std::pair<std::string, int>, std::string> out;
  std::map<std::string, int> seen;
  for (const PodSummary& p : s.pods) out[{p.pod, seen[p.pod]++}] = p.node;
  return out;
}

// The pods whose placement differs between any two summaries, each with
// its node per summary ("-" never placed), in key order.
std::vector<std::pair<std::string, std::vector<std::string>>> Differences(
    const std::vector<Summary>& summaries) {
  std::vector<std::map<std::pair<std::string, int>, std::string>> placed;
  std::map<std::pair<std::string, int>, bool> keys;
  for (const Summary& s : summaries) {
    placed.push_back(Placements(s));
    for (const auto& [k, node] : placed.back()) keys[k] = true;
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const auto& [k, unused] : keys) {
    std::vector<std::string> nodes;
    for (const auto& p : placed) {
      auto it = p.find(k);
      nodes.push_back(it == p.end() || it->second.empty() ? "-" : it->second);
    }
    if (std::adjacent_find(nodes.begin(), nodes.end(), std::not_equal_to<>()) == nodes.end()) {
      continue;
    }
    out.emplace_back(k.second == 0 ? k.first : k.first + " (#" + std::to_string(k.second + 1) + ")",
                     std::move(nodes));
  }
  return out;
}

std::string Pad(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

}  // namespace

CLI::App* AddCompareCommand(CLI::App& app, CompareOptions* options) {
  CLI::App* cmd = app.add_subcommand(
      "compare",
      "Run one scenario under several KubeSchedulerConfigurations and print their "
      "summaries side by side, then the pods placed differently (docs/summaries.md)");
  cmd->add_option("scenario", options->scenario, "Scenario file (YAML or JSON)")->required();
  cmd->add_option("--config", options->configs,
                  "A KubeSchedulerConfiguration file; give two or more")
      ->required()
      ->allow_extra_args(false)
      ->type_name("FILE");
  cmd->add_option("--impl", options->impl, "Implementation to run (default optimized)")
      ->check(CLI::IsMember(conformance::ImplementationNames()));
  cmd->add_option("--interval", options->interval,
                  "Virtual time between cluster samples (a Go duration, default 10s)");
  cmd->add_option("--output", options->output, "text (default) or json")
      ->check(CLI::IsMember({"text", "json"}));
  return cmd;
}

std::string CompareTable(const std::vector<std::string>& labels,
                         const std::vector<Summary>& summaries) {
  size_t first = std::string("metric").size();
  for (const Row& r : Rows()) first = std::max(first, r.metric.size());
  std::vector<size_t> widths;
  for (size_t i = 0; i < labels.size(); ++i) {
    size_t w = labels[i].size();
    for (const Row& r : Rows()) w = std::max(w, r.value(summaries[i]).size());
    widths.push_back(w);
  }
  std::ostringstream out;
  // Columns padded to their width, the last one not (no trailing blanks).
  auto cell = [&](const std::string& text, size_t i) {
    return "  " + (i + 1 == widths.size() ? text : Pad(text, widths[i]));
  };
  out << Pad("metric", first);
  for (size_t i = 0; i < labels.size(); ++i) out << cell(labels[i], i);
  out << "\n";
  for (const Row& r : Rows()) {
    out << Pad(r.metric, first);
    for (size_t i = 0; i < summaries.size(); ++i) out << cell(r.value(summaries[i]), i);
    out << "\n";
  }
  const auto diffs = Differences(summaries);
  out << "\npods placed differently: " << diffs.size() << "\n";
  for (const auto& [pod, nodes] : diffs) {
    out << "  " << pod << ":";
    for (size_t i = 0; i < nodes.size(); ++i) out << (i == 0 ? " " : " | ") << nodes[i];
    out << "\n";
  }
  return out.str();
}

int RunCompare(const CompareOptions& options, std::ostream& out, std::ostream& err) {
  if (options.configs.size() < 2) {
    err << "error: --config: give at least two configurations to compare\n";
    return 2;
  }
  StatusOr<api::TimeMs> interval = ParseIntervalOption("--interval", options.interval);
  if (!interval.ok()) {
    err << "error: " << interval.status().message() << "\n";
    return 1;
  }
  std::vector<Summary> summaries;
  for (const std::string& config : options.configs) {
    StatusOr<api::Scenario> scenario = LoadScenario(options.scenario, config);
    if (!scenario.ok()) {
      err << "error: " << scenario.status().message() << "\n";
      return 1;
    }
    StatusOr<Summary> summary = SummarizeRun(*scenario, options.impl, *interval);
    if (!summary.ok()) {
      err << "error: " << config << ": " << summary.status().message() << "\n";
      return 1;
    }
    summaries.push_back(std::move(summary).value());
  }
  if (options.output == "json") {
    nlohmann::json doc = {{"format", "schedref-compare"}, {"version", 1}};
    nlohmann::json columns = nlohmann::json::array();
    for (size_t i = 0; i < summaries.size(); ++i) {
      nlohmann::json values = nlohmann::json::object();
      for (const Row& r : Rows()) values[r.metric] = r.value(summaries[i]);
      columns.push_back({{"config", options.configs[i]}, {"metrics", std::move(values)}});
    }
    doc["columns"] = std::move(columns);
    nlohmann::json diffs = nlohmann::json::array();
    for (const auto& [pod, nodes] : Differences(summaries)) {
      diffs.push_back({{"pod", pod}, {"nodes", nodes}});
    }
    doc["placedDifferently"] = std::move(diffs);
    out << doc.dump(2) << "\n";
  } else {
    out << "scenario: " << options.scenario << "\n" << CompareTable(options.configs, summaries);
  }
  return out.flush() ? 0 : 1;
}

}  // namespace schedref::cmd
