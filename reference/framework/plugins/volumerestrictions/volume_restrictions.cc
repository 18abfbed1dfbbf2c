#include "reference/framework/plugins/volumerestrictions/volume_restrictions.h"

#include <set>
#include <utility>

#include "reference/framework/plugins/helper/event_objects.h"
#include "reference/framework/plugins/helper/typed_state.h"
#include "reference/framework/plugins/names/names.h"

namespace schedref::reference::framework::plugins::volumerestrictions {
namespace {

const std::string kPreFilterStateKey = std::string("PreFilter") + names::kVolumeRestrictions;

struct PreFilterState {
  // Names (no namespace) of the pod's claims with the ReadWriteOncePod
  // access mode.
  std::set<std::string> read_write_once_pod_pvcs;
  // How many of them pods use; adjusted by AddPod/RemovePod (may go
  // negative: only > 0 is tested).
  int conflicting_pvc_ref_count = 0;
};

bool IsClaim(const api::Volume& v) { return v.source.kind == "persistentVolumeClaim"; }

// needsRestrictionsCheck.
bool NeedsRestrictionsCheck(const api::Volume& v) {
  const std::string& k = v.source.kind;
  return k == "gcePersistentDisk" || k == "awsElasticBlockStore" || k == "rbd" || k == "iscsi";
}

bool HaveOverlap(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  for (const std::string& x : a) {
    for (const std::string& y : b) {
      if (x == y) return true;
    }
  }
  return false;
}

// refs: the pod's claim volumes naming one of `claims` (namespaces are not
// compared, as upstream).
int ClaimRefs(const api::Pod& pod, const std::set<std::string>& claims) {
  int n = 0;
  for (const api::Volume& v : pod.volumes) {
    if (IsClaim(v) && claims.contains(v.source.claim_name)) ++n;
  }
  return n;
}

// Snapshot.IsPVCUsedByPods("<ns>/<claim>"): a pod on a node of the snapshot
// (bound or assumed) has a claim volume naming the claim.
bool IsPVCUsedByPods(const Snapshot& snapshot, const std::string& ns, const std::string& claim) {
  for (const NodeInfo& node : snapshot.List()) {
    for (const api::Pod& p : node.pods) {
      if (p.ns != ns) continue;
      for (const api::Volume& v : p.volumes) {
        if (IsClaim(v) && v.source.claim_name == claim) return true;
      }
    }
  }
  return false;
}

Status MissingState() {
  return Status::Error("cannot read \"" + kPreFilterStateKey + "\" from cycleState");
}

}  // namespace

bool IsVolumeConflict(const api::Volume& volume, const api::Pod& existing) {
  const api::VolumeSource& v = volume.source;
  for (const api::Volume& other : existing.volumes) {
    const api::VolumeSource& e = other.source;
    if (v.kind != e.kind) continue;
    const bool both_read_only = v.read_only && e.read_only;
    if (v.kind == "gcePersistentDisk" && v.pd_name == e.pd_name && !both_read_only) return true;
    if (v.kind == "awsElasticBlockStore" && v.volume_id == e.volume_id) return true;
    if (v.kind == "iscsi" && v.iqn == e.iqn && !both_read_only) return true;
    if (v.kind == "rbd" && HaveOverlap(v.monitors, e.monitors) && v.pool == e.pool &&
        v.image == e.image && !both_read_only) {
      return true;
    }
  }
  return false;
}

bool SatisfyVolumeConflicts(const api::Pod& pod, const std::vector<api::Pod>& pods) {
  for (const api::Volume& v : pod.volumes) {
    if (!NeedsRestrictionsCheck(v)) continue;
    for (const api::Pod& existing : pods) {
      if (IsVolumeConflict(v, existing)) return false;
    }
  }
  return true;
}

StatusOr<std::unique_ptr<Plugin>> VolumeRestrictions::New(const nlohmann::json& /*args*/,
                                                          Handle* handle) {
  return std::unique_ptr<Plugin>(new VolumeRestrictions(handle));
}

std::string VolumeRestrictions::Name() const { return names::kVolumeRestrictions; }

PreFilterOutput VolumeRestrictions::PreFilter(CycleState& state, const api::Pod& pod,
                                              const std::vector<const NodeInfo*>& /*nodes*/) {
  bool needs_check = false;
  for (const api::Volume& v : pod.volumes) needs_check = needs_check || NeedsRestrictionsCheck(v);

  PreFilterState s;
  const api::StorageObjects& storage = handle_->StorageListers();
  // Every claim is looked up, whatever its access mode.
  for (const api::Volume& v : pod.volumes) {
    if (!IsClaim(v)) continue;
    const api::PersistentVolumeClaim* pvc = storage.Claim(pod.ns, v.source.claim_name);
    if (pvc == nullptr) {
      return {std::nullopt, Status(Code::kUnschedulableAndUnresolvable,
                                   "persistentvolumeclaim \"" + v.source.claim_name +
                                       "\" not found")};
    }
    for (const std::string& mode : pvc->spec.access_modes) {
      if (mode == api::kReadWriteOncePod) s.read_write_once_pod_pvcs.insert(pvc->name);
    }
  }
  const Snapshot& snapshot = handle_->SnapshotSharedLister();
  for (const std::string& claim : s.read_write_once_pod_pvcs) {
    if (IsPVCUsedByPods(snapshot, pod.ns, claim)) ++s.conflicting_pvc_ref_count;
  }
  if (!needs_check && s.conflicting_pvc_ref_count == 0) return {std::nullopt, Status::Skip()};
  helper::WriteState(state, kPreFilterStateKey, std::move(s));
  return {std::nullopt, Status::Success()};
}

Status VolumeRestrictions::AddPod(CycleState& state, const api::Pod& /*pod_to_schedule*/,
                                  const api::Pod& pod_to_add, const NodeInfo& /*node*/) {
  auto* data = dynamic_cast<helper::TypedState<PreFilterState>*>(state.Read(kPreFilterStateKey));
  if (data == nullptr) return MissingState();
  data->value.conflicting_pvc_ref_count +=
      ClaimRefs(pod_to_add, data->value.read_write_once_pod_pvcs);
  return Status::Success();
}

Status VolumeRestrictions::RemovePod(CycleState& state, const api::Pod& /*pod_to_schedule*/,
                                     const api::Pod& pod_to_remove, const NodeInfo& /*node*/) {
  auto* data = dynamic_cast<helper::TypedState<PreFilterState>*>(state.Read(kPreFilterStateKey));
  if (data == nullptr) return MissingState();
  data->value.conflicting_pvc_ref_count -=
      ClaimRefs(pod_to_remove, data->value.read_write_once_pod_pvcs);
  return Status::Success();
}

Status VolumeRestrictions::Filter(CycleState& state, const api::Pod& pod, const NodeInfo& node) {
  if (!SatisfyVolumeConflicts(pod, node.pods)) {
    return Status(Code::kUnschedulable, kErrReasonDiskConflict);
  }
  const PreFilterState* s = helper::ReadState<PreFilterState>(state, kPreFilterStateKey);
  if (s == nullptr) return MissingState();
  if (s->conflicting_pvc_ref_count > 0) {
    return Status(Code::kUnschedulable, kErrReasonReadWriteOncePodConflict);
  }
  return Status::Success();
}

std::vector<ClusterEventWithHint> VolumeRestrictions::EventsToRegister() const {
  return {
      // Volumes are immutable, so pod updates cannot matter.
      {{EventResource::kPod, kDelete, "PodDelete"},
       &VolumeRestrictions::IsSchedulableAfterPodDeleted},
      // No hint. With SchedulerQueueingHints on, node updates are left out.
      {{EventResource::kNode, kAdd, "NodeAdd"}, nullptr},
      // accessModes cannot change after creation, so updates cannot matter.
      {{EventResource::kPersistentVolumeClaim, kAdd, "PersistentVolumeClaimAdd"},
       &VolumeRestrictions::IsSchedulableAfterPersistentVolumeClaimAdded},
  };
}

StatusOr<QueueingHint> VolumeRestrictions::IsSchedulableAfterPodDeleted(
    const api::Pod& pod, const EventObject& old_obj, const EventObject& new_obj) {
  auto objs = helper::As<api::Pod>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  const api::Pod* deleted = objs->old_obj;
  if (deleted == nullptr || deleted->ns != pod.ns) return QueueingHint::kSkip;
  if (!SatisfyVolumeConflicts(pod, {*deleted})) return QueueingHint::kQueue;
  for (const api::Volume& dv : deleted->volumes) {
    if (!IsClaim(dv)) continue;
    for (const api::Volume& v : pod.volumes) {
      if (IsClaim(v) && v.source.claim_name == dv.source.claim_name) return QueueingHint::kQueue;
    }
  }
  return QueueingHint::kSkip;
}

StatusOr<QueueingHint> VolumeRestrictions::IsSchedulableAfterPersistentVolumeClaimAdded(
    const api::Pod& pod, const EventObject& old_obj, const EventObject& new_obj) {
  auto objs = helper::As<api::PersistentVolumeClaim>(old_obj, new_obj);
  if (!objs.ok()) return objs.status();
  const api::PersistentVolumeClaim* pvc = objs->new_obj;
  if (pvc == nullptr || pvc->ns != pod.ns) return QueueingHint::kSkip;
  for (const api::Volume& v : pod.volumes) {
    if (IsClaim(v) && v.source.claim_name == pvc->name) return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

}  // namespace schedref::reference::framework::plugins::volumerestrictions
