// NodeVolumeLimits: a node must not end up with more unique volumes of a CSI
// driver than its CSINode allows. Specification: upstream
// pkg/scheduler/framework/plugins/nodevolumelimits/csi.go and utils.go,
// v1.32; docs/semantics/nodevolumelimits.md. Tests shared with the
// reference: testing/upstream/framework/plugins/nodevolumelimits.
//
// Speed: PreFilter skips every pod without a countable volume, and Filter
// returns before looking at the node's pods unless the pod adds a volume
// and the node's CSINode has a limit; pods on the node without a countable
// volume are passed over without a lookup. Nothing is cached across
// cycles: claims, PVs and CSINodes change under the plugin.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEVOLUMELIMITS_CSI_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEVOLUMELIMITS_CSI_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/framework/interface.h"

namespace schedref::optimized::framework::plugins::nodevolumelimits {

inline constexpr char kErrReasonMaxVolumeCountExceeded[] =
    "node(s) exceed max volume count";

// True iff `csi_node` (nullptr: absent) says the in-tree plugin's volumes
// are handled by its CSI driver (utils.go isCSIMigrationOn, v1.32).
bool IsCsiMigrationOn(const api::CSINode* csi_node, const std::string& plugin);

class CSILimits final : public PreFilterPlugin,
                        public FilterPlugin,
                        public EnqueueExtensions {
 public:
  // Takes no args.
  static StatusOr<std::unique_ptr<framework::Plugin>> New(const nlohmann::json& args,
                                                          framework::Handle* handle);
  explicit CSILimits(framework::Handle* handle) : handle_(handle) {}

  std::string Name() const override;

  // Skip iff no volume is a claim, a generic ephemeral volume or an inline
  // in-tree volume of a migratable plugin.
  PreFilterOutput PreFilter(CycleState& state, const PodInfo& pod,
                            const std::vector<NodeInfo*>& nodes) override;
  // Unschedulable kErrReasonMaxVolumeCountExceeded iff, for a driver the pod
  // adds a volume of and whose CSINode entry has a limit, the unique
  // volumes of the node's pods plus the pod's new ones exceed it.
  // UnschedulableAndUnresolvable if the pod's claim does not exist; Error
  // for a malformed ephemeral claim or inline volume.
  Status Filter(const CycleState& state, const PodInfo& pod,
                const NodeInfo& node) const override;

  // CSINode/Add (no hint), Pod/Delete, PersistentVolumeClaim/Add.
  std::vector<ClusterEventWithHint> EventsToRegister() const override;

  // Queue iff the deleted pod was bound and had a claim, a generic
  // ephemeral volume or a migratable inline volume.
  static StatusOr<QueueingHint> IsSchedulableAfterPodDeleted(const api::Pod& pod,
                                                             const EventObjects& objects);
  // Queue iff the added claim is in the pod's namespace and is one of its
  // claims (by claimName, or "<pod>-<volume>" of an ephemeral volume).
  static StatusOr<QueueingHint> IsSchedulableAfterPVCAdded(const api::Pod& pod,
                                                           const EventObjects& objects);

 private:
  // Upstream's key "<driver>/<handle>"; `unbound` stands for the random
  // prefix of a claim counted through its StorageClass.
  struct VolumeKey {
    bool unbound = false;
    std::string name;
    friend auto operator<=>(const VolumeKey&, const VolumeKey&) = default;
  };
  using Volumes = std::map<VolumeKey, std::string>;  // key -> driver

  // filterAttachableVolumes: NotFound for a missing claim of the pod being
  // scheduled (`new_pod`), Invalid for other errors.
  schedref::Status AttachableVolumes(const api::Pod& pod, const api::CSINode* csi_node,
                                     bool new_pod, Volumes* out) const;

  framework::Handle* handle_;  // not owned
};

}  // namespace schedref::optimized::framework::plugins::nodevolumelimits

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEVOLUMELIMITS_CSI_H_
