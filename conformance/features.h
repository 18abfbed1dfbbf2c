// Feature tags: the names an external implementation uses in the protocol
// handshake to declare what it does not support, and the rule that says
// which tags a scenario needs. Specification (the normative table):
// docs/conformance-protocol.md, "Feature tags".
//
// A scenario needs a tag iff its rule holds. Most rules read the decoded
// scenario; `preemption` reads the reference's trace of it (the golden's
// expectedTrace in strict mode, the oracle's run in legal-choice mode),
// because whether PostFilter runs depends on what the scheduler does.
// The rules err on the side of needing a tag: a scenario is skipped when it
// could exercise the feature, not only when it must.
#ifndef SCHEDREF_CONFORMANCE_FEATURES_H_
#define SCHEDREF_CONFORMANCE_FEATURES_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "api/types/scenario.h"
#include "api/types/trace.h"

namespace schedref::conformance {

// Every tag of protocol version 1, sorted.
[[nodiscard]] const std::vector<std::string>& FeatureTags();

// The tags `scenario` needs, given the reference's trace of it.
[[nodiscard]] std::set<std::string> ScenarioFeatures(
    const api::Scenario& scenario, const api::Trace& reference_trace);

}  // namespace schedref::conformance

#endif  // SCHEDREF_CONFORMANCE_FEATURES_H_
