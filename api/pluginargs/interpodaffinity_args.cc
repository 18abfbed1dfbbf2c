#include "api/pluginargs/interpodaffinity_args.h"

#include <cstdint>

#include "api/pluginargs/json_args.h"

namespace schedref::api::pluginargs {

StatusOr<InterPodAffinityArgs> DecodeInterPodAffinityArgs(
    const nlohmann::json& args) {
  SCHEDREF_RETURN_IF_ERROR(CheckObject(
      args, "",
      {"hardPodAffinityWeight", "ignorePreferredTermsOfExistingPods"}));
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
  SCHEDREF_RETURN_IF_ERROR(ValidateInterPodAffinityArgs(out));
  return out;
}

schedref::Status ValidateInterPodAffinityArgs(
    const InterPodAffinityArgs& args) {
  if (args.hard_pod_affinity_weight < 0 ||
      args.hard_pod_affinity_weight > 100) {
    return schedref::Status::Invalid(FieldInvalid(
        "hardPodAffinityWeight", args.hard_pod_affinity_weight,
        "not in valid range [0, 100]"));
  }
  return schedref::Status::Ok();
}

}  // namespace schedref::api::pluginargs
