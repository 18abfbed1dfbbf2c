// PodTopologySpread args (apis/config/types_pluginargs.go).
//
// Specification: upstream pkg/scheduler/apis/config/types_pluginargs.go
// (PodTopologySpreadArgs, PodTopologySpreadConstraintsDefaulting),
// staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (JSON
// names), pkg/scheduler/apis/config/v1/defaults.go
// (SetDefaults_PodTopologySpreadArgs: defaultingType "" -> System),
// pkg/scheduler/apis/config/validation/validation_pluginargs.go
// (ValidatePodTopologySpreadArgs) and
// pkg/scheduler/framework/plugins/podtopologyspread/plugin.go
// (systemDefaultConstraints), v1.32.
#ifndef SCHEDREF_API_PLUGINARGS_PODTOPOLOGYSPREAD_ARGS_H_
#define SCHEDREF_API_PLUGINARGS_PODTOPOLOGYSPREAD_ARGS_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"

namespace schedref::api::pluginargs {

// config.PodTopologySpreadConstraintsDefaulting values.
inline constexpr char kSystemDefaulting[] = "System";
inline constexpr char kListDefaulting[] = "List";

// config.PodTopologySpreadArgs with v1 defaults applied.
struct PodTopologySpreadArgs {
  std::vector<api::TopologySpreadConstraint> default_constraints;
  // "System" (default) or "List".
  std::string defaulting_type = kSystemDefaulting;
};

// The constraints a pod without its own gets under defaultingType System
// (upstream systemDefaultConstraints): kubernetes.io/hostname maxSkew 3 and
// topology.kubernetes.io/zone maxSkew 5, both ScheduleAnyway.
std::vector<api::TopologySpreadConstraint> SystemDefaultConstraints();

// Decodes {"defaultingType": ..., "defaultConstraints": [{maxSkew,
// topologyKey, whenUnsatisfiable, labelSelector, minDomains,
// nodeAffinityPolicy, nodeTaintsPolicy, matchLabelKeys}]} strictly, applies
// the defaults, then validates. apiVersion and kind, the v1 TypeMeta, are
// accepted and checked by api/config/pluginargs/plugin_config.h.
[[nodiscard]] StatusOr<PodTopologySpreadArgs> DecodePodTopologySpreadArgs(
    const nlohmann::json& args);
// The decoding and defaulting alone.
[[nodiscard]] StatusOr<PodTopologySpreadArgs> ParsePodTopologySpreadArgs(
    const nlohmann::json& args);
// upstream ValidatePodTopologySpreadArgs: defaultingType System or List,
// System only without defaultConstraints; each default constraint with
// maxSkew > 0, a non-empty qualified-name topologyKey, whenUnsatisfiable
// DoNotSchedule or ScheduleAnyway, no labelSelector, and no earlier
// constraint with the same (topologyKey, whenUnsatisfiable). Several errors
// are reported as "[e1, e2]".
[[nodiscard]] schedref::Status ValidatePodTopologySpreadArgs(
    const PodTopologySpreadArgs& args);
// The same errors one by one, each starting with its field path.
std::vector<std::string> PodTopologySpreadArgsErrors(
    const PodTopologySpreadArgs& args);

}  // namespace schedref::api::pluginargs

#endif  // SCHEDREF_API_PLUGINARGS_PODTOPOLOGYSPREAD_ARGS_H_
