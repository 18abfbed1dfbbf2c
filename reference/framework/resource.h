// Resource accounting: what a pod requests and what a node has requested,
// allocatable and free. Specification: k8s.io/component-helpers/resource
// (helpers.go: PodRequests, AggregateContainerRequests, applyNonMissing),
// upstream pkg/scheduler/framework/types.go (Resource, NodeInfo.Requested,
// NodeInfo.NonZeroRequested, calculateResource) and
// pkg/scheduler/util/pod_resources.go (DefaultMilliCPURequest,
// DefaultMemoryRequest), as of v1.32 with its default feature gates
// (SidecarContainers on; InPlacePodVerticalScaling and PodLevelResources off,
// so pod status and pod-level resources are never read).
//
// Model. A pod's request for a resource is
//   max(sum over regular containers + sum over sidecars,
//       max over init containers i of (init_i + sum of sidecars before i))
//   + overhead,
// where a sidecar is an init container with restartPolicy Always and, for a
// sidecar, "init_i + sidecars before i" is the running sum of sidecars up to
// and including i. A node's Requested is the sum of its pods' requests; there
// is no cache: every call recomputes from the NodeInfo's pods.
//
// Resource names: "cpu" (millicores), "memory", "ephemeral-storage", "pods"
// have their own fields; every other *scalar* resource (extended resources
// such as example.com/gpu, hugepages-*, kubernetes.io/* and
// attachable-volumes-*) goes to scalar_resources; anything else (e.g. a bare
// "storage") is dropped, as upstream's Resource.Add drops it.
//
// Note: api::ResourceList holds each quantity already rounded to an integer
// (api/objects.h), and sums are of those integers. Upstream sums exact
// quantities and rounds once, so fractional bytes ("0.5") could differ by
// one unit (docs/deviations.md).
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_RESOURCE_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_RESOURCE_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "api/objects.h"
#include "reference/framework/node_info.h"

namespace schedref::reference::framework {

// schedutil.DefaultMilliCPURequest: 0.1 core.
inline constexpr int64_t kDefaultMilliCpuRequest = 100;
// schedutil.DefaultMemoryRequest: 200 MiB.
inline constexpr int64_t kDefaultMemoryRequest = 200 * 1024 * 1024;

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

// --- Resource names (pkg/apis/core/v1/helper/helpers.go) -------------------

// True iff the name has no "/" or contains "kubernetes.io/".
[[nodiscard]] bool IsNativeResource(std::string_view name);
// True iff the name contains "kubernetes.io/".
[[nodiscard]] bool IsPrefixedNativeResource(std::string_view name);
// True iff the name starts with "hugepages-".
[[nodiscard]] bool IsHugePageResourceName(std::string_view name);
// True iff the name starts with "attachable-volumes-".
[[nodiscard]] bool IsAttachableVolumeResourceName(std::string_view name);
// True iff not native, not "requests."-prefixed, and "requests.<name>" is a
// qualified name (e.g. "example.com/gpu").
[[nodiscard]] bool IsExtendedResourceName(std::string_view name);
// Extended, hugepages, prefixed native or attachable volume.
[[nodiscard]] bool IsScalarResourceName(std::string_view name);

// --- Pods ---------------------------------------------------------------------

struct PodResourcesOptions {
  // Added to a container (regular or init) that does not list the resource
  // at all; an explicit 0 is kept (upstream NonMissingContainerRequests).
  api::ResourceList non_missing_container_requests;
  // Leave spec.overhead out (upstream ExcludeOverhead).
  bool exclude_overhead = false;
};

// component-helpers resource.PodRequests: the aggregated request for every
// resource name the pod's containers or overhead mention.
[[nodiscard]] api::ResourceList PodRequestList(
    const api::Pod& pod, const PodResourcesOptions& options = {});

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
