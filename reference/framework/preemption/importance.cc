#include "reference/framework/preemption/importance.h"

#include <utility>

#include "api/gocompat/go_sort.h"

namespace schedref::reference::framework::preemption {

int32_t PodPriority(const api::Pod& pod) { return pod.priority.value_or(0); }

api::TimeMs PodStartTime(const api::Pod& pod, api::TimeMs now) {
  return pod.start_time.value_or(now);
}

bool MoreImportantPod(const api::Pod& a, const api::Pod& b, api::TimeMs now) {
  const int32_t pa = PodPriority(a);
  const int32_t pb = PodPriority(b);
  if (pa != pb) return pa > pb;
  if (!a.start_time.has_value() && !b.start_time.has_value()) return true;
  return PodStartTime(a, now) < PodStartTime(b, now);
}

void SortByImportance(std::vector<api::Pod>& pods, api::TimeMs now) {
  api::GoSortSlice(
      pods.size(),
      [&](size_t i, size_t j) { return MoreImportantPod(pods[i], pods[j], now); },
      [&](size_t i, size_t j) { std::swap(pods[i], pods[j]); });
}

std::optional<api::TimeMs> EarliestPodStartTime(
    const std::vector<api::Pod>& victims, api::TimeMs now) {
  if (victims.empty()) return std::nullopt;
  api::TimeMs earliest = PodStartTime(victims[0], now);
  int32_t max_priority = PodPriority(victims[0]);
  for (const api::Pod& pod : victims) {
    const int32_t p = PodPriority(pod);
    if (p == max_priority) {
      if (PodStartTime(pod, now) < earliest) earliest = PodStartTime(pod, now);
    } else if (p > max_priority) {
      max_priority = p;
      earliest = PodStartTime(pod, now);
    }
  }
  return earliest;
}

}  // namespace schedref::reference::framework::preemption
