#include "reference/framework/resource.h"

#include <algorithm>
#include <string>
#include <vector>

#include "api/labels.h"

namespace schedref::reference::framework {
namespace {

void AddList(api::ResourceList& to, const api::ResourceList& from) {
  for (const auto& [name, value] : from) to[name] += value;
}

// upstream maxResourceList: raise each entry of `to` to `from`'s value.
void MaxList(api::ResourceList& to, const api::ResourceList& from) {
  for (const auto& [name, value] : from) {
    auto it = to.find(name);
    if (it == to.end()) {
      to[name] = value;
    } else {
      it->second = std::max(it->second, value);
    }
  }
}

api::ResourceList ApplyNonMissing(const api::ResourceList& requests,
                                  const api::ResourceList& non_missing) {
  api::ResourceList out = requests;
  for (const auto& [name, value] : non_missing) {
    if (!requests.contains(name)) out[name] += value;
  }
  return out;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

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
    } else if (IsScalarResourceName(name)) {
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
    } else if (IsScalarResourceName(name)) {
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

// --- Names ---------------------------------------------------------------------

bool IsPrefixedNativeResource(std::string_view name) {
  return name.find("kubernetes.io/") != std::string_view::npos;
}

bool IsNativeResource(std::string_view name) {
  return name.find('/') == std::string_view::npos ||
         IsPrefixedNativeResource(name);
}

bool IsHugePageResourceName(std::string_view name) {
  return StartsWith(name, "hugepages-");
}

bool IsAttachableVolumeResourceName(std::string_view name) {
  return StartsWith(name, "attachable-volumes-");
}

bool IsExtendedResourceName(std::string_view name) {
  if (IsNativeResource(name) || StartsWith(name, "requests.")) return false;
  std::string for_quota = "requests." + std::string(name);
  return !api::CheckQualifiedName(for_quota).has_value();
}

bool IsScalarResourceName(std::string_view name) {
  return IsExtendedResourceName(name) || IsHugePageResourceName(name) ||
         IsPrefixedNativeResource(name) || IsAttachableVolumeResourceName(name);
}

// --- Pods ------------------------------------------------------------------------

api::ResourceList PodRequestList(const api::Pod& pod,
                                 const PodResourcesOptions& options) {
  auto effective = [&](const api::Container& c) {
    return options.non_missing_container_requests.empty()
               ? c.requests
               : ApplyNonMissing(c.requests,
                                 options.non_missing_container_requests);
  };

  api::ResourceList result;
  for (const api::Container& c : pod.containers) AddList(result, effective(c));

  // While init container i runs, the sidecars started before it (and, for a
  // sidecar, i itself) run too; sidecars keep running beside the regular
  // containers.
  api::ResourceList sidecars;
  api::ResourceList init_max;
  for (const api::Container& c : pod.init_containers) {
    api::ResourceList own = effective(c);
    api::ResourceList in_use;
    if (c.restart_policy == "Always") {
      AddList(result, own);
      AddList(sidecars, own);
      in_use = sidecars;
    } else {
      in_use = own;
      AddList(in_use, sidecars);
    }
    MaxList(init_max, in_use);
  }
  MaxList(result, init_max);

  if (!options.exclude_overhead) AddList(result, pod.overhead);
  return result;
}

Resource PodRequests(const api::Pod& pod) {
  Resource r;
  r.Add(PodRequestList(pod));
  return r;
}

Resource PodNonZeroRequests(const api::Pod& pod) {
  PodResourcesOptions options;
  options.non_missing_container_requests = {
      {api::kResourceCpu, kDefaultMilliCpuRequest},
      {api::kResourceMemory, kDefaultMemoryRequest}};
  api::ResourceList list = PodRequestList(pod, options);
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
