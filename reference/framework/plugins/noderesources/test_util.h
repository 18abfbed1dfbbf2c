// Fixtures shared by the noderesources tests (upstream test_util.go and the
// helpers at the top of fit_test.go). testonly.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODERESOURCES_TEST_UTIL_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODERESOURCES_TEST_UTIL_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "api/types/objects.h"
#include "reference/framework/node_info.h"
#include "reference/framework/plugins/noderesources/resource_allocation.h"

namespace schedref::reference::framework::plugins::noderesources::testutil {

inline constexpr char kExtendedResourceA[] = "example.com/aaa";
inline constexpr char kExtendedResourceB[] = "example.com/bbb";
inline constexpr char kKubernetesIOResourceA[] = "kubernetes.io/something";
inline constexpr char kKubernetesIOResourceB[] =
    "subdomain.kubernetes.io/something";
inline constexpr char kHugePageResourceA[] = "hugepages-2Mi";
inline constexpr char kExtendedRes[] = "abc.com/xyz";

// One container's requests, as upstream's framework.Resource literals.
struct Usage {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  std::map<std::string, int64_t> scalar;
};

// upstream newResourcePod: one container per usage, each listing cpu,
// memory, pods (0) and ephemeral-storage explicitly plus its scalars.
api::Pod NewResourcePod(const std::vector<Usage>& usage);
// upstream newResourceInitPod: replaces the init containers.
api::Pod NewResourceInitPod(api::Pod pod, const std::vector<Usage>& usage);

// upstream makeAllocatableResources(cpu, memory, pods, extendedA, storage,
// hugePageA) on a node named `name`.
api::Node MakeNodeWithAllocatable(const std::string& name, int64_t milli_cpu,
                                  int64_t memory, int64_t pods,
                                  int64_t extended_a, int64_t storage,
                                  int64_t hugepage_a);

// A NodeInfo for `node` holding the pods of `pods` bound to it.
NodeInfo NodeInfoFor(const api::Node& node, const std::vector<api::Pod>& pods);

// cpu:1, memory:1 (upstream defaultResources).
std::vector<ResourceSpec> DefaultResources();
// cpu:1, memory:1, abc.com/xyz:1 (upstream extendedResourceSet).
std::vector<ResourceSpec> ExtendedResourceSet();

}  // namespace schedref::reference::framework::plugins::noderesources::testutil

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODERESOURCES_TEST_UTIL_H_
