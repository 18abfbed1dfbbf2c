// Decoding, defaulting and validating a KubeSchedulerConfiguration
// (kubescheduler.config.k8s.io/v1). Specification:
// staging/src/k8s.io/kube-scheduler/config/v1/types.go (fields),
// pkg/scheduler/apis/config/v1/defaults.go (defaulting) and
// pkg/scheduler/apis/config/validation/validation.go (validation and its
// messages); the reduced model is api/config/config.h.
//
// Steps, in upstream's order:
//   1. decode: JSON types and known fields, as the strict v1 decoder does
//      (an unknown field is an error), and the args of every pluginConfig
//      entry of a modelled kind (api/config/pluginargs/plugin_config.h); fields
//      that mean nothing to an in-memory scheduler (leaderElection,
//      clientConnection, the profiling flags) are decoded, validated and
//      then dropped;
//   2. default: one profile named "default-scheduler" when there is none;
//      schedulerName "default-scheduler" when there is exactly one profile
//      and it leaves the name out; backoff 1s/10s; percentage 0;
//   3. validate: every violation is collected and reported the way
//      upstream's aggregate error prints them: one message, or
//      "[msg1, msg2, ...]"; component-base's leader-election and client
//      rules first, then the scheduler's, plugin args among them.
// The default plugin list is not merged into the profiles here (Profile
// keeps plugins as written); api/config/default_plugins.h computes the effective
// list.
#ifndef SCHEDREF_API_CONFIG_DECODE_H_
#define SCHEDREF_API_CONFIG_DECODE_H_

#include <nlohmann/json.hpp>
#include <string>

#include "api/codec/manifest.h"
#include "api/config/config.h"
#include "api/status.h"

namespace schedref::api {

inline constexpr char kSchedulerConfigApiVersion[] =
    "kubescheduler.config.k8s.io/v1";
inline constexpr char kSchedulerConfigKind[] = "KubeSchedulerConfiguration";

// The configuration a scenario without `config` runs with: every default
// applied to an empty KubeSchedulerConfiguration.
[[nodiscard]] SchedulerConfiguration DefaultConfiguration();

// Decodes, defaults and validates `document`. apiVersion and kind are
// optional; when present they must be kSchedulerConfigApiVersion and
// kSchedulerConfigKind.
//
// Errors (Invalid):
//   decoding:   "<file>: <field.path>: <problem>"
//               ("sched.yaml: profiles[0].plugins.score: expected object,
//               got string", "sched.yaml: parallelizm: unknown field")
//   validation: "<file>: <upstream message>" or "<file>: [<m1>, <m2>]"
//               ("sched.yaml: profiles[1].schedulerName: Duplicate value:
//               profiles[0].schedulerName")
[[nodiscard]] StatusOr<SchedulerConfiguration> DecodeConfiguration(
    const nlohmann::json& document, const std::string& file);

// The same for a configuration embedded at `at` in a larger document (a
// scenario's `config`). Decoding errors carry at's path
// ("s.yaml: config.profiles[0]: ..."); validation errors name `at` once and
// keep upstream's paths, which start at the configuration
// ("s.yaml: config: profiles[0].schedulerName: Required value").
[[nodiscard]] StatusOr<SchedulerConfiguration> DecodeConfigurationAt(
    const FieldReader& at);

// Upstream's ValidateKubeSchedulerConfiguration on an already defaulted
// configuration; Ok or Invalid("<upstream aggregate message>") with no
// file prefix. Also checks podMaxInUnschedulablePodsSeconds > 0 (ours).
// The leader-election and client settings, which SchedulerConfiguration
// does not hold, are taken to be v1's defaults.
[[nodiscard]] Status ValidateConfiguration(
    const SchedulerConfiguration& config);

// A v1 KubeSchedulerConfiguration document (apiVersion and kind set) that
// DecodeConfiguration reads back into an equal value.
// REQUIRES: `config` is defaulted (has at least one profile) and valid.
[[nodiscard]] nlohmann::json EncodeConfiguration(
    const SchedulerConfiguration& config);

}  // namespace schedref::api

#endif  // SCHEDREF_API_CONFIG_DECODE_H_
