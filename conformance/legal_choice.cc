#include "conformance/legal_choice.h"

#include <algorithm>
#include <cstddef>
#include <set>
#include <utility>

#include "api/codec/trace_codec.h"
#include "conformance/trace_diff.h"

namespace schedref::conformance {
namespace {

// The attempt on trace line `line` (line 0 is the header, line k the
// record k-1), or nullptr.
const api::Attempt* AttemptAtLine(const api::Trace& trace, size_t line) {
  if (line == 0 || line > trace.records.size()) return nullptr;
  return api::AsAttempt(trace.records[line - 1]);
}

// The trace's lines with every preemption's victims in one order: an
// attempt's `victims` sorted, and each run of victim notes of one instant
// (victimDeleted, victimTerminating, victimRejectedAtPermit) sorted by pod.
// Upstream's prepareCandidate preempts the victims in parallel, so the
// order is free; only which pods are victims is a decision. Records keep
// their kinds line by line, so line numbers mean the same in both forms.
std::vector<std::string> VictimOrderFreeLines(api::Trace trace) {
  // Warnings are not decisions.
  trace.warnings.clear();
  auto is_victim_note = [](const api::Trace::Record& r) {
    const api::Note* n = api::AsNote(r);
    return n != nullptr && (n->what == "victimDeleted" || n->what == "victimTerminating" ||
                            n->what == "victimRejectedAtPermit");
  };
  std::vector<api::Trace::Record>& records = trace.records;
  for (size_t i = 0; i < records.size();) {
    if (api::Attempt* a = api::AsAttempt(records[i]); a != nullptr && a->preemption) {
      std::vector<std::string>& victims = a->preemption->victims;
      std::sort(victims.begin(), victims.end());
    }
    if (!is_victim_note(records[i])) {
      ++i;
      continue;
    }
    size_t end = i + 1;
    while (end < records.size() && is_victim_note(records[end]) &&
           api::AsNote(records[end])->at == api::AsNote(records[i])->at) {
      ++end;
    }
    std::stable_sort(records.begin() + static_cast<std::ptrdiff_t>(i),
                     records.begin() + static_cast<std::ptrdiff_t>(end),
                     [](const api::Trace::Record& a, const api::Trace::Record& b) {
                       return api::AsNote(a)->pod < api::AsNote(b)->pod;
                     });
    i = end;
  }
  return api::EncodeTraceLines(trace);
}

bool ListsFeasibleNodes(const api::Trace& trace) {
  for (const api::Trace::Record& r : trace.records) {
    const api::Attempt* a = api::AsAttempt(r);
    if (a != nullptr && !a->feasible_nodes.empty()) return true;
  }
  return false;
}

std::set<std::string> RejectedNodes(const api::Attempt& a) {
  std::set<std::string> out;
  for (const auto& [node, rejection] : a.rejections) out.insert(node);
  return out;
}

std::string Joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

std::string Nominated(const api::Attempt& a) {
  return a.preemption ? a.preemption->nominated_node : "";
}

// Adds to `forced` each decision of `got` that differs from `want` and is
// not forced at its cycle yet, and returns them.
std::vector<Choice> NewDecisions(const api::Attempt& want,
                                 const api::Attempt& got,
                                 ForcedDecisions& forced) {
  std::vector<Choice> out;
  const int64_t cycle = got.cycle;
  std::set<std::string> rejected = RejectedNodes(got);
  if (!got.feasible_nodes.empty() && forced.searches.count(cycle) == 0 &&
      (got.feasible_nodes != want.feasible_nodes ||
       got.evaluated != want.evaluated || rejected != RejectedNodes(want))) {
    forced.searches[cycle] = {got.feasible_nodes, std::move(rejected)};
    out.push_back({cycle, got.pod, Joined(got.feasible_nodes),
                   Joined(want.feasible_nodes), "feasible nodes"});
  }
  if (!got.node.empty() && !want.node.empty() && got.node != want.node &&
      forced.choices.count(cycle) == 0) {
    forced.choices[cycle] = got.node;
    out.push_back({cycle, got.pod, got.node, want.node, "node"});
  }
  if (!Nominated(got).empty() && !Nominated(want).empty() &&
      Nominated(got) != Nominated(want) &&
      forced.nominations.count(cycle) == 0) {
    forced.nominations[cycle] = Nominated(got);
    out.push_back(
        {cycle, got.pod, Nominated(got), Nominated(want), "nomination"});
  }
  return out;
}

// Which of `round` the oracle's refusal names.
Choice RefusedBy(const std::string& note, const std::vector<Choice>& round) {
  const std::string decision =
      note.find("feasible-node search") != std::string::npos ? "feasible nodes"
      : note.find("preemption nomination") != std::string::npos ? "nomination"
      : note.find("queue pop") != std::string::npos             ? "pod"
                                                                 : "node";
  for (const Choice& c : round) {
    if (c.decision == decision) return c;
  }
  return round.front();
}

}  // namespace

StatusOr<LegalChoiceResult> CompareLegalChoice(
    reference::ReferenceScheduler& oracle, const api::Scenario& scenario,
    const api::Trace& actual) {
  const std::vector<std::string> actual_lines = VictimOrderFreeLines(actual);
  LegalChoiceResult result;
  api::RunOptions options;
  options.record_feasible_nodes = ListsFeasibleNodes(actual);
  StatusOr<api::Trace> oracle_trace = oracle.Run(scenario, options);
  if (!oracle_trace.ok()) return oracle_trace.status().WithPrefix("reference");
  for (;;) {
    result.oracle_lines = VictimOrderFreeLines(*oracle_trace);
    result.difference = FirstDifference(result.oracle_lines, actual_lines);
    if (!result.difference) return result;
    const api::Attempt* want = AttemptAtLine(*oracle_trace, *result.difference);
    const api::Attempt* got = AttemptAtLine(actual, *result.difference);
    if (want == nullptr || got == nullptr || want->cycle != got->cycle) return result;
    ForcedDecisions forced = result.forced;
    std::vector<Choice> round;
    if (want->pod != got->pod) {
      // Another pod at this cycle: which one leaves activeQ.
      if (forced.pops.count(got->cycle) != 0) return result;
      forced.pops[got->cycle] = got->pod;
      round.push_back({got->cycle, got->pod, got->pod, want->pod, "pod"});
    } else {
      round = NewDecisions(*want, *got, forced);
    }
    if (round.empty()) return result;
    std::optional<std::string> refusal;
    StatusOr<api::Trace> trace =
        RunForced(oracle, scenario, options, forced, &refusal);
    if (!trace.ok()) return trace.status().WithPrefix("reference");
    if (refusal) {
      result.refused = RefusedBy(*refusal, round);
      result.refusal = *refusal;
      return result;
    }
    result.forced = std::move(forced);
    for (Choice& c : round) result.accepted.push_back(std::move(c));
    oracle_trace = std::move(trace);
  }
}

}  // namespace schedref::conformance
