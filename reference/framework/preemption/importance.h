// Which of two pods is more important to keep, as preemption orders its
// victims. Specification: upstream pkg/scheduler/util/utils.go
// (MoreImportantPod, GetPodStartTime, GetEarliestPodStartTime) and
// component-helpers/scheduling/corev1 PodPriority.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PREEMPTION_IMPORTANCE_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PREEMPTION_IMPORTANCE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "api/types/objects.h"

namespace schedref::reference::framework::preemption {

// spec.priority, 0 when unset.
int32_t PodPriority(const api::Pod& pod);

// status.startTime, or `now` for a pod that has not started (assumed or
// bound pods without a start time).
// `now` is the wall clock (Handle::Now), so an unstarted pod counts as
// started after every pod whose start time has passed, as upstream's.
api::TimeMs PodStartTime(const api::Pod& pod, api::TimeMs now);

// True iff `a` has higher priority, or equal priority and started earlier.
// Of two pods of equal priority that have not started, `a` — always:
// upstream reads time.Now() for each (GetPodStartTime), `a`'s first, and
// a's reading is the earlier. So this is not a strict weak order, and
// victims are sorted with it the way upstream's sort.Slice sorts them
// (api::GoSortSlice), which puts such pods in a definite order
// (docs/deviations.md "Victim start time").
bool MoreImportantPod(const api::Pod& a, const api::Pod& b, api::TimeMs now);

// Sorts `pods` most important first exactly as upstream's
// sort.Slice(pods, MoreImportantPod) does.
void SortByImportance(std::vector<api::Pod>& pods, api::TimeMs now);

// The earliest start time among the highest-priority pods of `victims`;
// nullopt iff `victims` is empty.
std::optional<api::TimeMs> EarliestPodStartTime(
    const std::vector<api::Pod>& victims, api::TimeMs now);

}  // namespace schedref::reference::framework::preemption

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PREEMPTION_IMPORTANCE_H_
