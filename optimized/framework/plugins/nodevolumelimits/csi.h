// NodeVolumeLimits: a node must not end up with more unique volumes of a CSI
// driver than its CSINode allows. Specification: upstream
// pkg/scheduler/framework/plugins/nodevolumelimits/csi.go and utils.go,
// v1.32; docs/semantics/nodevolumelimits.md. Tests shared with the
// reference: testing/upstream/framework/plugins/nodevolumelimits.
//
// Speed: PreFilter skips every pod without a countable volume and looks up
// the pod's claims, PVs and classes once per cycle (what of a volume does
// not depend on the node: all but the CSINode's migration of in-tree
// plugins). What a node's pods attach is kept per node from one cycle to
// the next (helper::NodeMemo) for as long as neither the node's pods nor
// any storage object changed (Handle::StorageRevision); docs/optimized.md
// "NodeVolumeLimits".
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEVOLUMELIMITS_CSI_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEVOLUMELIMITS_CSI_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"
#include "api/types/objects.h"
#include "optimized/framework/interface.h"
#include "optimized/framework/plugins/helper/node_memo.h"

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

  // One pod volume as far as filterAttachableVolumes' answer does not
  // depend on the node: the claim, PV and StorageClass looked up, the
  // in-tree volume translated. What is left for a node is whether its
  // CSINode migrates `migration_plugin`.
  struct ResolvedVolume {
    // Not counted on any node (no driver or handle, a PV that does not
    // translate, a class that does not exist).
    bool counted = false;
    // Counted only where this in-tree plugin is migrated; empty: always.
    std::string migration_plugin;
    VolumeKey key;
    std::string driver;
    // The error filterAttachableVolumes returns where it reaches this
    // volume (for an inline volume: only where it is migrated). NotFound
    // (a missing claim) is an error for the pod being scheduled only.
    std::optional<schedref::Status> error;
  };
  using ResolvedVolumes = std::vector<ResolvedVolume>;

  // What a node's pods attach: filterAttachableVolumes over each of them
  // and the CSINode's limits, or the first error.
  struct Attached {
    const api::CSINode* csi_node = nullptr;
    std::optional<schedref::Status> error;
    Volumes volumes;
    std::map<std::string, int64_t> count;  // driver -> unique volumes
  };

  ResolvedVolumes Resolve(const api::Pod& pod) const;
  // filterAttachableVolumes of resolved volumes on a node with `csi_node`:
  // NotFound for a missing claim of the pod being scheduled (`new_pod`),
  // Invalid for other errors.
  static schedref::Status Apply(const ResolvedVolumes& resolved, const api::CSINode* csi_node,
                                bool new_pod, Volumes* out);
  Attached ComputeAttached(const NodeInfo& node) const;
  // The memo's entry for `node` iff fresh, else nullptr.
  const Attached* MemoFor(const NodeInfo& node) const;

  framework::Handle* handle_;  // not owned

  // What ComputeAttached gave for each snapshot position, valid for the
  // NodeInfos memo_ says are fresh while the storage revision is
  // memo_revision_. Written by PreFilter only (one thread); Filter reads.
  helper::NodeMemo memo_;
  std::vector<Attached> attached_;
  int64_t memo_revision_ = -1;
  std::vector<size_t> stale_;  // PreFilter's scratch
};

}  // namespace schedref::optimized::framework::plugins::nodevolumelimits

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEVOLUMELIMITS_CSI_H_
