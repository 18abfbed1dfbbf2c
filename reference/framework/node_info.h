// NodeInfo: one node and the pods the scheduler believes run on it (bound and
// assumed). Specification: upstream pkg/scheduler/framework/types.go NodeInfo.
//
// Note: upstream keeps running aggregates (Requested, NonZeroRequested,
// UsedPorts, ...) updated on every AddPod/RemovePod. The reference keeps only
// the node and its pods; the aggregates are recomputed by the functions in
// reference/framework/resource.h when a plugin needs them, so there is no
// incremental state to get wrong. The one piece of history kept is
// dropped_ports, upstream's host-port quirk (see there).
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_NODE_INFO_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_NODE_INFO_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "api/types/objects.h"

namespace schedref::reference::framework {

// A host port as upstream's HostPortInfo keys it: (ip, protocol, port),
// an empty ip being 0.0.0.0 and an empty protocol TCP.
using HostPortKey = std::tuple<std::string, std::string, int32_t>;

// The keys of the pod's host ports (hostPort > 0, regular containers only,
// as v1.32's NodeInfo.updateUsedPorts).
inline std::set<HostPortKey> PodHostPortKeys(const api::Pod& pod) {
  std::set<HostPortKey> keys;
  for (const api::Container& c : pod.containers) {
    for (const api::ContainerPort& p : c.ports) {
      if (p.host_port <= 0) continue;
      keys.emplace(p.host_ip.empty() ? "0.0.0.0" : p.host_ip,
                   p.protocol.empty() ? "TCP" : p.protocol, p.host_port);
    }
  }
  return keys;
}

struct NodeInfo {
  // Absent for a "ghost": a node deleted while pods were still on it.
  // Ghosts are never in a Snapshot's node list.
  std::optional<api::Node> node;
  // In the order they were added (upstream appends and removes by swapping
  // with the last element; see RemovePod).
  std::vector<api::Pod> pods;

  const std::string& Name() const { return node->name; }

  // Host ports that pods here declare but that count as free (see
  // NodeUsedPorts in reference/framework/host_ports.h).
  // Note: upstream's quirk reproduced (docs/deviations.md, "Upstream quirks
  // reproduced"): v1.32's NodeInfo.UsedPorts is a set, and RemovePod
  // deletes each of the removed pod's keys from it even when another pod
  // on the node declares the same key; the key is free again until a pod
  // declaring it is added. Holds exactly those keys that some pod here
  // still declares.
  std::set<HostPortKey> dropped_ports;

  // Its host ports count as used again.
  void AddPod(const api::Pod& pod) {
    for (const HostPortKey& k : PodHostPortKeys(pod)) dropped_ports.erase(k);
    pods.push_back(pod);
  }
  // Removes the pod with pod's UID. Returns false iff it was not there.
  // Keeps upstream's order rule: the last pod takes the removed one's slot.
  // Every host port key of the removed pod becomes free (dropped_ports).
  bool RemovePod(const api::Pod& pod) {
    for (size_t i = 0; i < pods.size(); ++i) {
      if (pods[i].uid == pod.uid) {
        const std::set<HostPortKey> freed = PodHostPortKeys(pods[i]);
        pods[i] = std::move(pods.back());
        pods.pop_back();
        std::set<HostPortKey> declared;
        for (const api::Pod& p : pods) declared.merge(PodHostPortKeys(p));
        dropped_ports.insert(freed.begin(), freed.end());
        std::erase_if(dropped_ports,
                      [&](const HostPortKey& k) { return !declared.contains(k); });
        return true;
      }
    }
    return false;
  }
};

}  // namespace schedref::reference::framework

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_NODE_INFO_H_
