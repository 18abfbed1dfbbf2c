// Resource: a flat, allocation-light sum of requests or capacity, the
// aggregate NodeInfo keeps per node. Specification: upstream
// pkg/scheduler/framework/types.go (Resource, calculateResource); which
// names count and how a pod's containers aggregate is api/types/resource.h
// (component-helpers/resource), shared with every implementation.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_RESOURCE_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_RESOURCE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/types/objects.h"

namespace schedref::optimized::framework {

struct Resource {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  // From a node's allocatable "pods"; pod requests never carry it.
  int64_t allowed_pod_number = 0;
  // Scalar resources (extended, hugepages-*, prefixed native, attachable
  // volumes), sorted by name; most pods and nodes have none, so a sorted
  // vector beats a map. An entry may be 0.
  std::vector<std::pair<std::string, int64_t>> scalar;

  // upstream Resource.Add(ResourceList): cpu, memory, ephemeral-storage,
  // pods to their fields, scalar names to `scalar`, every other name dropped.
  void AddList(const api::ResourceList& list);
  void Add(const Resource& other);
  // Field-wise subtraction (NodeInfo.RemovePod).
  void Sub(const Resource& other);
  // 0 when absent.
  int64_t Scalar(std::string_view name) const;
  void AddScalar(std::string_view name, int64_t amount);
  // The amount of any resource name (cpu in millicores).
  int64_t Get(std::string_view name) const;

  friend bool operator==(const Resource&, const Resource&) = default;
};

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_RESOURCE_H_
