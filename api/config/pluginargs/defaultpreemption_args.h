// DefaultPreemption args (apis/config/types_pluginargs.go).
//
// Specification: upstream pkg/scheduler/apis/config/types_pluginargs.go
// (DefaultPreemptionArgs), staging/src/k8s.io/kube-scheduler/config/v1/
// types_pluginargs.go (JSON names), pkg/scheduler/apis/config/v1/defaults.go
// (SetDefaults_DefaultPreemptionArgs: minCandidateNodesPercentage 10,
// minCandidateNodesAbsolute 100) and
// pkg/scheduler/apis/config/validation/validation_pluginargs.go
// (ValidateDefaultPreemptionArgs), v1.32.
#ifndef SCHEDREF_API_PLUGINARGS_DEFAULTPREEMPTION_ARGS_H_
#define SCHEDREF_API_PLUGINARGS_DEFAULTPREEMPTION_ARGS_H_

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "api/status.h"

namespace schedref::api::pluginargs {

// config.DefaultPreemptionArgs with v1 defaults applied.
struct DefaultPreemptionArgs {
  // The dry run looks for at least this percentage of the potential nodes
  // as candidates, [0, 100] ...
  int32_t min_candidate_nodes_percentage = 10;
  // ... and at least this many, >= 0; not both 0.
  int32_t min_candidate_nodes_absolute = 100;
};

// Decodes {"minCandidateNodesPercentage": int, "minCandidateNodesAbsolute":
// int} strictly (apiVersion and kind, the v1 TypeMeta, are accepted and
// checked by api/config/pluginargs/plugin_config.h), applies the defaults to absent
// fields, then validates.
[[nodiscard]] StatusOr<DefaultPreemptionArgs> DecodeDefaultPreemptionArgs(
    const nlohmann::json& args);
// The decoding and defaulting alone.
[[nodiscard]] StatusOr<DefaultPreemptionArgs> ParseDefaultPreemptionArgs(
    const nlohmann::json& args);
// upstream ValidateDefaultPreemptionArgs, e.g.
// "minCandidateNodesPercentage: Invalid value: 101: not in valid range
// [0, 100]"; several errors as "[e1, e2]".
[[nodiscard]] schedref::Status ValidateDefaultPreemptionArgs(
    const DefaultPreemptionArgs& args);
// The same errors one by one, each starting with its field path.
std::vector<std::string> DefaultPreemptionArgsErrors(
    const DefaultPreemptionArgs& args);

}  // namespace schedref::api::pluginargs

#endif  // SCHEDREF_API_PLUGINARGS_DEFAULTPREEMPTION_ARGS_H_
