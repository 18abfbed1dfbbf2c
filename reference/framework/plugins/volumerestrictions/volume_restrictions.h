// VolumeRestrictions: inline GCE PD, AWS EBS, RBD and iSCSI volumes must not
// conflict with those of the node's pods, and a ReadWriteOncePod claim must
// not be in use by another pod. Specification: upstream
// pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go,
// v1.32 form (PreFilter counts the pod's ReadWriteOncePod claims in use and
// skips pods with neither inline disks nor such claims; PreFilter
// extensions adjust the count for preemption and nominated pods; with
// SchedulerQueueingHints on: Pod/Delete, Node/Add and
// PersistentVolumeClaim/Add). Tests from volume_restrictions_test.go;
// docs/semantics/volumerestrictions.md.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_VOLUMERESTRICTIONS_VOLUME_RESTRICTIONS_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_VOLUMERESTRICTIONS_VOLUME_RESTRICTIONS_H_

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"

namespace schedref::reference::framework::plugins::volumerestrictions {

inline constexpr char kErrReasonDiskConflict[] = "node(s) had no available disk";
inline constexpr char kErrReasonReadWriteOncePodConflict[] =
    "node has pod using PersistentVolumeClaim with the same name and "
    "ReadWriteOncePod access mode";

// True iff some volume of `existing` conflicts with `volume` (same GCE PD
// unless both read-only; same EBS volume; same iSCSI IQN unless both
// read-only; overlapping RBD monitors with the same pool and image unless
// both read-only).
bool IsVolumeConflict(const api::Volume& volume, const api::Pod& existing);

// True iff no inline disk volume of `pod` conflicts with any of `pods`.
bool SatisfyVolumeConflicts(const api::Pod& pod, const std::vector<api::Pod>& pods);

class VolumeRestrictions final : public PreFilterPlugin,
                                 public FilterPlugin,
                                 public EnqueueExtensions {
 public:
  // Takes no args.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  explicit VolumeRestrictions(Handle* handle) : handle_(handle) {}

  std::string Name() const override;

  // UnschedulableAndUnresolvable iff one of the pod's claims is missing;
  // Skip iff the pod has no inline disk and none of its ReadWriteOncePod
  // claims is used by a pod on a node of the snapshot; else stores those
  // claims and how many of them are in use.
  PreFilterOutput PreFilter(CycleState& state, const api::Pod& pod,
                            const std::vector<const NodeInfo*>& nodes) override;
  bool HasPreFilterExtensions() const override { return true; }
  // Count the added (removed) pod's volumes naming one of the stored claims
  // in (out).
  Status AddPod(CycleState& state, const api::Pod& pod_to_schedule,
                const api::Pod& pod_to_add, const NodeInfo& node) override;
  Status RemovePod(CycleState& state, const api::Pod& pod_to_schedule,
                   const api::Pod& pod_to_remove, const NodeInfo& node) override;
  // Unschedulable kErrReasonDiskConflict iff an inline disk conflicts with a
  // pod on the node; else Unschedulable kErrReasonReadWriteOncePodConflict
  // iff the stored count is positive.
  Status Filter(CycleState& state, const api::Pod& pod,
                const NodeInfo& node) override;

  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Queue iff the deleted pod is in the pod's namespace and had an inline
  // disk conflicting with the pod's, or a claim name the pod uses too.
  static StatusOr<QueueingHint> IsSchedulableAfterPodDeleted(
      const api::Pod& pod, const EventObject& old_obj, const EventObject& new_obj);
  // Queue iff the claim is in the pod's namespace and the pod names it.
  static StatusOr<QueueingHint> IsSchedulableAfterPersistentVolumeClaimAdded(
      const api::Pod& pod, const EventObject& old_obj, const EventObject& new_obj);

 private:
  Handle* handle_;
};

}  // namespace schedref::reference::framework::plugins::volumerestrictions

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_VOLUMERESTRICTIONS_VOLUME_RESTRICTIONS_H_
