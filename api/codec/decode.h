// Decoding Kubernetes manifests (YAML or JSON) into the objects of
// api/types/objects.h. Specification: the JSON form of k8s.io/api core/v1 (Node,
// Pod, Namespace, PersistentVolume, PersistentVolumeClaim), policy/v1
// (PodDisruptionBudget), scheduling.k8s.io/v1 (PriorityClass) and storage/v1
// (StorageClass, CSINode, CSIDriver, CSIStorageCapacity; decode_storage.cc); the defaulting of pkg/apis/core/v1/defaults.go that the
// scheduler relies on; the validation of pkg/apis/core/validation that
// decides which objects can exist at all (see api/types/labels.h).
//
// Accepted input is what `kubectl get nodes,pods -o json|yaml` writes: one
// or more documents, each a single object or a list (kind List, or
// NodeList, PodList, ... with `items`). Fields that do not affect
// scheduling (managedFields, resourceVersion, pod conditions, ...) are
// ignored. Annotations and each node condition's type and status are read:
// no plugin uses them, but changing them is a cluster event
// (UpdatePodOther, UpdateNodeAnnotation, UpdateNodeCondition).
//
// A namespaced object without metadata.namespace (or with an empty one)
// is in "default", as `kubectl create -f` puts it: a manifest written by
// hand usually leaves it out, while a dump always carries it. Its key and
// its messages name it "default/<name>".
//
// Every error is Status::Invalid with the message
//   <file>: <Kind> <namespace>/<name>: <field.path>: <problem>
// (cluster-scoped kinds: "<Kind> <name>"; before the name is known:
// "<Kind> <document #N>"), see api/codec/manifest.h.
#ifndef SCHEDREF_API_DECODE_H_
#define SCHEDREF_API_DECODE_H_

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "api/codec/manifest.h"
#include "api/status.h"
#include "api/types/objects.h"

namespace schedref::api {

// One decoded object of any supported kind.
// The alternatives' order is KindOf's.
using AnyObject =
    std::variant<Node, Pod, PodDisruptionBudget, PriorityClass, Namespace, PersistentVolume,
                 PersistentVolumeClaim, StorageClass, CSINode, CSIDriver, CSIStorageCapacity,
                 Service, ReplicationController, ReplicaSet, StatefulSet>;

// The object's kind: "Node", "Pod", "PersistentVolumeClaim", ...
[[nodiscard]] std::string KindOf(const AnyObject& object);
// "namespace/name" for namespaced kinds, "name" otherwise: unique per kind.
[[nodiscard]] std::string KeyOf(const AnyObject& object);

// Decodes every document of `text` into `Objects`, in manifest order (list
// items in list order). Empty documents are skipped. Two objects of the
// same kind and key are an error naming both places:
//   f.yaml: Pod default/p: defined twice (document #1 and document #3)
[[nodiscard]] StatusOr<Objects> DecodeManifests(std::string_view text,
                                                const std::string& file);

// Decodes one object (not a list). `document_index` counts from 1 and is
// used only in messages ("Pod <document #3>" while the name is unknown).
[[nodiscard]] StatusOr<AnyObject> DecodeObject(const nlohmann::json& document,
                                               const std::string& file,
                                               int document_index);

// Decodes the object at `at`, which may sit inside a larger document (e.g.
// a scenario's "events[3].object"). Field paths in messages then start at
// `at` ("events[3].object.spec.priority"), and an object whose name is not
// known yet is described as "<Kind> <events[3].object>".
[[nodiscard]] StatusOr<AnyObject> DecodeObjectAt(const FieldReader& at);

// The metav1.LabelSelector at parent.key, validated as the API server
// validates one; absent leaves *out alone. For scenario fields that select
// objects (a declared extender's rules).
[[nodiscard]] Status DecodeLabelSelectorAt(const FieldReader& parent,
                                           std::string_view key,
                                           std::optional<LabelSelector>* out);

// RFC 3339 as metav1.Time reads it ("2024-01-02T03:04:05Z", optional
// fraction, "Z" or a +hh:mm/-hh:mm offset) -> milliseconds since the epoch
// (fractions below a millisecond are truncated). nullopt if malformed.
[[nodiscard]] std::optional<TimeMs> ParseRfc3339(std::string_view text);

// Gives `pod` the lifetime: its annotations (objects.h kRunForAnnotation,
// kEndPhaseAnnotation) and Pod::lifetime, as DecodeObject would read them.
// REQUIRES: lifetime.run_for_ms > 0; end_phase Succeeded or Failed.
void SetPodLifetime(const PodLifetime& lifetime, Pod* pod);

}  // namespace schedref::api

#endif  // SCHEDREF_API_DECODE_H_
