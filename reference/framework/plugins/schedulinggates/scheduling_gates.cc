#include "reference/framework/plugins/schedulinggates/scheduling_gates.h"

#include "reference/framework/plugins/helper/event_objects.h"
#include "reference/framework/plugins/names/names.h"

namespace schedref::reference::framework::plugins::schedulinggates {

StatusOr<std::unique_ptr<Plugin>> SchedulingGates::New(
    const nlohmann::json& /*args*/, Handle* /*handle*/) {
  return std::unique_ptr<Plugin>(new SchedulingGates());
}

std::string SchedulingGates::Name() const { return names::kSchedulingGates; }

Status SchedulingGates::PreEnqueue(const api::Pod& pod) {
  if (pod.scheduling_gates.empty()) return Status::Success();
  std::string list;
  for (const std::string& gate : pod.scheduling_gates) {
    if (!list.empty()) list += " ";
    list += gate;
  }
  return Status(Code::kUnschedulableAndUnresolvable,
                "waiting for scheduling gates: [" + list + "]");
}

std::vector<ClusterEventWithHint> SchedulingGates::EventsToRegister() const {
  return {{{EventResource::kPod, kUpdatePodSchedulingGatesEliminated,
            "PodUpdatePodSchedulingGatesEliminated"},
           &SchedulingGates::
               IsSchedulableAfterUpdatePodSchedulingGatesEliminated}};
}

StatusOr<QueueingHint>
SchedulingGates::IsSchedulableAfterUpdatePodSchedulingGatesEliminated(
    const api::Pod& pod, const EventObject& old_obj,
    const EventObject& new_obj) {
  auto objs = helper::As<api::Pod>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  if (objs->new_obj == nullptr || objs->new_obj->uid != pod.uid) {
    return QueueingHint::kSkip;
  }
  return QueueingHint::kQueue;
}

}  // namespace schedref::reference::framework::plugins::schedulinggates
