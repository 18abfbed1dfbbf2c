// NodePorts: the pod's host ports must be free on the node. Specification:
// upstream pkg/scheduler/framework/plugins/nodeports/node_ports.go, v1.32
// (PreFilter skips pods without host ports; SchedulerQueueingHints on:
// Pod/Delete with isSchedulableAfterPodDeleted, Node/Add without a hint);
// docs/semantics/plugins.md. Conflict rules: HostPortInfo in
// optimized/framework/types.h.
//
// Speed: the wanted ports are PodInfo::host_ports (computed once per pod) and
// a node's ports in use are NodeInfo::used_ports(), kept up to date by
// AddPod/RemovePod, so Filter never walks the node's pods.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEPORTS_NODE_PORTS_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEPORTS_NODE_PORTS_H_

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::framework::plugins::nodeports {

inline constexpr char kErrReason[] =
    "node(s) didn't have free ports for the requested pod ports";

// The ports of the pod's regular containers with hostPort > 0, in spec order
// (v1.32 getContainerPorts; sidecars' ports are not counted, as in v1.32,
// docs/deviations.md). Equal to NewPodInfo(pod)->host_ports.
std::vector<api::ContainerPort> ContainerHostPorts(const api::Pod& pod);

// True iff none of `want` conflicts with `in_use`.
bool FitsPorts(const std::vector<api::ContainerPort>& want,
               const HostPortInfo& in_use);

class NodePorts final : public PreFilterPlugin,
                        public FilterPlugin,
                        public EnqueueExtensions {
 public:
  // Takes no args (any given are ignored, as upstream's New ignores them).
  static StatusOr<std::unique_ptr<framework::Plugin>> New(
      const nlohmann::json& args, framework::Handle* handle);

  std::string Name() const override;

  // Skip iff the pod wants no host port; otherwise stores the wanted ports.
  PreFilterOutput PreFilter(CycleState& state, const PodInfo& pod,
                            const std::vector<NodeInfo*>& nodes) override;
  // Unschedulable kErrReason iff a wanted port conflicts with the node's used
  // ports. Error if PreFilter did not store its state.
  Status Filter(const CycleState& state, const PodInfo& pod,
                const NodeInfo& node) const override;

  // Pod/Delete with IsSchedulableAfterPodDeleted; Node/Add with no hint.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Queue iff the deleted pod was bound (spec.nodeName set) and held a host
  // port that conflicts with one `pod` wants; Skip otherwise (also when the
  // event carries no old pod).
  static StatusOr<QueueingHint> IsSchedulableAfterPodDeleted(
      const api::Pod& pod, const EventObjects& objects);
};

}  // namespace schedref::optimized::framework::plugins::nodeports

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEPORTS_NODE_PORTS_H_
