#include "optimized/framework/plugins/schedulinggates/scheduling_gates.h"

#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::schedulinggates {

StatusOr<std::unique_ptr<Plugin>> SchedulingGates::New(
    const nlohmann::json& /*args*/, Handle* /*handle*/) {
  return std::unique_ptr<Plugin>(new SchedulingGates());
}

std::string SchedulingGates::Name() const { return names::kSchedulingGates; }

Status SchedulingGates::PreEnqueue(const api::Pod& pod) {
  if (pod.scheduling_gates.empty()) return Status::Success();
  std::string message = "waiting for scheduling gates: [";
  for (size_t i = 0; i < pod.scheduling_gates.size(); ++i) {
    if (i > 0) message += ' ';
    message += pod.scheduling_gates[i];
  }
  message += ']';
  return Status(Code::kUnschedulableAndUnresolvable, std::move(message));
}

std::vector<ClusterEventWithHint> SchedulingGates::EventsToRegister() const {
  return {{{EventResource::kPod, kUpdatePodSchedulingGatesEliminated,
            "PodUpdatePodSchedulingGatesEliminated"},
           &SchedulingGates::
               IsSchedulableAfterUpdatePodSchedulingGatesEliminated}};
}

StatusOr<QueueingHint>
SchedulingGates::IsSchedulableAfterUpdatePodSchedulingGatesEliminated(
    const api::Pod& pod, const EventObjects& objects) {
  if (objects.new_pod == nullptr || objects.new_pod->uid != pod.uid) {
    return QueueingHint::kSkip;
  }
  return QueueingHint::kQueue;
}

}  // namespace schedref::optimized::framework::plugins::schedulinggates
