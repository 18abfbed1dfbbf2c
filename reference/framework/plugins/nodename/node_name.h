// NodeName: a pod with spec.nodeName fits only that node. Specification:
// upstream pkg/scheduler/framework/plugins/nodename/node_name.go, v1.32 form
// (with SchedulerQueueingHints on, only Node/Add is registered, with the
// isSchedulableAfterNodeAdd hint). The test file transcribed is
// node_name_test.go at 96a58e4b8a59fab0b3735b1ae0cf92eeab6fc49c.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODENAME_NODE_NAME_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODENAME_NODE_NAME_H_

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"

namespace schedref::reference::framework::plugins::nodename {

inline constexpr char kErrReason[] =
    "node(s) didn't match the requested node name";

// True iff spec.nodeName is empty or equals the node's name.
bool Fits(const api::Pod& pod, const api::Node& node);

class NodeName final : public FilterPlugin, public EnqueueExtensions {
 public:
  // Takes no args.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);

  std::string Name() const override;
  // UnschedulableAndUnresolvable kErrReason iff !Fits.
  Status Filter(CycleState& state, const api::Pod& pod,
                const NodeInfo& node) override;
  // Node/Add with IsSchedulableAfterNodeAdd.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Queue iff the added node fits the pod.
  static StatusOr<QueueingHint> IsSchedulableAfterNodeAdd(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj);
};

}  // namespace schedref::reference::framework::plugins::nodename

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODENAME_NODE_NAME_H_
