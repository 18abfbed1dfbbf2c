#include "api/config/pluginargs/defaultpreemption_args.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "api/config/pluginargs/json_args.h"

namespace schedref::api::pluginargs {

StatusOr<DefaultPreemptionArgs> DecodeDefaultPreemptionArgs(
    const nlohmann::json& args) {
  StatusOr<DefaultPreemptionArgs> out = ParseDefaultPreemptionArgs(args);
  if (!out.ok()) return out;
  SCHEDREF_RETURN_IF_ERROR(ValidateDefaultPreemptionArgs(*out));
  return out;
}

StatusOr<DefaultPreemptionArgs> ParseDefaultPreemptionArgs(
    const nlohmann::json& args) {
  SCHEDREF_RETURN_IF_ERROR(
      CheckObject(args, "", {"apiVersion", "kind", "minCandidateNodesPercentage",
                             "minCandidateNodesAbsolute"}));
  DefaultPreemptionArgs out;
  for (auto [field, slot] :
       {std::pair{"minCandidateNodesPercentage",
                  &out.min_candidate_nodes_percentage},
        std::pair{"minCandidateNodesAbsolute",
                  &out.min_candidate_nodes_absolute}}) {
    if (!Has(args, field)) continue;
    StatusOr<int64_t> v =
        ReadInt(args[field], field, INT32_MIN, INT32_MAX);
    if (!v.ok()) return v.status();
    *slot = static_cast<int32_t>(*v);
  }
  return out;
}

std::vector<std::string> DefaultPreemptionArgsErrors(const DefaultPreemptionArgs& args) {
  std::vector<std::string> errors;
  const int32_t percentage = args.min_candidate_nodes_percentage;
  const int32_t absolute = args.min_candidate_nodes_absolute;
  if (percentage < 0 || percentage > 100) {
    errors.push_back(FieldInvalid("minCandidateNodesPercentage",
                                          percentage,
                                          "not in valid range [0, 100]"));
  }
  if (absolute < 0) {
    errors.push_back(FieldInvalid("minCandidateNodesAbsolute", absolute,
                                          "not in valid range [0, inf)"));
  }
  if (percentage == 0 && absolute == 0) {
    errors.push_back(FieldInvalid(
        "minCandidateNodesPercentage", percentage,
        "cannot be zero at the same time as minCandidateNodesAbsolute"));
    errors.push_back(FieldInvalid(
        "minCandidateNodesAbsolute", absolute,
        "cannot be zero at the same time as minCandidateNodesPercentage"));
  }
  return errors;
}

schedref::Status ValidateDefaultPreemptionArgs(const DefaultPreemptionArgs& args) {
  return FieldErrors(DefaultPreemptionArgsErrors(args));
}

}  // namespace schedref::api::pluginargs
