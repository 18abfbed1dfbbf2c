// Legal-choice conformance: the reference as an oracle that accepts any
// decision upstream kube-scheduler could legally have made where upstream is
// nondeterministic, then continues from the implementation's own choice.
// Specification and the list of freedoms: docs/conformance.md.
//
// Freedoms accepted (ForcedDecisions, forced_choices.h): which of the nodes
// tying for the highest total score selectHost picks (upstream draws at random);
// which nodes an early-stop feasible-node search checked and kept, when
// the implementation lists its feasible nodes (api::Attempt::feasible_nodes;
// upstream's parallel search depends on goroutine timing); which node
// preemption nominates (upstream starts its dry run at a random offset and
// breaks the final tie in map order); the order in which a preemption's
// victims are preempted (upstream does it in parallel): both traces are
// compared with each attempt's victims and each instant's run of victim
// notes sorted by pod; which of the pods tying at the head of activeQ under
// QueueSort a cycle pops (upstream's heap leaves it to insertion history,
// a real clock to creation order).
//
// The walk. Compare the implementation's trace with the oracle's, line by
// line; the oracle records feasible nodes iff the implementation's trace
// lists them on some attempt. At the first difference:
//   - if both lines are attempts of the same cycle but of different pods,
//     force the implementation's pod to be popped at that cycle (once), and
//     re-run as below;
//   - if both lines are attempts of the same cycle and pod, force on the
//     oracle, at that cycle, each decision of the implementation that
//     differs from the oracle's and is not forced yet: the search (its
//     feasible list and rejected nodes, when it lists feasible nodes and
//     they, the rejected nodes or the evaluated count differ), the chosen
//     node, the nominated node. Re-run the oracle. If it refuses one
//     (ForcedChoices::refusal), the walk stops: the decision is refused.
//     Otherwise the decisions are kept and the walk restarts on the new
//     trace;
//   - anything else ends the walk: that line is the divergence.
// Each round forces something new at a cycle of the implementation's trace,
// so the walk ends after at most three rounds per attempt.
#ifndef SCHEDREF_CONFORMANCE_LEGAL_CHOICE_H_
#define SCHEDREF_CONFORMANCE_LEGAL_CHOICE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/scheduler.h"
#include "api/status.h"
#include "api/types/scenario.h"
#include "api/types/trace.h"
#include "conformance/forced_choices.h"
#include "reference/scheduler/scheduler.h"

namespace schedref::conformance {

// A decision where the implementation departs from the oracle.
struct Choice {
  int64_t cycle = 0;
  std::string pod;
  std::string node;            // the implementation's decision
  std::string reference_node;  // the oracle's own
  // What was decided: "node" (selectHost), "feasible nodes" (the search;
  // node and reference_node are the feasible lists, comma separated),
  // "nomination" (preemption) or "pod" (which pod the cycle popped from
  // activeQ; node and reference_node are the pods).
  std::string decision = "node";
  friend bool operator==(const Choice&, const Choice&) = default;
};

struct LegalChoiceResult {
  // The decisions the oracle accepted, in trace order, and the forced
  // decisions they amount to.
  std::vector<Choice> accepted;
  ForcedDecisions forced;
  // The oracle's trace (canonical lines) run with `forced`.
  std::vector<std::string> oracle_lines;
  // The first line where the implementation still differs from
  // oracle_lines; nullopt iff the implementation conforms.
  std::optional<size_t> difference;
  // Set iff that difference is a decision the oracle refused, with the
  // oracle's reason.
  std::optional<Choice> refused;
  std::string refusal;
};

// Walks the implementation's trace `actual` of `scenario` against `oracle`
// (the reference). Errors: the oracle's own errors (an invalid scenario),
// prefixed "reference: ".
[[nodiscard]] StatusOr<LegalChoiceResult> CompareLegalChoice(
    reference::ReferenceScheduler& oracle, const api::Scenario& scenario,
    const api::Trace& actual);

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_LEGAL_CHOICE_H_
