#include "api/apiserver/volume_binding_controller.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "api/types/labels.h"

namespace schedref::api {
namespace {

std::string ClaimClass(const PersistentVolumeClaim& pvc) {
  auto it = pvc.annotations.find(kAnnBetaStorageClass);
  if (it != pvc.annotations.end()) return it->second;
  return pvc.spec.storage_class_name.value_or("");
}

std::string VolumeClass(const PersistentVolume& pv) {
  auto it = pv.annotations.find(kAnnBetaStorageClass);
  if (it != pv.annotations.end()) return it->second;
  return pv.storage_class_name;
}

bool RefNamesClaim(const PersistentVolume& pv, const PersistentVolumeClaim& pvc) {
  return pv.claim_ref.has_value() && pv.claim_ref->ns == pvc.ns &&
         pv.claim_ref->name == pvc.name &&
         (pv.claim_ref->uid.empty() || pv.claim_ref->uid == pvc.uid);
}

bool Delayed(const PersistentVolumeClaim& pvc, const StorageObjects& objects) {
  const StorageClass* sc = objects.Class(ClaimClass(pvc));
  return sc != nullptr && sc->volume_binding_mode == kVolumeBindingWaitForFirstConsumer;
}

std::optional<PersistentVolume> Provision(const PersistentVolumeClaim& pvc,
                                          const StorageObjects& objects,
                                          const std::map<std::string, Node>& nodes) {
  auto selected = pvc.annotations.find(kAnnSelectedNode);
  if (selected == pvc.annotations.end() || !Delayed(pvc, objects)) return std::nullopt;
  const StorageClass* sc = objects.Class(ClaimClass(pvc));
  if (sc->provisioner.empty() || sc->provisioner == "kubernetes.io/no-provisioner") {
    return std::nullopt;
  }
  PersistentVolume pv;
  pv.name = "pvc-" + pvc.uid;
  pv.uid = pv.name;
  pv.annotations["pv.kubernetes.io/provisioned-by"] = sc->provisioner;
  pv.claim_ref = ClaimReference{pvc.ns, pvc.name, pvc.uid};
  pv.storage_class_name = ClaimClass(pvc);
  pv.capacity = pvc.spec.storage_request;
  pv.access_modes = pvc.spec.access_modes;
  pv.volume_mode = pvc.spec.volume_mode;
  pv.reclaim_policy = sc->reclaim_policy;
  pv.source.kind = "csi";
  pv.source.driver = sc->provisioner;
  pv.source.volume_handle = pv.name;
  const CSINode* csi_node = objects.CsiNode(selected->second);
  auto node = nodes.find(selected->second);
  if (csi_node != nullptr && node != nodes.end()) {
    for (const CSINodeDriver& d : csi_node->drivers) {
      if (d.name != sc->provisioner || d.topology_keys.empty()) continue;
      NodeSelectorTerm term;
      for (const std::string& key : d.topology_keys) {
        auto label = node->second.labels.find(key);
        term.match_expressions.push_back(
            {key, "In", {label == node->second.labels.end() ? "" : label->second}});
      }
      pv.node_affinity = NodeSelector{{term}};
    }
  }
  return pv;
}

const PersistentVolume* FindVolume(const PersistentVolumeClaim& pvc,
                                   const std::map<std::string, PersistentVolume>& volumes,
                                   bool delayed) {
  for (const auto& [name, pv] : volumes) {
    if (RefNamesClaim(pv, pvc)) return &pv;
  }
  if (!pvc.spec.volume_name.empty()) {
    auto it = volumes.find(pvc.spec.volume_name);
    return it == volumes.end() ? nullptr : &it->second;
  }
  if (delayed) return nullptr;
  const PersistentVolume* best = nullptr;
  for (const auto& entry : volumes) {
    const PersistentVolume& pv = entry.second;
    if (pv.claim_ref.has_value() || pv.phase != "Available" || pv.deletion_timestamp.has_value() ||
        pv.capacity < pvc.spec.storage_request || pv.volume_mode != pvc.spec.volume_mode ||
        VolumeClass(pv) != ClaimClass(pvc)) {
      continue;
    }
    if (pvc.spec.selector.has_value() && !Matches(*pvc.spec.selector, pv.labels)) continue;
    bool modes = std::all_of(pvc.spec.access_modes.begin(), pvc.spec.access_modes.end(),
                             [&](const std::string& m) {
                               return std::find(pv.access_modes.begin(), pv.access_modes.end(),
                                                m) != pv.access_modes.end();
                             });
    if (!modes) continue;
    if (best == nullptr || pv.capacity < best->capacity) best = &pv;
  }
  return best;
}

}  // namespace

std::vector<StorageWrite> CompleteVolumeBindings(const StorageObjects& objects,
                                                 const std::map<std::string, Node>& nodes) {
  std::vector<StorageWrite> writes;
  std::map<std::string, PersistentVolume> volumes = objects.volumes;
  for (const auto& [key, stored] : objects.claims) {
    if (!stored.spec.volume_name.empty() && stored.annotations.contains(kAnnBindCompleted)) {
      continue;
    }
    const bool delayed = Delayed(stored, objects);
    const PersistentVolume* found = FindVolume(stored, volumes, delayed);
    if (found == nullptr && stored.spec.volume_name.empty()) {
      std::optional<PersistentVolume> made = Provision(stored, objects, nodes);
      if (made.has_value() && !volumes.contains(made->name)) {
        writes.push_back(*made);
        volumes[made->name] = *made;
        found = &volumes[made->name];
      }
    }
    if (found == nullptr) continue;
    // A PV the user pre-bound the claim to, but bound to another claim.
    if (found->claim_ref.has_value() && !RefNamesClaim(*found, stored)) continue;
    PersistentVolume pv = *found;
    const bool was_bound = RefNamesClaim(pv, stored);
    if (!pv.claim_ref.has_value() || pv.claim_ref->ns != stored.ns ||
        pv.claim_ref->name != stored.name || pv.claim_ref->uid != stored.uid) {
      pv.claim_ref = ClaimReference{stored.ns, stored.name, stored.uid};
      if (!was_bound) pv.annotations[kAnnBoundByController] = "yes";
      writes.push_back(pv);
    }
    if (pv.phase != "Bound") {
      pv.phase = "Bound";
      writes.push_back(pv);
    }
    volumes[pv.name] = pv;
    PersistentVolumeClaim pvc = stored;
    if (pvc.spec.volume_name != pv.name) {
      pvc.spec.volume_name = pv.name;
      pvc.annotations[kAnnBoundByController] = "yes";
    }
    pvc.annotations[kAnnBindCompleted] = "yes";
    if (!(pvc == stored)) writes.push_back(pvc);
    if (pvc.phase != "Bound") {
      pvc.phase = "Bound";
      writes.push_back(pvc);
    }
  }
  return writes;
}

}  // namespace schedref::api
