#include "reference/framework/plugins/queuesort/priority_sort.h"

#include "reference/framework/plugins/names/names.h"

namespace schedref::reference::framework::plugins::queuesort {
namespace {

int32_t PodPriority(const api::Pod& pod) { return pod.priority.value_or(0); }

}  // namespace

StatusOr<std::unique_ptr<Plugin>> PrioritySort::New(
    const nlohmann::json& /*args*/, Handle* /*handle*/) {
  return std::unique_ptr<Plugin>(new PrioritySort());
}

std::string PrioritySort::Name() const { return names::kPrioritySort; }

bool PrioritySort::Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const {
  const int32_t pa = PodPriority(a.pod);
  const int32_t pb = PodPriority(b.pod);
  return pa > pb || (pa == pb && a.timestamp < b.timestamp);
}

}  // namespace schedref::reference::framework::plugins::queuesort
