// Decoding the storage kinds and a pod's volumes (decode_fields.h).
// Specification: the JSON form of k8s.io/api core/v1 (PersistentVolume,
// PersistentVolumeClaim, Volume) and storage/v1 (StorageClass, CSINode,
// CSIDriver, CSIStorageCapacity) at v1.32; defaults from
// pkg/apis/core/v1/defaults.go and pkg/apis/storage/v1/defaults.go; the
// checks of pkg/apis/core/validation (ValidatePersistentVolume,
// ValidatePersistentVolumeClaimSpec, validateVolumeSource) and
// pkg/apis/storage/validation that decide which objects can exist.
// docs/scenario-format.md lists what is read and what is ignored.
#include <cstdint>
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/apiserver/pod_validation.h"
#include "api/codec/decode_fields.h"
#include "api/types/labels.h"

namespace schedref::api::decode_fields {
namespace {

constexpr std::string_view kAccessModes[] = {kReadOnlyMany, kReadWriteMany, kReadWriteOnce,
                                             kReadWriteOncePod};

// The sources of a pod volume, in validateVolumeSource's order; the first
// two lines are also PersistentVolume sources where the scheduler reads one.
constexpr std::string_view kPodVolumeSources[] = {
    "emptyDir",     "hostPath",         "gitRepo",        "gcePersistentDisk",
    "awsElasticBlockStore", "secret",   "nfs",            "iscsi",
    "glusterfs",    "flocker",          "persistentVolumeClaim", "rbd",
    "cinder",       "cephfs",           "quobyte",        "downwardAPI",
    "fc",           "flexVolume",       "configMap",      "azureFile",
    "vsphereVolume", "photonPersistentDisk", "portworxVolume", "azureDisk",
    "storageos",    "projected",        "scaleIO",        "csi",
    "ephemeral",    "image",
};
// The sources of a PersistentVolume, in ValidatePersistentVolumeSpec's order.
constexpr std::string_view kPersistentVolumeSources[] = {
    "hostPath",  "gcePersistentDisk", "awsElasticBlockStore", "glusterfs", "flocker",
    "nfs",       "rbd",               "quobyte",              "cephfs",    "iscsi",
    "cinder",    "fc",                "flexVolume",           "azureFile", "vsphereVolume",
    "photonPersistentDisk", "portworxVolume", "azureDisk",   "scaleIO",   "local",
    "storageos", "csi",
};

template <size_t N>
bool OneOf(const std::string_view (&names)[N], std::string_view name) {
  for (std::string_view n : names) {
    if (n == name) return true;
  }
  return false;
}

// A storage quantity in bytes (Quantity::Value, rounded up). Sets *present
// iff the field exists.
Status ReadStorageQuantity(const FieldReader& parent, std::string_view key,
                           std::optional<int64_t>* out) {
  StatusOr<FieldReader> f = parent.Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return Status::Ok();
  int64_t value = 0;
  SCHEDREF_RETURN_IF_ERROR(ReadQuantity(*f, /*milli=*/false, &value));
  *out = value;
  return Status::Ok();
}

// spec.accessModes of a PV or a claim: at least one, each known, and
// ReadWriteOncePod alone.
// Upstream words the empty list differently for the two kinds: a PV's is a
// bare "Required value".
Status ReadAccessModes(const FieldReader& spec, bool persistent_volume,
                       std::vector<std::string>* out) {
  SCHEDREF_RETURN_IF_ERROR(spec.StringList("accessModes", out));
  if (out->empty()) {
    return spec.ErrorAt("accessModes", persistent_volume
                                           ? "required value"
                                           : "required value: at least 1 access mode is required");
  }
  bool rwop = false;
  for (const std::string& mode : *out) {
    if (!OneOf(kAccessModes, mode)) {
      return spec.ErrorAt("accessModes",
                          "unsupported value \"" + mode +
                              "\" (supported: \"ReadOnlyMany\", \"ReadWriteMany\", "
                              "\"ReadWriteOnce\", \"ReadWriteOncePod\")");
    }
    rwop = rwop || mode == kReadWriteOncePod;
  }
  if (rwop && out->size() > 1) {
    return spec.ErrorAt("accessModes", "may not use ReadWriteOncePod with other access modes");
  }
  return Status::Ok();
}

Status ReadStorageClassName(const FieldReader& spec, std::optional<std::string>* out) {
  SCHEDREF_RETURN_IF_ERROR(spec.String("storageClassName", out));
  if (out->has_value() && !(*out)->empty()) {
    if (auto problem = CheckDnsSubdomain(**out)) {
      return spec.ErrorAt("storageClassName", "invalid value \"" + **out + "\": " + *problem);
    }
  }
  return Status::Ok();
}

// ValidateCSIDriverName: a CSI driver name (csi.driver, a CSINode driver).
Status CheckCsiDriverName(const FieldReader& at, std::string_view key, const std::string& name) {
  if (name.empty()) return at.ErrorAt(key, "required value");
  if (name.size() > 63) return at.ErrorAt(key, "too long: may not be more than 63 bytes");
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (auto problem = CheckDnsSubdomain(lower)) {
    return at.ErrorAt(key, "invalid value \"" + name + "\": " + *problem);
  }
  return Status::Ok();
}

// validatePartition: 0..255 (0 is allowed although the message says 1).
Status CheckPartition(const FieldReader& src) {
  int32_t partition = 0;
  SCHEDREF_RETURN_IF_ERROR(src.Int32("partition", &partition));
  if (partition < 0 || partition > 255) {
    return src.ErrorAt("partition", "invalid value " + std::to_string(partition) +
                                        ": must be between 1 and 255, inclusive");
  }
  return Status::Ok();
}

// validateISCSIQualifiedName. As upstream, the iqn pattern is not anchored
// at the start (the prefix check comes first), the other two are.
Status CheckIqn(const FieldReader& src, std::string_view key, const std::string& iqn) {
  static const std::regex kIqn(R"(iqn\.\d{4}-\d{2}\.([[:alnum:].-]+)(:[^,;*&$|\s]+)$)");
  static const std::regex kEui(R"(^eui.[[:alnum:]]{16}$)");
  static const std::regex kNaa(R"(^naa.[[:alnum:]]{32}$)");
  const auto starts = [&](std::string_view p) { return iqn.rfind(p, 0) == 0; };
  if (!starts("iqn") && !starts("eui") && !starts("naa")) {
    return src.ErrorAt(key, "invalid value \"" + iqn +
                                "\": must be valid format starting with iqn, eui, or naa");
  }
  const std::regex& re = starts("iqn") ? kIqn : starts("eui") ? kEui : kNaa;
  if (!std::regex_search(iqn, re)) {
    return src.ErrorAt(key, "invalid value \"" + iqn + "\": must be valid format");
  }
  return Status::Ok();
}

// A hostPath or local path: required, with no ".." element between
// slashes (upstream splits at '/' only on Linux).
Status CheckPath(const FieldReader& src, std::string* out) {
  SCHEDREF_RETURN_IF_ERROR(src.String("path", out));
  if (out->empty()) return src.ErrorAt("path", "required value");
  size_t start = 0;
  while (start <= out->size()) {
    size_t end = out->find('/', start);
    if (end == std::string::npos) end = out->size();
    if (out->compare(start, end - start, "..") == 0) {
      return src.ErrorAt("path", "invalid value \"" + *out + "\": must not contain '..'");
    }
    start = end + 1;
  }
  return Status::Ok();
}

// The scheduler-relevant fields of the source `kind` at `src` (an object).
Status ReadSourceFields(const FieldReader& src, bool persistent_volume, VolumeSource* out) {
  SCHEDREF_RETURN_IF_ERROR(src.ExpectObject());
  const std::string& kind = out->kind;
  if (kind == "persistentVolumeClaim") {
    SCHEDREF_RETURN_IF_ERROR(src.RequiredString("claimName", &out->claim_name));
    if (out->claim_name.empty()) return src.ErrorAt("claimName", "required value");
  } else if (kind == "awsElasticBlockStore") {
    SCHEDREF_RETURN_IF_ERROR(src.String("volumeID", &out->volume_id));
    if (out->volume_id.empty()) return src.ErrorAt("volumeID", "required value");
    SCHEDREF_RETURN_IF_ERROR(CheckPartition(src));
  } else if (kind == "cinder" || kind == "portworxVolume") {
    SCHEDREF_RETURN_IF_ERROR(src.String("volumeID", &out->volume_id));
    if (out->volume_id.empty()) return src.ErrorAt("volumeID", "required value");
  } else if (kind == "gcePersistentDisk") {
    SCHEDREF_RETURN_IF_ERROR(src.String("pdName", &out->pd_name));
    if (out->pd_name.empty()) return src.ErrorAt("pdName", "required value");
    SCHEDREF_RETURN_IF_ERROR(CheckPartition(src));
  } else if (kind == "azureDisk") {
    SCHEDREF_RETURN_IF_ERROR(src.String("diskName", &out->disk_name));
    SCHEDREF_RETURN_IF_ERROR(src.String("diskURI", &out->disk_uri));
    if (out->disk_name.empty()) return src.ErrorAt("diskName", "required value");
    if (out->disk_uri.empty()) return src.ErrorAt("diskURI", "required value");
    std::optional<std::string> caching, disk_kind;
    SCHEDREF_RETURN_IF_ERROR(src.Enum("cachingMode", {"None", "ReadOnly", "ReadWrite"}, &caching));
    SCHEDREF_RETURN_IF_ERROR(src.Enum("kind", {"Dedicated", "Managed", "Shared"}, &disk_kind));
    // The kind defaults to Shared, so an unset kind takes the blob URI form.
    if (disk_kind.value_or("Shared") == "Managed") {
      if (out->disk_uri.rfind("/subscriptions/", 0) != 0) {
        return src.ErrorAt("diskURI", "unsupported value \"" + out->disk_uri +
                                          "\" (supported: \"/subscriptions/{sub-id}/resourcegroups/"
                                          "{group-name}/providers/microsoft.compute/disks/"
                                          "{disk-id}\")");
      }
    } else if (out->disk_uri.rfind("https://", 0) != 0) {
      return src.ErrorAt("diskURI", "unsupported value \"" + out->disk_uri +
                                        "\" (supported: \"https://{account-name}.blob.core."
                                        "windows.net/{container-name}/{disk-name}.vhd\")");
    }
  } else if (kind == "rbd") {
    SCHEDREF_RETURN_IF_ERROR(src.StringList("monitors", &out->monitors));
    SCHEDREF_RETURN_IF_ERROR(src.String("pool", &out->pool));
    SCHEDREF_RETURN_IF_ERROR(src.String("image", &out->image));
    if (out->monitors.empty()) return src.ErrorAt("monitors", "required value");
    if (out->image.empty()) return src.ErrorAt("image", "required value");
    if (out->pool.empty()) out->pool = "rbd";  // the API's default
  } else if (kind == "iscsi") {
    SCHEDREF_RETURN_IF_ERROR(src.String("targetPortal", &out->target_portal));
    SCHEDREF_RETURN_IF_ERROR(src.String("iqn", &out->iqn));
    SCHEDREF_RETURN_IF_ERROR(src.Int32("lun", &out->lun));
    if (out->target_portal.empty()) return src.ErrorAt("targetPortal", "required value");
    if (out->iqn.empty()) return src.ErrorAt("iqn", "required value");
    SCHEDREF_RETURN_IF_ERROR(CheckIqn(src, "iqn", out->iqn));
    if (out->lun < 0 || out->lun > 255) {
      return src.ErrorAt("lun", "invalid value " + std::to_string(out->lun) +
                                    ": must be between 0 and 255, inclusive");
    }
  } else if (kind == "csi") {
    SCHEDREF_RETURN_IF_ERROR(src.String("driver", &out->driver));
    SCHEDREF_RETURN_IF_ERROR(CheckCsiDriverName(src, "driver", out->driver));
    if (persistent_volume) {
      SCHEDREF_RETURN_IF_ERROR(src.String("volumeHandle", &out->volume_handle));
      if (out->volume_handle.empty()) return src.ErrorAt("volumeHandle", "required value");
    }
  } else if (kind == "hostPath") {
    SCHEDREF_RETURN_IF_ERROR(CheckPath(src, &out->path));
    std::optional<std::string> type;
    SCHEDREF_RETURN_IF_ERROR(src.Enum("type",
                                      {"", "BlockDevice", "CharDevice", "Directory",
                                       "DirectoryOrCreate", "File", "FileOrCreate", "Socket"},
                                      &type));
  } else if (kind == "local") {
    SCHEDREF_RETURN_IF_ERROR(CheckPath(src, &out->path));
  }
  if (kind != "persistentVolumeClaim" || !persistent_volume) {
    std::optional<bool> read_only;
    SCHEDREF_RETURN_IF_ERROR(src.Bool("readOnly", &read_only));
    out->read_only = read_only.value_or(false);
  }
  return Status::Ok();
}

// Exactly one of `sources` among the keys of `at` (skipping `skip` keys),
// then its fields.
template <size_t N>
Status ReadOneSource(const FieldReader& at, const std::string_view (&sources)[N],
                     std::initializer_list<std::string_view> skip, bool persistent_volume,
                     VolumeSource* out) {
  std::optional<std::string> found;
  if (at.present()) {
    for (auto it = at.json().begin(); it != at.json().end(); ++it) {
      if (it.value().is_null() || !OneOf(sources, it.key())) continue;
      bool skipped = false;
      for (std::string_view s : skip) skipped = skipped || s == it.key();
      if (skipped) continue;
      if (found.has_value()) {
        return at.ErrorAt(it.key(), "may not specify more than 1 volume type (found " +
                                        *found + " and " + it.key() + ")");
      }
      found = it.key();
    }
  }
  if (!found.has_value()) return at.Error("required value: must specify a volume type");
  out->kind = *found;
  StatusOr<FieldReader> src = at.Field(*found);
  if (!src.ok()) return src.status();
  return ReadSourceFields(*src, persistent_volume, out);
}

Status ReadClaimSpec(const FieldReader& spec, PersistentVolumeClaimSpec* out) {
  SCHEDREF_RETURN_IF_ERROR(ReadAccessModes(spec, /*persistent_volume=*/false, &out->access_modes));
  SCHEDREF_RETURN_IF_ERROR(ReadLabelSelector(spec, "selector", &out->selector));
  StatusOr<FieldReader> resources = spec.Object("resources");
  if (!resources.ok()) return resources.status();
  StatusOr<FieldReader> requests = resources->Object("requests");
  if (!requests.ok()) return requests.status();
  std::optional<int64_t> storage;
  SCHEDREF_RETURN_IF_ERROR(ReadStorageQuantity(*requests, "storage", &storage));
  if (!storage.has_value()) {
    return spec.ErrorAt("resources.requests.storage", "required value");
  }
  if (*storage <= 0) {
    return spec.ErrorAt("resources.requests.storage", "must be greater than zero");
  }
  out->storage_request = *storage;
  SCHEDREF_RETURN_IF_ERROR(spec.String("volumeName", &out->volume_name));
  SCHEDREF_RETURN_IF_ERROR(ReadStorageClassName(spec, &out->storage_class_name));
  std::optional<std::string> mode;
  SCHEDREF_RETURN_IF_ERROR(spec.Enum("volumeMode", {"Block", "Filesystem"}, &mode));
  out->volume_mode = mode.value_or("Filesystem");
  return Status::Ok();
}

Status ReadObjectMeta(const FieldReader& root, std::string* uid, Labels* labels,
                      Labels* annotations, std::optional<TimeMs>* deletion) {
  StatusOr<FieldReader> meta = root.Object("metadata");
  if (!meta.ok()) return meta.status();
  if (uid != nullptr) SCHEDREF_RETURN_IF_ERROR(meta->String("uid", uid));
  if (labels != nullptr) SCHEDREF_RETURN_IF_ERROR(ReadLabels(*meta, "labels", labels));
  SCHEDREF_RETURN_IF_ERROR(ReadAnnotations(*meta, annotations));
  if (deletion != nullptr) {
    SCHEDREF_RETURN_IF_ERROR(ReadTime(*meta, "deletionTimestamp", deletion));
  }
  return Status::Ok();
}

}  // namespace

Status ReadOwnerReferences(const FieldReader& meta, std::vector<OwnerReference>* out) {
  StatusOr<std::vector<FieldReader>> refs = meta.Array("ownerReferences");
  if (!refs.ok()) return refs.status();
  for (const FieldReader& r : *refs) {
    SCHEDREF_RETURN_IF_ERROR(r.ExpectObject());
    OwnerReference ref;
    SCHEDREF_RETURN_IF_ERROR(r.RequiredString("apiVersion", &ref.api_version));
    SCHEDREF_RETURN_IF_ERROR(r.RequiredString("kind", &ref.kind));
    SCHEDREF_RETURN_IF_ERROR(r.RequiredString("name", &ref.name));
    SCHEDREF_RETURN_IF_ERROR(r.RequiredString("uid", &ref.uid));
    SCHEDREF_RETURN_IF_ERROR(r.Bool("controller", &ref.controller));
    out->push_back(std::move(ref));
  }
  int controllers = 0;
  for (const OwnerReference& ref : *out) controllers += ref.controller ? 1 : 0;
  if (controllers > 1) {
    return meta.ErrorAt("ownerReferences", "Only one reference can have Controller set to true");
  }
  return Status::Ok();
}

Status ReadVolumes(const FieldReader& spec, const std::string& pod_name,
                   std::vector<Volume>* out) {
  StatusOr<std::vector<FieldReader>> items = spec.Array("volumes");
  if (!items.ok()) return items.status();
  std::set<std::string> seen;
  for (const FieldReader& v : *items) {
    SCHEDREF_RETURN_IF_ERROR(v.ExpectObject());
    Volume volume;
    SCHEDREF_RETURN_IF_ERROR(v.RequiredString("name", &volume.name));
    if (auto problem = CheckNamespaceName(volume.name)) {
      return v.ErrorAt("name", "invalid value \"" + volume.name + "\": " + *problem);
    }
    if (!seen.insert(volume.name).second) {
      return v.ErrorAt("name", "duplicate value \"" + volume.name + "\"");
    }
    SCHEDREF_RETURN_IF_ERROR(
        ReadOneSource(v, kPodVolumeSources, {}, /*persistent_volume=*/false, &volume.source));
    if (volume.source.kind == "ephemeral") {
      StatusOr<FieldReader> eph = v.Object("ephemeral");
      if (!eph.ok()) return eph.status();
      StatusOr<FieldReader> tmpl = eph->Object("volumeClaimTemplate");
      if (!tmpl.ok()) return tmpl.status();
      if (!tmpl->present()) return eph->ErrorAt("volumeClaimTemplate", "required value");
      // The template's metadata may set only labels and annotations.
      StatusOr<FieldReader> tmeta = tmpl->Object("metadata");
      if (!tmeta.ok()) return tmeta.status();
      if (tmeta->present()) {
        for (auto it = tmeta->json().begin(); it != tmeta->json().end(); ++it) {
          if (it.key() != "labels" && it.key() != "annotations" && !it.value().is_null()) {
            return tmeta->ErrorAt(it.key(), "forbidden: cannot be set");
          }
        }
        Labels labels, annotations;
        SCHEDREF_RETURN_IF_ERROR(ReadLabels(*tmeta, "labels", &labels));
        SCHEDREF_RETURN_IF_ERROR(ReadAnnotations(*tmeta, &annotations));
      }
      const std::string claim_name = pod_name + "-" + volume.name;
      if (auto problem = CheckDnsSubdomain(claim_name)) {
        return v.ErrorAt("name", "invalid value \"" + volume.name + "\": PVC name \"" +
                                     claim_name + "\": " + *problem);
      }
      StatusOr<FieldReader> tspec = tmpl->Object("spec");
      if (!tspec.ok()) return tspec.status();
      PersistentVolumeClaimSpec claim;
      SCHEDREF_RETURN_IF_ERROR(ReadClaimSpec(*tspec, &claim));
      volume.ephemeral = std::move(claim);
    }
    out->push_back(std::move(volume));
  }
  // A claim may not name the claim an ephemeral volume of this pod gets.
  for (size_t i = 0; i < out->size(); ++i) {
    const Volume& volume = (*out)[i];
    if (volume.source.kind != "persistentVolumeClaim") continue;
    for (const Volume& e : *out) {
      if (e.source.kind == "ephemeral" && pod_name + "-" + e.name == volume.source.claim_name) {
        StatusOr<FieldReader> claim = (*items)[i].Object("persistentVolumeClaim");
        if (!claim.ok()) return claim.status();
        return claim->ErrorAt("claimName", "invalid value \"" + volume.source.claim_name +
                                               "\": must not reference a PVC that gets "
                                               "created for an ephemeral volume");
      }
    }
  }
  return Status::Ok();
}

Status DecodePersistentVolume(const FieldReader& root, PersistentVolume* pv) {
  SCHEDREF_RETURN_IF_ERROR(
      ReadObjectMeta(root, &pv->uid, &pv->labels, &pv->annotations, &pv->deletion_timestamp));
  if (pv->uid.empty()) pv->uid = pv->name;
  StatusOr<FieldReader> spec = root.Object("spec");
  if (!spec.ok()) return spec.status();
  SCHEDREF_RETURN_IF_ERROR(ReadAccessModes(*spec, /*persistent_volume=*/true, &pv->access_modes));
  StatusOr<FieldReader> capacity = spec->Object("capacity");
  if (!capacity.ok()) return capacity.status();
  std::optional<int64_t> storage;
  SCHEDREF_RETURN_IF_ERROR(ReadStorageQuantity(*capacity, "storage", &storage));
  if (!capacity->present() || capacity->json().empty()) {
    return spec->ErrorAt("capacity", "required value");
  }
  if (!storage.has_value()) return spec->ErrorAt("capacity.storage", "required value");
  // Note: upstream prints the whole capacity map in Go syntax; we name the
  // first other key (docs/deviations.md, "Manifest decoding (api/)").
  for (auto it = capacity->json().begin(); it != capacity->json().end(); ++it) {
    if (it.key() != "storage") {
      return spec->ErrorAt("capacity", "unsupported value \"" + it.key() +
                                           "\" (supported: \"storage\")");
    }
  }
  if (*storage <= 0) return spec->ErrorAt("capacity.storage", "must be greater than zero");
  pv->capacity = *storage;
  std::optional<std::string> policy;
  SCHEDREF_RETURN_IF_ERROR(
      spec->Enum("persistentVolumeReclaimPolicy", {"Delete", "Recycle", "Retain"}, &policy));
  pv->reclaim_policy = policy.value_or("Retain");
  StatusOr<FieldReader> affinity = spec->Object("nodeAffinity");
  if (!affinity.ok()) return affinity.status();
  if (affinity->present()) {
    StatusOr<FieldReader> required = affinity->Object("required");
    if (!required.ok()) return required.status();
    if (!required->present()) {
      return affinity->ErrorAt("required", "required value: must specify required node constraints");
    }
    StatusOr<std::vector<FieldReader>> terms = required->Array("nodeSelectorTerms");
    if (!terms.ok()) return terms.status();
    if (terms->empty()) {
      return required->ErrorAt("nodeSelectorTerms",
                               "required value: must have at least one node selector term");
    }
    NodeSelector selector;
    for (const FieldReader& t : *terms) {
      NodeSelectorTerm term;
      SCHEDREF_RETURN_IF_ERROR(ReadNodeSelectorTerm(t, &term));
      selector.terms.push_back(std::move(term));
    }
    pv->node_affinity = std::move(selector);
  }
  SCHEDREF_RETURN_IF_ERROR(ReadOneSource(*spec, kPersistentVolumeSources, {},
                                         /*persistent_volume=*/true, &pv->source));
  if (pv->source.kind == "local" && !pv->node_affinity.has_value()) {
    return spec->ErrorAt("nodeAffinity", "required value: Local volume requires node affinity");
  }
  if (pv->source.kind == "hostPath" && pv->reclaim_policy == "Recycle" &&
      pv->source.path.find_first_not_of('/') == std::string::npos) {
    return spec->ErrorAt("persistentVolumeReclaimPolicy",
                         "forbidden: may not be 'recycle' for a hostPath mount of '/'");
  }
  std::optional<std::string> class_name;
  SCHEDREF_RETURN_IF_ERROR(ReadStorageClassName(*spec, &class_name));
  pv->storage_class_name = class_name.value_or("");
  std::optional<std::string> mode;
  SCHEDREF_RETURN_IF_ERROR(spec->Enum("volumeMode", {"Block", "Filesystem"}, &mode));
  pv->volume_mode = mode.value_or("Filesystem");
  StatusOr<FieldReader> claim_ref = spec->Object("claimRef");
  if (!claim_ref.ok()) return claim_ref.status();
  if (claim_ref->present()) {
    // Not validated by the API server: any reference is accepted.
    ClaimReference ref;
    SCHEDREF_RETURN_IF_ERROR(claim_ref->String("namespace", &ref.ns));
    SCHEDREF_RETURN_IF_ERROR(claim_ref->String("name", &ref.name));
    SCHEDREF_RETURN_IF_ERROR(claim_ref->String("uid", &ref.uid));
    pv->claim_ref = std::move(ref);
  }
  StatusOr<FieldReader> status = root.Object("status");
  if (!status.ok()) return status.status();
  std::optional<std::string> phase;
  SCHEDREF_RETURN_IF_ERROR(status->Enum(
      "phase", {"Pending", "Available", "Bound", "Released", "Failed"}, &phase));
  pv->phase = phase.value_or("Pending");
  return Status::Ok();
}

Status DecodePersistentVolumeClaim(const FieldReader& root, PersistentVolumeClaim* pvc) {
  SCHEDREF_RETURN_IF_ERROR(ReadObjectMeta(root, &pvc->uid, &pvc->labels, &pvc->annotations,
                                          &pvc->deletion_timestamp));
  if (pvc->uid.empty()) pvc->uid = pvc->Key();
  StatusOr<FieldReader> meta = root.Object("metadata");
  if (!meta.ok()) return meta.status();
  SCHEDREF_RETURN_IF_ERROR(ReadOwnerReferences(*meta, &pvc->owner_references));
  StatusOr<FieldReader> spec = root.Object("spec");
  if (!spec.ok()) return spec.status();
  SCHEDREF_RETURN_IF_ERROR(ReadClaimSpec(*spec, &pvc->spec));
  StatusOr<FieldReader> status = root.Object("status");
  if (!status.ok()) return status.status();
  std::optional<std::string> phase;
  SCHEDREF_RETURN_IF_ERROR(status->Enum("phase", {"Pending", "Bound", "Lost"}, &phase));
  pvc->phase = phase.value_or("Pending");
  return Status::Ok();
}

Status DecodeStorageClass(const FieldReader& root, StorageClass* sc) {
  SCHEDREF_RETURN_IF_ERROR(ReadObjectMeta(root, nullptr, nullptr, &sc->annotations, nullptr));
  SCHEDREF_RETURN_IF_ERROR(root.String("provisioner", &sc->provisioner));
  if (sc->provisioner.empty()) return root.ErrorAt("provisioner", "required value");
  {
    // Upstream checks, and prints, the lowercased name.
    std::string lower = sc->provisioner;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (auto problem = CheckQualifiedName(lower)) {
      return root.ErrorAt("provisioner", "invalid value \"" + lower + "\": " + *problem);
    }
  }
  std::optional<std::string> policy, mode;
  SCHEDREF_RETURN_IF_ERROR(root.Enum("reclaimPolicy", {"Delete", "Retain"}, &policy));
  sc->reclaim_policy = policy.value_or("Delete");
  SCHEDREF_RETURN_IF_ERROR(root.Enum(
      "volumeBindingMode", {kVolumeBindingImmediate, kVolumeBindingWaitForFirstConsumer}, &mode));
  sc->volume_binding_mode = mode.value_or(kVolumeBindingImmediate);
  StatusOr<std::vector<FieldReader>> terms = root.Array("allowedTopologies");
  if (!terms.ok()) return terms.status();
  // Each term as key -> values, to find repeated terms. Upstream's list
  // starts with as many empty entries as there are terms, so a term with no
  // expressions always counts as repeated.
  std::vector<std::map<std::string, std::set<std::string>>> seen_terms(terms->size());
  for (const FieldReader& t : *terms) {
    SCHEDREF_RETURN_IF_ERROR(t.ExpectObject());
    TopologySelectorTerm term;
    StatusOr<std::vector<FieldReader>> exprs = t.Array("matchLabelExpressions");
    if (!exprs.ok()) return exprs.status();
    std::set<std::string> keys;
    for (const FieldReader& e : *exprs) {
      SCHEDREF_RETURN_IF_ERROR(e.ExpectObject());
      TopologySelectorRequirement r;
      SCHEDREF_RETURN_IF_ERROR(e.RequiredString("key", &r.key));
      SCHEDREF_RETURN_IF_ERROR(e.StringList("values", &r.values));
      if (auto problem = CheckQualifiedName(r.key)) {
        return e.ErrorAt("key", "invalid value \"" + r.key + "\": " + *problem);
      }
      if (!keys.insert(r.key).second) return e.ErrorAt("key", "duplicate value \"" + r.key + "\"");
      if (r.values.empty()) return e.ErrorAt("values", "required value");
      std::set<std::string> values;
      for (size_t k = 0; k < r.values.size(); ++k) {
        if (!values.insert(r.values[k]).second) {
          return e.ErrorAt("values[" + std::to_string(k) + "]",
                           "duplicate value \"" + r.values[k] + "\"");
        }
      }
      term.match_label_expressions.push_back(std::move(r));
    }
    std::map<std::string, std::set<std::string>> as_map;
    for (const TopologySelectorRequirement& r : term.match_label_expressions) {
      as_map[r.key] = std::set<std::string>(r.values.begin(), r.values.end());
    }
    if (std::find(seen_terms.begin(), seen_terms.end(), as_map) != seen_terms.end()) {
      return t.ErrorAt("matchLabelExpressions", "duplicate value \"\"");
    }
    seen_terms.push_back(std::move(as_map));
    sc->allowed_topologies.push_back(std::move(term));
  }
  return Status::Ok();
}

Status DecodeCSINode(const FieldReader& root, CSINode* node) {
  SCHEDREF_RETURN_IF_ERROR(ReadObjectMeta(root, nullptr, nullptr, &node->annotations, nullptr));
  StatusOr<FieldReader> spec = root.Object("spec");
  if (!spec.ok()) return spec.status();
  StatusOr<std::vector<FieldReader>> drivers = spec->Array("drivers");
  if (!drivers.ok()) return drivers.status();
  std::set<std::string> names;
  for (const FieldReader& d : *drivers) {
    SCHEDREF_RETURN_IF_ERROR(d.ExpectObject());
    CSINodeDriver driver;
    SCHEDREF_RETURN_IF_ERROR(d.String("name", &driver.name));
    SCHEDREF_RETURN_IF_ERROR(d.String("nodeID", &driver.node_id));
    SCHEDREF_RETURN_IF_ERROR(d.StringList("topologyKeys", &driver.topology_keys));
    SCHEDREF_RETURN_IF_ERROR(CheckCsiDriverName(d, "name", driver.name));
    if (driver.node_id.empty()) return d.ErrorAt("nodeID", "required value");
    if (driver.node_id.size() > 256) {
      return d.ErrorAt("nodeID", "invalid value \"" + driver.node_id +
                                     "\": must be 256 characters or less");
    }
    StatusOr<FieldReader> allocatable = d.Object("allocatable");
    if (!allocatable.ok()) return allocatable.status();
    SCHEDREF_RETURN_IF_ERROR(allocatable->Int32("count", &driver.allocatable_count));
    if (driver.allocatable_count.has_value() && *driver.allocatable_count < 0) {
      return allocatable->ErrorAt("count", "invalid value " +
                                               std::to_string(*driver.allocatable_count) +
                                               ": must be greater than or equal to 0");
    }
    if (!names.insert(driver.name).second) {
      return d.ErrorAt("name", "duplicate value \"" + driver.name + "\"");
    }
    // Upstream reports topology key problems at the driver, not the key.
    std::set<std::string> keys;
    for (const std::string& key : driver.topology_keys) {
      if (key.empty()) return d.Error("required value");
      if (!keys.insert(key).second) return d.Error("duplicate value \"" + key + "\"");
      if (auto problem = CheckQualifiedName(key)) {
        return d.Error("invalid value \"" + key + "\": " + *problem);
      }
    }
    node->drivers.push_back(std::move(driver));
  }
  return Status::Ok();
}

Status DecodeCSIDriver(const FieldReader& root, CSIDriver* driver) {
  StatusOr<FieldReader> spec = root.Object("spec");
  if (!spec.ok()) return spec.status();
  std::optional<bool> attach, capacity;
  SCHEDREF_RETURN_IF_ERROR(spec->Bool("attachRequired", &attach));
  SCHEDREF_RETURN_IF_ERROR(spec->Bool("storageCapacity", &capacity));
  driver->attach_required = attach.value_or(true);
  driver->storage_capacity = capacity.value_or(false);
  // Validated, not kept.
  std::optional<std::string> fs_group_policy;
  SCHEDREF_RETURN_IF_ERROR(spec->Enum("fsGroupPolicy", {"File", "None", "ReadWriteOnceWithFSType"},
                                      &fs_group_policy));
  std::vector<std::string> modes;
  SCHEDREF_RETURN_IF_ERROR(spec->StringList("volumeLifecycleModes", &modes));
  for (const std::string& mode : modes) {
    if (mode != "Persistent" && mode != "Ephemeral") {
      return spec->ErrorAt("volumeLifecycleModes",
                           "unsupported value \"" + mode +
                               "\" (supported: \"Persistent\", \"Ephemeral\")");
    }
  }
  return Status::Ok();
}

Status DecodeCSIStorageCapacity(const FieldReader& root, CSIStorageCapacity* capacity) {
  SCHEDREF_RETURN_IF_ERROR(ReadLabelSelector(root, "nodeTopology", &capacity->node_topology));
  SCHEDREF_RETURN_IF_ERROR(root.String("storageClassName", &capacity->storage_class_name));
  if (auto problem = CheckDnsSubdomain(capacity->storage_class_name)) {
    return root.ErrorAt("storageClassName",
                        "invalid value \"" + capacity->storage_class_name + "\": " + *problem);
  }
  SCHEDREF_RETURN_IF_ERROR(ReadStorageQuantity(root, "capacity", &capacity->capacity));
  if (capacity->capacity.has_value() && *capacity->capacity < 0) {
    return root.ErrorAt("capacity", "must be greater than or equal to 0");
  }
  // maximumVolumeSize is not validated upstream.
  return ReadStorageQuantity(root, "maximumVolumeSize", &capacity->maximum_volume_size);
}

}  // namespace schedref::api::decode_fields
