#include "api/config/pluginargs/interpodaffinity_args.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "api/config/pluginargs/json_args.h"

namespace schedref::api::pluginargs {

StatusOr<InterPodAffinityArgs> DecodeInterPodAffinityArgs(
    const nlohmann::json& args) {
  StatusOr<InterPodAffinityArgs> out = ParseInterPodAffinityArgs(args);
  if (!out.ok()) return out;
  SCHEDREF_RETURN_IF_ERROR(ValidateInterPodAffinityArgs(*out));
  return out;
}

StatusOr<InterPodAffinityArgs> ParseInterPodAffinityArgs(
    const nlohmann::json& args) {
  SCHEDREF_RETURN_IF_ERROR(CheckObject(
      args, "",
      {"apiVersion", "kind", "hardPodAffinityWeight",
       "ignorePreferredTermsOfExistingPods"}));
  InterPodAffinityArgs out;
  if (Has(args, "hardPodAffinityWeight")) {
    StatusOr<int64_t> w = ReadInt(args["hardPodAffinityWeight"],
                                  "hardPodAffinityWeight", INT32_MIN,
                                  INT32_MAX);
    if (!w.ok()) return w.status();
    out.hard_pod_affinity_weight = static_cast<int32_t>(*w);
  }
  if (Has(args, "ignorePreferredTermsOfExistingPods")) {
    const nlohmann::json& v = args["ignorePreferredTermsOfExistingPods"];
    if (!v.is_boolean()) {
      return schedref::Status::Invalid(
          "ignorePreferredTermsOfExistingPods: expected a boolean");
    }
    out.ignore_preferred_terms_of_existing_pods = v.get<bool>();
  }
  return out;
}

std::vector<std::string> InterPodAffinityArgsErrors(const InterPodAffinityArgs& args) {
  std::vector<std::string> errors;
  if (args.hard_pod_affinity_weight < 0 ||
      args.hard_pod_affinity_weight > 100) {
    errors.push_back(FieldInvalid("hardPodAffinityWeight",
                                  args.hard_pod_affinity_weight,
                                  "not in valid range [0, 100]"));
  }
  return errors;
}

schedref::Status ValidateInterPodAffinityArgs(const InterPodAffinityArgs& args) {
  return FieldErrors(InterPodAffinityArgsErrors(args));
}

}  // namespace schedref::api::pluginargs
