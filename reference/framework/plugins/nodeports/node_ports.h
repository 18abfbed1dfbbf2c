// NodePorts: a pod's host ports must be free on the node. Specification:
// upstream pkg/scheduler/framework/plugins/nodeports/node_ports.go, v1.32
// form (PreFilter skips pods without host ports; with SchedulerQueueingHints
// on: Pod/Delete with isSchedulableAfterPodDeleted and Node/Add without a
// hint). Tests from node_ports_test.go at
// 27214b84cfe38d60c33b93b5b3a43be3ad99c2e9. Conflict rules:
// reference/framework/host_ports.h.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODEPORTS_NODE_PORTS_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODEPORTS_NODE_PORTS_H_

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/events.h"
#include "reference/framework/host_ports.h"
#include "reference/framework/interface.h"

namespace schedref::reference::framework::plugins::nodeports {

inline constexpr char kErrReason[] =
    "node(s) didn't have free ports for the requested pod ports";

// True iff none of `want` conflicts with `in_use`.
bool FitsPorts(const std::vector<api::ContainerPort>& want,
               const HostPortInfo& in_use);

class NodePorts final : public PreFilterPlugin,
                        public FilterPlugin,
                        public EnqueueExtensions {
 public:
  // Takes no args.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);

  std::string Name() const override;

  // Skip iff the pod wants no host port; otherwise stores the wanted ports.
  PreFilterOutput PreFilter(CycleState& state, const api::Pod& pod,
                            const std::vector<const NodeInfo*>& nodes) override;
  // Unschedulable kErrReason iff a wanted port conflicts with the node's
  // used ports. Error if PreFilter did not run.
  Status Filter(CycleState& state, const api::Pod& pod,
                const NodeInfo& node) override;

  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Queue iff the deleted pod was bound and held a host port that the pod
  // wants.
  static StatusOr<QueueingHint> IsSchedulableAfterPodDeleted(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj);
};

}  // namespace schedref::reference::framework::plugins::nodeports

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODEPORTS_NODE_PORTS_H_
