// Pod resource requests and resource-name kinds (component-helpers/resource).
//
// Specification: k8s.io/component-helpers/resource/helpers.go (PodRequests,
// AggregateContainerRequests, applyNonMissing, PodResourcesOptions),
// pkg/apis/core/v1/helper/helpers.go (IsNativeResource,
// IsExtendedResourceName, IsScalarResourceName, ...) and
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
// and including i.
//
// Note: api::ResourceList holds each quantity already rounded to an integer
// (api/types/objects.h), and sums are of those integers. Upstream sums exact
// quantities and rounds once, so fractional bytes ("0.5") could differ by
// one unit (docs/deviations.md).
#ifndef SCHEDREF_API_RESOURCE_H_
#define SCHEDREF_API_RESOURCE_H_

#include <cstdint>
#include <string_view>

#include "api/types/objects.h"

namespace schedref::api {

// schedutil.DefaultMilliCPURequest: 0.1 core.
inline constexpr int64_t kDefaultMilliCpuRequest = 100;
// schedutil.DefaultMemoryRequest: 200 MiB.
inline constexpr int64_t kDefaultMemoryRequest = 200 * 1024 * 1024;

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

// --- Pod requests (component-helpers/resource/helpers.go) ------------------

struct PodResourcesOptions {
  // Added to a container (regular or init) that does not list the resource
  // at all; an explicit 0 is kept (upstream NonMissingContainerRequests).
  ResourceList non_missing_container_requests;
  // Leave spec.overhead out (upstream ExcludeOverhead).
  bool exclude_overhead = false;
};

// resource.PodRequests: the aggregated request for every resource name the
// pod's containers or overhead mention.
[[nodiscard]] ResourceList PodRequestList(
    const Pod& pod, const PodResourcesOptions& options = {});

// --- Go integer arithmetic -------------------------------------------------

// a * b as Go's int64 multiplication computes it: two's complement,
// wrapping on overflow (where C++'s signed multiplication is undefined).
// Scores multiply quantities by 100, which overflows for allocatable above
// about 9.2e16 (e.g. a node reporting 1e17 bytes of memory); upstream's
// result is the wrapped product, and so is ours.
constexpr int64_t GoMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

}  // namespace schedref::api

#endif  // SCHEDREF_API_RESOURCE_H_
