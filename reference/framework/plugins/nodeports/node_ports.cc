#include "reference/framework/plugins/nodeports/node_ports.h"

#include "reference/framework/plugins/helper/event_objects.h"
#include "reference/framework/plugins/helper/typed_state.h"
#include "reference/framework/plugins/names/names.h"

namespace schedref::reference::framework::plugins::nodeports {
namespace {

const std::string kPreFilterStateKey =
    std::string("PreFilter") + names::kNodePorts;

using WantedPorts = std::vector<api::ContainerPort>;

}  // namespace

bool FitsPorts(const std::vector<api::ContainerPort>& want,
               const HostPortInfo& in_use) {
  for (const api::ContainerPort& p : want) {
    if (in_use.CheckConflict(p.host_ip, p.protocol, p.host_port)) return false;
  }
  return true;
}

StatusOr<std::unique_ptr<Plugin>> NodePorts::New(
    const nlohmann::json& /*args*/, Handle* /*handle*/) {
  return std::unique_ptr<Plugin>(new NodePorts());
}

std::string NodePorts::Name() const { return names::kNodePorts; }

PreFilterOutput NodePorts::PreFilter(
    CycleState& state, const api::Pod& pod,
    const std::vector<const NodeInfo*>& /*nodes*/) {
  WantedPorts want = PodHostPorts(pod);
  if (want.empty()) return {std::nullopt, Status::Skip()};
  helper::WriteState(state, kPreFilterStateKey, std::move(want));
  return {std::nullopt, Status::Success()};
}

Status NodePorts::Filter(CycleState& state, const api::Pod& /*pod*/,
                         const NodeInfo& node) {
  const WantedPorts* want =
      helper::ReadState<WantedPorts>(state, kPreFilterStateKey);
  if (want == nullptr) {
    return Status::Error("reading \"" + kPreFilterStateKey +
                         "\" from cycleState: not found");
  }
  if (!FitsPorts(*want, NodeUsedPorts(node))) {
    return Status(Code::kUnschedulable, kErrReason);
  }
  return Status::Success();
}

std::vector<ClusterEventWithHint> NodePorts::EventsToRegister() const {
  return {
      // Container ports are immutable, so pod updates cannot matter.
      {{EventResource::kPod, kDelete, "PodDelete"},
       &NodePorts::IsSchedulableAfterPodDeleted},
      // No hint: a new node always deserves a retry (after backoff).
      {{EventResource::kNode, kAdd, "NodeAdd"}, nullptr},
  };
}

StatusOr<QueueingHint> NodePorts::IsSchedulableAfterPodDeleted(
    const api::Pod& pod, const EventObject& old_obj,
    const EventObject& /*new_obj*/) {
  auto objs = helper::As<api::Pod>(old_obj, std::monostate{});
  if (!objs.ok()) return objs.status();
  const api::Pod* deleted = objs->old_obj;
  if (deleted == nullptr || deleted->node_name.empty()) {
    return QueueingHint::kSkip;
  }
  const std::vector<api::ContainerPort> freed = PodHostPorts(*deleted);
  if (freed.empty()) return QueueingHint::kSkip;
  HostPortInfo ports_in_use;
  for (const api::ContainerPort& p : freed) {
    ports_in_use.Add(p.host_ip, p.protocol, p.host_port);
  }
  // No common port: the deletion cannot help this pod.
  if (FitsPorts(PodHostPorts(pod), ports_in_use)) return QueueingHint::kSkip;
  return QueueingHint::kQueue;
}

}  // namespace schedref::reference::framework::plugins::nodeports
