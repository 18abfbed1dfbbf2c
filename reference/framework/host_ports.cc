#include "reference/framework/host_ports.h"

namespace schedref::reference::framework {
namespace {

void Sanitize(std::string& ip, std::string& protocol) {
  if (ip.empty()) ip = kDefaultBindAllHostIp;
  if (protocol.empty()) protocol = "TCP";
}

}  // namespace

void HostPortInfo::Add(std::string ip, std::string protocol, int32_t port) {
  if (port <= 0) return;
  Sanitize(ip, protocol);
  ports_[ip].insert({protocol, port});
}

void HostPortInfo::Remove(std::string ip, std::string protocol,
                          int32_t port) {
  if (port <= 0) return;
  Sanitize(ip, protocol);
  auto it = ports_.find(ip);
  if (it == ports_.end()) return;
  it->second.erase({protocol, port});
  if (it->second.empty()) ports_.erase(it);
}

bool HostPortInfo::CheckConflict(std::string ip, std::string protocol,
                                 int32_t port) const {
  if (port <= 0) return false;
  Sanitize(ip, protocol);
  const std::pair<std::string, int32_t> pp{protocol, port};
  if (ip == kDefaultBindAllHostIp) {
    for (const auto& [unused_ip, set] : ports_) {
      if (set.contains(pp)) return true;
    }
    return false;
  }
  for (const std::string& key : {std::string(kDefaultBindAllHostIp), ip}) {
    auto it = ports_.find(key);
    if (it != ports_.end() && it->second.contains(pp)) return true;
  }
  return false;
}

size_t HostPortInfo::Len() const {
  size_t n = 0;
  for (const auto& [ip, set] : ports_) n += set.size();
  return n;
}

std::vector<api::ContainerPort> PodHostPorts(const api::Pod& pod) {
  std::vector<api::ContainerPort> out;
  for (const api::Container& c : pod.containers) {
    for (const api::ContainerPort& p : c.ports) {
      if (p.host_port > 0) out.push_back(p);
    }
  }
  return out;
}

HostPortInfo NodeUsedPorts(const NodeInfo& node_info) {
  HostPortInfo used;
  for (const api::Pod& pod : node_info.pods) {
    for (const api::ContainerPort& p : PodHostPorts(pod)) {
      used.Add(p.host_ip, p.protocol, p.host_port);
    }
  }
  for (const auto& [ip, protocol, port] : node_info.dropped_ports) {
    used.Remove(ip, protocol, port);
  }
  return used;
}

}  // namespace schedref::reference::framework
