#include "conformance/check_command.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/codec/manifest.h"
#include "api/codec/scenario_decode.h"
#include "api/codec/trace_codec.h"
#include "conformance/engine.h"
#include "conformance/exec_engine.h"
#include "conformance/features.h"
#include "conformance/implementations.h"
#include "conformance/report.h"
#include "conformance/trace_diff.h"
#include "reference/scheduler/scheduler.h"
#include "view/check_page.h"

namespace schedref::conformance {
namespace {

using Outcome = CheckResult::Outcome;

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

// The expectedTrace lines of a scenario file as written, not decoded: an
// update must be able to replace a trace that no longer decodes (after a
// change of the trace format, every golden's). Empty when the file has no
// expectedTrace. Should the block itself not parse as YAML, its text lines
// with their indentation removed stand in: they are only shown, not used.
std::vector<std::string> ExpectedTraceLines(const std::string& text,
                                            const std::string& path) {
  size_t pos = text.find("\nexpectedTrace:");
  if (pos == std::string::npos) return {};
  const std::string tail = text.substr(pos + 1);
  std::string block;
  StatusOr<std::vector<nlohmann::json>> docs =
      api::ParseDocuments(tail, path);
  if (docs.ok() && docs->size() == 1 && docs->front().is_object() &&
      docs->front().contains("expectedTrace") &&
      docs->front()["expectedTrace"].is_string()) {
    block = docs->front()["expectedTrace"].get<std::string>();
  } else {
    size_t start = tail.find('\n');
    while (start != std::string::npos && start + 1 < tail.size()) {
      size_t end = tail.find('\n', start + 1);
      std::string line = tail.substr(start + 1, end == std::string::npos
                                                    ? std::string::npos
                                                    : end - start - 1);
      line.erase(0, line.find_first_not_of(' '));
      if (!line.empty()) block += line + "\n";
      start = end;
    }
  }
  // Split as api/codec/scenario_decode.cc does: no line after a final newline.
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < block.size()) {
    size_t end = block.find('\n', start);
    if (end == std::string::npos) end = block.size();
    lines.push_back(block.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// One step of a line diff from the old trace to the new one; `line` points
// into the lists given to LineDiff, which must outlive it.
struct Edit {
  enum Op { kKeep, kRemove, kAdd } op;
  const std::string* line;
};

// The dynamic-programming table of the middle part of a diff holds at most
// this many cells (16 MiB); beyond it the middle counts as wholly replaced.
// Goldens have at most a few hundred trace lines.
constexpr size_t kMaxDiffCells = size_t{1} << 22;

// A shortest edit script from `old` to `now` (longest common subsequence),
// after the common prefix and suffix are set aside. Sets *coarse iff the
// middle was too large for the table and is reported as removed then added.
std::vector<Edit> LineDiff(const std::vector<std::string>& old,
                           const std::vector<std::string>& now, bool* coarse) {
  size_t prefix = 0;
  while (prefix < old.size() && prefix < now.size() &&
         old[prefix] == now[prefix]) {
    ++prefix;
  }
  size_t suffix = 0;
  while (suffix < old.size() - prefix && suffix < now.size() - prefix &&
         old[old.size() - 1 - suffix] == now[now.size() - 1 - suffix]) {
    ++suffix;
  }
  const size_t n = old.size() - prefix - suffix;
  const size_t m = now.size() - prefix - suffix;
  std::vector<Edit> edits;
  for (size_t i = 0; i < prefix; ++i) edits.push_back({Edit::kKeep, &old[i]});
  *coarse = n > 0 && m > 0 && (n + 1) * (m + 1) > kMaxDiffCells;
  if (*coarse) {
    for (size_t i = 0; i < n; ++i) {
      edits.push_back({Edit::kRemove, &old[prefix + i]});
    }
    for (size_t j = 0; j < m; ++j) {
      edits.push_back({Edit::kAdd, &now[prefix + j]});
    }
  } else {
    // lcs[i * (m + 1) + j]: the longest common subsequence of the middles'
    // suffixes from i and from j.
    std::vector<uint32_t> lcs((n + 1) * (m + 1), 0);
    for (size_t i = n; i-- > 0;) {
      for (size_t j = m; j-- > 0;) {
        lcs[i * (m + 1) + j] =
            old[prefix + i] == now[prefix + j]
                ? lcs[(i + 1) * (m + 1) + j + 1] + 1
                : std::max(lcs[(i + 1) * (m + 1) + j],
                           lcs[i * (m + 1) + j + 1]);
      }
    }
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && old[prefix + i] == now[prefix + j]) {
        edits.push_back({Edit::kKeep, &old[prefix + i]});
        ++i, ++j;
      } else if (j == m ||
                 (i < n && lcs[(i + 1) * (m + 1) + j] >=
                               lcs[i * (m + 1) + j + 1])) {
        edits.push_back({Edit::kRemove, &old[prefix + i]});
        ++i;
      } else {
        edits.push_back({Edit::kAdd, &now[prefix + j]});
        ++j;
      }
    }
  }
  for (size_t i = old.size() - suffix; i < old.size(); ++i) {
    edits.push_back({Edit::kKeep, &old[i]});
  }
  return edits;
}

// A trace record in a few words (conformance/trace_diff.h); a line that is
// not a JSON object, as written (cut at 100 characters).
std::string Record(const std::string& line) {
  if (nlohmann::json::accept(line) &&
      nlohmann::json::parse(line).is_object()) {
    return DescribeLine(line);
  }
  if (line.empty()) return "(an empty line)";
  return line.size() <= 100 ? line : line.substr(0, 100) + "...";
}

// What a diff changed, one entry per record: "~ RECORD: FIELDS" for a line
// replaced by one that describes the same record (its changed fields
// listed), "- RECORD" for a removed line, "+ RECORD" for an added one; in
// the order of the trace.
std::vector<std::string> ChangedRecords(const std::vector<Edit>& edits) {
  std::vector<std::string> out;
  size_t k = 0;
  while (k < edits.size()) {
    if (edits[k].op == Edit::kKeep) {
      ++k;
      continue;
    }
    // A run of removals and additions between two kept lines.
    std::vector<const std::string*> removed, added;
    for (; k < edits.size() && edits[k].op != Edit::kKeep; ++k) {
      (edits[k].op == Edit::kRemove ? removed : added).push_back(edits[k].line);
    }
    const size_t pairs = std::min(removed.size(), added.size());
    for (size_t i = 0; i < std::max(removed.size(), added.size()); ++i) {
      std::string was = i < removed.size() ? Record(*removed[i]) : "";
      std::string is = i < added.size() ? Record(*added[i]) : "";
      if (i < pairs && was == is) {
        std::string fields;
        for (const std::string& d : FieldDifferences(*removed[i], *added[i])) {
          fields += (fields.empty() ? "" : ", ") + d.substr(0, d.find(": "));
        }
        out.push_back("~ " + was + (fields.empty() ? "" : ": " + fields));
        continue;
      }
      if (i < removed.size()) out.push_back("- " + was);
      if (i < added.size()) out.push_back("+ " + is);
    }
  }
  return out;
}

// Changed records listed under an "updated" line; the rest are counted.
constexpr size_t kShownRecords = 5;

// Why replacing the expectedTrace block of `text` by textual surgery would
// lose or break something, or nullopt when `rewritten` is exactly `text`
// with the new trace: it must decode to the scenario `text` decoded to
// without its trace (`scenario`), with `lines` as its trace, and cutting
// the old block must have dropped nothing but it (checked when `text`
// decodes whole: a stale trace may not).
std::optional<std::string> UnsafeRewrite(const std::string& text, const std::string& rewritten,
                                         const api::Scenario& scenario,
                                         const std::vector<std::string>& lines,
                                         const std::string& path) {
  StatusOr<api::Scenario> after = api::DecodeScenario(rewritten, path);
  if (!after.ok()) return "the rewritten file does not decode: " + after.status().message();
  if (after->expected_trace != lines) return "the new trace does not read back";
  api::Scenario without = *after;
  without.expected_trace.clear();
  if (!(without == scenario)) return "the rewritten file describes another scenario";
  StatusOr<api::Scenario> before = api::DecodeScenario(text, path);
  if (before.ok()) {
    api::Scenario whole = *before;
    whole.expected_trace.clear();
    if (!(whole == scenario)) {
      return "cutting the old expectedTrace block would drop more than the block";
    }
  }
  return std::nullopt;
}

// The golden update workflow: rewrite each file's expectedTrace with the
// engine's trace (the reference's, or with --exec an external
// implementation's, for goldens of plugins the reference does not have)
// and say what changed. The scenario is decoded without its expectedTrace,
// which is compared as text.
int Update(Engine& engine, const std::vector<std::string>& files,
           std::ostream& out) {
  int updated = 0, unchanged = 0, failed = 0;
  for (const std::string& path : files) {
    StatusOr<std::string> text = ReadFile(path);
    if (!text.ok()) {
      out << "FAIL " << path << ": " << text.status().message() << "\n";
      ++failed;
      continue;
    }
    StatusOr<api::Scenario> scenario =
        api::DecodeScenario(WithoutExpectedTrace(*text), path);
    if (!scenario.ok()) {
      out << "FAIL " << path << ": " << scenario.status().message() << "\n";
      ++failed;
      continue;
    }
    ScenarioInput input;
    input.path = path;
    input.text = WithoutExpectedTrace(*text);
    input.scenario = &*scenario;
    StatusOr<api::Trace> trace = engine.Run(input);
    if (!trace.ok()) {
      out << "FAIL " << path << ": " << trace.status().message() << "\n";
      ++failed;
      continue;
    }
    std::vector<std::string> lines = api::EncodeTraceLines(*trace);
    const std::string rewritten = WithExpectedTrace(*text, lines);
    if (std::optional<std::string> why = UnsafeRewrite(*text, rewritten, *scenario, lines, path)) {
      out << "FAIL " << path << ": --update cannot rewrite this file safely (" << *why
          << "); it rewrites YAML scenarios whose unquoted expectedTrace key comes last\n";
      ++failed;
      continue;
    }
    if (rewritten == *text) {
      out << "unchanged " << path << "\n";
      ++unchanged;
      continue;
    }
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << rewritten;
    if (!file.flush()) {
      out << "FAIL " << path << ": cannot write the file\n";
      ++failed;
      continue;
    }
    const std::vector<std::string> old = ExpectedTraceLines(*text, path);
    bool coarse = false;
    std::vector<Edit> edits = LineDiff(old, lines, &coarse);
    size_t added = 0, removed = 0;
    for (const Edit& e : edits) {
      if (e.op == Edit::kAdd) ++added;
      if (e.op == Edit::kRemove) ++removed;
    }
    out << "updated " << path << ": +" << added << " -" << removed
        << " lines";
    if (coarse) out << " (too many for a line diff: the changed span counted)";
    if (added == 0 && removed == 0) {
      out << " (the same trace, its block rewritten in the canonical form)";
    }
    out << "\n";
    std::vector<std::string> records = ChangedRecords(edits);
    for (size_t i = 0; i < records.size() && i < kShownRecords; ++i) {
      out << "  " << records[i] << "\n";
    }
    if (records.size() > kShownRecords) {
      out << "  ... and " << records.size() - kShownRecords << " more\n";
    }
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

// Why `path` may not be the report file, or "" if it may: a report never
// goes over a scenario, whether one being checked or one a forgotten FILE
// argument let the report option take (`--report=json a.yaml b.yaml` reads
// a.yaml as the report path).
std::string ReportPathProblem(const std::string& path, const std::vector<std::string>& files) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return "is a directory";
  if (!std::filesystem::exists(path, ec)) return "";
  for (const std::string& f : files) {
    if (std::filesystem::equivalent(path, f, ec)) {
      return "is one of the scenarios being checked; give the report its own file";
    }
  }
  std::ifstream in(path, std::ios::binary);
  std::string head(64, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  if (head.find("schedref: scenario/") != std::string::npos) {
    return "is a scenario file, which a report must not overwrite (was FILE forgotten after "
           "the format?)";
  }
  return "";
}

}  // namespace

int RunCheckCommand(const CheckCommandOptions& options, std::ostream& out,
                    std::ostream& err) {
  if (options.report_format != "" && options.report_format != "json" &&
      options.report_format != "junit" && options.report_format != "html") {
    err << "error: --report: unknown format \"" << options.report_format
        << "\" (json, junit, html)\n";
    return kCheckUsage;
  }
  // At most a week: beyond that no run is waited for, and the value in
  // milliseconds must stay far from int64's limit.
  constexpr double kMaxTimeoutSeconds = 7 * 24 * 3600;
  if (!(options.timeout_seconds > 0) || options.timeout_seconds > kMaxTimeoutSeconds) {
    err << "error: --timeout must be positive and at most " << kMaxTimeoutSeconds
        << " seconds (a week), got " << options.timeout_seconds << "\n";
    return kCheckUsage;
  }
  std::vector<std::string> impls = options.impls;
  if (impls.empty() && options.exec.empty()) {
    impls = options.update ? std::vector<std::string>{"reference"}
                           : ImplementationNames();
  }
  if (options.update && (impls.size() + (options.exec.empty() ? 0 : 1) != 1 ||
                         options.mode != Mode::kStrict)) {
    err << "error: --update regenerates expectedTrace with one implementation, "
           "the reference (--impl=reference) or an --exec one; it does not go "
           "with --exec and --impl together, several --impl or "
           "--mode=legal-choice\n";
    return kCheckUsage;
  }
  // The reference is the specification: a golden written by another
  // built-in implementation would make that implementation its own oracle.
  // --exec is the exception that exists for plugin authors: goldens of a
  // plugin the reference does not have can only be written by the
  // implementation that has it (they need the custom-plugins feature and
  // are checked against that implementation in strict mode).
  if (options.update && !impls.empty() && impls.front() != "reference") {
    err << "error: --update regenerates expectedTrace with the reference "
           "only (the specification), not --impl="
        << impls.front() << "; check other implementations against the "
           "goldens without --update\n";
    return kCheckUsage;
  }
  std::vector<std::string> files;
  if (!options.files.empty() || options.texts.empty()) {
    files = ScenarioFiles(options.files, err);
    if (files.empty()) {
      if (!options.files.empty()) err << "error: no scenario files found\n";
      return kCheckUsage;
    }
  }
  if (!options.report_format.empty()) {
    if (std::string why = ReportPathProblem(options.report_file, files); !why.empty()) {
      err << "error: --report " << options.report_format << " " << options.report_file << ": "
          << why << "\n";
      return kCheckUsage;
    }
  }

  reference::ReferenceScheduler reference;
  if (options.update && !options.exec.empty()) {
    StatusOr<std::unique_ptr<ExecEngine>> exec = ExecEngine::Start(
        options.exec,
        std::chrono::milliseconds(std::llround(options.timeout_seconds * 1000)));
    if (!exec.ok()) {
      err << "error: " << exec.status().message() << "\n";
      return kCheckFailed;
    }
    return Update(**exec, files, out);
  }
  if (options.update) {
    std::unique_ptr<api::Scheduler> impl = MakeImplementation(impls.front());
    if (impl == nullptr) {
      err << "error: unknown implementation " << impls.front() << "\n";
      return kCheckUsage;
    }
    std::unique_ptr<Engine> engine = MakeBuiltinEngine(std::move(impl));
    return Update(*engine, files, out);
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
  check.reference = &reference;
  std::vector<CheckResult> results;
  int passed = 0, failed = 0, skipped = 0;
  for (const std::unique_ptr<Engine>& engine : engines) {
    const std::string tag =
        engines.size() > 1 ? "[" + engine->Name() + "] " : "";
    std::vector<std::pair<std::string, const std::string*>> inputs;
    for (const std::string& path : files) inputs.emplace_back(path, nullptr);
    for (const auto& [label, text] : options.texts) inputs.emplace_back(label, &text);
    for (const auto& [path, text] : inputs) {
      CheckResult r = text == nullptr ? CheckScenario(*engine, path, check)
                                      : CheckScenarioText(*engine, path, *text, check);
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
  const bool nothing_checked = passed == 0 && failed == 0 && !options.allow_skips;
  if (nothing_checked) {
    err << "error: every scenario was skipped, so nothing was checked (--allow-skips "
           "accepts that)\n";
  }
  if (!options.report_format.empty()) {
    std::ofstream report(options.report_file, std::ios::binary | std::ios::trunc);
    report << (options.report_format == "json"    ? JsonReport(results, options.mode)
               : options.report_format == "html" ? view::CheckPage(results, options.mode)
                                                  : JunitReport(results, options.mode));
    if (!report.flush()) {
      err << "error: cannot write the report to " << options.report_file
          << "\n";
      return kCheckFailed;
    }
  }
  return failed == 0 && !nothing_checked ? kCheckPassed : kCheckFailed;
}

}  // namespace schedref::conformance
