#include "optimized/framework/plugins/nodeports/node_ports.h"

#include <utility>

#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::nodeports {
namespace {

// What PreFilter stores: the ports the pod wants.
struct PreFilterState final : StateData {
  std::vector<api::ContainerPort> want;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
};

const int kPreFilterKey = CycleState::NewKey();

}  // namespace

std::vector<api::ContainerPort> ContainerHostPorts(const api::Pod& pod) {
  std::vector<api::ContainerPort> out;
  for (const api::Container& c : pod.containers) {
    for (const api::ContainerPort& p : c.ports) {
      if (p.host_port > 0) out.push_back(p);
    }
  }
  return out;
}

bool FitsPorts(const std::vector<api::ContainerPort>& want,
               const HostPortInfo& in_use) {
  if (in_use.empty()) return true;
  for (const api::ContainerPort& p : want) {
    if (in_use.CheckConflict(p.host_ip, p.protocol, p.host_port)) return false;
  }
  return true;
}

StatusOr<std::unique_ptr<framework::Plugin>> NodePorts::New(
    const nlohmann::json& /*args*/, framework::Handle* /*handle*/) {
  return std::unique_ptr<framework::Plugin>(new NodePorts());
}

std::string NodePorts::Name() const { return names::kNodePorts; }

PreFilterOutput NodePorts::PreFilter(CycleState& state, const PodInfo& pod,
                                     const std::vector<NodeInfo*>& /*nodes*/) {
  if (pod.host_ports.empty()) return {std::nullopt, Status::Skip()};
  auto s = std::make_unique<PreFilterState>();
  s->want = pod.host_ports;
  state.Write(kPreFilterKey, std::move(s));
  return {std::nullopt, Status::Success()};
}

Status NodePorts::Filter(const CycleState& state, const PodInfo& /*pod*/,
                         const NodeInfo& node) const {
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterKey);
  if (s == nullptr) {
    return Status::Error(std::string("reading \"PreFilter") + names::kNodePorts +
                         "\" from cycleState: not found");
  }
  if (FitsPorts(s->want, node.used_ports())) return Status::Success();
  return SharedRejectionOf<Code::kUnschedulable, kErrReason, names::kNodePorts>();
}

std::vector<ClusterEventWithHint> NodePorts::EventsToRegister() const {
  return {
      // Container ports are immutable, so pod updates cannot matter.
      {{EventResource::kPod, kDelete, "PodDelete"},
       &NodePorts::IsSchedulableAfterPodDeleted},
      // No hint: a new node is always worth a retry (after backoff).
      {{EventResource::kNode, kAdd, "NodeAdd"}, nullptr},
  };
}

StatusOr<QueueingHint> NodePorts::IsSchedulableAfterPodDeleted(
    const api::Pod& pod, const EventObjects& objects) {
  const api::Pod* deleted = objects.old_pod;
  if (deleted == nullptr || deleted->node_name.empty()) {
    return QueueingHint::kSkip;
  }
  const std::vector<api::ContainerPort> freed = ContainerHostPorts(*deleted);
  if (freed.empty()) return QueueingHint::kSkip;
  HostPortInfo freed_ports;
  for (const api::ContainerPort& p : freed) {
    freed_ports.Add(p.host_ip, p.protocol, p.host_port);
  }
  // No port in common: the deletion cannot help this pod.
  if (FitsPorts(ContainerHostPorts(pod), freed_ports)) return QueueingHint::kSkip;
  return QueueingHint::kQueue;
}

}  // namespace schedref::optimized::framework::plugins::nodeports
