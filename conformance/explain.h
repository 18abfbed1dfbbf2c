// The divergence explainer's second half: what the reference saw in the
// scheduling attempt where an implementation departs from it: every node's
// filter verdicts and weighted scores, and which nodes tie for the top.
// Reads full-detail attempts (api::RunOptions::full_detail, the `detail`
// field of docs/trace-format.md); the first half, which line differs and
// how, is conformance/trace_diff.h.
#ifndef SCHEDREF_CONFORMANCE_EXPLAIN_H_
#define SCHEDREF_CONFORMANCE_EXPLAIN_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "api/types/trace.h"

namespace schedref::conformance {

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

// The reference's view of one attempt, one line per item, unindented:
//   reference, cycle 1 (t=0ms, pod default/p, profile default-scheduler):
//       scheduled on machine1; 2 nodes evaluated, 2 feasible
//   machine1: score 474 <- chosen; filters passed; ImageLocality 0, ...
//   n3: rejected: NodeResourcesFit: Unschedulable: Insufficient cpu
//   top score 474: machine1
// Nodes are listed feasible first (by score, highest first, then name),
// then rejected ones by name. At most `max_nodes` are listed; the ones in
// `always` (the expected and actual choices) are listed regardless, and a
// last line says how many were left out.
// REQUIRES: `attempt` comes from a full-detail run.
[[nodiscard]] std::vector<std::string> ExplainAttempt(
    const api::Attempt& attempt, const std::set<std::string>& always,
    size_t max_nodes = 12);

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
