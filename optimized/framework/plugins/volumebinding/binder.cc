#include "optimized/framework/plugins/volumebinding/binder.h"

#include <algorithm>
#include <utility>

#include "api/types/labels.h"

namespace schedref::optimized::framework::plugins::volumebinding {
namespace {

template <typename T, typename Assumed>
const T* Latest(const T* informer, const std::map<std::string, Assumed>& assumed,
                const std::string& key) {
  if (informer == nullptr) return nullptr;
  auto it = assumed.find(key);
  if (it != assumed.end() && it->second.api == *informer) return &it->second.latest;
  return informer;
}

bool HasAnnotation(const api::Labels& annotations, const char* key) {
  return annotations.find(key) != annotations.end();
}

// IsDelayBindingMode: a missing or empty class counts as Immediate.
bool IsDelayBindingMode(const api::PersistentVolumeClaim& pvc,
                        const api::StorageObjects& listers) {
  const std::string cls = ClaimClass(pvc);
  if (cls.empty()) return false;
  const api::StorageClass* sc = listers.Class(cls);
  if (sc == nullptr) return false;
  return sc->volume_binding_mode == api::kVolumeBindingWaitForFirstConsumer;
}

bool HasAccessModes(const api::PersistentVolume& pv, const api::PersistentVolumeClaim& pvc) {
  for (const std::string& m : pvc.spec.access_modes) {
    if (std::find(pv.access_modes.begin(), pv.access_modes.end(), m) == pv.access_modes.end()) {
      return false;
    }
  }
  return true;
}

// FindMatchingVolume with delayBinding true and the VolumeAttributesClass
// gate off (no such field is modelled). `volumes` is in name order.
// Note: upstream's PV order is a Go map's, so among PVs of equal capacity
// the one taken is unspecified; here the first by name
// (docs/deviations.md, VolumeBinding).
const api::PersistentVolume* FindMatchingVolume(
    const api::PersistentVolumeClaim& claim, const std::vector<api::PersistentVolume>& volumes,
    const api::Node& node, const std::vector<std::string>& excluded) {
  const api::PersistentVolume* best = nullptr;
  const std::string claim_class = ClaimClass(claim);
  for (const api::PersistentVolume& pv : volumes) {
    if (std::find(excluded.begin(), excluded.end(), pv.name) != excluded.end()) continue;
    const bool bound_to_claim = pv.claim_ref.has_value() && VolumeBoundToClaim(pv, claim);
    if (pv.claim_ref.has_value() && !bound_to_claim) continue;
    if (pv.capacity < claim.spec.storage_request) continue;
    if (pv.volume_mode != claim.spec.volume_mode) continue;
    if (pv.deletion_timestamp.has_value()) continue;
    const bool affinity_ok = VolumeNodeAffinityMatches(pv, node.labels);
    if (bound_to_claim) {
      // Pre-bound (or assumed earlier): this PV or none.
      return affinity_ok ? &pv : nullptr;
    }
    if (pv.phase != "Available") continue;
    if (claim.spec.selector.has_value() && !api::Matches(*claim.spec.selector, pv.labels)) {
      continue;
    }
    if (VolumeClass(pv) != claim_class) continue;
    if (!affinity_ok) continue;
    if (!HasAccessModes(pv, claim)) continue;
    if (best == nullptr || pv.capacity < best->capacity) best = &pv;
  }
  return best;
}

bool MatchTopologySelectorTerms(const std::vector<api::TopologySelectorTerm>& terms,
                                const api::Labels& labels) {
  if (terms.empty()) return true;
  for (const api::TopologySelectorTerm& term : terms) {
    if (term.match_label_expressions.empty()) continue;
    bool all = true;
    for (const api::TopologySelectorRequirement& r : term.match_label_expressions) {
      auto it = labels.find(r.key);
      if (r.values.empty() || it == labels.end() ||
          std::find(r.values.begin(), r.values.end(), it->second) == r.values.end()) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

bool HasEnoughCapacity(const std::string& provisioner, const api::PersistentVolumeClaim& claim,
                       const api::StorageClass& sc, const api::Node& node,
                       const api::StorageObjects& listers) {
  // Note: an absent request and a request of 0 are one value here
  // (PersistentVolumeClaimSpec::storage_request); upstream passes a claim
  // without a request and checks a 0 request against the capacities.
  if (claim.spec.storage_request == 0) return true;
  const api::CSIDriver* driver = listers.CsiDriver(provisioner);
  if (driver == nullptr || !driver->storage_capacity) return true;
  for (const auto& [key, cap] : listers.capacities) {
    if (cap.storage_class_name != sc.name) continue;
    const std::optional<int64_t> limit =
        cap.maximum_volume_size.has_value() ? cap.maximum_volume_size : cap.capacity;
    if (!limit.has_value() || *limit < claim.spec.storage_request) continue;
    if (!cap.node_topology.has_value() || !api::Matches(*cap.node_topology, node.labels)) continue;
    return true;
  }
  return false;
}

struct ProvisionOutcome {
  bool unbound_ok = true;
  bool enough_space = true;
  std::vector<api::PersistentVolumeClaim> dynamic;
};

StatusOr<ProvisionOutcome> CheckVolumeProvisions(
    const std::vector<api::PersistentVolumeClaim>& claims, const api::Node& node,
    const api::StorageObjects& listers) {
  ProvisionOutcome out;
  for (const api::PersistentVolumeClaim& c : claims) {
    const std::string cls = ClaimClass(c);
    if (cls.empty()) return schedref::Status::Invalid("no class for claim \"" + c.Key() + "\"");
    const api::StorageClass* sc = listers.Class(cls);
    if (sc == nullptr) {
      return schedref::Status::Invalid("failed to find storage class \"" + cls + "\"");
    }
    if (sc->provisioner.empty() || sc->provisioner == kNoProvisioner) {
      return ProvisionOutcome{false, true, {}};
    }
    if (!MatchTopologySelectorTerms(sc->allowed_topologies, node.labels)) {
      return ProvisionOutcome{false, true, {}};
    }
    if (!HasEnoughCapacity(sc->provisioner, c, *sc, node, listers)) {
      return ProvisionOutcome{true, false, {}};
    }
    out.dynamic.push_back(c);
  }
  return out;
}

}  // namespace

const api::PersistentVolume* AssumeView::Volume(const api::StorageObjects& listers,
                                                const std::string& name) const {
  return Latest(listers.Volume(name), volumes_, name);
}

const api::PersistentVolumeClaim* AssumeView::Claim(const api::StorageObjects& listers,
                                                    const std::string& ns,
                                                    const std::string& name) const {
  return Latest(listers.Claim(ns, name), claims_, ns + "/" + name);
}

std::vector<api::PersistentVolume> AssumeView::ListVolumes(const api::StorageObjects& listers,
                                                           const std::string& class_name) const {
  std::vector<api::PersistentVolume> out;
  for (const auto& [name, informer] : listers.volumes) {
    const api::PersistentVolume* pv = Volume(listers, name);
    if (VolumeClass(*pv) == class_name) out.push_back(*pv);
  }
  return out;
}

schedref::Status AssumeView::AssumeVolume(const api::StorageObjects& listers,
                                          const api::PersistentVolume& pv) {
  const api::PersistentVolume* informer = listers.Volume(pv.name);
  if (informer == nullptr) {
    return schedref::Status::Invalid("could not find v1.PersistentVolume \"" + pv.name + "\"");
  }
  volumes_[pv.name] = {*informer, pv};
  return schedref::Status::Ok();
}

schedref::Status AssumeView::AssumeClaim(const api::StorageObjects& listers,
                                         const api::PersistentVolumeClaim& pvc) {
  const api::PersistentVolumeClaim* informer = listers.Claim(pvc.ns, pvc.name);
  if (informer == nullptr) {
    return schedref::Status::Invalid("could not find v1.PersistentVolumeClaim \"" + pvc.Key() +
                                     "\"");
  }
  claims_[pvc.Key()] = {*informer, pvc};
  return schedref::Status::Ok();
}

void AssumeView::RestoreVolume(const std::string& name) { volumes_.erase(name); }
void AssumeView::RestoreClaim(const std::string& key) { claims_.erase(key); }

std::string ClaimClass(const api::PersistentVolumeClaim& pvc) {
  auto it = pvc.annotations.find(api::kAnnBetaStorageClass);
  if (it != pvc.annotations.end()) return it->second;
  return pvc.spec.storage_class_name.value_or("");
}

std::string VolumeClass(const api::PersistentVolume& pv) {
  auto it = pv.annotations.find(api::kAnnBetaStorageClass);
  if (it != pv.annotations.end()) return it->second;
  return pv.storage_class_name;
}

bool ClaimFullyBound(const api::PersistentVolumeClaim& pvc) {
  return !pvc.spec.volume_name.empty() && HasAnnotation(pvc.annotations, api::kAnnBindCompleted);
}

bool VolumeBoundToClaim(const api::PersistentVolume& pv, const api::PersistentVolumeClaim& pvc) {
  if (!pv.claim_ref.has_value()) return false;
  const api::ClaimReference& ref = *pv.claim_ref;
  return ref.name == pvc.name && ref.ns == pvc.ns && (ref.uid.empty() || ref.uid == pvc.uid);
}

bool VolumeNodeAffinityMatches(const api::PersistentVolume& pv, const api::Labels& labels) {
  if (!pv.node_affinity.has_value()) return true;
  api::Node node;
  node.labels = labels;
  return api::NodeSelectorMatches(*pv.node_affinity, node);
}

std::optional<std::string> PodVolumeClaimName(const api::Pod& pod, const api::Volume& volume) {
  if (volume.source.kind == "persistentVolumeClaim") return volume.source.claim_name;
  if (volume.source.kind == "ephemeral") return pod.name + "-" + volume.name;
  return std::nullopt;
}

bool ClaimIsForPod(const api::Pod& pod, const api::PersistentVolumeClaim& pvc) {
  if (pvc.ns != pod.ns) return false;
  for (const api::OwnerReference& ref : pvc.owner_references) {
    if (ref.controller) return ref.uid == pod.uid;
  }
  return false;
}

std::string NotOwnerMessage(const api::Pod& pod, const api::PersistentVolumeClaim& pvc) {
  return "PVC " + pvc.ns + "/" + pvc.name + " was not created for pod " + pod.ns + "/" +
         pod.name + " (pod is not owner)";
}

StatusOr<PodVolumeClaims> GetPodVolumeClaims(const api::Pod& pod,
                                             const api::StorageObjects& listers,
                                             const AssumeView& view) {
  PodVolumeClaims out;
  for (const api::Volume& vol : pod.volumes) {
    const std::optional<std::string> name = PodVolumeClaimName(pod, vol);
    if (!name.has_value()) continue;
    const api::PersistentVolumeClaim* pvc = view.Claim(listers, pod.ns, *name);
    if (pvc == nullptr) {
      return schedref::Status::Invalid("error getting PVC \"" + pod.ns + "/" + *name +
                                       "\": could not find v1.PersistentVolumeClaim \"" +
                                       pod.ns + "/" + *name + "\"");
    }
    if (vol.source.kind == "ephemeral" && !ClaimIsForPod(pod, *pvc)) {
      return schedref::Status::Invalid(NotOwnerMessage(pod, *pvc));
    }
    if (ClaimFullyBound(*pvc)) {
      out.bound.push_back(*pvc);
    } else if (IsDelayBindingMode(*pvc, listers) && pvc->spec.volume_name.empty()) {
      out.unbound_delay_binding.push_back(*pvc);
    } else {
      out.unbound_immediate.push_back(*pvc);
    }
  }
  for (const api::PersistentVolumeClaim& pvc : out.bound) {
    const api::PersistentVolume* pv = view.Volume(listers, pvc.spec.volume_name);
    out.bound_volumes.push_back(pv == nullptr ? std::nullopt
                                              : std::optional<api::PersistentVolume>(*pv));
  }
  for (const api::PersistentVolumeClaim& c : out.unbound_delay_binding) {
    const std::string cls = ClaimClass(c);
    if (out.unbound_volumes_delay_binding.contains(cls)) continue;
    out.unbound_volumes_delay_binding[cls] = view.ListVolumes(listers, cls);
  }
  return out;
}

StatusOr<FindResult> FindPodVolumes(const api::Pod& /*pod*/, const PodVolumeClaims& claims,
                                    const api::Node& node,
                                    const api::StorageObjects& listers) {
  bool bound_ok = true, unbound_ok = true, enough_space = true, pvs_found = true;
  FindResult out;
  // checkBoundClaims, stopping at the first missing PV or conflict.
  // Note: in-tree PVs are not translated to CSI (tryTranslatePVToCSI), so
  // their zone labels add no node affinity (docs/deviations.md, VolumeBinding).
  for (const std::optional<api::PersistentVolume>& pv : claims.bound_volumes) {
    if (!pv.has_value()) {
      pvs_found = false;
      break;
    }
    if (!VolumeNodeAffinityMatches(*pv, node.labels)) {
      bound_ok = false;
      break;
    }
  }
  if (!claims.unbound_delay_binding.empty()) {
    std::vector<api::PersistentVolumeClaim> to_match, to_provision;
    bool fast_fail = false;
    for (const api::PersistentVolumeClaim& c : claims.unbound_delay_binding) {
      auto it = c.annotations.find(api::kAnnSelectedNode);
      if (it != c.annotations.end()) {
        if (it->second != node.name) {
          unbound_ok = false;
          fast_fail = true;
          break;
        }
        to_provision.push_back(c);
      } else {
        to_match.push_back(c);
      }
    }
    if (!fast_fail) {
      if (!to_match.empty()) {
        // findMatchingVolumes: smallest request first (stable).
        std::stable_sort(to_match.begin(), to_match.end(),
                         [](const api::PersistentVolumeClaim& a,
                            const api::PersistentVolumeClaim& b) {
                           return a.spec.storage_request < b.spec.storage_request;
                         });
        std::vector<std::string> chosen;
        static const std::vector<api::PersistentVolume> kNone;
        for (const api::PersistentVolumeClaim& c : to_match) {
          auto it = claims.unbound_volumes_delay_binding.find(ClaimClass(c));
          const auto& pvs = it == claims.unbound_volumes_delay_binding.end() ? kNone : it->second;
          const api::PersistentVolume* pv = FindMatchingVolume(c, pvs, node, chosen);
          if (pv == nullptr) {
            unbound_ok = false;
            to_provision.push_back(c);
            continue;
          }
          chosen.push_back(pv->name);
          out.volumes.static_bindings.push_back({c, *pv});
        }
      }
      if (!to_provision.empty()) {
        StatusOr<ProvisionOutcome> p = CheckVolumeProvisions(to_provision, node, listers);
        if (!p.ok()) return p.status();
        unbound_ok = p->unbound_ok;
        enough_space = p->enough_space;
        out.volumes.dynamic_provisions = std::move(p->dynamic);
      }
    }
  }
  if (!bound_ok) out.reasons.push_back(kErrReasonNodeConflict);
  if (!unbound_ok) out.reasons.push_back(kErrReasonBindConflict);
  if (!enough_space) out.reasons.push_back(kErrReasonNotEnoughSpace);
  if (!pvs_found) out.reasons.push_back(kErrReasonPVNotExist);
  return out;
}

StatusOr<bool> AssumePodVolumes(const api::Pod& pod, const std::string& node_name,
                                PodVolumes& volumes, const api::StorageObjects& listers,
                                AssumeView& view) {
  bool all_bound = true;
  for (const api::Volume& vol : pod.volumes) {
    const std::optional<std::string> name = PodVolumeClaimName(pod, vol);
    if (!name.has_value()) continue;
    const api::PersistentVolumeClaim* pvc = view.Claim(listers, pod.ns, *name);
    if (pvc == nullptr || !ClaimFullyBound(*pvc)) {
      all_bound = false;
      break;
    }
  }
  if (all_bound) return true;
  PodVolumes assumed;
  for (const BindingInfo& b : volumes.static_bindings) {
    // GetBindVolumeToClaim.
    api::PersistentVolume pv = b.pv;
    bool dirty = false;
    const bool was_bound = VolumeBoundToClaim(b.pv, b.pvc);
    if (!pv.claim_ref.has_value() || pv.claim_ref->name != b.pvc.name ||
        pv.claim_ref->ns != b.pvc.ns || pv.claim_ref->uid != b.pvc.uid) {
      pv.claim_ref = api::ClaimReference{b.pvc.ns, b.pvc.name, b.pvc.uid};
      dirty = true;
    }
    if (!was_bound && !HasAnnotation(pv.annotations, api::kAnnBoundByController)) {
      pv.annotations[api::kAnnBoundByController] = "yes";
      dirty = true;
    }
    if (dirty) {
      schedref::Status s = view.AssumeVolume(listers, pv);
      if (!s.ok()) {
        RevertAssumedPodVolumes(assumed, view);
        return s;
      }
    }
    assumed.static_bindings.push_back({b.pvc, pv});
  }
  for (const api::PersistentVolumeClaim& c : volumes.dynamic_provisions) {
    api::PersistentVolumeClaim claim = c;
    claim.annotations[api::kAnnSelectedNode] = node_name;
    schedref::Status s = view.AssumeClaim(listers, claim);
    if (!s.ok()) {
      RevertAssumedPodVolumes(assumed, view);
      return s;
    }
    assumed.dynamic_provisions.push_back(std::move(claim));
  }
  volumes = std::move(assumed);
  return false;
}

void RevertAssumedPodVolumes(const PodVolumes& volumes, AssumeView& view) {
  for (const BindingInfo& b : volumes.static_bindings) view.RestoreVolume(b.pv.name);
  for (const api::PersistentVolumeClaim& c : volumes.dynamic_provisions) {
    view.RestoreClaim(c.Key());
  }
}

}  // namespace schedref::optimized::framework::plugins::volumebinding
