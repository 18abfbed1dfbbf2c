#include "api/config/pluginargs/volumebinding_args.h"

#include <cstdint>
#include <string>
#include <vector>

#include "api/config/pluginargs/json_args.h"

namespace schedref::api::pluginargs {

StatusOr<VolumeBindingArgs> DecodeVolumeBindingArgs(const nlohmann::json& args) {
  StatusOr<VolumeBindingArgs> out = ParseVolumeBindingArgs(args);
  if (!out.ok()) return out;
  SCHEDREF_RETURN_IF_ERROR(ValidateVolumeBindingArgs(*out));
  return out;
}

StatusOr<VolumeBindingArgs> ParseVolumeBindingArgs(const nlohmann::json& args) {
  SCHEDREF_RETURN_IF_ERROR(
      CheckObject(args, "", {"apiVersion", "kind", "bindTimeoutSeconds", "shape"}));
  VolumeBindingArgs out;
  if (Has(args, "bindTimeoutSeconds") && !args["bindTimeoutSeconds"].is_null()) {
    StatusOr<int64_t> v =
        ReadInt(args["bindTimeoutSeconds"], "bindTimeoutSeconds", INT64_MIN, INT64_MAX);
    if (!v.ok()) return v.status();
    out.bind_timeout_seconds = *v;
  }
  if (Has(args, "shape") && !args["shape"].is_null()) {
    SCHEDREF_RETURN_IF_ERROR(CheckArray(args["shape"], "shape"));
    out.has_shape = true;
  }
  return out;
}

std::vector<std::string> VolumeBindingArgsErrors(const VolumeBindingArgs& args) {
  std::vector<std::string> errors;
  if (args.bind_timeout_seconds < 0) {
    errors.push_back(FieldInvalid("bindTimeoutSeconds", args.bind_timeout_seconds,
                                  "invalid BindTimeoutSeconds, should not be a negative value"));
  }
  if (args.has_shape) {
    errors.push_back(FieldInvalid(
        "shape", "",
        "unexpected field `shape`, remove it or turn on the feature gate VolumeCapacityPriority"));
  }
  return errors;
}

schedref::Status ValidateVolumeBindingArgs(const VolumeBindingArgs& args) {
  return FieldErrors(VolumeBindingArgsErrors(args));
}

}  // namespace schedref::api::pluginargs
