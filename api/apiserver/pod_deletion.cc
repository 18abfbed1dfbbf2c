#include "api/apiserver/pod_deletion.h"

#include <limits>

namespace schedref::api {

int64_t DeleteGracePeriodSeconds(const Pod& pod, std::string_view node_name) {
  if (node_name.empty() || pod.Terminated()) return 0;
  const int64_t grace = pod.TerminationGracePeriodSeconds();
  return grace < 0 ? 1 : grace;
}

TimeMs AddSecondsSaturating(TimeMs t, int64_t seconds) {
  constexpr TimeMs kMax = std::numeric_limits<TimeMs>::max();
  if (seconds > (kMax - t) / 1000) return kMax;
  return t + seconds * 1000;
}

bool UpdatePodCondition(std::vector<PodCondition>& conditions, const PodCondition& condition) {
  for (PodCondition& c : conditions) {
    if (c.type != condition.type) continue;
    if (c == condition) return false;
    c = condition;
    return true;
  }
  conditions.push_back(condition);
  return true;
}

PodCondition PreemptionByScheduler() {
  return PodCondition{"DisruptionTarget", "True", "PreemptionByScheduler"};
}

}  // namespace schedref::api
