#include "api/pod_deletion.h"

#include <limits>

namespace schedref::api {

int64_t DeleteGracePeriodSeconds(const Pod& pod) {
  if (pod.node_name.empty() || pod.Terminated()) return 0;
  const int64_t grace = pod.TerminationGracePeriodSeconds();
  return grace < 0 ? 1 : grace;
}

TimeMs AddSecondsSaturating(TimeMs t, int64_t seconds) {
  constexpr TimeMs kMax = std::numeric_limits<TimeMs>::max();
  if (seconds > (kMax - t) / 1000) return kMax;
  return t + seconds * 1000;
}

bool UpdatePodCondition(Pod& pod, const PodCondition& condition) {
  for (PodCondition& c : pod.conditions) {
    if (c.type != condition.type) continue;
    if (c == condition) return false;
    c = condition;
    return true;
  }
  pod.conditions.push_back(condition);
  return true;
}

PodCondition PreemptionByScheduler() {
  return PodCondition{"DisruptionTarget", "True", "PreemptionByScheduler"};
}

}  // namespace schedref::api
