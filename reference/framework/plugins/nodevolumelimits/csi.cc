#include "reference/framework/plugins/nodevolumelimits/csi.h"

#include <cstdint>
#include <optional>
#include <sstream>

#include "api/storage/csi_translation.h"
#include "reference/framework/plugins/helper/event_objects.h"
#include "reference/framework/plugins/names/names.h"

namespace schedref::reference::framework::plugins::nodevolumelimits {
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
// (getCSIDriverInfo and getCSIDriverInfoFromSC).
struct DriverVolume {
  std::string driver;
  bool unbound = false;
  std::string handle;
};

std::optional<DriverVolume> FromStorageClass(const api::StorageObjects& storage,
                                             const api::CSINode* csi_node,
                                             const api::PersistentVolumeClaim& claim) {
  const std::string class_name = ClaimClass(claim);
  if (class_name.empty()) return std::nullopt;
  const api::StorageClass* sc = storage.Class(class_name);
  if (sc == nullptr) return std::nullopt;
  // Upstream: "<random prefix>-<namespace>/<name>"; VolumeKey::unbound
  // stands for the prefix.
  DriverVolume out{sc->provisioner, true, claim.ns + "/" + claim.name};
  const std::string translated = csitranslation::CsiDriverName(sc->provisioner);
  if (!translated.empty()) {
    if (!IsCsiMigrationOn(csi_node, sc->provisioner)) return std::nullopt;
    out.driver = translated;
  }
  return out;
}

std::optional<DriverVolume> ClaimDriverVolume(const api::StorageObjects& storage,
                                              const api::CSINode* csi_node,
                                              const api::PersistentVolumeClaim& claim) {
  const std::string& pv_name = claim.spec.volume_name;
  if (pv_name.empty()) return FromStorageClass(storage, csi_node, claim);
  const api::PersistentVolume* pv = storage.Volume(pv_name);
  if (pv == nullptr) return FromStorageClass(storage, csi_node, claim);
  if (pv->source.kind == "csi") {
    return DriverVolume{pv->source.driver, false, pv->source.volume_handle};
  }
  const std::string plugin = csitranslation::InTreePluginName(pv->source.kind);
  if (plugin.empty()) return std::nullopt;
  if (!IsCsiMigrationOn(csi_node, plugin)) return std::nullopt;
  // A PV that fails to translate is not counted (no error, as upstream).
  StatusOr<std::string> handle = csitranslation::VolumeHandle(pv->source, pv);
  if (!handle.ok()) return std::nullopt;
  return DriverVolume{csitranslation::CsiDriverName(plugin), false, *handle};
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

StatusOr<std::unique_ptr<Plugin>> CSILimits::New(const nlohmann::json& /*args*/,
                                                  Handle* handle) {
  return std::unique_ptr<Plugin>(new CSILimits(handle));
}

std::string CSILimits::Name() const { return names::kNodeVolumeLimits; }

PreFilterOutput CSILimits::PreFilter(CycleState& /*state*/, const api::Pod& pod,
                                     const std::vector<const NodeInfo*>& /*nodes*/) {
  for (const api::Volume& v : pod.volumes) {
    if (MayCount(v)) return {std::nullopt, Status::Success()};
  }
  return {std::nullopt, Status::Skip()};
}

schedref::Status CSILimits::AttachableVolumes(const api::Pod& pod,
                                              const api::CSINode* csi_node, bool new_pod,
                                              Volumes* out) const {
  const api::StorageObjects& storage = handle_->StorageListers();
  for (const api::Volume& v : pod.volumes) {
    std::string claim_name;
    const bool ephemeral = v.source.kind == "ephemeral";
    if (v.source.kind == "persistentVolumeClaim") {
      claim_name = v.source.claim_name;
    } else if (ephemeral) {
      claim_name = pod.name + "-" + v.name;
    } else {
      // checkAttachableInlineVolume.
      const std::string plugin = csitranslation::InTreePluginName(v.source.kind);
      if (plugin.empty() || !IsCsiMigrationOn(csi_node, plugin)) continue;
      StatusOr<std::string> handle = csitranslation::VolumeHandle(v.source, nullptr);
      if (!handle.ok()) {
        return schedref::Status::Invalid("converting volume(" + v.name +
                                         ") from inline to csi: " + handle.status().message());
      }
      const std::string driver = csitranslation::CsiDriverName(plugin);
      (*out)[VolumeKey{false, driver + "/" + *handle}] = driver;
      continue;
    }
    if (claim_name.empty()) {
      return schedref::Status::Invalid("PersistentVolumeClaim had no name");
    }
    const api::PersistentVolumeClaim* claim = storage.Claim(pod.ns, claim_name);
    if (claim == nullptr) {
      if (!new_pod) continue;
      return schedref::Status::NotFound("looking up PVC " + pod.ns + "/" + claim_name +
                                        ": persistentvolumeclaim \"" + claim_name +
                                        "\" not found");
    }
    if (ephemeral && !ClaimIsForPod(pod, *claim)) {
      return schedref::Status::Invalid("PVC " + claim->ns + "/" + claim->name +
                                       " was not created for pod " + pod.ns + "/" + pod.name +
                                       " (pod is not owner)");
    }
    std::optional<DriverVolume> dv = ClaimDriverVolume(storage, csi_node, *claim);
    if (!dv.has_value() || dv->driver.empty() || dv->handle.empty()) continue;
    (*out)[VolumeKey{dv->unbound, dv->driver + "/" + dv->handle}] = dv->driver;
  }
  return schedref::Status::Ok();
}

Status CSILimits::Filter(CycleState& /*state*/, const api::Pod& pod, const NodeInfo& node) {
  if (pod.volumes.empty()) return Status::Success();
  const api::CSINode* csi_node = handle_->StorageListers().CsiNode(node.Name());

  Volumes new_volumes;
  if (schedref::Status s = AttachableVolumes(pod, csi_node, /*new_pod=*/true, &new_volumes);
      !s.ok()) {
    return Status(s.IsNotFound() ? Code::kUnschedulableAndUnresolvable : Code::kError,
                  s.message());
  }
  if (new_volumes.empty()) return Status::Success();

  // getVolumeLimits: CSINode drivers[].allocatable.count only.
  std::map<std::string, int64_t> limits;
  if (csi_node != nullptr) {
    for (const api::CSINodeDriver& d : csi_node->drivers) {
      if (d.allocatable_count.has_value()) limits[d.name] = *d.allocatable_count;
    }
  }
  if (limits.empty()) return Status::Success();

  Volumes attached;
  for (const api::Pod& existing : node.pods) {
    if (schedref::Status s = AttachableVolumes(existing, csi_node, /*new_pod=*/false, &attached);
        !s.ok()) {
      return Status::Error(s.message());
    }
  }
  std::map<std::string, int64_t> attached_count;
  for (const auto& [key, driver] : attached) {
    new_volumes.erase(key);  // a volume shared with a pod on the node counts once
    ++attached_count[driver];
  }
  // Note: upstream also counts here the volumes of the VolumeAttachments
  // naming this node that no pod on it uses (getNodeVolumeAttachmentInfo);
  // schedref models no VolumeAttachment, so there are none
  // (docs/deviations.md "NodeVolumeLimits").

  std::map<std::string, int64_t> new_count;
  for (const auto& [key, driver] : new_volumes) ++new_count[driver];
  for (const auto& [driver, n] : new_count) {
    auto limit = limits.find(driver);
    if (limit == limits.end()) continue;
    if (attached_count[driver] + n > limit->second) {
      return Status(Code::kUnschedulable, kErrReasonMaxVolumeCountExceeded);
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
                                                                const EventObject& old_obj,
                                                                const EventObject& /*new_obj*/) {
  auto objs = helper::As<api::Pod>(old_obj, std::monostate{});
  if (!objs.ok()) return objs.status();
  const api::Pod* deleted = objs->old_obj;
  if (deleted == nullptr || deleted->volumes.empty()) return QueueingHint::kSkip;
  if (deleted->node_name.empty()) return QueueingHint::kSkip;
  for (const api::Volume& v : deleted->volumes) {
    if (MayCount(v)) return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

StatusOr<QueueingHint> CSILimits::IsSchedulableAfterPVCAdded(const api::Pod& pod,
                                                              const EventObject& /*old_obj*/,
                                                              const EventObject& new_obj) {
  auto objs = helper::As<api::PersistentVolumeClaim>(std::monostate{}, new_obj);
  if (!objs.ok()) return objs.status();
  const api::PersistentVolumeClaim* added = objs->new_obj;
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

}  // namespace schedref::reference::framework::plugins::nodevolumelimits
