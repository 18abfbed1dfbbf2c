// Decoding the objects whose selectors give a pod its default topology
// spreading (decode_fields.h): core/v1 Service and ReplicationController,
// apps/v1 ReplicaSet and StatefulSet, at v1.32. Only the selector is read;
// everything else (ports, the pod template, replicas, status) is ignored.
#include <optional>
#include <string>

#include "api/codec/decode_fields.h"
#include "api/types/labels.h"

namespace schedref::api::decode_fields {

Status DecodeService(const FieldReader& root, Service* service) {
  StatusOr<FieldReader> spec = root.Object("spec");
  if (!spec.ok()) return spec.status();
  StatusOr<FieldReader> selector = spec->Field("selector");
  if (!selector.ok()) return selector.status();
  if (selector->present()) {
    Labels labels;
    SCHEDREF_RETURN_IF_ERROR(ReadLabels(*spec, "selector", &labels));
    service->selector = std::move(labels);
  }
  return Status::Ok();
}

Status DecodeReplicationController(const FieldReader& root, ReplicationController* rc) {
  StatusOr<FieldReader> spec = root.Object("spec");
  if (!spec.ok()) return spec.status();
  SCHEDREF_RETURN_IF_ERROR(ReadLabels(*spec, "selector", &rc->selector));
  if (rc->selector.empty()) {
    // SetDefaults_ReplicationController: the template's labels.
    StatusOr<FieldReader> tmpl = spec->Object("template");
    if (!tmpl.ok()) return tmpl.status();
    StatusOr<FieldReader> meta = tmpl->Object("metadata");
    if (!meta.ok()) return meta.status();
    SCHEDREF_RETURN_IF_ERROR(ReadLabels(*meta, "labels", &rc->selector));
  }
  if (rc->selector.empty()) return spec->ErrorAt("selector", "required value");
  return Status::Ok();
}

namespace {

// spec.selector of a ReplicaSet or StatefulSet: required, and not empty
// (ValidateReplicaSetSpec / ValidateStatefulSetSpec: "empty selector is
// invalid for deployment" in the API server's words).
Status ReadControllerSelector(const FieldReader& root, LabelSelector* out) {
  StatusOr<FieldReader> spec = root.Object("spec");
  if (!spec.ok()) return spec.status();
  std::optional<LabelSelector> selector;
  SCHEDREF_RETURN_IF_ERROR(ReadLabelSelector(*spec, "selector", &selector));
  if (!selector.has_value()) return spec->ErrorAt("selector", "required value");
  if (selector->match_labels.empty() && selector->match_expressions.empty()) {
    return spec->ErrorAt("selector", "empty selector is invalid for deployment");
  }
  *out = std::move(*selector);
  return Status::Ok();
}

}  // namespace

Status DecodeReplicaSet(const FieldReader& root, ReplicaSet* rs) {
  return ReadControllerSelector(root, &rs->selector);
}

Status DecodeStatefulSet(const FieldReader& root, StatefulSet* ss) {
  return ReadControllerSelector(root, &ss->selector);
}

}  // namespace schedref::api::decode_fields
