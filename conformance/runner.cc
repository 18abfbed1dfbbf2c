#include "conformance/runner.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "api/codec/input_file.h"
#include "api/codec/scenario_decode.h"
#include "api/codec/trace_codec.h"
#include "conformance/explain.h"
#include "conformance/features.h"
#include "conformance/forced_choices.h"
#include "conformance/legal_choice.h"
#include "conformance/trace_diff.h"

namespace schedref::conformance {
namespace {

using Outcome = CheckResult::Outcome;

// Trace lines longer than this are cut in the printed explanation (the
// field differences below them say what matters).
constexpr size_t kMaxShownLine = 2000;

std::string Join(const std::vector<std::string>& items,
                 const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += sep;
    out += items[i];
  }
  return out;
}

std::string Shown(const std::string& line) {
  if (line.empty()) return "(end of trace)";
  if (line.size() <= kMaxShownLine) return line;
  return line.substr(0, kMaxShownLine) + "... (" +
         std::to_string(line.size() - kMaxShownLine) + " more characters)";
}

std::string LineAt(const std::vector<std::string>& lines, size_t i) {
  return i < lines.size() ? lines[i] : std::string();
}

// The chosen node of an attempt line, or "".
std::string NodeOf(const std::string& line) {
  if (line.empty()) return "";
  nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (!j.is_object() || j.value("kind", "") != "attempt") return "";
  auto node = j.find("node");
  return node != j.end() && node->is_string() ? node->get<std::string>() : "";
}

std::string ChoicesText(const std::vector<Choice>& choices) {
  std::vector<std::string> parts;
  for (const Choice& c : choices) {
    const std::string what = c.decision == "node"         ? " on "
                             : c.decision == "nomination" ? " nominating "
                             : c.decision == "pod"        ? " popping "
                                                          : " feasible nodes ";
    parts.push_back("cycle " + std::to_string(c.cycle) + " " + c.pod + what +
                    c.node + " (reference: " + c.reference_node + ")");
  }
  return Join(parts, ", ");
}

// Everything a reader needs at the first difference `i` between `expected`
// (the golden, or the oracle's trace) and `actual`. Returns the judgement of
// the actual choice when the difference is a node choice the reference can
// judge ("machine2 scores 429; ..."), else "".
std::string Explain(const api::Scenario& scenario,
                    reference::ReferenceScheduler& reference,
                    const ForcedDecisions& forced,
                    const std::vector<std::string>& expected,
                    const std::vector<std::string>& actual, size_t i,
                    bool check_stale, CheckResult* r) {
  const std::string want = LineAt(expected, i);
  const std::string got = LineAt(actual, i);
  r->details.push_back("  expected: " + Shown(want));
  r->details.push_back("  actual:   " + Shown(got));
  std::vector<std::string> fields = FieldDifferences(want, got);
  CheckResult::Divergence& divergence = r->divergence.emplace();
  divergence.line = i + 1;
  divergence.expected = want;
  divergence.actual = got;
  divergence.fields = fields;
  divergence.actual_node = NodeOf(got);
  if (!fields.empty()) {
    r->details.push_back("  fields that differ:");
    for (const std::string& f : fields) r->details.push_back("    " + f);
  }
  api::RunOptions options;
  options.full_detail = true;
  options.record_feasible_nodes = true;  // the order a tie is broken in
  StatusOr<api::Trace> full = RunForced(reference, scenario, options, forced);
  if (!full.ok()) {
    r->details.push_back("  (no explanation: the reference failed: " +
                         full.status().message() + ")");
    return "";
  }
  std::string judgement;
  if (const api::Attempt* a = AttemptToExplain(*full, want, got)) {
    std::string actual_node = NodeOf(got);
    std::set<std::string> always = {a->node};
    if (!actual_node.empty()) always.insert(actual_node);
    divergence.explanation =
        ExplainAttemptJson(*a, ExplainContextFor(reference, scenario, *full, *a));
    std::vector<std::string> view =
        RenderExplanation(divergence.explanation, always, /*max_nodes=*/12);
    for (size_t k = 0; k < view.size(); ++k) {
      r->details.push_back((k == 0 ? "  reference, " : "    ") + view[k]);
    }
    if (!actual_node.empty() && actual_node != a->node &&
        NodeOf(want) == a->node) {
      judgement = JudgeChoice(*a, actual_node);
      divergence.judgement = judgement;
      r->details.push_back("  why: " + judgement);
    }
  }
  if (check_stale) {
    api::Trace plain = *full;
    plain.warnings.clear();
    for (api::Trace::Record& rec : plain.records) {
      if (api::Attempt* a = api::AsAttempt(rec)) {
        api::ClearFullDetail(*a);
        a->feasible_nodes.clear();
      }
    }
    std::optional<size_t> own =
        FirstDifference(expected, api::EncodeTraceLines(plain));
    if (own && *own <= i) {
      r->details.push_back(
          "  note: the reference's own trace differs from expectedTrace at "
          "line " +
          std::to_string(*own + 1) +
          ": the golden may be stale (schedref check --update)");
    }
  }
  return judgement;
}

std::string DifferenceSummary(const std::vector<std::string>& expected,
                              const std::vector<std::string>& actual,
                              size_t i) {
  const std::string want = LineAt(expected, i);
  const std::string got = LineAt(actual, i);
  std::string s = "first difference at trace line " + std::to_string(i + 1) +
                  ": " + DescribeLine(want.empty() ? got : want);
  std::vector<std::string> names;
  for (const std::string& f : FieldDifferences(want, got)) {
    std::string name = f.substr(0, f.find(':'));
    name = name.substr(0, name.find('.'));
    if (names.empty() || names.back() != name) names.push_back(name);
  }
  if (!names.empty()) s += "; differing fields: " + Join(names, ", ");
  if (want.empty()) s += "; the implementation's trace is longer";
  if (got.empty()) s += "; the implementation's trace ends early";
  return s;
}

void CheckStrict(Engine& engine, const api::Scenario& scenario,
                 const ScenarioInput& input, const CheckOptions& options,
                 CheckResult* r) {
  // Warnings are not decisions: neither side's take part.
  const std::vector<std::string> expected =
      api::WithoutWarningLines(scenario.expected_trace);
  StatusOr<api::Trace> actual = engine.Run(input);
  if (!actual.ok()) {
    r->message = actual.status().message();
    return;
  }
  actual->warnings.clear();
  std::vector<std::string> got = api::EncodeTraceLines(*actual);
  std::optional<size_t> i = FirstDifference(expected, got);
  if (!i) {
    r->outcome = Outcome::kPass;
    return;
  }
  r->message = DifferenceSummary(expected, got, *i);
  std::string judgement = Explain(scenario, *options.reference, {}, expected,
                                  got, *i, /*check_stale=*/true, r);
  if (judgement.find("ties for the top score") != std::string::npos) {
    r->details.push_back(
        "  (a tie: --mode=legal-choice accepts this choice)");
  }
}

void CheckLegalChoice(Engine& engine, const api::Scenario& scenario,
                      const ScenarioInput& input, const CheckOptions& options,
                      CheckResult* r) {
  ScenarioInput with_feasible = input;
  with_feasible.feasible_nodes = true;
  StatusOr<api::Trace> actual = engine.Run(with_feasible);
  if (!actual.ok()) {
    r->message = actual.status().message();
    return;
  }
  StatusOr<LegalChoiceResult> walk =
      CompareLegalChoice(*options.reference, scenario, *actual);
  if (!walk.ok()) {
    r->message = walk.status().message();
    return;
  }
  if (!walk->difference) {
    r->outcome = Outcome::kPass;
    if (!walk->accepted.empty()) {
      r->message = "legal choices accepted: " + ChoicesText(walk->accepted);
    }
    return;
  }
  actual->warnings.clear();
  std::vector<std::string> got = api::EncodeTraceLines(*actual);
  size_t i = *walk->difference;
  if (!walk->accepted.empty()) {
    r->details.push_back("  legal choices accepted before it: " +
                         ChoicesText(walk->accepted));
  }
  std::string judgement = Explain(scenario, *options.reference, walk->forced,
                                  walk->oracle_lines, got, i,
                                  /*check_stale=*/false, r);
  if (walk->refused) {
    const Choice& c = *walk->refused;
    const std::string prefix =
        "cycle " + std::to_string(c.cycle) + " pod " + c.pod + ": ";
    if (c.decision == "node") {
      r->message = prefix + "the implementation chose " + c.node +
                   ", not a legal choice (" +
                   (judgement.empty() ? walk->refusal : judgement) + ")";
    } else if (c.decision == "nomination") {
      r->message = prefix + "the implementation's preemption nominated " +
                   c.node + ", not a legal choice (" + walk->refusal + ")";
    } else {
      r->message = prefix +
                   "the implementation's feasible-node search is not one "
                   "upstream's parallel search can produce (" +
                   walk->refusal + ")";
    }
    return;
  }
  r->message = DifferenceSummary(walk->oracle_lines, got, i);
}

void Judge(Engine& engine, const std::string& path, const StatusOr<std::string>& text,
           const CheckOptions& options, CheckResult* r) {
  if (!text.ok()) {
    r->message = text.status().message();
    return;
  }
  StatusOr<api::Scenario> scenario = api::DecodeScenario(*text, path);
  if (!scenario.ok()) {
    r->message = scenario.status().message();
    return;
  }
  r->scenario = scenario->name;

  // The reference's trace decides the trace-derived feature tags.
  api::Trace reference_trace;
  if (options.mode == Mode::kStrict) {
    if (scenario->expected_trace.empty()) {
      r->outcome = Outcome::kSkip;
      r->stale = true;
      r->message = "no expectedTrace (a stale golden: run schedref check "
                   "--update)";
      return;
    }
    std::string joined;
    for (const std::string& line : scenario->expected_trace) {
      joined += line + "\n";
    }
    StatusOr<api::Trace> decoded =
        api::DecodeTrace(joined, path + ": expectedTrace");
    if (!decoded.ok()) {
      r->message = decoded.status().message();
      return;
    }
    reference_trace = std::move(*decoded);
  } else {
    StatusOr<api::Trace> run =
        options.reference->Run(*scenario, api::RunOptions{});
    if (!run.ok()) {
      r->message = "reference: " + run.status().message();
      return;
    }
    reference_trace = std::move(*run);
  }
  std::set<std::string> unsupported = engine.Unsupported();
  std::vector<std::string> missing;
  for (const std::string& tag : ScenarioFeatures(*scenario, reference_trace)) {
    if (unsupported.count(tag) > 0) missing.push_back(tag);
  }
  if (!missing.empty()) {
    r->outcome = Outcome::kSkip;
    r->message = "needs unsupported feature" +
                 std::string(missing.size() > 1 ? "s " : " ") +
                 Join(missing, ", ");
    return;
  }

  ScenarioInput input{path, WithoutExpectedTrace(*text), &*scenario};
  if (options.mode == Mode::kStrict) {
    CheckStrict(engine, *scenario, input, options, r);
  } else {
    CheckLegalChoice(engine, *scenario, input, options, r);
  }
}

}  // namespace

std::string ModeName(Mode mode) {
  return mode == Mode::kStrict ? "strict" : "legal-choice";
}

CheckResult CheckScenario(Engine& engine, const std::string& path,
                          const CheckOptions& options) {
  auto start = std::chrono::steady_clock::now();
  CheckResult r;
  r.path = path;
  r.engine = engine.Name();
  Judge(engine, path, ReadFile(path), options, &r);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                            start)
                  .count();
  return r;
}

CheckResult CheckScenarioText(Engine& engine, const std::string& label,
                              const std::string& text, const CheckOptions& options) {
  auto start = std::chrono::steady_clock::now();
  CheckResult r;
  r.path = label;
  r.engine = engine.Name();
  Judge(engine, label, StatusOr<std::string>(text), options, &r);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

StatusOr<std::string> ReadFile(const std::string& path) { return api::ReadInputFile(path); }

std::vector<std::string> YamlFilesUnder(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  std::filesystem::recursive_directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    // A symlink that leads nowhere is listed too, so that reading it fails
    // loudly instead of the folder's count silently shrinking.
    if ((it->is_regular_file(ec) || (it->is_symlink(ec) && !it->exists(ec))) &&
        it->path().extension() == ".yaml") {
      files.push_back(it->path().generic_string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string WithoutExpectedTrace(const std::string& text) {
  std::string body = text;
  size_t pos = body.find("\nexpectedTrace:");
  if (pos != std::string::npos) body.resize(pos + 1);
  return body;
}

std::string WithExpectedTrace(const std::string& text,
                              const std::vector<std::string>& trace_lines) {
  std::string body = WithoutExpectedTrace(text);
  if (!body.empty() && body.back() != '\n') body += '\n';
  body += "expectedTrace: |\n";
  for (const std::string& line : trace_lines) body += "  " + line + "\n";
  return body;
}

}  // namespace schedref::conformance
