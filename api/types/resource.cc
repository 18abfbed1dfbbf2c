#include "api/types/resource.h"

#include <algorithm>
#include <string>

#include "api/types/labels.h"

namespace schedref::api {
namespace {

void AddList(ResourceList& to, const ResourceList& from) {
  for (const auto& [name, value] : from) to[name] += value;
}

// upstream maxResourceList: raise each entry of `to` to `from`'s value.
void MaxList(ResourceList& to, const ResourceList& from) {
  for (const auto& [name, value] : from) {
    auto it = to.find(name);
    if (it == to.end()) {
      to[name] = value;
    } else {
      it->second = std::max(it->second, value);
    }
  }
}

ResourceList ApplyNonMissing(const ResourceList& requests,
                             const ResourceList& non_missing) {
  ResourceList out = requests;
  for (const auto& [name, value] : non_missing) {
    if (!requests.contains(name)) out[name] += value;
  }
  return out;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

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
  return !CheckQualifiedName(for_quota).has_value();
}

bool IsScalarResourceName(std::string_view name) {
  return IsExtendedResourceName(name) || IsHugePageResourceName(name) ||
         IsPrefixedNativeResource(name) || IsAttachableVolumeResourceName(name);
}

// --- Pods ------------------------------------------------------------------------

ResourceList PodRequestList(const Pod& pod,
                            const PodResourcesOptions& options) {
  auto effective = [&](const Container& c) {
    return options.non_missing_container_requests.empty()
               ? c.requests
               : ApplyNonMissing(c.requests,
                                 options.non_missing_container_requests);
  };

  ResourceList result;
  for (const Container& c : pod.containers) AddList(result, effective(c));

  // While init container i runs, the sidecars started before it (and, for a
  // sidecar, i itself) run too; sidecars keep running beside the regular
  // containers.
  ResourceList sidecars;
  ResourceList init_max;
  for (const Container& c : pod.init_containers) {
    ResourceList own = effective(c);
    ResourceList in_use;
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

}  // namespace schedref::api
