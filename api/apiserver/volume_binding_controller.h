// What the PV controller and an external provisioner do to PersistentVolumes
// and claims to complete a volume binding: one pass over the stored objects
// that returns the writes they make, for a harness to apply (and to raise
// the cluster events of) in order. Specification:
// pkg/controller/volume/persistentvolume/pv_controller.go (syncClaim,
// bind, findBestMatchForClaim through index.go), v1.32, and
// sig-storage-lib-external-provisioner's provisionClaimOperation with the
// csi-external-provisioner's topology, reduced to the deterministic model of
// docs/semantics/volumebinding.md ("The storage side").
//
// Both harnesses run it volumeBindingLatency after a write to a PV or claim
// (docs/deviations.md, "VolumeBinding"). REQUIRES for a caller: apply the
// writes in order, each as an API update of that object.
#ifndef SCHEDREF_API_APISERVER_VOLUME_BINDING_CONTROLLER_H_
#define SCHEDREF_API_APISERVER_VOLUME_BINDING_CONTROLLER_H_

#include <map>
#include <string>
#include <variant>
#include <vector>

#include "api/types/objects.h"

namespace schedref::api {

// One write: the object after it (a create iff no object of that key is
// stored, else an update).
using StorageWrite = std::variant<PersistentVolume, PersistentVolumeClaim>;

// For every claim, by key, that is not fully bound (no volumeName, or no
// pv.kubernetes.io/bind-completed):
//  1. a WaitForFirstConsumer claim with volume.kubernetes.io/selected-node,
//     no volumeName, no PV whose claimRef names it, and a class whose
//     provisioner is neither "" nor kubernetes.io/no-provisioner: create PV
//     "pvc-<claim uid>" (claimRef with uid, the claim's class, request,
//     access modes and volumeMode, the class's reclaimPolicy, annotation
//     pv.kubernetes.io/provisioned-by, phase Pending) with node affinity one
//     term of `key In [node label]` for each topology key the selected
//     node's CSINode lists for the provisioner (none: no affinity);
//  2. the PV to bind: one whose claimRef names the claim (uid equal or
//     empty), or the claim's volumeName; failing that, for a claim that is
//     not WaitForFirstConsumer, the smallest Available PV of its class with
//     no claimRef, enough capacity, its volumeMode, every access mode and a
//     matching selector (the first by name among equals);
//  3. bind: the PV's claimRef (written iff absent or different, adding
//     pv.kubernetes.io/bound-by-controller: "yes" iff the PV was not bound or
//     pre-bound to the claim), then PV phase Bound, then the claim's
//     volumeName (adding bound-by-controller iff it changed) and
//     bind-completed "yes", phase Bound.
// `nodes`: node name -> node, for the selected node's labels. Writes that
// change nothing are left out.
std::vector<StorageWrite> CompleteVolumeBindings(const StorageObjects& objects,
                                                 const std::map<std::string, Node>& nodes);

}  // namespace schedref::api

#endif  // SCHEDREF_API_APISERVER_VOLUME_BINDING_CONTROLLER_H_
