// Resource accounting: what a pod requests and what a node has requested,
// allocatable and free. Specification: upstream
// pkg/scheduler/framework/types.go (Resource, NodeInfo.Requested,
// NodeInfo.NonZeroRequested, calculateResource), v1.32, over the shared
// request rules of api/types/resource.h (component-helpers resource.PodRequests,
// resource-name kinds, the non-zero defaults).
//
// Model. A pod's request is api::PodRequestList's. A node's Requested is the
// sum of its pods' requests; there is no cache: every call recomputes from
// the NodeInfo's pods.
//
// Resource names: "cpu" (millicores), "memory", "ephemeral-storage", "pods"
// have their own fields; every other *scalar* resource (extended resources
// such as example.com/gpu, hugepages-*, kubernetes.io/* and
// attachable-volumes-*) goes to scalar_resources; anything else (e.g. a bare
// "storage") is dropped, as upstream's Resource.Add drops it.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_RESOURCE_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_RESOURCE_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "api/types/objects.h"
#include "api/types/resource.h"
#include "reference/framework/node_info.h"

namespace schedref::reference::framework {

// upstream framework.Resource.
struct Resource {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  // From a node's allocatable "pods"; requests never carry it.
  int64_t allowed_pod_number = 0;
  // Scalar resources only (see the file comment). An entry may be 0.
  std::map<std::string, int64_t> scalar_resources;

  // Adds every quantity of `list` to its field (upstream Resource.Add).
  void Add(const api::ResourceList& list);
  // Adds another Resource field by field.
  void Add(const Resource& other);
  // Raises each field to the list's quantity where that is larger
  // (upstream Resource.SetMaxResource); "pods" is ignored.
  void SetMaxResource(const api::ResourceList& list);
  // The amount of `name` (0 when absent or not tracked).
  int64_t Get(std::string_view name) const;

  friend bool operator==(const Resource&, const Resource&) = default;
};

// --- Pods ---------------------------------------------------------------------

// The pod's requests as a Resource (what NodeResourcesFit's PreFilter and
// NodeInfo.Requested use).
[[nodiscard]] Resource PodRequests(const api::Pod& pod);

// cpu and memory only, each container lacking a cpu (memory) request
// counting as 100m (200Mi); every other field is 0. What NodeInfo's
// NonZeroRequested adds per pod.
[[nodiscard]] Resource PodNonZeroRequests(const api::Pod& pod);

// --- Nodes --------------------------------------------------------------------

// Sum of PodRequests over the NodeInfo's pods (bound and assumed).
[[nodiscard]] Resource NodeRequested(const NodeInfo& node_info);
// Sum of PodNonZeroRequests over the NodeInfo's pods.
[[nodiscard]] Resource NodeNonZeroRequested(const NodeInfo& node_info);
// The node's status.allocatable as a Resource (allowed_pod_number from
// "pods").
[[nodiscard]] Resource NodeAllocatable(const api::Node& node);

}  // namespace schedref::reference::framework

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_RESOURCE_H_
