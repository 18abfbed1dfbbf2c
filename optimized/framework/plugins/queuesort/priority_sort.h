// PrioritySort: the default QueueSort plugin. Higher priority first; equal
// priorities in the order they (re-)entered the queue. Specification:
// upstream pkg/scheduler/framework/plugins/queuesort/priority_sort.go
// (unchanged v1.22-v1.32); docs/semantics/plugins.md. Ties on both are
// broken by the queue, not here (docs/deviations.md).
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_QUEUESORT_PRIORITY_SORT_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_QUEUESORT_PRIORITY_SORT_H_

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::framework::plugins::queuesort {

// Stateless; safe to call from many threads.
class PrioritySort final : public QueueSortPlugin {
 public:
  // Takes no args; whatever the configuration gives is ignored, as upstream
  // and the reference do.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);

  std::string Name() const override;

  // prio(a) > prio(b), or equal priorities and a.timestamp < b.timestamp;
  // prio is PodInfo::priority (spec.priority, 0 when unset).
  // REQUIRES: a.pod_info and b.pod_info are set.
  bool Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const override;
  // (-prio, timestamp).
  std::optional<QueueSortKey> SortKey(const QueuedPodInfo& info) const override;
};

}  // namespace schedref::optimized::framework::plugins::queuesort

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_QUEUESORT_PRIORITY_SORT_H_
