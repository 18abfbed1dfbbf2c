// VolumeZone: a pod's bound PersistentVolumes must lie in the node's zone
// and region. Specification: upstream
// pkg/scheduler/framework/plugins/volumezone/volume_zone.go, v1.32 form
// (PreFilter computes the pod's PV topologies and skips pods without any;
// no PreFilter extensions; with SchedulerQueueingHints on: StorageClass/Add,
// Node/Add|UpdateNodeLabel, PersistentVolumeClaim/Add|Update and
// PersistentVolume/Add|Update); docs/semantics/volumezone.md.
//
// Speed: PreFilter looks the claims up once per attempt; Filter reads only
// the node's labels (a NodeObjectFilterPlugin: removing or adding pods
// never changes its verdict), and is not called at all for the pods
// PreFilter skips, which are all pods without bound zoned volumes.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_VOLUMEZONE_VOLUME_ZONE_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_VOLUMEZONE_VOLUME_ZONE_H_

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/framework/events.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::framework::plugins::volumezone {

inline constexpr char kErrReasonConflict[] = "node(s) had no available volume zone";

// One topology label of a PersistentVolume: the values a node's label must
// take one of.
struct PVTopology {
  std::string pv_name;
  std::string key;
  std::set<std::string> values;
  friend bool operator==(const PVTopology&, const PVTopology&) = default;
};

// LabelZonesToSet: `value` split on "__", each piece trimmed; nullopt iff
// some piece is empty.
std::optional<std::set<std::string>> LabelZonesToSet(const std::string& value);

// The PV's topology labels (beta zone, beta region, zone, region, in that
// order); a label LabelZonesToSet refuses is left out.
std::vector<PVTopology> GetPVTopologies(const api::PersistentVolume& pv);

class VolumeZone final : public PreFilterPlugin,
                         public NodeObjectFilterPlugin,
                         public EnqueueExtensions {
 public:
  // Takes no args.
  static StatusOr<std::unique_ptr<framework::Plugin>> New(const nlohmann::json& args,
                                                          framework::Handle* handle);
  explicit VolumeZone(framework::Handle* handle) : handle_(handle) {}

  std::string Name() const override;

  // UnschedulableAndUnresolvable for the first of the pod's claims that is
  // missing, unbound without a WaitForFirstConsumer class, or bound to a
  // missing PV; Skip iff no claim contributes a topology.
  PreFilterOutput PreFilter(CycleState& state, const PodInfo& pod,
                            const std::vector<NodeInfo*>& nodes) override;
  // UnschedulableAndUnresolvable kErrReasonConflict iff the node has a
  // topology label and some PV topology's key (or its GA form) is missing
  // on the node or has a value outside the PV's.
  Status Filter(const CycleState& state, const PodInfo& pod,
                const NodeInfo& node) const override;

  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Queue iff the added class binds WaitForFirstConsumer.
  static StatusOr<QueueingHint> IsSchedulableAfterStorageClassAdded(
      const api::Pod& pod, const EventObjects& objects);
  // Queue iff the claim is in the pod's namespace and one of its
  // persistentVolumeClaim volumes names it.
  static StatusOr<QueueingHint> IsSchedulableAfterPersistentVolumeClaimChange(
      const api::Pod& pod, const EventObjects& objects);
  // Queue for an added PV, and for an update that changes GetPVTopologies.
  static StatusOr<QueueingHint> IsSchedulableAfterPersistentVolumeChange(
      const api::Pod& pod, const EventObjects& objects);

 private:
  // Appends the topologies of the pod's claims to *out; a non-success
  // status is the pod's rejection.
  Status PodPVTopologies(const api::Pod& pod, std::vector<PVTopology>* out) const;

  framework::Handle* handle_;
};

}  // namespace schedref::optimized::framework::plugins::volumezone

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_VOLUMEZONE_VOLUME_ZONE_H_
