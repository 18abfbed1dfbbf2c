#include "optimized/framework/plugins/nodevolumelimits/csi.h"

#include <cstdint>
#include <optional>
#include <sstream>

#include "api/storage/csi_translation.h"
#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::nodevolumelimits {
namespace {

namespace csitranslation = api::csitranslation;

// True iff the volume is an inline in-tree volume with a CSI translator
// (csi-translation-lib IsInlineMigratable).
bool IsInlineMigratable(const api::Volume& v) {
  return !csitranslation::InTreePluginName(v.source.kind).empty();
}

// True iff the volume is one this plugin may count: a claim, a generic
// ephemeral volume or a migratable inline volume.
bool MayCount(const api::Volume& v) {
  return v.source.kind == "persistentVolumeClaim" || v.source.kind == "ephemeral" ||
         IsInlineMigratable(v);
}

// True iff filterAttachableVolumes could add anything for `pod` or fail:
// every other volume kind is passed over without a lookup.
bool HasCountableVolume(const api::Pod& pod) {
  for (const api::Volume& v : pod.volumes) {
    if (MayCount(v)) return true;
  }
  return false;
}

// The claim of an ephemeral volume is controlled by its pod
// (ephemeral.VolumeIsForPod).
bool ClaimIsForPod(const api::Pod& pod, const api::PersistentVolumeClaim& claim) {
  if (claim.ns != pod.ns) return false;
  for (const api::OwnerReference& ref : claim.owner_references) {
    if (ref.controller) return ref.uid == pod.uid;
  }
  return false;
}

// The claim's class name: the beta annotation if present (even empty),
// else spec.storageClassName (storagehelpers.GetPersistentVolumeClaimClass).
std::string ClaimClass(const api::PersistentVolumeClaim& claim) {
  auto it = claim.annotations.find(api::kAnnBetaStorageClass);
  if (it != claim.annotations.end()) return it->second;
  return claim.spec.storage_class_name.value_or("");
}

// Driver name and volume key of a claim, or nullopt if it is not counted
// on any node (getCSIDriverInfo and getCSIDriverInfoFromSC);
// `migration_plugin` names the in-tree plugin the node's CSINode must
// migrate for it to be counted.
struct DriverVolume {
  std::string driver;
  bool unbound = false;
  std::string handle;
  std::string migration_plugin;
};

std::optional<DriverVolume> FromStorageClass(const api::StorageObjects& storage,
                                             const api::PersistentVolumeClaim& claim) {
  const std::string class_name = ClaimClass(claim);
  if (class_name.empty()) return std::nullopt;
  const api::StorageClass* sc = storage.Class(class_name);
  if (sc == nullptr) return std::nullopt;
  // Upstream: "<random prefix>-<namespace>/<name>"; VolumeKey::unbound
  // stands for the prefix.
  DriverVolume out{sc->provisioner, true, claim.ns + "/" + claim.name, ""};
  const std::string translated = csitranslation::CsiDriverName(sc->provisioner);
  if (!translated.empty()) {
    out.migration_plugin = sc->provisioner;
    out.driver = translated;
  }
  return out;
}

std::optional<DriverVolume> ClaimDriverVolume(const api::StorageObjects& storage,
                                              const api::PersistentVolumeClaim& claim) {
  const std::string& pv_name = claim.spec.volume_name;
  if (pv_name.empty()) return FromStorageClass(storage, claim);
  const api::PersistentVolume* pv = storage.Volume(pv_name);
  if (pv == nullptr) return FromStorageClass(storage, claim);
  if (pv->source.kind == "csi") {
    return DriverVolume{pv->source.driver, false, pv->source.volume_handle, ""};
  }
  const std::string plugin = csitranslation::InTreePluginName(pv->source.kind);
  if (plugin.empty()) return std::nullopt;
  // A PV that fails to translate is not counted (no error, as upstream).
  StatusOr<std::string> handle = csitranslation::VolumeHandle(pv->source, pv);
  if (!handle.ok()) return std::nullopt;
  return DriverVolume{csitranslation::CsiDriverName(plugin), false, *handle, plugin};
}

// What PreFilter stores: the pod's resolved volumes; immutable once
// written, so clones share it.
template <typename Resolved>
struct PreFilterState final : StateData {
  std::shared_ptr<const Resolved> volumes;
  std::unique_ptr<StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
};

const int kPreFilterKey = CycleState::NewKey();

// The limit of `driver` in the CSINode (drivers[].allocatable.count; the
// last entry of that name counts, as a map filled in order would have it).
std::optional<int64_t> DriverLimit(const api::CSINode& csi_node, const std::string& driver) {
  std::optional<int64_t> limit;
  for (const api::CSINodeDriver& d : csi_node.drivers) {
    if (d.name == driver && d.allocatable_count.has_value()) limit = d.allocatable_count;
  }
  return limit;
}

bool HasLimits(const api::CSINode* csi_node) {
  if (csi_node == nullptr) return false;
  for (const api::CSINodeDriver& d : csi_node->drivers) {
    if (d.allocatable_count.has_value()) return true;
  }
  return false;
}

}  // namespace

bool IsCsiMigrationOn(const api::CSINode* csi_node, const std::string& plugin) {
  if (csi_node == nullptr || plugin.empty()) return false;
  if (plugin == csitranslation::kAwsEbsPlugin || plugin == csitranslation::kGcePdPlugin ||
      plugin == csitranslation::kAzureDiskPlugin || plugin == csitranslation::kCinderPlugin) {
    return true;
  }
  if (plugin != csitranslation::kPortworxPlugin) return false;
  auto it = csi_node->annotations.find(api::kAnnMigratedPlugins);
  if (it == csi_node->annotations.end() || it->second.empty()) return false;
  std::stringstream tokens(it->second);
  for (std::string token; std::getline(tokens, token, ',');) {
    if (token == plugin) return true;
  }
  return false;
}

StatusOr<std::unique_ptr<framework::Plugin>> CSILimits::New(
    const nlohmann::json& /*args*/, framework::Handle* handle) {
  return std::unique_ptr<framework::Plugin>(new CSILimits(handle));
}

std::string CSILimits::Name() const { return names::kNodeVolumeLimits; }

PreFilterOutput CSILimits::PreFilter(CycleState& state, const PodInfo& pod,
                                     const std::vector<NodeInfo*>& /*nodes*/) {
  if (!HasCountableVolume(pod.pod)) return {std::nullopt, Status::Skip()};
  auto data = std::make_unique<PreFilterState<ResolvedVolumes>>();
  data->volumes = std::make_shared<const ResolvedVolumes>(Resolve(pod.pod));
  state.Write(kPreFilterKey, std::move(data));

  // The per-node memo: a storage change forgets it (Filter then computes
  // node by node); once storage held still since the last cycle, it is
  // brought up to date here, where only nodes whose pods changed since
  // are recomputed. So a run whose storage changes every cycle pays no
  // whole-cluster pass per cycle.
  const int64_t revision = handle_->StorageRevision();
  const Snapshot& snapshot = handle_->SnapshotSharedLister();
  memo_.Begin(snapshot);
  if (revision < 0 || revision != memo_revision_) {
    memo_.Clear();
    memo_revision_ = revision;
    return {std::nullopt, Status::Success()};
  }
  attached_.resize(memo_.size());
  const std::vector<NodeInfo*>& list = snapshot.List();
  stale_.clear();
  memo_.StalePositions(list, &stale_);
  for (size_t pos : stale_) {
    attached_[pos] = ComputeAttached(*list[pos]);
    memo_.Set(pos, *list[pos]);
  }
  return {std::nullopt, Status::Success()};
}

CSILimits::ResolvedVolumes CSILimits::Resolve(const api::Pod& pod) const {
  const api::StorageObjects& storage = handle_->StorageListers();
  ResolvedVolumes out;
  for (const api::Volume& v : pod.volumes) {
    ResolvedVolume r;
    std::string claim_name;
    const bool ephemeral = v.source.kind == "ephemeral";
    if (v.source.kind == "persistentVolumeClaim") {
      claim_name = v.source.claim_name;
    } else if (ephemeral) {
      claim_name = pod.name + "-" + v.name;
    } else {
      // checkAttachableInlineVolume.
      const std::string plugin = csitranslation::InTreePluginName(v.source.kind);
      if (plugin.empty()) continue;
      r.migration_plugin = plugin;
      StatusOr<std::string> handle = csitranslation::VolumeHandle(v.source, nullptr);
      if (!handle.ok()) {
        r.error = schedref::Status::Invalid("converting volume(" + v.name + ") from inline to csi: " +
                                            handle.status().message());
      } else {
        r.counted = true;
        r.driver = csitranslation::CsiDriverName(plugin);
        r.key = VolumeKey{false, r.driver + "/" + *handle};
      }
      out.push_back(std::move(r));
      continue;
    }
    if (claim_name.empty()) {
      r.error = schedref::Status::Invalid("PersistentVolumeClaim had no name");
      out.push_back(std::move(r));
      continue;
    }
    const api::PersistentVolumeClaim* claim = storage.Claim(pod.ns, claim_name);
    if (claim == nullptr) {
      r.error = schedref::Status::NotFound("looking up PVC " + pod.ns + "/" + claim_name +
                                           ": persistentvolumeclaim \"" + claim_name +
                                           "\" not found");
    } else if (ephemeral && !ClaimIsForPod(pod, *claim)) {
      r.error = schedref::Status::Invalid("PVC " + claim->ns + "/" + claim->name +
                                          " was not created for pod " + pod.ns + "/" +
                                          pod.name + " (pod is not owner)");
    } else if (std::optional<DriverVolume> dv = ClaimDriverVolume(storage, *claim);
               dv.has_value() && !dv->driver.empty() && !dv->handle.empty()) {
      r.counted = true;
      r.migration_plugin = dv->migration_plugin;
      r.driver = dv->driver;
      r.key = VolumeKey{dv->unbound, dv->driver + "/" + dv->handle};
    } else {
      continue;  // never counted, never an error
    }
    out.push_back(std::move(r));
  }
  return out;
}

schedref::Status CSILimits::Apply(const ResolvedVolumes& resolved, const api::CSINode* csi_node,
                                  bool new_pod, Volumes* out) {
  for (const ResolvedVolume& r : resolved) {
    if (!r.migration_plugin.empty() && !IsCsiMigrationOn(csi_node, r.migration_plugin)) {
      // Not migrated here: an inline volume is passed over, errors
      // included; a claim's volume is not counted.
      continue;
    }
    if (r.error.has_value()) {
      if (r.error->IsNotFound() && !new_pod) continue;
      return *r.error;
    }
    if (r.counted) (*out)[r.key] = r.driver;
  }
  return schedref::Status::Ok();
}

CSILimits::Attached CSILimits::ComputeAttached(const NodeInfo& node) const {
  Attached out;
  out.csi_node = handle_->StorageListers().CsiNode(node.node()->name);
  for (const PodInfoPtr& info : node.pods()) {
    const api::Pod& existing = info->pod;
    if (!HasCountableVolume(existing)) continue;  // adds nothing, errs nowhere
    if (schedref::Status s = Apply(Resolve(existing), out.csi_node, /*new_pod=*/false,
                                   &out.volumes);
        !s.ok()) {
      out.error = s;
      break;
    }
  }
  for (const auto& [key, driver] : out.volumes) ++out.count[driver];
  return out;
}

const CSILimits::Attached* CSILimits::MemoFor(const NodeInfo& node) const {
  if (memo_revision_ < 0 || handle_->StorageRevision() != memo_revision_) return nullptr;
  if (node.index < 0 || static_cast<size_t>(node.index) >= attached_.size()) return nullptr;
  const auto pos = static_cast<size_t>(node.index);
  if (pos >= memo_.size() || !memo_.Fresh(pos, node)) return nullptr;
  return &attached_[pos];
}

Status CSILimits::Filter(const CycleState& state, const PodInfo& pod_info,
                         const NodeInfo& node) const {
  const api::Pod& pod = pod_info.pod;
  if (pod.volumes.empty()) return Status::Success();
  const Attached* memo = MemoFor(node);
  std::optional<Attached> computed;
  // The node's CSINode: the memo's, else looked up (and then what the
  // node's pods attach is computed only if the pod needs it).
  const api::CSINode* csi_node =
      memo != nullptr ? memo->csi_node : handle_->StorageListers().CsiNode(node.node()->name);

  ResolvedVolumes own;
  const ResolvedVolumes* resolved = nullptr;
  if (const auto* s = state.ReadAs<PreFilterState<ResolvedVolumes>>(kPreFilterKey)) {
    resolved = s->volumes.get();
  } else {
    own = Resolve(pod);  // PreFilter did not run (unit tests)
    resolved = &own;
  }
  Volumes new_volumes;
  if (schedref::Status s = Apply(*resolved, csi_node, /*new_pod=*/true, &new_volumes); !s.ok()) {
    return Status(s.IsNotFound() ? Code::kUnschedulableAndUnresolvable : Code::kError,
                  s.message());
  }
  if (new_volumes.empty()) return Status::Success();
  // getVolumeLimits: CSINode drivers[].allocatable.count only.
  if (!HasLimits(csi_node)) return Status::Success();

  if (memo == nullptr) {
    computed = ComputeAttached(node);
    memo = &*computed;
  }
  if (memo->error.has_value()) return Status::Error(memo->error->message());
  // Note: upstream also counts here the volumes of the VolumeAttachments
  // naming this node that no pod on it uses (getNodeVolumeAttachmentInfo);
  // schedref models no VolumeAttachment, so there are none
  // (docs/deviations.md "NodeVolumeLimits").
  std::map<std::string, int64_t> new_count;
  for (const auto& [key, driver] : new_volumes) {
    // A volume shared with a pod on the node counts once.
    if (!memo->volumes.contains(key)) ++new_count[driver];
  }
  for (const auto& [driver, n] : new_count) {
    const std::optional<int64_t> limit = DriverLimit(*csi_node, driver);
    if (!limit.has_value()) continue;
    auto attached = memo->count.find(driver);
    const int64_t used = attached == memo->count.end() ? 0 : attached->second;
    if (used + n > *limit) {
      return SharedRejectionOf<Code::kUnschedulable, kErrReasonMaxVolumeCountExceeded,
                               names::kNodeVolumeLimits>();
    }
  }
  return Status::Success();
}

std::vector<ClusterEventWithHint> CSILimits::EventsToRegister() const {
  return {
      // No hint: a new CSINode may bring limits or migration.
      {StorageEvent(EventResource::kCSINode, kAdd), nullptr},
      {{EventResource::kPod, kDelete, "PodDelete"}, &CSILimits::IsSchedulableAfterPodDeleted},
      {StorageEvent(EventResource::kPersistentVolumeClaim, kAdd),
       &CSILimits::IsSchedulableAfterPVCAdded},
      // Note: upstream also registers VolumeAttachment/Delete (no hint);
      // schedref models no VolumeAttachment, so no such event exists
      // (docs/deviations.md "NodeVolumeLimits").
  };
}

StatusOr<QueueingHint> CSILimits::IsSchedulableAfterPodDeleted(const api::Pod& /*pod*/,
                                                                const EventObjects& objects) {
  const api::Pod* deleted = objects.old_pod;
  if (deleted == nullptr || deleted->volumes.empty()) return QueueingHint::kSkip;
  if (deleted->node_name.empty()) return QueueingHint::kSkip;
  for (const api::Volume& v : deleted->volumes) {
    if (MayCount(v)) return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

StatusOr<QueueingHint> CSILimits::IsSchedulableAfterPVCAdded(const api::Pod& pod,
                                                              const EventObjects& objects) {
  const api::PersistentVolumeClaim* added = objects.new_pvc;
  if (added == nullptr || added->ns != pod.ns) return QueueingHint::kSkip;
  for (const api::Volume& v : pod.volumes) {
    std::string name;
    if (v.source.kind == "persistentVolumeClaim") {
      name = v.source.claim_name;
    } else if (v.source.kind == "ephemeral") {
      name = pod.name + "-" + v.name;
    } else {
      continue;
    }
    if (name == added->name) return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

}  // namespace schedref::optimized::framework::plugins::nodevolumelimits
