// The volume binder VolumeBinding runs: which of a pod's claims are bound,
// which PVs an unbound WaitForFirstConsumer claim could take on a node, and
// whether the rest can be provisioned there; and the assume view through
// which a reserved binding hides its PVs from later pods. Specification:
// upstream pkg/scheduler/framework/plugins/volumebinding/binder.go,
// assume_cache.go, pkg/scheduler/util/assumecache and
// component-helpers/storage/volume (FindMatchingVolume, CheckNodeAffinity),
// v1.32; docs/semantics/volumebinding.md.
//
// The same algorithm as the reference's: its work is per pod (the pod's
// claims against its classes' PVs), not per node pair, so nothing is indexed.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_VOLUMEBINDING_BINDER_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_VOLUMEBINDING_BINDER_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/status.h"
#include "api/types/objects.h"

namespace schedref::optimized::framework::plugins::volumebinding {

inline constexpr char kErrReasonBindConflict[] =
    "node(s) didn't find available persistent volumes to bind";
inline constexpr char kErrReasonNodeConflict[] =
    "node(s) had volume node affinity conflict";
inline constexpr char kErrReasonNotEnoughSpace[] =
    "node(s) did not have enough free storage";
inline constexpr char kErrReasonPVNotExist[] =
    "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";
inline constexpr char kErrUnboundImmediate[] =
    "pod has unbound immediate PersistentVolumeClaims";
inline constexpr char kNoProvisioner[] = "kubernetes.io/no-provisioner";

// The assume cache (util/assumecache) over the informers' PVs and PVCs:
// an assumed object replaces the informer's until the informer's object
// changes (upstream: an informer event with a newer resourceVersion
// overwrites the assumed object) or the assumption is restored.
//
// Note: objects here have no resourceVersion (docs/deviations.md,
// VolumeBinding). Each assumption keeps the informer object it was made
// over and is in force iff the informer still holds exactly that object:
// every API write changes the object, so "the informer's object changed"
// stands for "a newer resourceVersion arrived".
class AssumeView {
 public:
  // The latest PV / PVC (assumed if an assumption is in force, else the
  // informer's); nullptr iff the informer has none.
  const api::PersistentVolume* Volume(const api::StorageObjects& listers,
                                      const std::string& name) const;
  const api::PersistentVolumeClaim* Claim(const api::StorageObjects& listers,
                                          const std::string& ns,
                                          const std::string& name) const;
  // Every latest PV whose class (GetPersistentVolumeClass) is `class_name`,
  // by name.
  std::vector<api::PersistentVolume> ListVolumes(const api::StorageObjects& listers,
                                                 const std::string& class_name) const;

  // Assume: error `could not find v1.PersistentVolume "<name>"` iff the
  // informer has no such object.
  [[nodiscard]] schedref::Status AssumeVolume(const api::StorageObjects& listers,
                                              const api::PersistentVolume& pv);
  [[nodiscard]] schedref::Status AssumeClaim(const api::StorageObjects& listers,
                                             const api::PersistentVolumeClaim& pvc);
  // Restore: back to the informer's object; a missing key is ignored.
  void RestoreVolume(const std::string& name);
  void RestoreClaim(const std::string& key);

 private:
  template <typename T>
  struct Assumed {
    T api;  // the informer's object when assumed
    T latest;
  };
  std::map<std::string, Assumed<api::PersistentVolume>> volumes_;
  std::map<std::string, Assumed<api::PersistentVolumeClaim>> claims_;
};

// GetPersistentVolumeClaimClass: the beta annotation if present (even ""),
// else spec.storageClassName, else "".
std::string ClaimClass(const api::PersistentVolumeClaim& pvc);
// GetPersistentVolumeClass: the beta annotation if present, else
// spec.storageClassName.
std::string VolumeClass(const api::PersistentVolume& pv);
// Fully bound: spec.volumeName set and the bind-completed annotation present.
bool ClaimFullyBound(const api::PersistentVolumeClaim& pvc);
// The claim reference names `pvc` (uid equal, or the claimRef uid empty).
bool VolumeBoundToClaim(const api::PersistentVolume& pv,
                        const api::PersistentVolumeClaim& pvc);
// volumeutil.CheckNodeAffinity: no required affinity, or it matches a node
// that has only `labels`.
bool VolumeNodeAffinityMatches(const api::PersistentVolume& pv, const api::Labels& labels);

// The claim name of a pod volume ("<pod>-<volume>" for a generic ephemeral
// one), or nullopt for a volume that is no claim.
std::optional<std::string> PodVolumeClaimName(const api::Pod& pod, const api::Volume& volume);
// True iff the pod's ephemeral claim is controlled by the pod.
bool ClaimIsForPod(const api::Pod& pod, const api::PersistentVolumeClaim& pvc);
std::string NotOwnerMessage(const api::Pod& pod, const api::PersistentVolumeClaim& pvc);

// PodVolumeClaims: the pod's claims split as GetPodVolumeClaims does, plus
// each WaitForFirstConsumer class's PVs as PreFilter saw them.
struct PodVolumeClaims {
  std::vector<api::PersistentVolumeClaim> bound;
  std::vector<api::PersistentVolumeClaim> unbound_delay_binding;
  std::vector<api::PersistentVolumeClaim> unbound_immediate;
  std::map<std::string, std::vector<api::PersistentVolume>> unbound_volumes_delay_binding;
  // The latest PV of each bound claim (nullopt: none), in `bound`'s order,
  // looked up once here instead of on every node: storage does not change
  // between PreFilter and Reserve.
  std::vector<std::optional<api::PersistentVolume>> bound_volumes;
};

// GetPodVolumeClaims over the latest objects.
StatusOr<PodVolumeClaims> GetPodVolumeClaims(const api::Pod& pod,
                                             const api::StorageObjects& listers,
                                             const AssumeView& view);

struct BindingInfo {
  api::PersistentVolumeClaim pvc;
  api::PersistentVolume pv;
};
// What the pod needs on a node: PVs to bind (static) and claims to
// provision (dynamic).
struct PodVolumes {
  std::vector<BindingInfo> static_bindings;
  std::vector<api::PersistentVolumeClaim> dynamic_provisions;
};

struct FindResult {
  PodVolumes volumes;
  // In upstream's order: NodeConflict, BindConflict, NotEnoughSpace,
  // PVNotExist.
  std::vector<std::string> reasons;
};

// FindPodVolumes over the PVs and claims GetPodVolumeClaims took. Errors
// are internal problems (Filter's Error).
StatusOr<FindResult> FindPodVolumes(const api::Pod& pod, const PodVolumeClaims& claims,
                                    const api::Node& node,
                                    const api::StorageObjects& listers);

// AssumePodVolumes: true iff every claim of the pod is fully bound already
// (nothing assumed). Otherwise assumes the chosen PVs bound to their claims
// and the provisioned claims with the selected node, rewriting `volumes` to
// the assumed objects.
StatusOr<bool> AssumePodVolumes(const api::Pod& pod, const std::string& node_name,
                                PodVolumes& volumes, const api::StorageObjects& listers,
                                AssumeView& view);
// RevertAssumedPodVolumes.
void RevertAssumedPodVolumes(const PodVolumes& volumes, AssumeView& view);

}  // namespace schedref::optimized::framework::plugins::volumebinding

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_VOLUMEBINDING_BINDER_H_
