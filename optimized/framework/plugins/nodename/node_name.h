// NodeName: a pod with spec.nodeName fits only the node of that name.
// Specification: upstream
// pkg/scheduler/framework/plugins/nodename/node_name.go, v1.32 (with
// SchedulerQueueingHints on: Node/Add with isSchedulableAfterNodeAdd);
// docs/semantics/plugins.md.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODENAME_NODE_NAME_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODENAME_NODE_NAME_H_

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/framework/events.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::framework::plugins::nodename {

inline constexpr char kErrReason[] =
    "node(s) didn't match the requested node name";

// True iff spec.nodeName is empty or names `node`.
bool Fits(const api::Pod& pod, const api::Node& node);

// Stateless; safe to call from many threads.
class NodeName final : public NodeObjectFilterPlugin, public EnqueueExtensions {
 public:
  // Takes no args; like upstream (and the reference), whatever args the
  // configuration gives are ignored.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);

  std::string Name() const override;

  // UnschedulableAndUnresolvable kErrReason iff !Fits.
  Status Filter(const CycleState& state, const PodInfo& pod,
                const NodeInfo& node) const override;
  bool NarrowHotCheck(const CycleState& state, const PodInfo& pod,
                      HotCheck* check) const override;

  // Node/Add with IsSchedulableAfterNodeAdd.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Queue iff the added node fits the pod; Skip without a new node.
  static StatusOr<QueueingHint> IsSchedulableAfterNodeAdd(
      const api::Pod& pod, const EventObjects& objects);
};

}  // namespace schedref::optimized::framework::plugins::nodename

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODENAME_NODE_NAME_H_
