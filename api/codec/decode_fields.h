// Field readers shared by the manifest decoders (decode.cc for pods, nodes
// and the policy kinds, decode_storage.cc for the storage kinds): each reads
// one field of a manifest object and validates it as the API server does,
// with errors located by FieldReader (api/codec/manifest.h).
#ifndef SCHEDREF_API_CODEC_DECODE_FIELDS_H_
#define SCHEDREF_API_CODEC_DECODE_FIELDS_H_

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/codec/manifest.h"
#include "api/status.h"
#include "api/types/labels.h"
#include "api/types/objects.h"

namespace schedref::api::decode_fields {

// The located error of `problem`, Ok when there is none.
[[nodiscard]] Status FromProblem(const FieldReader& at,
                                 const std::optional<FieldProblem>& problem);
// An RFC 3339 time (metav1.Time); absent leaves *out alone.
[[nodiscard]] Status ReadTime(const FieldReader& parent, std::string_view key,
                              std::optional<TimeMs>* out);
[[nodiscard]] std::string_view TrimSpace(std::string_view s);
// The resource.Quantity at `f` (a string or a number, surrounding blanks
// trimmed) as the int64 kube-scheduler reads from it: MilliValue() iff
// `milli`, else Value(). A value outside int64 in that unit is refused
// (see the definition).
[[nodiscard]] Status ReadQuantity(const FieldReader& f, bool milli, int64_t* out);
// A ResourceList: "cpu" in millicores, everything else in whole units,
// rounded up. Sets *present iff the field exists.
[[nodiscard]] Status ReadResources(const FieldReader& parent, std::string_view key,
                                   ResourceList* out, bool* present = nullptr);
// A string map validated as labels.
[[nodiscard]] Status ReadLabels(const FieldReader& parent, std::string_view key,
                                Labels* out);
// metadata.annotations, validated as the API server does.
[[nodiscard]] Status ReadAnnotations(const FieldReader& meta, Labels* out);
// A string field that must be present and one of `allowed`.
[[nodiscard]] Status RequiredEnum(const FieldReader& parent, std::string_view key,
                                  std::initializer_list<std::string_view> allowed,
                                  std::string* out);
// metav1.LabelSelector; absent leaves *out alone.
[[nodiscard]] Status ReadLabelSelector(const FieldReader& parent, std::string_view key,
                                       std::optional<LabelSelector>* out);
// core/v1 NodeSelectorTerm at `at`.
[[nodiscard]] Status ReadNodeSelectorTerm(const FieldReader& at, NodeSelectorTerm* out);

// --- The storage kinds (decode_storage.cc) ---
// Each REQUIRES the name (and namespace) set and checked by the caller
// (DecodeAt refuses a name that is not a DNS subdomain for every kind), and
// reads the rest of the object at `root`.
[[nodiscard]] Status DecodePersistentVolume(const FieldReader& root, PersistentVolume* pv);
[[nodiscard]] Status DecodePersistentVolumeClaim(const FieldReader& root,
                                                 PersistentVolumeClaim* pvc);
[[nodiscard]] Status DecodeStorageClass(const FieldReader& root, StorageClass* sc);
[[nodiscard]] Status DecodeCSINode(const FieldReader& root, CSINode* node);
[[nodiscard]] Status DecodeCSIDriver(const FieldReader& root, CSIDriver* driver);
[[nodiscard]] Status DecodeCSIStorageCapacity(const FieldReader& root,
                                              CSIStorageCapacity* capacity);
// --- Services and pod controllers (decode_owners.cc) ---
[[nodiscard]] Status DecodeService(const FieldReader& root, Service* service);
[[nodiscard]] Status DecodeReplicationController(const FieldReader& root,
                                                 ReplicationController* rc);
[[nodiscard]] Status DecodeReplicaSet(const FieldReader& root, ReplicaSet* rs);
[[nodiscard]] Status DecodeStatefulSet(const FieldReader& root, StatefulSet* ss);

// A pod's spec.volumes.
// `pod_name` names the claims of the pod's ephemeral volumes.
[[nodiscard]] Status ReadVolumes(const FieldReader& spec, const std::string& pod_name,
                                 std::vector<Volume>* out);
// metadata.ownerReferences.
[[nodiscard]] Status ReadOwnerReferences(const FieldReader& meta,
                                         std::vector<OwnerReference>* out);

}  // namespace schedref::api::decode_fields

#endif  // SCHEDREF_API_CODEC_DECODE_FIELDS_H_
