// schedref: run scenarios through a scheduler implementation, check them
// against their golden traces, explain a scheduling decision, benchmark.
// Usage: schedref --help; each subcommand has its own --help.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include <CLI/CLI.hpp>

#include "api/codec/cluster_dump.h"
#include "api/codec/input_file.h"
#include "api/codec/scenario_decode.h"
#include "api/codec/trace_codec.h"
#include "api/types/unmodelled.h"
#include "cmd/schedref/bench.h"
#include "cmd/schedref/compare_command.h"
#include "cmd/schedref/perf_import.h"
#include "cmd/schedref/summary.h"
#include "cmd/schedref/summary_page.h"
#include "cmd/schedref/scenario_bench.h"
#include "cmd/schedref/summarize_command.h"
#include "conformance/check_command.h"
#include "conformance/explain_command.h"
#include "conformance/implementations.h"
#include "conformance/runner.h"
#include "reference/scheduler/scheduler.h"
#include "view/run_page.h"

namespace {

using schedref::StatusOr;

// Exit codes: 0 success, 1 a failed check or bad input, 2 usage error.
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

// What run, explain, check and scenario read: a scenario file, or a
// cluster dump (--cluster) with an optional --config
// (api/codec/cluster_dump.h, docs/cluster-input.md).
struct Input {
  std::string scenario_path;
  std::vector<std::string> cluster;
  std::string config;
  std::string as_pending;
  bool want_text = false;  // the built scenario's YAML (scenario, check)
};

// The scenario, or an error already printed (and the exit code to return).
struct Loaded {
  std::optional<schedref::api::Scenario> scenario;
  std::string text;  // cluster input only: the built scenario's YAML
  std::vector<std::string> inputs;
  int exit_code = 0;
};

Loaded LoadInput(const Input& in) {
  Loaded out;
  const auto fail = [&out](const std::string& message, int code) {
    std::cerr << "error: " << message << "\n";
    out.exit_code = code;
    return std::move(out);
  };
  if (in.cluster.empty()) {
    if (!in.config.empty()) {
      return fail("--config needs --cluster (a scenario file carries its own config)", kExitUsage);
    }
    if (!in.as_pending.empty()) {
      return fail("--as-pending needs --cluster (a scenario file states where its pods are)",
                  kExitUsage);
    }
    if (in.scenario_path.empty()) {
      return fail("give a scenario file or --cluster FILE...", kExitUsage);
    }
    StatusOr<std::string> text = schedref::api::ReadInputFile(in.scenario_path);
    if (!text.ok()) return fail(text.status().message(), kExitFailure);
    StatusOr<schedref::api::Scenario> s = schedref::api::DecodeScenario(*text, in.scenario_path);
    if (!s.ok()) return fail(s.status().message(), kExitFailure);
    out.scenario = std::move(*s);
    out.inputs = {in.scenario_path};
    return out;
  }
  if (!in.scenario_path.empty()) {
    return fail("give either a scenario file or --cluster, not both", kExitUsage);
  }
  StatusOr<schedref::api::ClusterScenario> built =
      schedref::api::BuildClusterScenario({in.cluster, in.config, in.as_pending, in.want_text});
  if (!built.ok()) return fail(built.status().message(), kExitFailure);
  for (const std::string& line : built->messages) std::cerr << line << "\n";
  out.scenario = std::move(built->scenario);
  out.text = std::move(built->text);
  out.inputs = std::move(built->inputs);
  return out;
}

// The input options every command that reads a scenario shares.
void AddInputOptions(CLI::App* cmd, Input* in, bool scenario_positional) {
  if (scenario_positional) {
    cmd->add_option("scenario", in->scenario_path, "Scenario file (YAML or JSON)");
  }
  cmd->add_option("--cluster", in->cluster,
                  "Instead of a scenario: a cluster dump (kubectl get -o yaml|json output: "
                  "a List, several documents, or a directory of such files, read in name "
                  "order); repeatable (docs/cluster-input.md)")
      ->allow_extra_args(true)
      ->type_name("FILE");
  cmd->add_option("--config", in->config,
                  "With --cluster: a KubeSchedulerConfiguration file as kube-scheduler's "
                  "--config reads it (default: the v1.32 defaults)")
      ->type_name("FILE");
}


// `run`'s progress line on stderr: pods bound, pods not bound yet and the
// virtual clock, at most every `every` of wall time and only once a run has
// taken that long; a run that reported anything ends with a last report
// "done: ...". On a terminal the line is rewritten in place; otherwise
// (--progress into a file or pipe) each report is a line of its own.
class ProgressReporter {
 public:
  ProgressReporter(const schedref::api::Scenario& scenario, bool terminal,
                   std::chrono::milliseconds every)
      : terminal_(terminal),
        every_(every),
        start_(std::chrono::steady_clock::now()),
        next_(start_ + every) {
    for (const auto& pod : scenario.initial.pods) to_schedule_ += pod.node_name.empty() ? 1 : 0;
    for (const auto& e : scenario.timeline) {
      if (e.op != schedref::api::Event::Op::kCreate) continue;
      const auto* pod = std::get_if<schedref::api::Pod>(&e.object);
      if (pod != nullptr && pod->node_name.empty()) ++to_schedule_;
    }
  }
  ~ProgressReporter() {
    if (!printed_) return;
    Print("done: ");
    if (terminal_) std::cerr << "\n";
  }

  void Observe(schedref::api::TimeMs now, const schedref::api::Trace& trace) {
    for (; seen_ < trace.records.size(); ++seen_) {
      const auto* binding = schedref::api::AsBinding(trace.records[seen_]);
      if (binding != nullptr && binding->outcome == schedref::api::BindingOutcome::kBound) {
        ++bound_;
      }
      if (schedref::api::AsAttempt(trace.records[seen_]) != nullptr) ++attempts_;
    }
    now_ = now;
    const auto wall = std::chrono::steady_clock::now();
    if (wall < next_) return;
    next_ = wall + every_;
    printed_ = true;
    Print("");
  }

 private:
  void Print(std::string_view prefix) const {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::ostringstream line;
    line << "progress: " << prefix << bound_ << " pods bound, "
         << std::max<int64_t>(0, to_schedule_ - bound_) << " not yet bound, " << attempts_
         << " attempts; virtual time " << now_ / 1000.0 << "s; "
         << static_cast<int64_t>(seconds) << "s elapsed";
    if (terminal_) {
      std::cerr << "\r" << line.str() << "\033[K" << std::flush;
    } else {
      std::cerr << line.str() << "\n" << std::flush;
    }
  }

  const bool terminal_;
  const std::chrono::milliseconds every_;
  const std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point next_;
  schedref::api::TimeMs now_ = 0;
  int64_t to_schedule_ = 0, bound_ = 0, attempts_ = 0;
  size_t seen_ = 0;
  bool printed_ = false;
};

int RunCommand(const Input& input, const std::string& impl_name,
               bool full_detail, bool feasible_nodes, bool progress,
               double progress_every_s, const std::string& html) {
  Loaded scenario = LoadInput(input);
  if (!scenario.scenario) return scenario.exit_code;
  std::unique_ptr<schedref::api::Scheduler> impl =
      schedref::conformance::MakeImplementation(impl_name);
  schedref::api::RunOptions options;
  options.full_detail = full_detail;
  options.record_feasible_nodes = feasible_nodes;
  const bool terminal = isatty(STDERR_FILENO) != 0;
  std::optional<ProgressReporter> reporter;
  if (progress || terminal) {
    reporter.emplace(*scenario.scenario, terminal,
                     std::chrono::milliseconds(std::llround(progress_every_s * 1000)));
    options.on_instant = [&reporter](schedref::api::TimeMs now,
                                     const schedref::api::Trace& trace) {
      reporter->Observe(now, trace);
    };
  }
  StatusOr<schedref::api::Trace> trace = impl->Run(*scenario.scenario, options);
  reporter.reset();
  if (!trace.ok()) {
    std::cerr << "error: " << trace.status().message() << "\n";
    return kExitFailure;
  }
  // What schedref does not model, said per pod (also the trace's warning
  // lines).
  for (const schedref::api::Warning& w : trace->warnings) {
    std::cerr << schedref::api::WarningLine(w) << "\n";
  }
  if (!html.empty()) {
    // The page instead of the trace (view/run_page.h).
    std::ofstream page(html, std::ios::binary | std::ios::trunc);
    // With the summary's charts (cmd/schedref/summary_page.h), sampled
    // every 10 s, or at most about 200 times over a longer run.
    const schedref::api::TimeMs end = schedref::cmd::SummaryEnd(*scenario.scenario, *trace);
    const schedref::api::TimeMs interval = std::max<schedref::api::TimeMs>(10000, end / 200 + 1);
    page << schedref::view::RunPage(
        *scenario.scenario, *trace, impl_name,
        schedref::cmd::SummaryChart(schedref::cmd::Summarize(*scenario.scenario, *trace, interval)));
    if (!page.flush()) {
      std::cerr << "error: --html " << html << ": cannot write the page\n";
      return kExitFailure;
    }
    return 0;
  }
  std::cout << schedref::api::EncodeTrace(*trace);
  return 0;
}

// `schedref scenario`: writes the scenario built from --cluster.
int ScenarioCommand(const Input& input, const std::string& output) {
  if (input.cluster.empty()) {
    std::cerr << "error: schedref scenario needs --cluster FILE...\n";
    return kExitUsage;
  }
  Input with_text = input;
  with_text.want_text = true;
  Loaded built = LoadInput(with_text);
  if (!built.scenario) return built.exit_code;
  if (output.empty() || output == "-") {
    std::cout << built.text;
    return std::cout.flush() ? 0 : kExitFailure;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(output, ec)) {
    std::cerr << "error: -o " << output << ": is a directory\n";
    return kExitUsage;
  }
  for (const std::string& in : built.inputs) {
    if (std::filesystem::exists(output, ec) && std::filesystem::equivalent(output, in, ec)) {
      std::cerr << "error: -o " << output << ": is one of the input files (" << in
                << "); refusing to overwrite it\n";
      return kExitUsage;
    }
  }
  std::ofstream file(output, std::ios::binary | std::ios::trunc);
  file << built.text;
  if (!file.flush()) {
    std::cerr << "error: cannot write " << output << "\n";
    return kExitFailure;
  }
  return 0;
}

// `schedref check`: everything after option parsing lives in
// conformance/check_command.h.
int CheckCommand(schedref::conformance::CheckCommandOptions options, const Input& input) {
  if (!input.cluster.empty()) {
    // A dump has no expected trace: the reference's run of it is the
    // expectation every checked implementation must meet.
    if (options.update) {
      std::cerr << "error: --update rewrites golden files; it does not go with --cluster\n";
      return kExitUsage;
    }
    Input with_text = input;
    with_text.want_text = true;
    Loaded built = LoadInput(with_text);
    if (!built.scenario) return built.exit_code;
    schedref::reference::ReferenceScheduler reference;
    StatusOr<schedref::api::Trace> trace = reference.Run(*built.scenario, {});
    if (!trace.ok()) {
      std::cerr << "error: reference: " << trace.status().message() << "\n";
      return kExitFailure;
    }
    std::string label = "cluster";
    for (const std::string& f : input.cluster) label += " " + f;
    options.texts.emplace_back(
        label, schedref::conformance::WithExpectedTrace(
                   built.text, schedref::api::EncodeTraceLines(*trace)));
    if (options.impls.empty() && options.exec.empty()) {
      for (const std::string& name : schedref::conformance::ImplementationNames()) {
        if (name != "reference") options.impls.push_back(name);
      }
    }
  } else if (!input.config.empty()) {
    std::cerr << "error: --config needs --cluster (a scenario file carries its own config)\n";
    return kExitUsage;
  }
  return schedref::conformance::RunCheckCommand(options, std::cout,
                                                std::cerr);
}

// `schedref explain`: everything after loading the input lives in
// conformance/explain_command.h.
int ExplainCommand(const Input& input,
                   const schedref::conformance::ExplainCommandOptions& options) {
  Loaded loaded = LoadInput(input);
  if (!loaded.scenario) return loaded.exit_code;
  const std::string path =
      input.cluster.empty() ? input.scenario_path : "the cluster dump";
  bool known = false;
  for (const auto& p : loaded.scenario->initial.pods) known = known || p.Key() == options.pod;
  for (const auto& e : loaded.scenario->timeline) {
    known = known || (e.kind == "Pod" && e.name == options.pod);
  }
  if (!known) {
    std::cerr << "error: no Pod " << options.pod << " in " << path << "\n";
    return kExitFailure;
  }
  return schedref::conformance::RunExplainCommand(*loaded.scenario, options, std::cout,
                                                  std::cerr);
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

  Input run_input;
  std::string impl = "optimized";
  bool full_detail = false, feasible_nodes = false;
  CLI::App* run = app.add_subcommand(
      "run", "Run a scenario file (or a cluster dump, --cluster) and print its trace "
             "(JSON lines)");
  AddInputOptions(run, &run_input, true);
  run->add_option("--impl", impl,
                  "Implementation to run (default optimized; its traces are the "
                  "reference's)")
      ->check(CLI::IsMember(schedref::conformance::ImplementationNames()));
  bool run_progress = false;
  run->add_flag("--progress", run_progress,
                "Report progress on stderr even when it is not a terminal (on a terminal "
                "it always is): pods bound, not yet bound, virtual time, at most every "
                "--progress-every seconds once a run has taken that long");
  double run_progress_every = 2;
  run->add_option("--progress-every", run_progress_every,
                  "Seconds of wall time between progress reports (default 2; 0 reports "
                  "at every virtual instant)")
      ->check(CLI::Range(0.0, 3600.0))
      ->type_name("SECONDS");
  run->add_flag("--full-detail", full_detail,
                "Record every node's filter verdicts and scores");
  run->add_flag("--feasible-nodes", feasible_nodes,
                "List each attempt's feasible nodes (feasibleNodes, what "
                "legal-choice conformance asks for)");
  std::string run_html;
  run->add_option("--html", run_html,
                  "Write the run as one HTML page to FILE instead of printing the trace: "
                  "each pod's timeline and the cluster at the end (docs/html-view.md)")
      ->type_name("FILE");

  schedref::conformance::CheckCommandOptions check_options;
  Input check_input;
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
                    "Also write a report: --report=json FILE, "
                    "--report=junit FILE or --report=html FILE (a page, "
                    "docs/html-view.md)")
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
  AddInputOptions(check, &check_input, false);
  check->get_option("--cluster")
      ->description(
          "Instead of golden files: build a scenario from this cluster dump (as run "
          "--cluster does), take the reference's trace of it as the expected one and "
          "check the other implementations (default: every built-in one but the "
          "reference, and --exec's) against it");
  check->add_flag("--update", check_options.update,
                  "Regenerate each file's expectedTrace with the reference "
                  "(or, with --exec, with that implementation: goldens of "
                  "out-of-tree plugins) and print what changed (the golden "
                  "update workflow)");

  Input explain_input;
  schedref::conformance::ExplainCommandOptions explain_options;
  CLI::App* explain = app.add_subcommand(
      "explain",
      "Show why the reference placed a pod: PreFilter results, every "
      "node's filter verdicts, weighted scores, total and rank, the choice "
      "and its tie-break, the FitError and preemption (docs/explain.md)");
  AddInputOptions(explain, &explain_input, true);
  bool explain_as_pending = false;
  explain->add_flag("--as-pending", explain_as_pending,
                    "With --cluster: take the bound --pod off its node and explain where "
                    "it would go now (it is scheduled first; a pending pod needs no flag)");
  explain->add_option("--pod", explain_options.pod, "Pod as namespace/name")
      ->required();
  explain->add_option("--cycle", explain_options.cycle,
                      "Only this scheduling cycle (default: every attempt)");
  explain->add_option("--output", explain_options.output,
                      "text (default) or json (docs/explain.md gives its shape)")
      ->check(CLI::IsMember({"text", "json"}));
  explain->add_option("--html", explain_options.html,
                      "Write the explanations as one HTML page to FILE instead of printing "
                      "them: the nodes x plugins matrix per attempt (docs/html-view.md)")
      ->type_name("FILE");

  Input scenario_input;
  std::string scenario_output;
  CLI::App* scenario_cmd = app.add_subcommand(
      "scenario",
      "Write the scenario built from a cluster dump (--cluster, --config) as YAML, for "
      "editing; it runs to the same trace (docs/cluster-input.md)");
  AddInputOptions(scenario_cmd, &scenario_input, false);
  scenario_cmd->add_option("-o,--output", scenario_output,
                           "Write to FILE instead of stdout (never one of the inputs)")
      ->type_name("FILE");

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

  schedref::cmd::SummarizeOptions summarize_options;
  CLI::App* summarize = schedref::cmd::AddSummarizeCommand(app, &summarize_options);
  schedref::cmd::CompareOptions compare_options;
  CLI::App* compare = schedref::cmd::AddCompareCommand(app, &compare_options);
  schedref::cmd::PerfImportOptions perf_import_options;
  CLI::App* perf_import = schedref::cmd::AddPerfImportCommand(app, &perf_import_options);

  std::string bench_scenario;
  bool bench_progress = false;
  bench->add_option("scenario", bench_scenario,
                    "Instead of a workload: time this scenario file under the reference and "
                    "the optimized implementation (--threads), with peak memory and a "
                    "check of identical decisions");
  bench->add_flag("--progress", bench_progress,
                  "With a scenario: progress lines on stderr during each run");
  // "--threads 1,2 SCENARIO": the scenario is not a thread count.
  bench->get_option("--threads")->allow_extra_args(false);

  // CLI11 reports a misspelt subcommand as "a subcommand is required"; name
  // it instead.
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      known = known || sub->check_name(argv[1]);
    }
    if (!known) {
      std::cerr << "error: unknown subcommand \"" << argv[1]
                << "\" (run, check, explain, scenario, bench, summarize, compare, perf-import)\n"
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

  if (*run) {
    return RunCommand(run_input, impl, full_detail, feasible_nodes, run_progress,
                      run_progress_every, run_html);
  }
  if (*scenario_cmd) return ScenarioCommand(scenario_input, scenario_output);
  if (*check) {
    check_options.mode = check_mode == "legal-choice"
                             ? schedref::conformance::Mode::kLegalChoice
                             : schedref::conformance::Mode::kStrict;
    if (check_report.size() == 2) {
      check_options.report_format = check_report[0];
      check_options.report_file = check_report[1];
    }
    return CheckCommand(check_options, check_input);
  }
  if (*explain) {
    if (explain_as_pending) explain_input.as_pending = explain_options.pod;
    return ExplainCommand(explain_input, explain_options);
  }
  if (*summarize) return schedref::cmd::RunSummarize(summarize_options, std::cout, std::cerr);
  if (*compare) return schedref::cmd::RunCompare(compare_options, std::cout, std::cerr);
  if (*perf_import) {
    return schedref::cmd::RunPerfImport(perf_import_options, std::cout, std::cerr);
  }
  if (*bench && !bench_scenario.empty()) {
    if (!bench_options.workload.empty() && bench->get_option("--workload")->count() > 0) {
      std::cerr << "error: give either --workload or a scenario file, not both\n";
      return kExitUsage;
    }
    schedref::cmd::ScenarioBenchOptions o;
    o.scenario = bench_scenario;
    o.threads = bench_options.threads;
    o.skip_reference = bench_options.skip_reference;
    o.progress = bench_progress || isatty(STDERR_FILENO) != 0;
    return schedref::cmd::RunScenarioBench(o, std::cout, std::cerr);
  }
  if (*bench) {
    if (nodes_opt->count() > 0) bench_options.nodes = bench_nodes;
    if (init_opt->count() > 0) bench_options.init_pods = bench_init;
    if (measured_opt->count() > 0) bench_options.measured_pods = bench_measured;
    if (reference_opt->count() > 0) bench_options.reference_measured_pods = bench_reference;
    return schedref::cmd::RunBench(bench_options, std::cout, std::cerr);
  }
  return kExitUsage;
}
