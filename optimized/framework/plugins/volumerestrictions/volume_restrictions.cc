#include "optimized/framework/plugins/volumerestrictions/volume_restrictions.h"

#include <algorithm>
#include <utility>

#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::volumerestrictions {
namespace {

// What PreFilter stores. The claim names never change once written, so
// clones share them; the count is copied.
struct PreFilterState final : StateData {
  // Names (no namespace) of the pod's ReadWriteOncePod claims, sorted and
  // distinct.
  std::shared_ptr<const std::vector<std::string>> rwop_claims;
  int conflicting_pvc_ref_count = 0;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
};

const int kPreFilterKey = CycleState::NewKey();

bool IsClaim(const api::Volume& v) { return v.source.kind == "persistentVolumeClaim"; }

bool NeedsRestrictionsCheck(const api::Volume& v) {
  const std::string& k = v.source.kind;
  return k == "gcePersistentDisk" || k == "awsElasticBlockStore" || k == "rbd" || k == "iscsi";
}

bool HaveOverlap(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  for (const std::string& x : a) {
    if (std::find(b.begin(), b.end(), x) != b.end()) return true;
  }
  return false;
}

bool Contains(const std::vector<std::string>& sorted, const std::string& name) {
  return std::binary_search(sorted.begin(), sorted.end(), name);
}

int ClaimRefs(const api::Pod& pod, const std::vector<std::string>& claims) {
  int n = 0;
  for (const api::Volume& v : pod.volumes) {
    if (IsClaim(v) && Contains(claims, v.source.claim_name)) ++n;
  }
  return n;
}

bool SatisfyVolumeConflicts(const api::Pod& pod, const api::Pod& existing) {
  for (const api::Volume& v : pod.volumes) {
    if (NeedsRestrictionsCheck(v) && IsVolumeConflict(v, existing)) return false;
  }
  return true;
}

Status MissingState() {
  return Status::Error(std::string("cannot read \"PreFilter") + names::kVolumeRestrictions +
                       "\" from cycleState");
}

}  // namespace

bool IsVolumeConflict(const api::Volume& volume, const api::Pod& existing) {
  const api::VolumeSource& v = volume.source;
  for (const api::Volume& other : existing.volumes) {
    const api::VolumeSource& e = other.source;
    if (v.kind != e.kind) continue;
    const bool both_read_only = v.read_only && e.read_only;
    if (v.kind == "gcePersistentDisk") {
      if (v.pd_name == e.pd_name && !both_read_only) return true;
    } else if (v.kind == "awsElasticBlockStore") {
      if (v.volume_id == e.volume_id) return true;
    } else if (v.kind == "iscsi") {
      if (v.iqn == e.iqn && !both_read_only) return true;
    } else if (v.kind == "rbd") {
      if (v.pool == e.pool && v.image == e.image && !both_read_only &&
          HaveOverlap(v.monitors, e.monitors)) {
        return true;
      }
    }
  }
  return false;
}

StatusOr<std::unique_ptr<framework::Plugin>> VolumeRestrictions::New(
    const nlohmann::json& /*args*/, framework::Handle* handle) {
  return std::unique_ptr<framework::Plugin>(new VolumeRestrictions(handle));
}

std::string VolumeRestrictions::Name() const { return names::kVolumeRestrictions; }

PreFilterOutput VolumeRestrictions::PreFilter(CycleState& state, const PodInfo& pod_info,
                                              const std::vector<NodeInfo*>& nodes) {
  const api::Pod& pod = pod_info.pod;
  if (pod.volumes.empty()) return {std::nullopt, Status::Skip()};
  bool needs_check = false;
  std::vector<std::string> rwop;
  const api::StorageObjects& storage = handle_->StorageListers();
  for (const api::Volume& v : pod.volumes) {
    needs_check = needs_check || NeedsRestrictionsCheck(v);
    if (!IsClaim(v)) continue;
    const api::PersistentVolumeClaim* pvc = storage.Claim(pod.ns, v.source.claim_name);
    if (pvc == nullptr) {
      return {std::nullopt, Status(Code::kUnschedulableAndUnresolvable,
                                   "persistentvolumeclaim \"" + v.source.claim_name +
                                       "\" not found")};
    }
    const auto& modes = pvc->spec.access_modes;
    if (std::find(modes.begin(), modes.end(), api::kReadWriteOncePod) != modes.end()) {
      rwop.push_back(pvc->name);
    }
  }
  std::sort(rwop.begin(), rwop.end());
  rwop.erase(std::unique(rwop.begin(), rwop.end()), rwop.end());
  int count = 0;
  if (!rwop.empty()) {
    // Which of the claims a pod on a listed node uses ("<ns>/<claim>" in
    // upstream's usedPVCSet).
    std::vector<bool> used(rwop.size(), false);
    for (const NodeInfo* node : nodes) {
      for (const PodInfoPtr& p : node->pods()) {
        if (p->pod.ns != pod.ns) continue;
        for (const api::Volume& v : p->pod.volumes) {
          if (!IsClaim(v)) continue;
          auto it = std::lower_bound(rwop.begin(), rwop.end(), v.source.claim_name);
          if (it != rwop.end() && *it == v.source.claim_name) used[it - rwop.begin()] = true;
        }
      }
    }
    count = static_cast<int>(std::count(used.begin(), used.end(), true));
  }
  if (!needs_check && count == 0) return {std::nullopt, Status::Skip()};
  auto data = std::make_unique<PreFilterState>();
  data->rwop_claims = std::make_shared<const std::vector<std::string>>(std::move(rwop));
  data->conflicting_pvc_ref_count = count;
  state.Write(kPreFilterKey, std::move(data));
  return {std::nullopt, Status::Success()};
}

Status VolumeRestrictions::AddPod(CycleState& state, const PodInfo& /*pod_to_schedule*/,
                                  const PodInfo& pod_to_add, const NodeInfo& /*node*/) {
  auto* s = state.ReadAs<PreFilterState>(kPreFilterKey);
  if (s == nullptr) return MissingState();
  s->conflicting_pvc_ref_count += ClaimRefs(pod_to_add.pod, *s->rwop_claims);
  return Status::Success();
}

Status VolumeRestrictions::RemovePod(CycleState& state, const PodInfo& /*pod_to_schedule*/,
                                     const PodInfo& pod_to_remove, const NodeInfo& /*node*/) {
  auto* s = state.ReadAs<PreFilterState>(kPreFilterKey);
  if (s == nullptr) return MissingState();
  s->conflicting_pvc_ref_count -= ClaimRefs(pod_to_remove.pod, *s->rwop_claims);
  return Status::Success();
}

Status VolumeRestrictions::Filter(const CycleState& state, const PodInfo& pod,
                                  const NodeInfo& node) const {
  for (const api::Volume& v : pod.pod.volumes) {
    if (!NeedsRestrictionsCheck(v)) continue;
    for (const PodInfoPtr& existing : node.pods()) {
      if (IsVolumeConflict(v, existing->pod)) {
        return SharedRejectionOf<Code::kUnschedulable, kErrReasonDiskConflict,
                                 names::kVolumeRestrictions>();
      }
    }
  }
  const auto* s = state.ReadAs<PreFilterState>(kPreFilterKey);
  if (s == nullptr) return MissingState();
  if (s->conflicting_pvc_ref_count > 0) {
    return SharedRejectionOf<Code::kUnschedulable, kErrReasonReadWriteOncePodConflict,
                             names::kVolumeRestrictions>();
  }
  return Status::Success();
}

std::vector<ClusterEventWithHint> VolumeRestrictions::EventsToRegister() const {
  return {
      {{EventResource::kPod, kDelete, "PodDelete"},
       &VolumeRestrictions::IsSchedulableAfterPodDeleted},
      {{EventResource::kNode, kAdd, "NodeAdd"}, nullptr},
      {{EventResource::kPersistentVolumeClaim, kAdd, "PersistentVolumeClaimAdd"},
       &VolumeRestrictions::IsSchedulableAfterPersistentVolumeClaimAdded},
  };
}

StatusOr<QueueingHint> VolumeRestrictions::IsSchedulableAfterPodDeleted(
    const api::Pod& pod, const EventObjects& objects) {
  const api::Pod* deleted = objects.old_pod;
  if (deleted == nullptr || deleted->ns != pod.ns) return QueueingHint::kSkip;
  if (!SatisfyVolumeConflicts(pod, *deleted)) return QueueingHint::kQueue;
  for (const api::Volume& dv : deleted->volumes) {
    if (!IsClaim(dv)) continue;
    for (const api::Volume& v : pod.volumes) {
      if (IsClaim(v) && v.source.claim_name == dv.source.claim_name) return QueueingHint::kQueue;
    }
  }
  return QueueingHint::kSkip;
}

StatusOr<QueueingHint> VolumeRestrictions::IsSchedulableAfterPersistentVolumeClaimAdded(
    const api::Pod& pod, const EventObjects& objects) {
  const api::PersistentVolumeClaim* pvc = objects.new_pvc;
  if (pvc == nullptr || pvc->ns != pod.ns) return QueueingHint::kSkip;
  for (const api::Volume& v : pod.volumes) {
    if (IsClaim(v) && v.source.claim_name == pvc->name) return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

}  // namespace schedref::optimized::framework::plugins::volumerestrictions
