// VolumeZone: a pod's bound PersistentVolumes must lie in the node's zone
// and region. Specification: upstream
// pkg/scheduler/framework/plugins/volumezone/volume_zone.go, v1.32 form
// (PreFilter computes the pod's PV topologies and skips pods without any;
// no PreFilter extensions; with SchedulerQueueingHints on: StorageClass/Add,
// Node/Add|UpdateNodeLabel, PersistentVolumeClaim/Add|Update and
// PersistentVolume/Add|Update). Tests from volume_zone_test.go;
// docs/semantics/volumezone.md.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_VOLUMEZONE_VOLUME_ZONE_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_VOLUMEZONE_VOLUME_ZONE_H_

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"

namespace schedref::reference::framework::plugins::volumezone {

inline constexpr char kErrReasonConflict[] = "node(s) had no available volume zone";

// One topology label of a PersistentVolume: the values a node's label must
// take one of.
struct PVTopology {
  std::string pv_name;
  std::string key;  // one of the four topology labels
  std::set<std::string> values;
  friend bool operator==(const PVTopology&, const PVTopology&) = default;
};

// The four topology labels, in the order every loop walks them: beta zone,
// beta region, GA zone, GA region.
const std::vector<std::string>& TopologyLabels();

// k8s.io/cloud-provider volume/helpers LabelZonesToSet: `value` split on
// "__", each piece trimmed; nullopt iff some piece is empty.
std::optional<std::set<std::string>> LabelZonesToSet(const std::string& value);

// The PV's topology labels in TopologyLabels() order; a label whose value
// LabelZonesToSet refuses is left out.
std::vector<PVTopology> GetPVTopologies(const api::PersistentVolume& pv);

class VolumeZone final : public PreFilterPlugin,
                         public FilterPlugin,
                         public EnqueueExtensions {
 public:
  // Takes no args.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  explicit VolumeZone(Handle* handle) : handle_(handle) {}

  std::string Name() const override;

  // UnschedulableAndUnresolvable for the first of the pod's claims that is
  // missing, unbound without a WaitForFirstConsumer class, or bound to a
  // missing PV; Skip iff no claim contributes a topology; else stores the
  // topologies.
  PreFilterOutput PreFilter(CycleState& state, const api::Pod& pod,
                            const std::vector<const NodeInfo*>& nodes) override;
  // UnschedulableAndUnresolvable kErrReasonConflict iff the node has a
  // topology label and some PV topology's key (or its GA form) is missing on
  // the node or has a value outside the PV's.
  Status Filter(CycleState& state, const api::Pod& pod,
                const NodeInfo& node) override;

  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Queue iff the added class binds WaitForFirstConsumer.
  static StatusOr<QueueingHint> IsSchedulableAfterStorageClassAdded(
      const api::Pod& pod, const EventObject& old_obj, const EventObject& new_obj);
  // Queue iff the claim is in the pod's namespace and one of its
  // persistentVolumeClaim volumes names it.
  static StatusOr<QueueingHint> IsSchedulableAfterPersistentVolumeClaimChange(
      const api::Pod& pod, const EventObject& old_obj, const EventObject& new_obj);
  // Queue for an added PV, and for an update that changes GetPVTopologies.
  static StatusOr<QueueingHint> IsSchedulableAfterPersistentVolumeChange(
      const api::Pod& pod, const EventObject& old_obj, const EventObject& new_obj);

 private:
  // getPVbyPod: appends the topologies of the pod's claims to *out;
  // a non-success status is the pod's rejection.
  Status PodPVTopologies(const api::Pod& pod, std::vector<PVTopology>* out) const;

  Handle* handle_;
};

}  // namespace schedref::reference::framework::plugins::volumezone

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_VOLUMEZONE_VOLUME_ZONE_H_
