// VolumeRestrictions: inline GCE PD, AWS EBS, RBD and iSCSI volumes must not
// conflict with those of the node's pods, and a ReadWriteOncePod claim must
// not be in use by another pod. Specification: upstream
// pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go,
// v1.32 form (PreFilter Skip, PreFilter extensions for preemption and
// nominated pods; SchedulerQueueingHints on: Pod/Delete, Node/Add,
// PersistentVolumeClaim/Add); docs/semantics/volumerestrictions.md.
//
// Speed: a pod with neither an inline disk nor a ReadWriteOncePod claim
// (nearly every pod) costs PreFilter one pass over its volumes and is
// skipped. Upstream answers "is this claim used by a pod" from a set the
// cache maintains; here PreFilter walks the snapshot's pods, once per
// attempt and only for a pod that has a ReadWriteOncePod claim, which
// decides the same (the union of every listed node's pods' claims).
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_VOLUMERESTRICTIONS_VOLUME_RESTRICTIONS_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_VOLUMERESTRICTIONS_VOLUME_RESTRICTIONS_H_

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/framework/events.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::framework::plugins::volumerestrictions {

inline constexpr char kErrReasonDiskConflict[] = "node(s) had no available disk";
inline constexpr char kErrReasonReadWriteOncePodConflict[] =
    "node has pod using PersistentVolumeClaim with the same name and "
    "ReadWriteOncePod access mode";

// True iff some volume of `existing` conflicts with `volume`.
bool IsVolumeConflict(const api::Volume& volume, const api::Pod& existing);

class VolumeRestrictions final : public PreFilterPlugin,
                                 public FilterPlugin,
                                 public EnqueueExtensions {
 public:
  // Takes no args.
  static StatusOr<std::unique_ptr<framework::Plugin>> New(const nlohmann::json& args,
                                                          framework::Handle* handle);
  explicit VolumeRestrictions(framework::Handle* handle) : handle_(handle) {}

  std::string Name() const override;

  // UnschedulableAndUnresolvable iff one of the pod's claims is missing;
  // Skip iff the pod has no inline disk and none of its ReadWriteOncePod
  // claims is used by a pod on one of `nodes`.
  PreFilterOutput PreFilter(CycleState& state, const PodInfo& pod,
                            const std::vector<NodeInfo*>& nodes) override;
  bool HasPreFilterExtensions() const override { return true; }
  Status AddPod(CycleState& state, const PodInfo& pod_to_schedule, const PodInfo& pod_to_add,
                const NodeInfo& node) override;
  Status RemovePod(CycleState& state, const PodInfo& pod_to_schedule,
                   const PodInfo& pod_to_remove, const NodeInfo& node) override;
  // Unschedulable kErrReasonDiskConflict iff an inline disk conflicts with
  // a pod on the node; else Unschedulable kErrReasonReadWriteOncePodConflict
  // iff the stored count is positive.
  Status Filter(const CycleState& state, const PodInfo& pod,
                const NodeInfo& node) const override;

  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  static StatusOr<QueueingHint> IsSchedulableAfterPodDeleted(const api::Pod& pod,
                                                             const EventObjects& objects);
  static StatusOr<QueueingHint> IsSchedulableAfterPersistentVolumeClaimAdded(
      const api::Pod& pod, const EventObjects& objects);

 private:
  framework::Handle* handle_;
};

}  // namespace schedref::optimized::framework::plugins::volumerestrictions

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_VOLUMERESTRICTIONS_VOLUME_RESTRICTIONS_H_
