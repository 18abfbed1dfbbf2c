#include "conformance/check_command.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <system_error>

#include "api/scenario_decode.h"
#include "api/trace_codec.h"
#include "conformance/engine.h"
#include "conformance/exec_engine.h"
#include "conformance/features.h"
#include "conformance/implementations.h"
#include "conformance/report.h"

namespace schedref::conformance {
namespace {

using Outcome = CheckResult::Outcome;

// Every *.yaml under `dir`, sorted.
std::vector<std::string> YamlFilesUnder(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  std::filesystem::recursive_directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".yaml") {
      files.push_back(it->path().generic_string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The scenario files to check: each argument, directories replaced by the
// *.yaml files under them; no argument: golden/ under the current
// directory.
std::vector<std::string> ScenarioFiles(const std::vector<std::string>& args,
                                       std::ostream& err) {
  std::error_code ec;
  if (args.empty()) {
    if (!std::filesystem::is_directory("golden", ec)) {
      err << "error: no scenario files given and no golden/ directory in "
          << std::filesystem::current_path(ec).string() << "\n";
      return {};
    }
    return YamlFilesUnder("golden");
  }
  std::vector<std::string> files;
  for (const std::string& arg : args) {
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::string> under = YamlFilesUnder(arg);
      files.insert(files.end(), under.begin(), under.end());
    } else {
      files.push_back(arg);
    }
  }
  return files;
}

// The golden update workflow: rewrite each file's expectedTrace with the
// implementation's trace and say what changed.
int Update(api::Scheduler& impl, const std::vector<std::string>& files,
           std::ostream& out) {
  int updated = 0, unchanged = 0, failed = 0;
  for (const std::string& path : files) {
    StatusOr<std::string> text = ReadFile(path);
    if (!text.ok()) {
      out << "FAIL " << path << ": " << text.status().message() << "\n";
      ++failed;
      continue;
    }
    StatusOr<api::Scenario> scenario = api::DecodeScenario(*text, path);
    if (!scenario.ok()) {
      out << "FAIL " << path << ": " << scenario.status().message() << "\n";
      ++failed;
      continue;
    }
    StatusOr<api::Trace> trace = impl.Run(*scenario, api::RunOptions{});
    if (!trace.ok()) {
      out << "FAIL " << path << ": " << trace.status().message() << "\n";
      ++failed;
      continue;
    }
    std::vector<std::string> lines = api::EncodeTraceLines(*trace);
    const std::vector<std::string>& old = scenario->expected_trace;
    size_t changed = 0;
    for (size_t i = 0; i < std::max(lines.size(), old.size()); ++i) {
      if (i >= lines.size() || i >= old.size() || lines[i] != old[i]) {
        ++changed;
      }
    }
    if (changed == 0) {
      out << "unchanged " << path << "\n";
      ++unchanged;
      continue;
    }
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << WithExpectedTrace(*text, lines);
    if (!file.flush()) {
      out << "FAIL " << path << ": cannot write the file\n";
      ++failed;
      continue;
    }
    out << "updated " << path << ": " << changed << " of " << lines.size()
        << " trace lines changed\n";
    ++updated;
  }
  out << updated << " updated, " << unchanged << " unchanged, " << failed
      << " failed\n";
  return failed == 0 ? kCheckPassed : kCheckFailed;
}

const char* Label(Outcome o) {
  switch (o) {
    case Outcome::kPass:
      return "PASS";
    case Outcome::kFail:
      return "FAIL";
    case Outcome::kSkip:
      return "SKIP";
  }
  return "FAIL";
}

}  // namespace

int RunCheckCommand(const CheckCommandOptions& options, std::ostream& out,
                    std::ostream& err) {
  if (options.report_format != "" && options.report_format != "json" &&
      options.report_format != "junit") {
    err << "error: --report: unknown format \"" << options.report_format
        << "\" (json, junit)\n";
    return kCheckUsage;
  }
  if (!(options.timeout_seconds > 0)) {
    err << "error: --timeout must be positive\n";
    return kCheckUsage;
  }
  std::vector<std::string> impls = options.impls;
  // The reference is the specification: --update regenerates from it unless
  // told otherwise.
  if (impls.empty() && options.exec.empty()) {
    impls = options.update ? std::vector<std::string>{"reference"}
                           : ImplementationNames();
  }
  if (options.update && (!options.exec.empty() || impls.size() != 1 ||
                         options.mode != Mode::kStrict)) {
    err << "error: --update regenerates expectedTrace with one built-in "
           "implementation (--impl=reference); it does not go with --exec, "
           "several --impl or --mode=legal-choice\n";
    return kCheckUsage;
  }
  std::vector<std::string> files = ScenarioFiles(options.files, err);
  if (files.empty()) {
    if (!options.files.empty()) err << "error: no scenario files found\n";
    return kCheckUsage;
  }

  std::unique_ptr<api::Scheduler> reference = MakeImplementation("reference");
  if (options.update) {
    std::unique_ptr<api::Scheduler> impl = MakeImplementation(impls.front());
    if (impl == nullptr) {
      err << "error: unknown implementation " << impls.front() << "\n";
      return kCheckUsage;
    }
    return Update(*impl, files, out);
  }

  std::vector<std::unique_ptr<Engine>> engines;
  for (const std::string& name : impls) {
    std::unique_ptr<api::Scheduler> impl = MakeImplementation(name);
    if (impl == nullptr) {
      err << "error: unknown implementation " << name << "\n";
      return kCheckUsage;
    }
    engines.push_back(MakeBuiltinEngine(std::move(impl)));
  }
  if (!options.exec.empty()) {
    auto timeout = std::chrono::milliseconds(
        std::llround(options.timeout_seconds * 1000));
    StatusOr<std::unique_ptr<ExecEngine>> exec =
        ExecEngine::Start(options.exec, timeout);
    if (!exec.ok()) {
      err << "error: " << exec.status().message() << "\n";
      return kCheckFailed;
    }
    const std::vector<std::string>& known = FeatureTags();
    for (const std::string& tag : (*exec)->Unsupported()) {
      if (std::find(known.begin(), known.end(), tag) == known.end()) {
        err << "warning: " << (*exec)->Name()
            << " declares an unknown feature tag \"" << tag
            << "\"; ignored\n";
      }
    }
    engines.push_back(std::move(*exec));
  }

  CheckOptions check;
  check.mode = options.mode;
  check.reference = reference.get();
  std::vector<CheckResult> results;
  int passed = 0, failed = 0, skipped = 0;
  for (const std::unique_ptr<Engine>& engine : engines) {
    const std::string tag =
        engines.size() > 1 ? "[" + engine->Name() + "] " : "";
    for (const std::string& path : files) {
      CheckResult r = CheckScenario(*engine, path, check);
      out << Label(r.outcome) << " " << tag << path;
      if (!r.message.empty()) out << ": " << r.message;
      out << "\n";
      for (const std::string& line : r.details) out << line << "\n";
      out.flush();
      if (r.outcome == Outcome::kPass) ++passed;
      if (r.outcome == Outcome::kFail) ++failed;
      if (r.outcome == Outcome::kSkip) ++skipped;
      results.push_back(std::move(r));
    }
  }
  out << passed << " passed, " << failed << " failed, " << skipped
      << " skipped\n";
  if (!options.report_format.empty()) {
    std::ofstream report(options.report_file, std::ios::binary | std::ios::trunc);
    report << (options.report_format == "json"
                   ? JsonReport(results, options.mode)
                   : JunitReport(results, options.mode));
    if (!report.flush()) {
      err << "error: cannot write the report to " << options.report_file
          << "\n";
      return kCheckFailed;
    }
  }
  return failed == 0 ? kCheckPassed : kCheckFailed;
}

}  // namespace schedref::conformance
