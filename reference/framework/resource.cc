#include "reference/framework/resource.h"

#include <algorithm>
#include <string>
#include <vector>

namespace schedref::reference::framework {

// --- Resource ------------------------------------------------------------------

void Resource::Add(const api::ResourceList& list) {
  for (const auto& [name, value] : list) {
    if (name == api::kResourceCpu) {
      milli_cpu += value;
    } else if (name == api::kResourceMemory) {
      memory += value;
    } else if (name == api::kResourcePods) {
      allowed_pod_number += value;
    } else if (name == api::kResourceEphemeralStorage) {
      ephemeral_storage += value;
    } else if (api::IsScalarResourceName(name)) {
      scalar_resources[name] += value;
    }
  }
}

void Resource::Add(const Resource& other) {
  milli_cpu += other.milli_cpu;
  memory += other.memory;
  ephemeral_storage += other.ephemeral_storage;
  allowed_pod_number += other.allowed_pod_number;
  for (const auto& [name, value] : other.scalar_resources) {
    scalar_resources[name] += value;
  }
}

void Resource::SetMaxResource(const api::ResourceList& list) {
  for (const auto& [name, value] : list) {
    if (name == api::kResourceMemory) {
      memory = std::max(memory, value);
    } else if (name == api::kResourceCpu) {
      milli_cpu = std::max(milli_cpu, value);
    } else if (name == api::kResourceEphemeralStorage) {
      ephemeral_storage = std::max(ephemeral_storage, value);
    } else if (api::IsScalarResourceName(name)) {
      auto it = scalar_resources.find(name);
      int64_t current = it == scalar_resources.end() ? 0 : it->second;
      scalar_resources[name] = std::max(current, value);
    }
  }
}

int64_t Resource::Get(std::string_view name) const {
  if (name == api::kResourceCpu) return milli_cpu;
  if (name == api::kResourceMemory) return memory;
  if (name == api::kResourceEphemeralStorage) return ephemeral_storage;
  if (name == api::kResourcePods) return allowed_pod_number;
  auto it = scalar_resources.find(std::string(name));
  return it == scalar_resources.end() ? 0 : it->second;
}

// --- Pods ------------------------------------------------------------------------

Resource PodRequests(const api::Pod& pod) {
  Resource r;
  r.Add(api::PodRequestList(pod));
  return r;
}

Resource PodNonZeroRequests(const api::Pod& pod) {
  api::PodResourcesOptions options;
  options.non_missing_container_requests = {
      {api::kResourceCpu, api::kDefaultMilliCpuRequest},
      {api::kResourceMemory, api::kDefaultMemoryRequest}};
  api::ResourceList list = api::PodRequestList(pod, options);
  Resource r;
  r.milli_cpu = list.contains(api::kResourceCpu) ? list.at(api::kResourceCpu)
                                                 : 0;
  r.memory = list.contains(api::kResourceMemory)
                 ? list.at(api::kResourceMemory)
                 : 0;
  return r;
}

// --- Nodes -------------------------------------------------------------------------

Resource NodeRequested(const NodeInfo& node_info) {
  Resource sum;
  for (const api::Pod& pod : node_info.pods) sum.Add(PodRequests(pod));
  return sum;
}

Resource NodeNonZeroRequested(const NodeInfo& node_info) {
  Resource sum;
  for (const api::Pod& pod : node_info.pods) sum.Add(PodNonZeroRequests(pod));
  return sum;
}

Resource NodeAllocatable(const api::Node& node) {
  Resource r;
  r.Add(node.allocatable);
  return r;
}

}  // namespace schedref::reference::framework
