// Host ports: which (IP, protocol, port) triples the pods on a node hold and
// when a wanted one conflicts. Specification: upstream
// pkg/scheduler/framework/types.go (HostPortInfo, ProtocolPort,
// NodeInfo.updateUsedPorts) and
// pkg/scheduler/framework/plugins/nodeports/node_ports.go (getContainerPorts),
// v1.32.
//
// Rules: an empty IP means 0.0.0.0 and an empty protocol TCP; ports <= 0 are
// never recorded and never conflict. A wanted port on 0.0.0.0 conflicts with
// the same protocol and port on any IP; on any other IP it conflicts with the
// same protocol and port on that IP or on 0.0.0.0.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_HOST_PORTS_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_HOST_PORTS_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "api/types/objects.h"
#include "reference/framework/node_info.h"

namespace schedref::reference::framework {

inline constexpr char kDefaultBindAllHostIp[] = "0.0.0.0";

class HostPortInfo {
 public:
  void Add(std::string ip, std::string protocol, int32_t port);
  void Remove(std::string ip, std::string protocol, int32_t port);
  // True iff a port recorded here conflicts with the wanted one (see the
  // file comment).
  bool CheckConflict(std::string ip, std::string protocol,
                     int32_t port) const;
  // Number of recorded (IP, protocol, port) triples.
  size_t Len() const;

  friend bool operator==(const HostPortInfo&, const HostPortInfo&) = default;

 private:
  // IP -> {(protocol, port)}; IPs with no ports are erased.
  std::map<std::string, std::set<std::pair<std::string, int32_t>>> ports_;
};

// The pod's ports with hostPort > 0, regular containers only, in spec order
// (upstream v1.32 nodeports.getContainerPorts and NodeInfo.updateUsedPorts).
// Note: releases after v1.32 also count the ports of restartable init
// containers (schedutil.GetHostPorts); v1.32 does not (docs/deviations.md).
[[nodiscard]] std::vector<api::ContainerPort> PodHostPorts(
    const api::Pod& pod);

// The host ports held by the NodeInfo's pods, less its dropped_ports
// (upstream NodeInfo.UsedPorts; the quirk is explained at dropped_ports).
[[nodiscard]] HostPortInfo NodeUsedPorts(const NodeInfo& node_info);

}  // namespace schedref::reference::framework

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_HOST_PORTS_H_
