// What schedref does not model, said per pod: the warnings of a trace
// (api::Trace::warnings, docs/trace-format.md).
//
// A pod gets one warning per feature whose answer schedref cannot give:
//   DynamicResourceAllocation  spec.resourceClaims or a container's
//                              resources.claims (the DynamicResources plugin)
//   PodLevelResources          spec.resources (alpha in v1.32)
//   unknownProfile             an unbound pod whose schedulerName no profile
//                              has: no attempt is ever made for it
// The fields come from the decoder (api::Pod::unmodelled_fields); the
// profiles from the scenario's configuration. Both built-in implementations
// put UnmodelledWarnings(scenario) in their traces, so their traces agree.
#ifndef SCHEDREF_API_TYPES_UNMODELLED_H_
#define SCHEDREF_API_TYPES_UNMODELLED_H_

#include <string>
#include <vector>

#include "api/types/scenario.h"
#include "api/types/trace.h"

namespace schedref::api {

// Every warning about the pods of `scenario` (its initial objects and the
// pods its timeline creates or updates), sorted by (pod, feature), each
// pair once; a feature met in several fields or versions of a pod names
// them all, in the order first met.
[[nodiscard]] std::vector<Warning> UnmodelledWarnings(const Scenario& scenario);

// "warning: Pod default/p: <message>", what the CLI prints.
[[nodiscard]] std::string WarningLine(const Warning& warning);

}  // namespace schedref::api

#endif  // SCHEDREF_API_TYPES_UNMODELLED_H_
