// Legal-choice conformance: the reference as an oracle that accepts any
// decision upstream kube-scheduler could legally have made where upstream is
// nondeterministic, then continues from the implementation's own choice.
// Specification and the list of freedoms: docs/conformance.md.
//
// Freedom accepted: which of the nodes tying for the highest total score
// selectHost picks (upstream draws at random). Not accepted yet: the
// feasible set when the search stops early (percentageOfNodesToScore, no
// Score plugins) and preemption's random candidate offset; a run that
// exercises them differently fails as a plain divergence.
//
// The walk. Compare the implementation's trace with the oracle's, line by
// line. At the first difference:
//   - if both lines are attempts of the same cycle and pod that chose
//     different nodes, and that cycle is not forced yet, re-run the oracle
//     with that cycle forced to the implementation's node
//     (api::RunOptions::forced_choices). The oracle accepts the choice iff
//     the node ties for the top score; otherwise it records an
//     "illegalChoice" note, and the walk stops: the choice is refused.
//     An accepted choice is kept and the walk restarts on the new trace;
//   - anything else ends the walk: that line is the divergence.
// Each round forces a new, later cycle, so the walk ends after at most one
// round per attempt of the implementation's trace.
#ifndef SCHEDREF_CONFORMANCE_LEGAL_CHOICE_H_
#define SCHEDREF_CONFORMANCE_LEGAL_CHOICE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/scenario.h"
#include "api/scheduler.h"
#include "api/status.h"
#include "api/trace.h"

namespace schedref::conformance {

// A node choice where the implementation departs from the oracle's RNG.
struct Choice {
  int64_t cycle = 0;
  std::string pod;
  std::string node;            // the implementation's choice
  std::string reference_node;  // the oracle's own pick
  friend bool operator==(const Choice&, const Choice&) = default;
};

struct LegalChoiceResult {
  // The choices the oracle accepted, in trace order, and the forced_choices
  // they amount to.
  std::vector<Choice> accepted;
  std::map<int64_t, std::string> forced;
  // The oracle's trace (canonical lines) run with `forced`.
  std::vector<std::string> oracle_lines;
  // The first line where the implementation still differs from
  // oracle_lines; nullopt iff the implementation conforms.
  std::optional<size_t> difference;
  // Set iff that difference is a node choice the oracle refused.
  std::optional<Choice> refused;
};

// Walks the implementation's trace `actual` of `scenario` against `oracle`
// (the reference). Errors: the oracle's own errors (an invalid scenario),
// prefixed "reference: ".
[[nodiscard]] StatusOr<LegalChoiceResult> CompareLegalChoice(
    api::Scheduler& oracle, const api::Scenario& scenario,
    const api::Trace& actual);

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_LEGAL_CHOICE_H_
