// The explainer: what the reference saw in one scheduling attempt, for
// `schedref explain` and for `schedref check` when an implementation
// departs from the reference. One model, two renderings:
//
//   ExplainAttemptJson  the explanation as JSON (docs/explain.md gives the
//                       shape): the PreFilter results, the Filter and Score
//                       plugins in run order, every evaluated node's filter
//                       verdicts, weighted scores, total and rank, the choice
//                       and why (the top score, or a tie and how selectHost
//                       broke it), extenders (none yet: the lists are there
//                       for them), the FitError text, the preemption outcome
//                       and the pod's warnings;
//   ExplainAttempt      the same, as text lines, rendered from that JSON
//                       and nothing else.
//
// Reads full-detail attempts (api::RunOptions::full_detail: `preFilter` and
// `detail` of docs/trace-format.md), best run with
// RunOptions::record_feasible_nodes too (the feasible-list order a tie is
// broken in). The first half of check's story, which trace line differs
// and how, is conformance/trace_diff.h.
#ifndef SCHEDREF_CONFORMANCE_EXPLAIN_H_
#define SCHEDREF_CONFORMANCE_EXPLAIN_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/types/scenario.h"
#include "api/types/trace.h"
#include "reference/scheduler/scheduler.h"

namespace schedref::conformance {

// What the explanation needs besides the attempt.
struct ExplainContext {
  // The profile's Filter and Score plugins in run order (the score ones
  // with their weights). Empty: the plugins the attempt's detail names, by
  // name, weights unknown (0).
  std::vector<std::string> filter_plugins;
  std::vector<std::pair<std::string, int64_t>> score_plugins;
  // The configured extenders in call order (the non-ignorable ones, then
  // the ignorable ones); the attempt's detail has their verdicts and scores
  // under their urlPrefix.
  std::vector<api::Extender> extenders;
  // The scheduler's RNG seed (the scenario's `seed`), which breaks ties.
  uint64_t seed = 0;
  // The warnings about the attempt's pod (api::Trace::warnings).
  std::vector<api::Warning> warnings;
  // The cluster's nodes when the attempt ran, in name order. Those the
  // attempt did not evaluate are listed as such; empty: unknown, none are.
  std::vector<std::string> cluster_nodes;
};

// The context of `attempt`, an attempt of `trace` (the reference's run of
// `scenario`): its profile's plugins as `reference` builds them (none when
// the profile cannot be built), the scenario's seed, the trace's warnings
// about the attempt's pod and the nodes the cluster held at its time.
[[nodiscard]] ExplainContext ExplainContextFor(reference::ReferenceScheduler& reference,
                                               const api::Scenario& scenario,
                                               const api::Trace& trace,
                                               const api::Attempt& attempt);

// Each scored node's total: the sum of its weighted plugin scores (what
// selectHost compares; upstream has no other term without extenders).
[[nodiscard]] std::map<std::string, int64_t> TotalScores(
    const api::Attempt& attempt);

// The nodes that tie for the highest total, in name order; empty when
// nothing was scored.
[[nodiscard]] std::vector<std::string> TopScoredNodes(
    const api::Attempt& attempt);

// One sentence on whether choosing `node` in `attempt` was open to
// upstream: "machine2 scores 429; the top score is 474 (machine1)",
// "b ties for the top score 399 with a, c", "n3 was rejected by
// NodeResourcesFit (Unschedulable: Insufficient cpu)", "n9 was not
// evaluated (the feasible-node search stopped early)".
// REQUIRES: `attempt` comes from a full-detail run.
[[nodiscard]] std::string JudgeChoice(const api::Attempt& attempt,
                                      const std::string& node);

// The nodes of `scenario` at virtual time `at`: the initial ones and those
// the timeline created and did not delete by then (events at `at` have
// happened: they come before the instant's scheduling cycles), by name.
[[nodiscard]] std::vector<std::string> NodesAt(const api::Scenario& scenario,
                                               api::TimeMs at);

// The explanation as JSON (docs/explain.md). Nodes are listed feasible
// first (by total, highest first, then name), then rejected ones by name;
// the cluster's nodes the attempt did not evaluate follow under
// `notEvaluated`, with the reason.
// REQUIRES: `attempt` comes from a full-detail run.
[[nodiscard]] nlohmann::json ExplainAttemptJson(const api::Attempt& attempt,
                                                const ExplainContext& context);

// ExplainAttemptJson rendered as text, one item per line, unindented except
// for a node's filter and score lines (two spaces):
//   cycle 1 (t=0ms), pod default/p, profile default-scheduler: scheduled on machine1; 2 nodes evaluated, 2 feasible
//   PreFilter: NodeResourcesFit Success, NodeAffinity Skip, ...
//   Filter plugins, in run order: NodeUnschedulable, NodeName, ...
//   Score plugins (weight): TaintToleration 3, NodeAffinity 2, ...
//   node machine1: rank 1, total 474 <- chosen
//     filters: all passed; skipped (PreFilter Skip): NodeAffinity
//     scores: TaintToleration 300 (3 x 100, raw 0), ...
//   node n3: rejected by NodeResourcesFit (Unschedulable: Insufficient cpu)
//     filters: passed NodeUnschedulable, NodeName; rejected by ...; not run: ...
//   not evaluated: 2 nodes (the feasible-node search stopped ...): n4, n5
//   chosen: machine1, the only node with the top total 474 (next: machine2 429)
//   message: 0/3 nodes are available: ...
//   preemption: nominated n1; victims default/lo
// At most `max_nodes` nodes are listed; the ones in `always` (the expected
// and actual choices) are listed regardless, and a line says how many were
// left out.
[[nodiscard]] std::vector<std::string> RenderExplanation(
    const nlohmann::json& explanation, const std::set<std::string>& always = {},
    size_t max_nodes = SIZE_MAX);

// RenderExplanation(ExplainAttemptJson(attempt, context), always, max_nodes).
[[nodiscard]] std::vector<std::string> ExplainAttempt(
    const api::Attempt& attempt, const ExplainContext& context,
    const std::set<std::string>& always = {}, size_t max_nodes = SIZE_MAX);

// The attempt of `reference` (a full-detail trace) that explains the first
// difference between two trace lines (either may be empty: the end of a
// trace): the attempt of the differing record's cycle; for a record without
// a cycle, the last attempt of its pod not later than it; for the
// placements line, the last attempt of the first pod placed differently.
// nullptr when there is none.
[[nodiscard]] const api::Attempt* AttemptToExplain(
    const api::Trace& reference, std::string_view expected_line,
    std::string_view actual_line);

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_EXPLAIN_H_
