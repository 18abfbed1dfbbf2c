// PrioritySort: the default QueueSort plugin. Higher priority first; equal
// priorities in the order they (re-)entered the queue. Specification:
// upstream pkg/scheduler/framework/plugins/queuesort/priority_sort.go
// (unchanged v1.22-v1.32; read at the v1.32-era version of the file).
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_QUEUESORT_PRIORITY_SORT_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_QUEUESORT_PRIORITY_SORT_H_

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "reference/framework/interface.h"

namespace schedref::reference::framework::plugins::queuesort {

class PrioritySort final : public QueueSortPlugin {
 public:
  // Takes no args.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);

  std::string Name() const override;
  // prio(a) > prio(b), or equal priorities and a.timestamp < b.timestamp;
  // prio is spec.priority, 0 when unset (corev1helpers.PodPriority).
  bool Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const override;
};

}  // namespace schedref::reference::framework::plugins::queuesort

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_QUEUESORT_PRIORITY_SORT_H_
