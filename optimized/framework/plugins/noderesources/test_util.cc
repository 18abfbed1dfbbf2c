#include "optimized/framework/plugins/noderesources/test_util.h"

#include "optimized/framework/testing/fixtures.h"

namespace schedref::optimized::framework::plugins::noderesources::testutil {

api::Pod NewResourcePod(const std::vector<Usage>& usage) {
  api::Pod pod;
  pod.ns = "default";
  for (size_t i = 0; i < usage.size(); ++i) {
    api::Container c;
    c.name = "c" + std::to_string(i);
    c.requests = {{api::kResourceCpu, usage[i].milli_cpu},
                  {api::kResourceMemory, usage[i].memory},
                  {api::kResourcePods, 0},
                  {api::kResourceEphemeralStorage, usage[i].ephemeral_storage}};
    for (const auto& [name, q] : usage[i].scalar) c.requests[name] = q;
    pod.containers.push_back(std::move(c));
  }
  return pod;
}

api::Pod NewResourceInitPod(api::Pod pod, const std::vector<Usage>& usage) {
  pod.init_containers = NewResourcePod(usage).containers;
  return pod;
}

api::Node MakeNodeWithAllocatable(const std::string& name, int64_t milli_cpu,
                                  int64_t memory, int64_t pods, int64_t extended_a,
                                  int64_t storage, int64_t hugepage_a) {
  api::Node node;
  node.name = name;
  node.allocatable = {{api::kResourceCpu, milli_cpu},
                      {api::kResourceMemory, memory},
                      {api::kResourcePods, pods},
                      {kExtendedResourceA, extended_a},
                      {api::kResourceEphemeralStorage, storage},
                      {kHugePageResourceA, hugepage_a}};
  node.capacity = node.allocatable;
  return node;
}

NodeInfo NodeInfoFor(const api::Node& node, const std::vector<api::Pod>& pods) {
  std::vector<api::Pod> on_node;
  for (const api::Pod& p : pods) {
    if (p.node_name == node.name) on_node.push_back(p);
  }
  return testing::MakeNodeInfo(node, on_node);
}

std::vector<ResourceSpec> DefaultResources() { return {{"cpu", 1}, {"memory", 1}}; }

std::vector<ResourceSpec> ExtendedResourceSet() {
  return {{"cpu", 1}, {"memory", 1}, {kExtendedRes, 1}};
}

}  // namespace schedref::optimized::framework::plugins::noderesources::testutil
