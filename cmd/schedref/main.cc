// schedref: run scenarios through a scheduler implementation, check them
// against their golden traces, explain a scheduling decision, benchmark.
// Usage: schedref --help; each subcommand has its own --help.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "api/codec/input_file.h"
#include "api/codec/scenario_decode.h"
#include "api/codec/trace_codec.h"
#include "cmd/schedref/bench.h"
#include "conformance/check_command.h"
#include "conformance/implementations.h"
#include "reference/scheduler/scheduler.h"

namespace {

using schedref::StatusOr;

// Exit codes: 0 success, 1 a failed check or bad input, 2 usage error.
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

StatusOr<schedref::api::Scenario> LoadScenario(const std::string& path) {
  StatusOr<std::string> text = schedref::api::ReadInputFile(path);
  if (!text.ok()) return text.status();
  return schedref::api::DecodeScenario(*text, path);
}


int RunCommand(const std::string& path, const std::string& impl_name,
               bool full_detail, bool feasible_nodes) {
  StatusOr<schedref::api::Scenario> scenario = LoadScenario(path);
  if (!scenario.ok()) {
    std::cerr << "error: " << scenario.status().message() << "\n";
    return kExitFailure;
  }
  std::unique_ptr<schedref::api::Scheduler> impl =
      schedref::conformance::MakeImplementation(impl_name);
  schedref::api::RunOptions options;
  options.full_detail = full_detail;
  options.record_feasible_nodes = feasible_nodes;
  StatusOr<schedref::api::Trace> trace = impl->Run(*scenario, options);
  if (!trace.ok()) {
    std::cerr << "error: " << trace.status().message() << "\n";
    return kExitFailure;
  }
  std::cout << schedref::api::EncodeTrace(*trace);
  return 0;
}

// `schedref check`: everything after option parsing lives in
// conformance/check_command.h.
int CheckCommand(const schedref::conformance::CheckCommandOptions& options) {
  return schedref::conformance::RunCheckCommand(options, std::cout,
                                                std::cerr);
}

// Prints, for one attempt of one pod, every node's filter verdicts and
// scores.
int ExplainCommand(const std::string& path, const std::string& pod,
                   int64_t cycle) {
  StatusOr<schedref::api::Scenario> scenario = LoadScenario(path);
  if (!scenario.ok()) {
    std::cerr << "error: " << scenario.status().message() << "\n";
    return kExitFailure;
  }
  schedref::reference::ReferenceScheduler impl;
  schedref::api::RunOptions options;
  options.full_detail = true;
  StatusOr<schedref::api::Trace> trace = impl.Run(*scenario, options);
  if (!trace.ok()) {
    std::cerr << "error: " << trace.status().message() << "\n";
    return kExitFailure;
  }
  bool found = false;
  for (const auto& record : trace->records) {
    const schedref::api::Attempt* attempt = schedref::api::AsAttempt(record);
    if (attempt == nullptr || attempt->pod != pod) continue;
    if (cycle != 0 && attempt->cycle != cycle) continue;
    const schedref::api::Attempt& a = *attempt;
    found = true;
    std::cout << "t=" << a.at << "ms cycle " << a.cycle << " pod " << a.pod
              << " profile " << a.profile << ": " << schedref::api::OutcomeName(a.outcome);
    if (!a.node.empty()) std::cout << " on " << a.node;
    std::cout << " (evaluated " << a.evaluated << ", feasible " << a.feasible
              << ")\n";
    if (!a.message.empty()) std::cout << "  " << a.message << "\n";
    for (const auto& [node, detail] : a.detail) {
      std::cout << "  node " << node << "\n";
      for (const auto& [plugin, verdict] : detail.filter) {
        std::cout << "    filter " << plugin << ": " << verdict << "\n";
      }
      for (const auto& [plugin, s] : detail.scores) {
        std::cout << "    score  " << plugin << ": raw " << s.raw
                  << ", normalized " << s.normalized << ", weighted "
                  << s.weighted << "\n";
      }
    }
  }
  if (!found) {
    std::cerr << "error: no attempt for pod " << pod << " in " << path
              << "\n";
    return kExitFailure;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // `bazel run` starts us in the runfiles tree; paths on the command line
  // are meant relative to where the user typed them.
  if (const char* wd = std::getenv("BUILD_WORKING_DIRECTORY")) {
    if (chdir(wd) != 0) {
      std::cerr << "error: cannot change to " << wd << "\n";
      return kExitFailure;
    }
  }
  CLI::App app{
      "schedref: a reference implementation of the Kubernetes scheduler "
      "(v1.32 semantics) and its conformance suite"};
  app.require_subcommand(1);

  std::string run_path, impl = "reference";
  bool full_detail = false, feasible_nodes = false;
  CLI::App* run = app.add_subcommand(
      "run", "Run a scenario file and print its trace (JSON lines)");
  run->add_option("scenario", run_path, "Scenario file (YAML or JSON)")
      ->required();
  run->add_option("--impl", impl, "Implementation to run")
      ->check(CLI::IsMember(schedref::conformance::ImplementationNames()));
  run->add_flag("--full-detail", full_detail,
                "Record every node's filter verdicts and scores");
  run->add_flag("--feasible-nodes", feasible_nodes,
                "List each attempt's feasible nodes (feasibleNodes, what "
                "legal-choice conformance asks for)");

  schedref::conformance::CheckCommandOptions check_options;
  std::string check_mode = "strict";
  std::vector<std::string> check_report;
  CLI::App* check = app.add_subcommand(
      "check",
      "Run golden scenarios through implementations and judge each trace; "
      "prints one line per scenario and 'N passed, M failed, K skipped' "
      "(docs/conformance.md)");
  check->add_option("scenarios", check_options.files,
                    "Scenario files, or directories of them (default: "
                    "golden/ under the current directory)");
  check->add_option("--impl", check_options.impls,
                    "Built-in implementation to check; repeatable (default: "
                    "all of them, unless --exec is given)")
      ->allow_extra_args(false)
      ->check(CLI::IsMember(schedref::conformance::ImplementationNames()));
  check->add_option("--exec", check_options.exec,
                    "Check an external implementation: a command (run with "
                    "sh -c) speaking docs/conformance-protocol.md")
      ->check(CLI::Validator(
          [](std::string& command) {
            return command.find_first_not_of(" \t") == std::string::npos
                       ? std::string("must not be empty")
                       : std::string();
          },
          "COMMAND"));
  check->add_option("--mode", check_mode,
                    "strict: traces must equal expectedTrace; legal-choice: "
                    "the reference accepts every choice upstream could make")
      ->check(CLI::IsMember({"strict", "legal-choice"}));
  check->add_option("--report", check_report,
                    "Also write a report: --report=json FILE or "
                    "--report=junit FILE")
      ->expected(2)
      ->allow_extra_args(false)
      ->type_name("FORMAT FILE");
  check->add_option("--timeout", check_options.timeout_seconds,
                    "Seconds an external implementation gets per scenario "
                    "(default 60)")
      ->check(CLI::PositiveNumber);
  check->add_flag("--allow-skips", check_options.allow_skips,
                  "Exit 0 even when every scenario was skipped (by default "
                  "a run that checked nothing fails)");
  check->add_flag("--update", check_options.update,
                  "Regenerate each file's expectedTrace with the reference "
                  "and print what changed (the golden update workflow)");

  std::string explain_path, explain_pod;
  int64_t explain_cycle = 0;
  CLI::App* explain = app.add_subcommand(
      "explain",
      "Show why the reference placed a pod: every node's filter verdicts "
      "and raw, normalized and weighted scores");
  explain->add_option("scenario", explain_path, "Scenario file")->required();
  explain->add_option("--pod", explain_pod, "Pod as namespace/name")
      ->required();
  explain->add_option("--cycle", explain_cycle,
                      "Only this scheduling cycle (default: every attempt)");

  schedref::cmd::BenchOptions bench_options;
  int bench_nodes = 0, bench_init = 0, bench_measured = 0, bench_reference = 0;
  CLI::App* bench = app.add_subcommand(
      "bench",
      "Run scheduler_perf-shaped workloads through the reference and the "
      "optimized implementation: pods/s of the measured phase, peak memory, "
      "thread scaling, and a check that their decisions are identical "
      "(docs/performance.md)");
  bench->add_option("--workload", bench_options.workload,
                    "Workload name, or all (SchedulingBasic, "
                    "SchedulingNodeAffinity, SchedulingPodAntiAffinity, "
                    "TopologySpreading, PreemptionBasic, SchedulingSecrets, "
                    "SchedulingInTreePVs, SchedulingMigratedInTreePVs, "
                    "SchedulingCSIPVs, PreemptionPVs, Unschedulable, "
                    "MixedChurn; default SchedulingBasic)");
  CLI::Option* nodes_opt = bench->add_option(
      "--nodes", bench_nodes, "Nodes (default: the workload's upstream count)");
  CLI::Option* init_opt = bench->add_option(
      "--init-pods", bench_init,
      "Pods scheduled before the measured phase, not timed (default: the "
      "workload's upstream count)");
  CLI::Option* measured_opt = bench->add_option(
      "--measured-pods", bench_measured,
      "Pods of the measured phase (default: the workload's upstream count)");
  CLI::Option* reference_opt = bench->add_option(
      "--reference-measured-pods", bench_reference,
      "Measured pods of the reference's run, which the optimized "
      "implementation also runs to compare decisions (default 200, and 600 "
      "for MixedChurn, so that its node and pod churn is compared; at most "
      "--measured-pods)");
  bench->add_option("--threads", bench_options.threads,
                    "Thread counts of the optimized implementation, comma "
                    "separated (default 1,2)")
      ->delimiter(',');
  bench->add_flag("--skip-reference", bench_options.skip_reference,
                  "Run only the optimized implementation (no comparison)");
  bench->add_option("--repeat", bench_options.repeat,
                    "Timed runs per scenario of the optimized "
                    "implementation, interleaved; the fastest counts "
                    "(default 3; the reference runs once)");

  // CLI11 reports a misspelt subcommand as "a subcommand is required"; name
  // it instead.
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      known = known || sub->check_name(argv[1]);
    }
    if (!known) {
      std::cerr << "error: unknown subcommand \"" << argv[1]
                << "\" (run, check, explain, bench)\n"
                << "Run with --help for more information.\n";
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }

  if (*run) return RunCommand(run_path, impl, full_detail, feasible_nodes);
  if (*check) {
    check_options.mode = check_mode == "legal-choice"
                             ? schedref::conformance::Mode::kLegalChoice
                             : schedref::conformance::Mode::kStrict;
    if (check_report.size() == 2) {
      check_options.report_format = check_report[0];
      check_options.report_file = check_report[1];
    }
    return CheckCommand(check_options);
  }
  if (*explain) return ExplainCommand(explain_path, explain_pod, explain_cycle);
  if (*bench) {
    if (nodes_opt->count() > 0) bench_options.nodes = bench_nodes;
    if (init_opt->count() > 0) bench_options.init_pods = bench_init;
    if (measured_opt->count() > 0) bench_options.measured_pods = bench_measured;
    if (reference_opt->count() > 0) bench_options.reference_measured_pods = bench_reference;
    return schedref::cmd::RunBench(bench_options, std::cout, std::cerr);
  }
  return kExitUsage;
}
