// VolumeBinding: a pod's PersistentVolumeClaims must be bound, or bindable
// on the node (a matching available PV, or provisioning through the claim's
// StorageClass), and the PVs chosen for a pod are reserved for it.
// Specification: upstream pkg/scheduler/framework/plugins/volumebinding/
// volume_binding.go, v1.32 with default feature gates (SchedulerQueueingHints
// on, VolumeCapacityPriority off, so PreScore always Skips and Score never
// runs); binder rules in binder.h; docs/semantics/volumebinding.md.
//
// Filter is read-only and concurrent here, so it does not record the node's
// PodVolumes as upstream's Filter does; Reserve computes them again for the
// chosen node from the same PreFilter state and assume view, which gives
// what Filter found there (FindPodVolumes reads nothing else).
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_VOLUMEBINDING_VOLUME_BINDING_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_VOLUMEBINDING_VOLUME_BINDING_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/framework/interface.h"
#include "optimized/framework/plugins/volumebinding/binder.h"

namespace schedref::optimized::framework::plugins::volumebinding {

class VolumeBinding final : public PreFilterPlugin,
                            public FilterPlugin,
                            public PreScorePlugin,
                            public ScorePlugin,
                            public ReservePlugin,
                            public PreBindPlugin,
                            public EnqueueExtensions {
 public:
  // Args: VolumeBindingArgs (api/config/pluginargs/volumebinding_args.h).
  static StatusOr<std::unique_ptr<framework::Plugin>> New(const nlohmann::json& args,
                                                          framework::Handle* handle);

  std::string Name() const override;

  // Skip iff the pod has no claim volume. UnschedulableAndUnresolvable for a
  // missing, lost or deleting claim, an ephemeral claim the pod does not own,
  // or an unbound Immediate claim; Error for a binder error.
  PreFilterOutput PreFilter(CycleState& state, const PodInfo& pod,
                            const std::vector<NodeInfo*>& nodes) override;
  // UnschedulableAndUnresolvable with FindPodVolumes' reasons.
  Status Filter(const CycleState& state, const PodInfo& pod,
                const NodeInfo& node) const override;
  // Skip: no scorer with VolumeCapacityPriority off.
  Status PreScore(CycleState& state, const PodInfo& pod,
                  const std::vector<const NodeInfo*>& nodes) override;
  // 0 (never called: PreScore skips).
  ScoreOutput Score(const CycleState& state, const PodInfo& pod,
                    const NodeInfo& node) const override;
  // Assumes the node's bindings (binder.h AssumePodVolumes).
  Status Reserve(CycleState& state, const PodInfo& pod, const std::string& node_name) override;
  void Unreserve(CycleState& state, const PodInfo& pod, const std::string& node_name) override;
  // Writes the assumed PVs and claims through the Handle, then returns Wait
  // (call again in a second) until every binding has completed (Success),
  // cannot complete (Error "binding volumes: <why>") or bindTimeoutSeconds
  // have passed since the writes (Error "binding volumes: context deadline
  // exceeded").
  Status PreBind(CycleState& state, const PodInfo& pod, const std::string& node_name) override;

  // StorageClass Add|Update, PVC Add|Update, PV Add|Update (no hint), Node
  // Add|UpdateNodeLabel (no hint), CSINode Add|Update, CSIDriver Update,
  // CSIStorageCapacity Add|Update.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Add: Queue. Update: Queue iff allowedTopologies changed.
  static StatusOr<QueueingHint> IsSchedulableAfterStorageClassChange(
      const api::Pod& pod, const EventObjects& objects);
  // Queue iff the claim is in the pod's namespace and one of its volumes'.
  static StatusOr<QueueingHint> IsSchedulableAfterPersistentVolumeClaimChange(
      const api::Pod& pod, const EventObjects& objects);
  // Add: Queue. Update: Queue iff the migrated-plugins annotation changed.
  static StatusOr<QueueingHint> IsSchedulableAfterCSINodeChange(
      const api::Pod& pod, const EventObjects& objects);
  // Queue iff a pod's inline csi volume uses the driver and storageCapacity
  // went from true to false.
  static StatusOr<QueueingHint> IsSchedulableAfterCSIDriverChange(
      const api::Pod& pod, const EventObjects& objects);
  // Add: Queue. Update: Queue iff the limit (maximumVolumeSize, else
  // capacity) grew or appeared.
  static StatusOr<QueueingHint> IsSchedulableAfterCSIStorageCapacityChange(
      const api::Pod& pod, const EventObjects& objects);

 private:
  VolumeBinding(framework::Handle* handle, int64_t bind_timeout_seconds)
      : handle_(handle), bind_timeout_seconds_(bind_timeout_seconds) {}

  // checkBindings over the API objects: true iff every binding and
  // provisioning is complete; an error when one can no longer complete.
  StatusOr<bool> CheckBindings(const api::Pod& pod, const PodVolumes& volumes) const;

  // Constant after construction.
  framework::Handle* handle_;
  int64_t bind_timeout_seconds_;
  // The assume cache's assumptions, kept across scheduling cycles.
  AssumeView assumed_;
};

}  // namespace schedref::optimized::framework::plugins::volumebinding

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_VOLUMEBINDING_VOLUME_BINDING_H_
