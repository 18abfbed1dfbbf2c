#include "optimized/framework/plugins/queuesort/priority_sort.h"

#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::queuesort {

StatusOr<std::unique_ptr<Plugin>> PrioritySort::New(
    const nlohmann::json& /*args*/, Handle* /*handle*/) {
  return std::unique_ptr<Plugin>(new PrioritySort());
}

std::string PrioritySort::Name() const { return names::kPrioritySort; }

bool PrioritySort::Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const {
  const int32_t pa = a.pod_info->priority;
  const int32_t pb = b.pod_info->priority;
  if (pa != pb) return pa > pb;
  return a.timestamp < b.timestamp;
}

std::optional<QueueSortKey> PrioritySort::SortKey(const QueuedPodInfo& info) const {
  return QueueSortKey{-int64_t{info.pod_info->priority}, info.timestamp};
}

}  // namespace schedref::optimized::framework::plugins::queuesort
