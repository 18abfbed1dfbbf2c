// NodeResourcesFit/BalancedAllocation args (apis/config/types_pluginargs.go).
//
// Types, decoding from pluginConfig JSON, upstream's defaulting and
// validation. Specification: upstream
// pkg/scheduler/apis/config/types_pluginargs.go,
// staging/src/k8s.io/kube-scheduler/config/v1/types_pluginargs.go (JSON
// names), pkg/scheduler/apis/config/v1/defaults.go
// (SetDefaults_NodeResourcesFitArgs,
// SetDefaults_NodeResourcesBalancedAllocationArgs) and
// pkg/scheduler/apis/config/validation/validation_pluginargs.go
// (ValidateNodeResourcesFitArgs, ValidateNodeResourcesBalancedAllocationArgs),
// v1.32.
//
// Error messages are upstream's field errors, paths relative to the args
// ("scoringStrategy.resources[0].weight: Invalid value: 0: resource weight of
// cpu not in valid range (0, 100]"); several errors print as "[e1, e2]".
#ifndef SCHEDREF_API_PLUGINARGS_NODERESOURCES_ARGS_H_
#define SCHEDREF_API_PLUGINARGS_NODERESOURCES_ARGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"

namespace schedref::api::pluginargs {

inline constexpr char kLeastAllocated[] = "LeastAllocated";
inline constexpr char kMostAllocated[] = "MostAllocated";
inline constexpr char kRequestedToCapacityRatio[] = "RequestedToCapacityRatio";

// config.MaxCustomPriorityScore: shape scores are in [0, 10].
inline constexpr int64_t kMaxCustomPriorityScore = 10;

struct ResourceSpec {
  std::string name;
  int64_t weight = 0;
  friend bool operator==(const ResourceSpec&, const ResourceSpec&) = default;
};

struct UtilizationShapePoint {
  int32_t utilization = 0;  // percent, 0..100
  int32_t score = 0;        // 0..kMaxCustomPriorityScore
  friend bool operator==(const UtilizationShapePoint&,
                         const UtilizationShapePoint&) = default;
};

struct ScoringStrategy {
  std::string type;
  std::vector<ResourceSpec> resources;
  // requestedToCapacityRatio.shape; nullopt when requestedToCapacityRatio is
  // absent.
  std::optional<std::vector<UtilizationShapePoint>> shape;
  friend bool operator==(const ScoringStrategy&,
                         const ScoringStrategy&) = default;
};

struct NodeResourcesFitArgs {
  std::vector<std::string> ignored_resources;
  std::vector<std::string> ignored_resource_groups;
  std::optional<ScoringStrategy> scoring_strategy;
  friend bool operator==(const NodeResourcesFitArgs&,
                         const NodeResourcesFitArgs&) = default;
};

struct NodeResourcesBalancedAllocationArgs {
  std::vector<ResourceSpec> resources;
  friend bool operator==(const NodeResourcesBalancedAllocationArgs&,
                         const NodeResourcesBalancedAllocationArgs&) = default;
};

// cpu:1, memory:1.
std::vector<ResourceSpec> DefaultResourceSpec();

// No strategy -> LeastAllocated with DefaultResourceSpec(); no resources ->
// DefaultResourceSpec(); weight 0 -> 1.
void SetDefaults(NodeResourcesFitArgs& args);
// No resources -> DefaultResourceSpec(); weight 0 -> 1.
void SetDefaults(NodeResourcesBalancedAllocationArgs& args);

// ignoredResources[i] must be a qualified name; ignoredResourceGroups[i] must
// not contain '/' and must be a qualified name; the strategy type must be
// supported; every weight in (0, 100]; a shape must have at least one point,
// strictly increasing utilization in [0, 100] and scores in [0, 10].
// Note: a RequestedToCapacityRatio strategy without requestedToCapacityRatio
// makes upstream's NewFit dereference nil; here it is the empty-shape error
// (docs/deviations.md).
[[nodiscard]] schedref::Status Validate(const NodeResourcesFitArgs& args);
// Resource names must be unique and every weight must be 1.
[[nodiscard]] schedref::Status Validate(
    const NodeResourcesBalancedAllocationArgs& args);
// The same errors one by one, each starting with its field path.
std::vector<std::string> NodeResourcesFitArgsErrors(
    const NodeResourcesFitArgs& args);
std::vector<std::string> NodeResourcesBalancedAllocationArgsErrors(
    const NodeResourcesBalancedAllocationArgs& args);

// Strict decoding (unknown fields are errors; "apiVersion" and "kind" are
// accepted at the top), then SetDefaults, then Validate.
[[nodiscard]] StatusOr<NodeResourcesFitArgs> DecodeNodeResourcesFitArgs(
    const nlohmann::json& args);
[[nodiscard]] StatusOr<NodeResourcesBalancedAllocationArgs>
DecodeNodeResourcesBalancedAllocationArgs(const nlohmann::json& args);
// The decoding and SetDefaults alone.
[[nodiscard]] StatusOr<NodeResourcesFitArgs> ParseNodeResourcesFitArgs(
    const nlohmann::json& args);
[[nodiscard]] StatusOr<NodeResourcesBalancedAllocationArgs>
ParseNodeResourcesBalancedAllocationArgs(const nlohmann::json& args);

}  // namespace schedref::api::pluginargs

#endif  // SCHEDREF_API_PLUGINARGS_NODERESOURCES_ARGS_H_
