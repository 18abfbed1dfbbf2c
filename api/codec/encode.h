// Encoding the objects of api/types/objects.h back into Kubernetes manifests, for
// writing scenario files and for round-trip tests. Specification: the same
// JSON shapes api/codec/decode.h reads (k8s.io/api core/v1, policy/v1,
// scheduling.k8s.io/v1).
//
// Guarantee: for every object that DecodeObject can produce,
// DecodeObject(EncodeObject(x)) == x. Quantities are written as strings:
// cpu as "<millicores>m", every other resource as "<units>". Fields at their
// zero value are left out where leaving them out decodes to the same value.
#ifndef SCHEDREF_API_ENCODE_H_
#define SCHEDREF_API_ENCODE_H_

#include <string>

#include <nlohmann/json.hpp>

#include "api/codec/decode.h"
#include "api/types/objects.h"

namespace schedref::api {

// A manifest with apiVersion, kind, metadata and, as the kind has them,
// spec, status or top-level fields (PriorityClass).
[[nodiscard]] nlohmann::json EncodeObject(const AnyObject& object);

// A "kind: List" document holding every object, in the order namespaces,
// priority classes, nodes, pods, PDBs, storage classes, CSI drivers, CSI
// nodes, PVs, claims, storage capacities, Services, ReplicationControllers,
// ReplicaSets, StatefulSets (each in its vector's order).
// DecodeManifests reads it back into an equal Objects.
[[nodiscard]] nlohmann::json EncodeList(const Objects& objects);

// Milliseconds since the epoch -> RFC 3339 in UTC: "2024-01-02T03:04:05Z",
// with ".mmm" only when the milliseconds are not zero.
// REQUIRES: the time falls in the years 0000 to 9999.
// Note: metav1.Time keeps whole seconds; the milliseconds are written so
// that the virtual clock's finer times survive a round trip
// (docs/deviations.md).
[[nodiscard]] std::string FormatRfc3339(TimeMs time);

}  // namespace schedref::api

#endif  // SCHEDREF_API_ENCODE_H_
