// VolumeBinding args (apis/config/types_pluginargs.go VolumeBindingArgs).
//
// Specification: upstream pkg/scheduler/apis/config/types_pluginargs.go
// (VolumeBindingArgs), staging/src/k8s.io/kube-scheduler/config/v1/
// types_pluginargs.go (JSON names), apis/config/v1/defaults.go
// (SetDefaults_VolumeBindingArgs) and apis/config/validation/
// validation_pluginargs.go (ValidateVolumeBindingArgs), v1.32 with the
// VolumeCapacityPriority gate off (its default), so `shape` is never
// defaulted and a shape given is an error.
#ifndef SCHEDREF_API_PLUGINARGS_VOLUMEBINDING_ARGS_H_
#define SCHEDREF_API_PLUGINARGS_VOLUMEBINDING_ARGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"

namespace schedref::api::pluginargs {

// config.VolumeBindingArgs with v1 defaults applied.
struct VolumeBindingArgs {
  // How long PreBind waits for the volume binding to complete, >= 0.
  int64_t bind_timeout_seconds = 600;
  // True iff `shape` was given (only allowed with VolumeCapacityPriority).
  bool has_shape = false;
};

// Decodes {"bindTimeoutSeconds": int, "shape": [...]} strictly (apiVersion
// and kind are accepted and checked by plugin_config.h), applies the
// default to an absent bindTimeoutSeconds, then validates.
[[nodiscard]] StatusOr<VolumeBindingArgs> DecodeVolumeBindingArgs(
    const nlohmann::json& args);
// The decoding and defaulting alone.
[[nodiscard]] StatusOr<VolumeBindingArgs> ParseVolumeBindingArgs(
    const nlohmann::json& args);
// upstream ValidateVolumeBindingArgs with AllowVolumeCapacityPriority false:
// "bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds,
// should not be a negative value"; a shape is "shape: Invalid value: ...:
// unexpected field `shape`, remove it or turn on the feature gate
// VolumeCapacityPriority"; several errors as "[e1, e2]".
// Note: the shape's points are not kept, so the shape error shows the value
// as "" where upstream prints the list (docs/deviations.md, VolumeBinding).
[[nodiscard]] schedref::Status ValidateVolumeBindingArgs(
    const VolumeBindingArgs& args);
// The same errors one by one, each starting with its field path.
std::vector<std::string> VolumeBindingArgsErrors(const VolumeBindingArgs& args);

}  // namespace schedref::api::pluginargs

#endif  // SCHEDREF_API_PLUGINARGS_VOLUMEBINDING_ARGS_H_
