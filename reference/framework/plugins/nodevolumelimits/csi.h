// NodeVolumeLimits: a node must not end up with more unique volumes of a CSI
// driver than its CSINode allows. Specification: upstream
// pkg/scheduler/framework/plugins/nodevolumelimits/csi.go and utils.go,
// v1.32 (limits from CSINode drivers[].allocatable.count only; in-tree
// AWS EBS, GCE PD, Azure Disk and Cinder volumes counted through CSI
// migration, Portworx when the CSINode lists it as migrated); rules in
// docs/semantics/nodevolumelimits.md. Tests from csi_test.go
// (testing/upstream/framework/plugins/nodevolumelimits).
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODEVOLUMELIMITS_CSI_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODEVOLUMELIMITS_CSI_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/events.h"
#include "reference/framework/interface.h"

namespace schedref::reference::framework::plugins::nodevolumelimits {

inline constexpr char kErrReasonMaxVolumeCountExceeded[] =
    "node(s) exceed max volume count";

// True iff `csi_node` (nullptr: absent) says the in-tree plugin's volumes
// are handled by its CSI driver (utils.go isCSIMigrationOn, v1.32: always
// for AWS EBS, GCE PD, Azure Disk and Cinder; Portworx iff the node's
// migrated-plugins annotation lists it, the CSIMigrationPortworx gate being
// on by default; never for any other plugin or without a CSINode).
bool IsCsiMigrationOn(const api::CSINode* csi_node, const std::string& plugin);

class CSILimits final : public PreFilterPlugin,
                        public FilterPlugin,
                        public EnqueueExtensions {
 public:
  // Takes no args.
  static StatusOr<std::unique_ptr<Plugin>> New(const nlohmann::json& args,
                                               Handle* handle);
  explicit CSILimits(Handle* handle) : handle_(handle) {}

  std::string Name() const override;

  // Skip iff no volume is a claim, a generic ephemeral volume or an inline
  // in-tree volume of a migratable plugin.
  PreFilterOutput PreFilter(CycleState& state, const api::Pod& pod,
                            const std::vector<const NodeInfo*>& nodes) override;
  // Unschedulable kErrReasonMaxVolumeCountExceeded iff, for a driver the pod
  // adds a volume of and whose CSINode entry has a limit, the unique
  // volumes of the node's pods plus the pod's new ones exceed it.
  // UnschedulableAndUnresolvable if the pod's claim does not exist; Error
  // for a malformed ephemeral claim or inline volume.
  Status Filter(CycleState& state, const api::Pod& pod,
                const NodeInfo& node) override;

  // CSINode/Add (no hint), Pod/Delete, PersistentVolumeClaim/Add.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Queue iff the deleted pod was bound and had a claim, a generic
  // ephemeral volume or a migratable inline volume.
  static StatusOr<QueueingHint> IsSchedulableAfterPodDeleted(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj);
  // Queue iff the added claim is in the pod's namespace and is one of its
  // claims (by claimName, or "<pod>-<volume>" of an ephemeral volume).
  static StatusOr<QueueingHint> IsSchedulableAfterPVCAdded(
      const api::Pod& pod, const EventObject& old_obj,
      const EventObject& new_obj);

 private:
  // A volume the plugin counts, as upstream's map key
  // "<driver>/<handle>"; `unbound` marks the handle upstream makes for a
  // claim counted through its StorageClass (random prefix + "-" +
  // namespace/name), which never equals a real volume's.
  struct VolumeKey {
    bool unbound = false;
    std::string name;
    friend auto operator<=>(const VolumeKey&, const VolumeKey&) = default;
  };
  // Volume key -> driver.
  using Volumes = std::map<VolumeKey, std::string>;

  // Adds the countable volumes of `pod` to `out` (filterAttachableVolumes).
  // For the pod being scheduled (`new_pod`) a missing claim is an error,
  // NotFound; for a pod on the node it is ignored. Other errors are Invalid.
  schedref::Status AttachableVolumes(const api::Pod& pod, const api::CSINode* csi_node,
                           bool new_pod, Volumes* out) const;

  Handle* handle_;  // not owned
};

}  // namespace schedref::reference::framework::plugins::nodevolumelimits

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_PLUGINS_NODEVOLUMELIMITS_CSI_H_
