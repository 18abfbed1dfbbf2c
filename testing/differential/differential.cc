#include "testing/differential/differential.h"

#include <utility>

#include "api/codec/trace_codec.h"
#include "conformance/trace_diff.h"

namespace schedref::testing::differential {
namespace {

std::string Cut(const std::string& line) {
  if (line.size() <= kMaxShownLine) return line;
  return line.substr(0, kMaxShownLine) + "... (" +
         std::to_string(line.size() - kMaxShownLine) + " more characters)";
}

std::string LineAt(const std::vector<std::string>& lines, size_t i) {
  return i < lines.size() ? lines[i] : std::string();
}

std::string Shown(const std::string& line) {
  return line.empty() ? std::string("(the trace has ended)") : Cut(line);
}

}  // namespace

std::string Label(const api::Scheduler& scheduler,
                  const api::RunOptions& options) {
  std::string label = scheduler.Name();
  if (options.threads != 0) {
    label += " threads=" + std::to_string(options.threads);
  }
  if (options.full_detail) label += " full-detail";
  if (options.record_feasible_nodes) label += " feasible-nodes";
  return label;
}

Outcome RunOnce(api::Scheduler& scheduler, const api::Scenario& scenario,
                const api::RunOptions& options) {
  return {Label(scheduler, options), scheduler.Run(scenario, options)};
}

std::optional<std::string> Divergence(const Outcome& expected,
                                      const Outcome& actual) {
  const std::string head = actual.label + " differs from " + expected.label;
  const bool e_ok = expected.trace.ok();
  const bool a_ok = actual.trace.ok();
  if (!e_ok || !a_ok) {
    if (!e_ok && !a_ok) {
      if (expected.trace.status() == actual.trace.status()) return std::nullopt;
      return head + ": both failed, with different errors\n  " +
             expected.label + ": " + expected.trace.status().message() +
             "\n  " + actual.label + ": " + actual.trace.status().message();
    }
    const Outcome& failed = e_ok ? actual : expected;
    const Outcome& ran = e_ok ? expected : actual;
    return head + ": " + failed.label +
           " failed, the other ran\n  " + failed.label + ": " +
           failed.trace.status().message() + "\n  " + ran.label + ": " +
           std::to_string(ran.trace.value().records.size()) + " records";
  }
  const std::vector<std::string> want =
      api::EncodeTraceLines(expected.trace.value());
  const std::vector<std::string> got =
      api::EncodeTraceLines(actual.trace.value());
  const std::optional<size_t> i = conformance::FirstDifference(want, got);
  if (!i) return std::nullopt;
  const std::string w = LineAt(want, *i);
  const std::string g = LineAt(got, *i);
  std::string s = head + ": trace line " + std::to_string(*i + 1) + ": " +
                  conformance::DescribeLine(w.empty() ? g : w);
  s += "\n  " + expected.label + ": " + Shown(w);
  s += "\n  " + actual.label + ": " + Shown(g);
  const std::vector<std::string> fields = conformance::FieldDifferences(w, g);
  if (!fields.empty()) {
    s += "\n  fields that differ (expected = " + expected.label + "):";
    for (const std::string& f : fields) s += "\n    " + f;
  }
  return s;
}

const std::vector<int>& DefaultThreadCounts() {
  static const std::vector<int> kThreads = {1, 2, 4};
  return kThreads;
}

std::optional<std::string> FirstDivergence(const api::Scenario& scenario,
                                           api::Scheduler& expected,
                                           api::Scheduler& actual,
                                           const std::vector<int>& threads) {
  for (bool full_detail : {false, true}) {
    api::RunOptions base;
    base.full_detail = full_detail;
    base.record_feasible_nodes = full_detail;
    const Outcome want = RunOnce(expected, scenario, base);
    for (int t : threads) {
      api::RunOptions options = base;
      options.threads = t;
      std::optional<std::string> d =
          Divergence(want, RunOnce(actual, scenario, options));
      if (d) return d;
    }
  }
  return std::nullopt;
}

}  // namespace schedref::testing::differential
