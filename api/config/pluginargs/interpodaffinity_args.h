// InterPodAffinity args (apis/config/types_pluginargs.go).
//
// Specification: upstream pkg/scheduler/apis/config/types_pluginargs.go
// (InterPodAffinityArgs), staging/src/k8s.io/kube-scheduler/config/v1/
// types_pluginargs.go (JSON names), pkg/scheduler/apis/config/v1/defaults.go
// (SetDefaults_InterPodAffinityArgs: hardPodAffinityWeight 1) and
// pkg/scheduler/apis/config/validation/validation_pluginargs.go
// (ValidateInterPodAffinityArgs), v1.32.
#ifndef SCHEDREF_API_PLUGINARGS_INTERPODAFFINITY_ARGS_H_
#define SCHEDREF_API_PLUGINARGS_INTERPODAFFINITY_ARGS_H_

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "api/status.h"

namespace schedref::api::pluginargs {

// config.InterPodAffinityArgs with v1 defaults applied.
struct InterPodAffinityArgs {
  // Score weight for an existing pod's required affinity term that the
  // incoming pod matches. Valid range [0, 100]; 0 disables it.
  int32_t hard_pod_affinity_weight = 1;
  // Skip scoring when the incoming pod has no preferred (anti-)affinity
  // terms, ignoring existing pods' terms.
  bool ignore_preferred_terms_of_existing_pods = false;
};

// Decodes {"hardPodAffinityWeight": int, "ignorePreferredTermsOfExistingPods":
// bool} strictly (unknown fields are errors; apiVersion and kind, the v1
// TypeMeta, are accepted and checked by api/config/pluginargs/plugin_config.h),
// applies the defaults, then validates.
[[nodiscard]] StatusOr<InterPodAffinityArgs> DecodeInterPodAffinityArgs(
    const nlohmann::json& args);
// The decoding and defaulting alone.
[[nodiscard]] StatusOr<InterPodAffinityArgs> ParseInterPodAffinityArgs(
    const nlohmann::json& args);
// "hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]".
[[nodiscard]] schedref::Status ValidateInterPodAffinityArgs(
    const InterPodAffinityArgs& args);
// The same errors one by one, each starting with its field path.
std::vector<std::string> InterPodAffinityArgsErrors(
    const InterPodAffinityArgs& args);

}  // namespace schedref::api::pluginargs

#endif  // SCHEDREF_API_PLUGINARGS_INTERPODAFFINITY_ARGS_H_
