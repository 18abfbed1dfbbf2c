// NodeAffinity args (apis/config/types_pluginargs.go).
//
// Specification: upstream pkg/scheduler/apis/config/types_pluginargs.go
// (NodeAffinityArgs), staging/src/k8s.io/kube-scheduler/config/v1/
// types_pluginargs.go (JSON names) and
// pkg/scheduler/apis/config/validation/validation_pluginargs.go
// (ValidateNodeAffinityArgs), v1.32. NodeAffinityArgs has no v1 defaults.
#ifndef SCHEDREF_API_PLUGINARGS_NODEAFFINITY_ARGS_H_
#define SCHEDREF_API_PLUGINARGS_NODEAFFINITY_ARGS_H_

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"

namespace schedref::api::pluginargs {

// config.NodeAffinityArgs.
struct NodeAffinityArgs {
  // Applied to every pod in addition to its own node affinity.
  std::optional<api::NodeAffinity> added_affinity;
};

// Decodes {"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
// {"nodeSelectorTerms": [...]}, "preferredDuringSchedulingIgnoredDuringExecution":
// [{"weight": w, "preference": {...}}]}} strictly (apiVersion and kind, the
// v1 TypeMeta, are accepted and checked by api/config/pluginargs/plugin_config.h),
// then validates it.
[[nodiscard]] StatusOr<NodeAffinityArgs> DecodeNodeAffinityArgs(
    const nlohmann::json& args);
// The decoding alone.
[[nodiscard]] StatusOr<NodeAffinityArgs> ParseNodeAffinityArgs(
    const nlohmann::json& args);

// ValidateNodeAffinityArgs: every non-empty required term, and every
// preferred term with a non-zero weight and a non-empty preference, must
// parse (api::NodeSelectorTermParseError). Errors name the field, e.g.
// "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.
// nodeSelectorTerms[0].matchExpressions[0].values[0]: ..."; several are
// reported as "[e1, e2]".
// Note: one problem per term is reported where upstream may list several,
// and the problem texts are api/types/labels.h's, worded differently from
// upstream's field errors (docs/deviations.md).
[[nodiscard]] schedref::Status ValidateNodeAffinityArgs(
    const NodeAffinityArgs& args);
// The same errors one by one, each starting with its field path.
std::vector<std::string> NodeAffinityArgsErrors(const NodeAffinityArgs& args);

}  // namespace schedref::api::pluginargs

#endif  // SCHEDREF_API_PLUGINARGS_NODEAFFINITY_ARGS_H_
