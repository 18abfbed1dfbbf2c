#include "api/codec/decode.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "api/apiserver/pod_validation.h"
#include "api/codec/decode_fields.h"
#include "api/gocompat/go_duration.h"
#include "api/types/labels.h"
#include "api/types/quantity.h"

namespace schedref::api {
namespace {

using nlohmann::json;

// What a decoded kind needs: its apiVersion and whether it is namespaced.
struct KindInfo {
  std::string_view kind;
  std::string_view api_version;
  bool namespaced;
};

constexpr KindInfo kKinds[] = {
    {"Node", "v1", false},
    {"Pod", "v1", true},
    {"Namespace", "v1", false},
    {"PodDisruptionBudget", "policy/v1", true},
    {"PriorityClass", "scheduling.k8s.io/v1", false},
    {"PersistentVolume", "v1", false},
    {"PersistentVolumeClaim", "v1", true},
    {"StorageClass", "storage.k8s.io/v1", false},
    {"CSINode", "storage.k8s.io/v1", false},
    {"CSIDriver", "storage.k8s.io/v1", false},
    {"CSIStorageCapacity", "storage.k8s.io/v1", true},
    {"Service", "v1", true},
    {"ReplicationController", "v1", true},
    {"ReplicaSet", "apps/v1", true},
    {"StatefulSet", "apps/v1", true},
};

const KindInfo* FindKind(std::string_view kind) {
  for (const KindInfo& k : kKinds) {
    if (k.kind == kind) return &k;
  }
  return nullptr;
}

constexpr char kSupportedKinds[] =
    "supported: Node, Pod, Namespace, PodDisruptionBudget, PriorityClass, "
    "PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode, CSIDriver, "
    "CSIStorageCapacity, Service, ReplicationController, ReplicaSet, StatefulSet, and List or "
    "<Kind>List of them";

bool IsListKind(std::string_view kind) {
  return kind.size() >= 4 && kind.substr(kind.size() - 4) == "List";
}

}  // namespace

// The field readers decode_fields.h declares.
namespace decode_fields {

Status FromProblem(const FieldReader& at,
                   const std::optional<FieldProblem>& problem) {
  if (!problem.has_value()) return Status::Ok();
  return at.ErrorAt(problem->field, problem->problem);
}

// --- Scalars with meaning ---------------------------------------------------

Status ReadTime(const FieldReader& parent, std::string_view key,
                std::optional<TimeMs>* out) {
  std::optional<std::string> text;
  SCHEDREF_RETURN_IF_ERROR(parent.String(key, &text));
  if (!text.has_value()) return Status::Ok();
  const std::optional<TimeMs> t = ParseRfc3339(*text);
  if (!t.has_value()) {
    StatusOr<FieldReader> f = parent.Field(key);
    if (!f.ok()) return f.status();
    return f->Error("invalid RFC 3339 time \"" + *text + "\"");
  }
  *out = *t;
  return Status::Ok();
}

std::string_view TrimSpace(std::string_view s) {
  const auto blank = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
  };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

// Note: the API server accepts quantities of any size (ParseQuantity and
// ValidateResourceQuantityValue set no upper bound), but v1.32's Value()
// and MilliValue() return a wrapped number or 0 past int64, so a
// kube-scheduler would compare garbage. schedref refuses such a value
// rather than answer for a number it cannot know (docs/deviations.md,
// "Quantities beyond int64").
Status ReadQuantity(const FieldReader& f, bool milli, int64_t* out) {
  std::string text;
  SCHEDREF_RETURN_IF_ERROR(f.AsScalarText(&text));
  const std::string_view trimmed = TrimSpace(text);
  StatusOr<Quantity> q = Quantity::Parse(trimmed);
  if (!q.ok()) return f.Error(q.status().message());
  const std::optional<int64_t> value = milli ? q->MilliValueIfFits() : q->ValueIfFits();
  if (!value) {
    return f.Error("quantity \"" + std::string(trimmed) +
                   "\": out of range: kube-scheduler reads it as a 64-bit integer" +
                   (milli ? " of millicores" : "") +
                   " (at most 9223372036854775807), and v1.32 reads a larger value "
                   "wrapped or as 0; schedref does not model such quantities");
  }
  *out = *value;
  return Status::Ok();
}

// A ResourceList: "cpu" in millicores, everything else in whole units,
// rounded up (api/types/objects.h). Quantities may be written as strings or
// numbers, as resource.Quantity's JSON decoding accepts both; null is zero.
// Sets *present iff the field exists.
Status ReadResources(const FieldReader& parent, std::string_view key,
                     ResourceList* out, bool* present) {
  StatusOr<FieldReader> field = parent.Object(key);
  if (!field.ok()) return field.status();
  if (present != nullptr) *present = field->present();
  if (!field->present()) return Status::Ok();
  StatusOr<std::vector<std::pair<std::string, FieldReader>>> entries =
      parent.Entries(key);
  if (!entries.ok()) return entries.status();
  ResourceList result;
  for (const auto& [name, value] : *entries) {
    int64_t amount = 0;
    if (value.present()) {
      SCHEDREF_RETURN_IF_ERROR(ReadQuantity(value, name == kResourceCpu, &amount));
      if (amount < 0) {
        std::string text;
        SCHEDREF_RETURN_IF_ERROR(value.AsScalarText(&text));
        return value.Error("quantity \"" + std::string(TrimSpace(text)) +
                           "\": must not be negative");
      }
    }
    result[name] = amount;
  }
  *out = std::move(result);
  return Status::Ok();
}

// metadata.labels, spec.nodeSelector, ...: a string map whose keys and
// values the API server would have validated as labels.
Status ReadLabels(const FieldReader& parent, std::string_view key,
                  Labels* out) {
  SCHEDREF_RETURN_IF_ERROR(parent.StringMap(key, out));
  if (auto problem = ValidateLabels(*out)) {
    StatusOr<FieldReader> f = parent.Field(key);
    if (!f.ok()) return f.status();
    return f->ErrorAt(problem->field, problem->problem);
  }
  return Status::Ok();
}

// metadata.annotations, validated as the API server does.
Status ReadAnnotations(const FieldReader& meta, Labels* out) {
  SCHEDREF_RETURN_IF_ERROR(meta.StringMap("annotations", out));
  if (auto problem = ValidateAnnotations(*out)) {
    StatusOr<FieldReader> f = meta.Field("annotations");
    if (!f.ok()) return f.status();
    return f->ErrorAt(problem->field, problem->problem);
  }
  return Status::Ok();
}

Status RequiredEnum(const FieldReader& parent, std::string_view key,
                    std::initializer_list<std::string_view> allowed,
                    std::string* out) {
  StatusOr<FieldReader> f = parent.Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return f->Error("required field is missing");
  return parent.Enum(key, allowed, out);
}

// --- Selectors ------------------------------------------------------------------

Status ReadLabelSelector(const FieldReader& parent, std::string_view key,
                         std::optional<LabelSelector>* out) {
  StatusOr<FieldReader> at = parent.Object(key);
  if (!at.ok()) return at.status();
  if (!at->present()) return Status::Ok();
  LabelSelector selector;
  SCHEDREF_RETURN_IF_ERROR(at->StringMap("matchLabels", &selector.match_labels));
  StatusOr<std::vector<FieldReader>> exprs = at->Array("matchExpressions");
  if (!exprs.ok()) return exprs.status();
  for (const FieldReader& e : *exprs) {
    SCHEDREF_RETURN_IF_ERROR(e.ExpectObject());
    LabelSelectorRequirement r;
    SCHEDREF_RETURN_IF_ERROR(e.String("key", &r.key));
    SCHEDREF_RETURN_IF_ERROR(e.String("operator", &r.op));
    SCHEDREF_RETURN_IF_ERROR(e.StringList("values", &r.values));
    selector.match_expressions.push_back(std::move(r));
  }
  SCHEDREF_RETURN_IF_ERROR(FromProblem(*at, ValidateLabelSelector(selector)));
  *out = std::move(selector);
  return Status::Ok();
}

Status ReadNodeSelectorRequirements(const FieldReader& term,
                                    std::string_view key,
                                    std::vector<NodeSelectorRequirement>* out) {
  StatusOr<std::vector<FieldReader>> items = term.Array(key);
  if (!items.ok()) return items.status();
  for (const FieldReader& e : *items) {
    SCHEDREF_RETURN_IF_ERROR(e.ExpectObject());
    NodeSelectorRequirement r;
    SCHEDREF_RETURN_IF_ERROR(e.String("key", &r.key));
    SCHEDREF_RETURN_IF_ERROR(e.String("operator", &r.op));
    SCHEDREF_RETURN_IF_ERROR(e.StringList("values", &r.values));
    out->push_back(std::move(r));
  }
  return Status::Ok();
}

Status ReadNodeSelectorTerm(const FieldReader& at, NodeSelectorTerm* out) {
  SCHEDREF_RETURN_IF_ERROR(at.ExpectObject());
  SCHEDREF_RETURN_IF_ERROR(
      ReadNodeSelectorRequirements(at, "matchExpressions", &out->match_expressions));
  SCHEDREF_RETURN_IF_ERROR(
      ReadNodeSelectorRequirements(at, "matchFields", &out->match_fields));
  return FromProblem(at, ValidateNodeSelectorTerm(*out));
}
}  // namespace decode_fields

namespace {

using decode_fields::FromProblem;
using decode_fields::ReadAnnotations;
using decode_fields::ReadLabels;
using decode_fields::ReadLabelSelector;
using decode_fields::ReadNodeSelectorTerm;
using decode_fields::ReadResources;
using decode_fields::ReadOwnerReferences;
using decode_fields::ReadTime;
using decode_fields::ReadVolumes;
using decode_fields::RequiredEnum;
using decode_fields::TrimSpace;


Status ReadWeight(const FieldReader& at, int32_t* weight) {
  SCHEDREF_RETURN_IF_ERROR(at.RequiredInt32("weight", weight));
  if (*weight < 1 || *weight > 100) {
    return at.ErrorAt("weight", "must be in the range 1-100");
  }
  return Status::Ok();
}

Status ReadNodeAffinity(const FieldReader& at, NodeAffinity* out) {
  StatusOr<FieldReader> required =
      at.Object("requiredDuringSchedulingIgnoredDuringExecution");
  if (!required.ok()) return required.status();
  if (required->present()) {
    NodeSelector selector;
    StatusOr<std::vector<FieldReader>> terms =
        required->Array("nodeSelectorTerms");
    if (!terms.ok()) return terms.status();
    if (terms->empty()) {
      return required->ErrorAt("nodeSelectorTerms",
                               "must have at least one node selector term");
    }
    for (const FieldReader& t : *terms) {
      NodeSelectorTerm term;
      SCHEDREF_RETURN_IF_ERROR(ReadNodeSelectorTerm(t, &term));
      selector.terms.push_back(std::move(term));
    }
    out->required = std::move(selector);
  }
  StatusOr<std::vector<FieldReader>> preferred =
      at.Array("preferredDuringSchedulingIgnoredDuringExecution");
  if (!preferred.ok()) return preferred.status();
  for (const FieldReader& p : *preferred) {
    SCHEDREF_RETURN_IF_ERROR(p.ExpectObject());
    PreferredSchedulingTerm term;
    SCHEDREF_RETURN_IF_ERROR(ReadWeight(p, &term.weight));
    StatusOr<FieldReader> preference = p.Object("preference");
    if (!preference.ok()) return preference.status();
    SCHEDREF_RETURN_IF_ERROR(ReadNodeSelectorTerm(*preference, &term.preference));
    out->preferred.push_back(std::move(term));
  }
  return Status::Ok();
}

Status ReadPodAffinityTerm(const FieldReader& at, const Labels& pod_labels,
                           PodAffinityTerm* out) {
  SCHEDREF_RETURN_IF_ERROR(at.ExpectObject());
  SCHEDREF_RETURN_IF_ERROR(
      ReadLabelSelector(at, "labelSelector", &out->label_selector));
  SCHEDREF_RETURN_IF_ERROR(at.StringList("namespaces", &out->namespaces));
  SCHEDREF_RETURN_IF_ERROR(at.RequiredString("topologyKey", &out->topology_key));
  if (auto p = CheckQualifiedName(out->topology_key)) {
    return at.ErrorAt("topologyKey", "invalid label key \"" +
                                         out->topology_key + "\": " + *p);
  }
  SCHEDREF_RETURN_IF_ERROR(
      ReadLabelSelector(at, "namespaceSelector", &out->namespace_selector));
  SCHEDREF_RETURN_IF_ERROR(at.StringList("matchLabelKeys", &out->match_label_keys));
  SCHEDREF_RETURN_IF_ERROR(
      at.StringList("mismatchLabelKeys", &out->mismatch_label_keys));
  if (auto p = ValidateAffinityTermLabelKeys(*out, pod_labels)) {
    return at.ErrorAt(p->field, p->problem);
  }
  return Status::Ok();
}

Status ReadPodAffinity(const FieldReader& at, const Labels& pod_labels,
                       PodAffinity* out) {
  StatusOr<std::vector<FieldReader>> required =
      at.Array("requiredDuringSchedulingIgnoredDuringExecution");
  if (!required.ok()) return required.status();
  for (const FieldReader& r : *required) {
    PodAffinityTerm term;
    SCHEDREF_RETURN_IF_ERROR(ReadPodAffinityTerm(r, pod_labels, &term));
    out->required.push_back(std::move(term));
  }
  StatusOr<std::vector<FieldReader>> preferred =
      at.Array("preferredDuringSchedulingIgnoredDuringExecution");
  if (!preferred.ok()) return preferred.status();
  for (const FieldReader& p : *preferred) {
    SCHEDREF_RETURN_IF_ERROR(p.ExpectObject());
    WeightedPodAffinityTerm term;
    SCHEDREF_RETURN_IF_ERROR(ReadWeight(p, &term.weight));
    StatusOr<FieldReader> t = p.Object("podAffinityTerm");
    if (!t.ok()) return t.status();
    if (!t->present()) return t->Error("required field is missing");
    SCHEDREF_RETURN_IF_ERROR(ReadPodAffinityTerm(*t, pod_labels, &term.term));
    out->preferred.push_back(std::move(term));
  }
  return Status::Ok();
}

Status ReadAffinity(const FieldReader& at, const Labels& pod_labels,
                    Affinity* out) {
  StatusOr<FieldReader> node = at.Object("nodeAffinity");
  if (!node.ok()) return node.status();
  if (node->present()) {
    NodeAffinity na;
    SCHEDREF_RETURN_IF_ERROR(ReadNodeAffinity(*node, &na));
    out->node_affinity = std::move(na);
  }
  StatusOr<FieldReader> pod = at.Object("podAffinity");
  if (!pod.ok()) return pod.status();
  if (pod->present()) {
    PodAffinity pa;
    SCHEDREF_RETURN_IF_ERROR(ReadPodAffinity(*pod, pod_labels, &pa));
    out->pod_affinity = std::move(pa);
  }
  StatusOr<FieldReader> anti = at.Object("podAntiAffinity");
  if (!anti.ok()) return anti.status();
  if (anti->present()) {
    PodAffinity pa;
    SCHEDREF_RETURN_IF_ERROR(ReadPodAffinity(*anti, pod_labels, &pa));
    out->pod_anti_affinity = std::move(pa);
  }
  return Status::Ok();
}

// --- Pod parts --------------------------------------------------------------------

Status ReadContainer(const FieldReader& at, bool init, Container* out) {
  SCHEDREF_RETURN_IF_ERROR(at.ExpectObject());
  SCHEDREF_RETURN_IF_ERROR(at.RequiredString("name", &out->name));
  SCHEDREF_RETURN_IF_ERROR(at.String("image", &out->image));
  StatusOr<FieldReader> resources = at.Object("resources");
  if (!resources.ok()) return resources.status();
  SCHEDREF_RETURN_IF_ERROR(ReadResources(*resources, "requests", &out->requests));
  SCHEDREF_RETURN_IF_ERROR(ReadResources(*resources, "limits", &out->limits));
  // Defaulting (pkg/apis/core/v1/defaults.go, SetDefaults_Pod): a resource
  // with a limit and no request is requested at its limit. The API server
  // stores pods defaulted; manifests written by hand often are not.
  for (const auto& [name, limit] : out->limits) {
    out->requests.emplace(name, limit);
  }
  StatusOr<std::vector<FieldReader>> ports = at.Array("ports");
  if (!ports.ok()) return ports.status();
  for (const FieldReader& p : *ports) {
    SCHEDREF_RETURN_IF_ERROR(p.ExpectObject());
    ContainerPort port;
    SCHEDREF_RETURN_IF_ERROR(p.RequiredInt32("containerPort", &port.container_port));
    if (port.container_port < 1 || port.container_port > 65535) {
      return p.ErrorAt("containerPort", "must be between 1 and 65535");
    }
    SCHEDREF_RETURN_IF_ERROR(p.Int32("hostPort", &port.host_port));
    if (port.host_port < 0 || port.host_port > 65535) {
      return p.ErrorAt("hostPort", "must be between 0 and 65535");
    }
    // Defaulted to TCP upstream (SetDefaults_ContainerPort).
    port.protocol = "TCP";
    SCHEDREF_RETURN_IF_ERROR(
        p.Enum("protocol", {"TCP", "UDP", "SCTP"}, &port.protocol));
    SCHEDREF_RETURN_IF_ERROR(p.String("hostIP", &port.host_ip));
    out->ports.push_back(std::move(port));
  }
  // Only init containers may set a restart policy in v1.32, and only
  // Always (a sidecar).
  if (init) {
    SCHEDREF_RETURN_IF_ERROR(
        at.Enum("restartPolicy", {"Always"}, &out->restart_policy));
  } else {
    StatusOr<FieldReader> policy = at.Field("restartPolicy");
    if (!policy.ok()) return policy.status();
    if (policy->present()) {
      return policy->Error("may only be set for init containers");
    }
  }
  return Status::Ok();
}

Status ReadTolerations(const FieldReader& spec, std::vector<Toleration>* out) {
  StatusOr<std::vector<FieldReader>> items = spec.Array("tolerations");
  if (!items.ok()) return items.status();
  for (const FieldReader& t : *items) {
    SCHEDREF_RETURN_IF_ERROR(t.ExpectObject());
    Toleration tol;
    SCHEDREF_RETURN_IF_ERROR(t.String("key", &tol.key));
    SCHEDREF_RETURN_IF_ERROR(t.String("operator", &tol.op));
    SCHEDREF_RETURN_IF_ERROR(t.String("value", &tol.value));
    SCHEDREF_RETURN_IF_ERROR(t.String("effect", &tol.effect));
    SCHEDREF_RETURN_IF_ERROR(t.Int64("tolerationSeconds", &tol.toleration_seconds));
    SCHEDREF_RETURN_IF_ERROR(FromProblem(t, ValidateToleration(tol)));
    out->push_back(std::move(tol));
  }
  return Status::Ok();
}

Status ReadSpreadConstraints(const FieldReader& spec,
                             std::vector<TopologySpreadConstraint>* out) {
  StatusOr<std::vector<FieldReader>> items =
      spec.Array("topologySpreadConstraints");
  if (!items.ok()) return items.status();
  for (const FieldReader& c : *items) {
    SCHEDREF_RETURN_IF_ERROR(c.ExpectObject());
    TopologySpreadConstraint tsc;
    SCHEDREF_RETURN_IF_ERROR(c.RequiredInt32("maxSkew", &tsc.max_skew));
    if (tsc.max_skew <= 0) {
      return c.ErrorAt("maxSkew", "must be greater than zero");
    }
    SCHEDREF_RETURN_IF_ERROR(c.RequiredString("topologyKey", &tsc.topology_key));
    SCHEDREF_RETURN_IF_ERROR(RequiredEnum(c, "whenUnsatisfiable",
                                          {"DoNotSchedule", "ScheduleAnyway"},
                                          &tsc.when_unsatisfiable));
    SCHEDREF_RETURN_IF_ERROR(
        ReadLabelSelector(c, "labelSelector", &tsc.label_selector));
    SCHEDREF_RETURN_IF_ERROR(c.Int32("minDomains", &tsc.min_domains));
    if (tsc.min_domains.has_value() && *tsc.min_domains <= 0) {
      return c.ErrorAt("minDomains", "must be greater than zero");
    }
    SCHEDREF_RETURN_IF_ERROR(c.Enum("nodeAffinityPolicy", {"Honor", "Ignore"},
                                    &tsc.node_affinity_policy));
    SCHEDREF_RETURN_IF_ERROR(c.Enum("nodeTaintsPolicy", {"Honor", "Ignore"},
                                    &tsc.node_taints_policy));
    SCHEDREF_RETURN_IF_ERROR(c.StringList("matchLabelKeys", &tsc.match_label_keys));
    if (auto p = ValidateSpreadConstraint(tsc, *out)) {
      return p->field.empty() ? c.Error(p->problem) : c.ErrorAt(p->field, p->problem);
    }
    out->push_back(std::move(tsc));
  }
  return Status::Ok();
}

// Records `parent`.`key` in pod->unmodelled_fields, by its path below the
// pod's `root`, when it holds something (not absent, null, [] or {}).
Status NoteUnmodelled(const FieldReader& root, const FieldReader& parent,
                      std::string_view key, Pod* pod) {
  StatusOr<FieldReader> f = parent.Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return Status::Ok();
  const json& j = f->json();
  if ((j.is_array() || j.is_object()) && j.empty()) return Status::Ok();
  // Pod-level resources count only with a request or a limit (upstream's
  // IsPodLevelResourcesSet).
  if (key == "resources" && j.is_object()) {
    auto set = [&j](const char* list) {
      auto it = j.find(list);
      return it != j.end() && it->is_object() && !it->empty();
    };
    if (!set("requests") && !set("limits")) return Status::Ok();
  }
  std::string path = f->path();
  if (!root.path().empty() && path.rfind(root.path() + ".", 0) == 0) {
    path.erase(0, root.path().size() + 1);
  }
  pod->unmodelled_fields.push_back(std::move(path));
  return Status::Ok();
}

// The lifetime annotations (objects.h PodLifetime), checked where they are
// written: a lifetime that cannot be read would otherwise make the pod run
// forever without a word.
Status ReadPodLifetime(const FieldReader& meta, Pod* pod) {
  const auto run_for = pod->annotations.find(kRunForAnnotation);
  const auto end_phase = pod->annotations.find(kEndPhaseAnnotation);
  if (run_for == pod->annotations.end() && end_phase == pod->annotations.end()) {
    return Status::Ok();
  }
  StatusOr<FieldReader> annotations = meta.Object("annotations");
  if (!annotations.ok()) return annotations.status();
  if (run_for == pod->annotations.end()) {
    return annotations->ErrorAt(std::string("[") + kEndPhaseAnnotation + "]",
                                std::string("needs the annotation ") + kRunForAnnotation);
  }
  PodLifetime lifetime;
  const std::optional<int64_t> ms = ParseDurationMs(run_for->second);
  if (!ms.has_value() || *ms <= 0) {
    return annotations->ErrorAt(std::string("[") + kRunForAnnotation + "]",
                                "expected a positive duration in whole milliseconds such as "
                                "\"90s\", got \"" + run_for->second + "\"");
  }
  lifetime.run_for_ms = *ms;
  if (end_phase != pod->annotations.end()) {
    if (end_phase->second != "Succeeded" && end_phase->second != "Failed") {
      return annotations->ErrorAt(
          std::string("[") + kEndPhaseAnnotation + "]",
          "unsupported value \"" + end_phase->second +
              "\" (supported: \"Succeeded\", \"Failed\")");
    }
    lifetime.end_phase = end_phase->second;
  }
  pod->lifetime = std::move(lifetime);
  return Status::Ok();
}

Status DecodePod(const FieldReader& root, Pod* pod) {
  StatusOr<FieldReader> meta = root.Object("metadata");
  if (!meta.ok()) return meta.status();
  SCHEDREF_RETURN_IF_ERROR(meta->String("uid", &pod->uid));
  if (pod->uid.empty()) pod->uid = pod->ns + "/" + pod->name;
  SCHEDREF_RETURN_IF_ERROR(ReadLabels(*meta, "labels", &pod->labels));
  SCHEDREF_RETURN_IF_ERROR(ReadAnnotations(*meta, &pod->annotations));
  SCHEDREF_RETURN_IF_ERROR(ReadPodLifetime(*meta, pod));
  SCHEDREF_RETURN_IF_ERROR(ReadOwnerReferences(*meta, &pod->owner_references));
  std::optional<TimeMs> created;
  SCHEDREF_RETURN_IF_ERROR(ReadTime(*meta, "creationTimestamp", &created));
  pod->creation_timestamp = created.value_or(0);
  SCHEDREF_RETURN_IF_ERROR(
      ReadTime(*meta, "deletionTimestamp", &pod->deletion_timestamp));

  StatusOr<FieldReader> spec = root.Object("spec");
  if (!spec.ok()) return spec.status();
  SCHEDREF_RETURN_IF_ERROR(spec->Int32("priority", &pod->priority));
  SCHEDREF_RETURN_IF_ERROR(
      spec->String("priorityClassName", &pod->priority_class_name));
  SCHEDREF_RETURN_IF_ERROR(spec->String("schedulerName", &pod->scheduler_name));
  // Defaulted upstream (SetDefaults_PodSpec) when empty.
  if (pod->scheduler_name.empty()) pod->scheduler_name = "default-scheduler";
  SCHEDREF_RETURN_IF_ERROR(spec->String("nodeName", &pod->node_name));

  StatusOr<std::vector<FieldReader>> gates = spec->Array("schedulingGates");
  if (!gates.ok()) return gates.status();
  for (const FieldReader& g : *gates) {
    std::string name;
    SCHEDREF_RETURN_IF_ERROR(g.RequiredString("name", &name));
    // The API server's validateSchedulingGates.
    if (auto problem = CheckQualifiedName(name)) return g.ErrorAt("name", *problem);
    if (std::find(pod->scheduling_gates.begin(), pod->scheduling_gates.end(),
                  name) != pod->scheduling_gates.end()) {
      return g.Error("Duplicate value: \"" + name + "\"");
    }
    pod->scheduling_gates.push_back(std::move(name));
  }
  // ValidatePodCreate: a pod is bound only once its gates are gone (and
  // the binding subresource refuses gated pods too).
  if (!pod->scheduling_gates.empty() && !pod->node_name.empty()) {
    return spec->ErrorAt("nodeName",
                         "Forbidden: cannot be set until all schedulingGates "
                         "have been cleared");
  }

  for (const auto& [key, init, list] :
       {std::tuple{"containers", false, &pod->containers},
        std::tuple{"initContainers", true, &pod->init_containers}}) {
    StatusOr<std::vector<FieldReader>> items = spec->Array(key);
    if (!items.ok()) return items.status();
    for (const FieldReader& c : *items) {
      Container container;
      SCHEDREF_RETURN_IF_ERROR(ReadContainer(c, init, &container));
      list->push_back(std::move(container));
      // Dynamic resource allocation: which of the pod's claims the
      // container uses (not modelled).
      StatusOr<FieldReader> resources = c.Object("resources");
      if (!resources.ok()) return resources.status();
      SCHEDREF_RETURN_IF_ERROR(NoteUnmodelled(root, *resources, "claims", pod));
    }
  }
  // Dynamic resource allocation (the DynamicResources plugin) and
  // pod-level resources (PodLevelResources, alpha in v1.32): not modelled,
  // and said so per pod (api/types/unmodelled.h).
  SCHEDREF_RETURN_IF_ERROR(NoteUnmodelled(root, *spec, "resourceClaims", pod));
  SCHEDREF_RETURN_IF_ERROR(NoteUnmodelled(root, *spec, "resources", pod));
  // A pod on the host's network listens on the host: every container port
  // without a hostPort gets one equal to it (SetDefaults_Pod,
  // defaultHostNetworkPorts; pods only since v1.28, ungated since v1.31).
  std::optional<bool> host_network;
  SCHEDREF_RETURN_IF_ERROR(spec->Bool("hostNetwork", &host_network));
  if (host_network.value_or(false)) {
    for (std::vector<Container>* list : {&pod->containers, &pod->init_containers}) {
      for (Container& c : *list) {
        for (ContainerPort& port : c.ports) {
          if (port.host_port == 0) port.host_port = port.container_port;
        }
      }
    }
  }
  SCHEDREF_RETURN_IF_ERROR(ReadResources(*spec, "overhead", &pod->overhead));
  SCHEDREF_RETURN_IF_ERROR(ReadLabels(*spec, "nodeSelector", &pod->node_selector));

  StatusOr<FieldReader> affinity = spec->Object("affinity");
  if (!affinity.ok()) return affinity.status();
  if (affinity->present()) {
    Affinity a;
    SCHEDREF_RETURN_IF_ERROR(ReadAffinity(*affinity, pod->labels, &a));
    pod->affinity = std::move(a);
  }
  SCHEDREF_RETURN_IF_ERROR(ReadTolerations(*spec, &pod->tolerations));
  SCHEDREF_RETURN_IF_ERROR(
      ReadSpreadConstraints(*spec, &pod->topology_spread_constraints));
  SCHEDREF_RETURN_IF_ERROR(spec->Enum("preemptionPolicy",
                                      {"PreemptLowerPriority", "Never"},
                                      &pod->preemption_policy));
  SCHEDREF_RETURN_IF_ERROR(ReadVolumes(*spec, pod->name, &pod->volumes));
  SCHEDREF_RETURN_IF_ERROR(spec->Int64("terminationGracePeriodSeconds",
                                       &pod->termination_grace_period_seconds));

  StatusOr<FieldReader> status = root.Object("status");
  if (!status.ok()) return status.status();
  SCHEDREF_RETURN_IF_ERROR(status->Enum(
      "phase", {"Pending", "Running", "Succeeded", "Failed", "Unknown"}, &pod->phase));
  SCHEDREF_RETURN_IF_ERROR(
      status->String("nominatedNodeName", &pod->nominated_node_name));
  SCHEDREF_RETURN_IF_ERROR(ReadTime(*status, "startTime", &pod->start_time));
  StatusOr<std::vector<FieldReader>> conditions = status->Array("conditions");
  if (!conditions.ok()) return conditions.status();
  for (const FieldReader& c : *conditions) {
    SCHEDREF_RETURN_IF_ERROR(c.ExpectObject());
    PodCondition condition;
    SCHEDREF_RETURN_IF_ERROR(c.RequiredString("type", &condition.type));
    SCHEDREF_RETURN_IF_ERROR(c.RequiredString("status", &condition.status));
    SCHEDREF_RETURN_IF_ERROR(c.String("reason", &condition.reason));
    pod->conditions.push_back(std::move(condition));
  }
  // ValidatePodSpec: a pod runs at least one regular container. Checked
  // last, so a pod with other mistakes too is told about those first (the
  // API server lists every error; schedref names the first it meets).
  if (pod->containers.empty()) return spec->ErrorAt("containers", "Required value");
  return Status::Ok();
}

// --- Other kinds -----------------------------------------------------------------

Status DecodeNode(const FieldReader& root, Node* node) {
  StatusOr<FieldReader> meta = root.Object("metadata");
  if (!meta.ok()) return meta.status();
  SCHEDREF_RETURN_IF_ERROR(meta->String("uid", &node->uid));
  SCHEDREF_RETURN_IF_ERROR(ReadLabels(*meta, "labels", &node->labels));
  SCHEDREF_RETURN_IF_ERROR(ReadAnnotations(*meta, &node->annotations));

  StatusOr<FieldReader> spec = root.Object("spec");
  if (!spec.ok()) return spec.status();
  StatusOr<std::vector<FieldReader>> taints = spec->Array("taints");
  if (!taints.ok()) return taints.status();
  for (const FieldReader& t : *taints) {
    SCHEDREF_RETURN_IF_ERROR(t.ExpectObject());
    Taint taint;
    SCHEDREF_RETURN_IF_ERROR(t.String("key", &taint.key));
    SCHEDREF_RETURN_IF_ERROR(t.String("value", &taint.value));
    SCHEDREF_RETURN_IF_ERROR(t.String("effect", &taint.effect));
    node->taints.push_back(std::move(taint));
  }
  if (auto problem = ValidateTaints(node->taints)) {
    return spec->ErrorAt("taints" + problem->field, problem->problem);
  }
  SCHEDREF_RETURN_IF_ERROR(spec->Bool("unschedulable", &node->unschedulable));

  StatusOr<FieldReader> status = root.Object("status");
  if (!status.ok()) return status.status();
  SCHEDREF_RETURN_IF_ERROR(ReadResources(*status, "capacity", &node->capacity));
  bool has_allocatable = false;
  SCHEDREF_RETURN_IF_ERROR(ReadResources(*status, "allocatable",
                                         &node->allocatable, &has_allocatable));
  // Note: a node without status.allocatable is treated as allocating its
  // whole capacity (docs/deviations.md); the kubelet always reports both.
  if (!has_allocatable) node->allocatable = node->capacity;
  StatusOr<std::vector<FieldReader>> images = status->Array("images");
  if (!images.ok()) return images.status();
  for (const FieldReader& i : *images) {
    SCHEDREF_RETURN_IF_ERROR(i.ExpectObject());
    ContainerImage image;
    SCHEDREF_RETURN_IF_ERROR(i.StringList("names", &image.names));
    SCHEDREF_RETURN_IF_ERROR(i.Int64("sizeBytes", &image.size_bytes));
    node->images.push_back(std::move(image));
  }
  StatusOr<std::vector<FieldReader>> conditions = status->Array("conditions");
  if (!conditions.ok()) return conditions.status();
  for (const FieldReader& c : *conditions) {
    SCHEDREF_RETURN_IF_ERROR(c.ExpectObject());
    std::string type, value;
    SCHEDREF_RETURN_IF_ERROR(c.RequiredString("type", &type));
    SCHEDREF_RETURN_IF_ERROR(c.RequiredString("status", &value));
    node->conditions[type] = value;
  }
  return Status::Ok();
}

Status DecodePdb(const FieldReader& root, PodDisruptionBudget* pdb) {
  StatusOr<FieldReader> spec = root.Object("spec");
  if (!spec.ok()) return spec.status();
  SCHEDREF_RETURN_IF_ERROR(ReadLabelSelector(*spec, "selector", &pdb->selector));
  // minAvailable and maxUnavailable are the disruption controller's, not
  // the scheduler's (it reads status.disruptionsAllowed), but the API
  // server refuses a budget whose values are not valid
  // (ValidatePodDisruptionBudgetSpec).
  bool seen = false;
  for (const char* key : {"minAvailable", "maxUnavailable"}) {
    StatusOr<FieldReader> f = spec->Field(key);
    if (!f.ok()) return f.status();
    if (!f->present()) continue;
    if (seen) return f->Error("minAvailable and maxUnavailable cannot be both set");
    seen = true;
    if (f->json().is_string()) {
      const std::string v = f->json().get<std::string>();
      const bool percent = v.size() >= 2 && v.back() == '%' &&
                           v.find_first_not_of("0123456789") == v.size() - 1;
      if (!percent) {
        return f->Error("invalid value \"" + v + "\": must be an integer or percentage (e.g '5%')");
      }
      std::string digits = v.substr(0, v.size() - 1);
      digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
      if (digits.size() > 3 || (!digits.empty() && std::stoi(digits) > 100)) {
        return f->Error("invalid value \"" + v + "\": must not be greater than 100%");
      }
    } else {
      int32_t n = 0;
      SCHEDREF_RETURN_IF_ERROR(f->AsInt32(&n));
      if (n < 0) {
        return f->Error("invalid value " + std::to_string(n) +
                        ": must be greater than or equal to 0");
      }
    }
  }
  StatusOr<FieldReader> status = root.Object("status");
  if (!status.ok()) return status.status();
  SCHEDREF_RETURN_IF_ERROR(
      status->Int32("disruptionsAllowed", &pdb->disruptions_allowed));
  if (pdb->disruptions_allowed < 0) {
    return status->ErrorAt("disruptionsAllowed", "must not be negative");
  }
  // disruptedPods maps pod names to the time of their eviction; only the
  // names matter here.
  StatusOr<std::vector<std::pair<std::string, FieldReader>>> disrupted =
      status->Entries("disruptedPods");
  if (!disrupted.ok()) return disrupted.status();
  for (const auto& [name, when] : *disrupted) {
    pdb->disrupted_pods.push_back(name);
  }
  return Status::Ok();
}

Status DecodePriorityClass(const FieldReader& root, PriorityClass* pc) {
  SCHEDREF_RETURN_IF_ERROR(root.RequiredInt32("value", &pc->value));
  SCHEDREF_RETURN_IF_ERROR(root.Bool("globalDefault", &pc->global_default));
  return root.Enum("preemptionPolicy", {"PreemptLowerPriority", "Never"},
                   &pc->preemption_policy);
}

// REQUIRES: ns->name is set.
Status DecodeNamespace(const FieldReader& root, Namespace* ns) {
  StatusOr<FieldReader> meta = root.Object("metadata");
  if (!meta.ok()) return meta.status();
  // The API server's ValidateNamespaceName; it is also what makes the name
  // a valid value for the label below.
  if (auto p = CheckNamespaceName(ns->name)) return meta->ErrorAt("name", *p);
  SCHEDREF_RETURN_IF_ERROR(ReadLabels(*meta, "labels", &ns->labels));
  // The API server labels every namespace with its own name, over any
  // value the manifest gives (upstream SetDefaults_Namespace and the
  // namespace strategy's Canonicalize), so namespaceSelector terms can name
  // namespaces.
  ns->labels[std::string(kLabelMetadataName)] = ns->name;
  return Status::Ok();
}

// --- Dispatch -----------------------------------------------------------------------

// Kind and apiVersion that items of a typed list (NodeList, ...) inherit
// when they leave them out, as the API server's list responses do.
struct ItemDefaults {
  std::string kind;
  std::string api_version;
};

StatusOr<AnyObject> DecodeSelectorKind(const std::string& kind, const FieldReader& root,
                                       const std::string& ns, const std::string& name);

StatusOr<AnyObject> DecodeAt(const FieldReader& at, const std::string& where,
                             const ItemDefaults* defaults) {
  const FieldReader anonymous = at.WithObject("<" + where + ">");
  if (!anonymous.present()) return anonymous.Error("expected object, got null");
  SCHEDREF_RETURN_IF_ERROR(anonymous.ExpectObject());

  std::string kind;
  SCHEDREF_RETURN_IF_ERROR(anonymous.String("kind", &kind));
  if (kind.empty() && defaults != nullptr) kind = defaults->kind;
  if (kind.empty()) {
    return anonymous.ErrorAt("kind", "required field is missing");
  }
  const KindInfo* info = FindKind(kind);
  if (info == nullptr) {
    const std::string what = IsListKind(kind) ? "a list (kind \"" + kind +
                                                    "\") is not accepted here"
                                              : "unsupported kind \"" + kind +
                                                    "\"";
    return anonymous.ErrorAt("kind", what + " (" + kSupportedKinds + ")");
  }

  const FieldReader unnamed = at.WithObject(kind + " <" + where + ">");
  StatusOr<FieldReader> meta = unnamed.Object("metadata");
  if (!meta.ok()) return meta.status();
  std::string name;
  {
    StatusOr<FieldReader> name_field = meta->Field("name");
    if (!name_field.ok()) return name_field.status();
    std::optional<std::string> generate_name;
    SCHEDREF_RETURN_IF_ERROR(meta->String("generateName", &generate_name));
    if (!name_field->present() && generate_name.has_value()) {
      return name_field->Error(
          "required field is missing (generateName is not supported: "
          "objects need fixed names)");
    }
    SCHEDREF_RETURN_IF_ERROR(meta->RequiredString("name", &name));
  }
  // Names are path segments upstream; a '/' would also make keys ambiguous.
  if (name.find('/') != std::string::npos) {
    return meta->ErrorAt("name", "must not contain '/'");
  }
  std::string ns;
  if (info->namespaced) {
    SCHEDREF_RETURN_IF_ERROR(meta->String("namespace", &ns));
    if (ns.empty()) ns = "default";
    if (ns.find('/') != std::string::npos) {
      return meta->ErrorAt("namespace", "must not contain '/'");
    }
  }
  const std::string key = info->namespaced ? ns + "/" + name : name;
  const FieldReader root = at.WithObject(kind + " " + key);
  // Every kind decoded here is named as a DNS subdomain (Namespace, which
  // is stricter, is checked by DecodeNamespace).
  if (kind != "Namespace") {
    if (auto problem = CheckDnsSubdomain(name)) {
      return root.ErrorAt("metadata.name", "invalid value \"" + name + "\": " + *problem);
    }
  }

  std::string api_version;
  SCHEDREF_RETURN_IF_ERROR(root.String("apiVersion", &api_version));
  if (api_version.empty() && defaults != nullptr) {
    api_version = defaults->api_version;
  }
  if (api_version.empty()) {
    return root.ErrorAt("apiVersion", "required field is missing");
  }
  if (api_version != info->api_version) {
    return root.ErrorAt("apiVersion", "unsupported apiVersion \"" +
                                          api_version + "\" for kind " + kind +
                                          " (expected \"" +
                                          std::string(info->api_version) +
                                          "\")");
  }

  if (kind == "Node") {
    Node node;
    node.name = name;
    SCHEDREF_RETURN_IF_ERROR(DecodeNode(root, &node));
    return AnyObject(std::move(node));
  }
  if (kind == "Pod") {
    Pod pod;
    pod.ns = ns;
    pod.name = name;
    SCHEDREF_RETURN_IF_ERROR(DecodePod(root, &pod));
    return AnyObject(std::move(pod));
  }
  if (kind == "PodDisruptionBudget") {
    PodDisruptionBudget pdb;
    pdb.ns = ns;
    pdb.name = name;
    SCHEDREF_RETURN_IF_ERROR(DecodePdb(root, &pdb));
    return AnyObject(std::move(pdb));
  }
  if (kind == "PriorityClass") {
    PriorityClass pc;
    pc.name = name;
    SCHEDREF_RETURN_IF_ERROR(DecodePriorityClass(root, &pc));
    return AnyObject(std::move(pc));
  }
  if (kind == "PersistentVolume") {
    PersistentVolume pv;
    pv.name = name;
    SCHEDREF_RETURN_IF_ERROR(decode_fields::DecodePersistentVolume(root, &pv));
    return AnyObject(std::move(pv));
  }
  if (kind == "PersistentVolumeClaim") {
    PersistentVolumeClaim pvc;
    pvc.ns = ns;
    pvc.name = name;
    SCHEDREF_RETURN_IF_ERROR(decode_fields::DecodePersistentVolumeClaim(root, &pvc));
    return AnyObject(std::move(pvc));
  }
  if (kind == "StorageClass") {
    StorageClass sc;
    sc.name = name;
    SCHEDREF_RETURN_IF_ERROR(decode_fields::DecodeStorageClass(root, &sc));
    return AnyObject(std::move(sc));
  }
  if (kind == "CSINode") {
    CSINode node;
    node.name = name;
    SCHEDREF_RETURN_IF_ERROR(decode_fields::DecodeCSINode(root, &node));
    return AnyObject(std::move(node));
  }
  if (kind == "CSIDriver") {
    CSIDriver driver;
    driver.name = name;
    SCHEDREF_RETURN_IF_ERROR(decode_fields::DecodeCSIDriver(root, &driver));
    return AnyObject(std::move(driver));
  }
  if (kind == "Service" || kind == "ReplicationController" || kind == "ReplicaSet" ||
      kind == "StatefulSet") {
    return DecodeSelectorKind(kind, root, ns, name);
  }
  if (kind == "CSIStorageCapacity") {
    CSIStorageCapacity capacity;
    capacity.ns = ns;
    capacity.name = name;
    SCHEDREF_RETURN_IF_ERROR(decode_fields::DecodeCSIStorageCapacity(root, &capacity));
    return AnyObject(std::move(capacity));
  }
  Namespace n;
  n.name = name;
  SCHEDREF_RETURN_IF_ERROR(DecodeNamespace(root, &n));
  return AnyObject(std::move(n));
}

StatusOr<AnyObject> DecodeSelectorKind(const std::string& kind, const FieldReader& root,
                                       const std::string& ns, const std::string& name) {
  if (kind == "Service") {
    Service o{ns, name, std::nullopt};
    SCHEDREF_RETURN_IF_ERROR(decode_fields::DecodeService(root, &o));
    return AnyObject(std::move(o));
  }
  if (kind == "ReplicationController") {
    ReplicationController o{ns, name, {}};
    SCHEDREF_RETURN_IF_ERROR(decode_fields::DecodeReplicationController(root, &o));
    return AnyObject(std::move(o));
  }
  if (kind == "ReplicaSet") {
    ReplicaSet o{ns, name, {}};
    SCHEDREF_RETURN_IF_ERROR(decode_fields::DecodeReplicaSet(root, &o));
    return AnyObject(std::move(o));
  }
  StatefulSet o{ns, name, {}};
  SCHEDREF_RETURN_IF_ERROR(decode_fields::DecodeStatefulSet(root, &o));
  return AnyObject(std::move(o));
}

std::string DocumentName(int document_index) {
  return "document #" + std::to_string(document_index);
}

void Append(AnyObject&& object, Objects* out) {
  std::visit(
      [out](auto&& o) {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, Node>) {
          out->nodes.push_back(std::move(o));
        } else if constexpr (std::is_same_v<T, Pod>) {
          out->pods.push_back(std::move(o));
        } else if constexpr (std::is_same_v<T, PodDisruptionBudget>) {
          out->pdbs.push_back(std::move(o));
        } else if constexpr (std::is_same_v<T, PriorityClass>) {
          out->priority_classes.push_back(std::move(o));
        } else if constexpr (std::is_same_v<T, PersistentVolume>) {
          out->persistent_volumes.push_back(std::move(o));
        } else if constexpr (std::is_same_v<T, PersistentVolumeClaim>) {
          out->persistent_volume_claims.push_back(std::move(o));
        } else if constexpr (std::is_same_v<T, StorageClass>) {
          out->storage_classes.push_back(std::move(o));
        } else if constexpr (std::is_same_v<T, CSINode>) {
          out->csi_nodes.push_back(std::move(o));
        } else if constexpr (std::is_same_v<T, CSIDriver>) {
          out->csi_drivers.push_back(std::move(o));
        } else if constexpr (std::is_same_v<T, CSIStorageCapacity>) {
          out->csi_storage_capacities.push_back(std::move(o));
        } else if constexpr (std::is_same_v<T, Service>) {
          out->services.push_back(std::move(o));
        } else if constexpr (std::is_same_v<T, ReplicationController>) {
          out->replication_controllers.push_back(std::move(o));
        } else if constexpr (std::is_same_v<T, ReplicaSet>) {
          out->replica_sets.push_back(std::move(o));
        } else if constexpr (std::is_same_v<T, StatefulSet>) {
          out->stateful_sets.push_back(std::move(o));
        } else {
          out->namespaces.push_back(std::move(o));
        }
      },
      std::move(object));
}

// --- RFC 3339 ---------------------------------------------------------------------

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
// days_from_civil).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

}  // namespace

std::optional<TimeMs> ParseRfc3339(std::string_view s) {
  size_t i = 0;
  auto digits = [&](size_t n, int64_t* out) {
    if (i + n > s.size()) return false;
    int64_t v = 0;
    for (size_t k = 0; k < n; ++k) {
      const char c = s[i + k];
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    i += n;
    *out = v;
    return true;
  };
  auto expect = [&](char c) {
    if (i < s.size() && s[i] == c) {
      ++i;
      return true;
    }
    return false;
  };
  int64_t year, month, day, hour, minute, second;
  if (!digits(4, &year) || !expect('-') || !digits(2, &month) ||
      !expect('-') || !digits(2, &day) || !expect('T') || !digits(2, &hour) ||
      !expect(':') || !digits(2, &minute) || !expect(':') ||
      !digits(2, &second)) {
    return std::nullopt;
  }
  static constexpr int kDaysInMonth[] = {31, 28, 31, 30, 31, 30,
                                         31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 ||
      second > 59) {
    return std::nullopt;
  }
  const int64_t month_days =
      kDaysInMonth[month - 1] + (month == 2 && IsLeap(year) ? 1 : 0);
  if (day > month_days) return std::nullopt;
  int64_t millis = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    size_t n = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      if (n < 3) millis = millis * 10 + (s[i] - '0');
      ++n;
      ++i;
    }
    if (n == 0) return std::nullopt;
    for (size_t k = n; k < 3; ++k) millis *= 10;
  }
  int64_t offset_minutes = 0;
  if (expect('Z')) {
    offset_minutes = 0;
  } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    const bool negative = s[i] == '-';
    ++i;
    int64_t oh, om;
    if (!digits(2, &oh) || !expect(':') || !digits(2, &om) || oh > 23 ||
        om > 59) {
      return std::nullopt;
    }
    offset_minutes = (negative ? -1 : 1) * (oh * 60 + om);
  } else {
    return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  const int64_t seconds = DaysFromCivil(year, month, day) * 86400 +
                          hour * 3600 + minute * 60 + second -
                          offset_minutes * 60;
  // An offset can move the instant out of the years 0000-9999, which
  // RFC 3339 in UTC (and FormatRfc3339) cannot write.
  constexpr int64_t kMinSeconds = -62167219200;  // 0000-01-01T00:00:00Z
  constexpr int64_t kMaxSeconds = 253402300799;  // 9999-12-31T23:59:59Z
  if (seconds < kMinSeconds || seconds > kMaxSeconds) return std::nullopt;
  return seconds * 1000 + millis;
}

std::string KindOf(const AnyObject& object) {
  static constexpr const char* kNames[] = {
      "Node",         "Pod",     "PodDisruptionBudget", "PriorityClass",
      "Namespace",    "PersistentVolume", "PersistentVolumeClaim", "StorageClass",
      "CSINode",      "CSIDriver", "CSIStorageCapacity", "Service", "ReplicationController",
      "ReplicaSet",   "StatefulSet"};
  static_assert(std::size(kNames) == std::variant_size_v<AnyObject>);
  return kNames[object.index()];
}

std::string KeyOf(const AnyObject& object) {
  return std::visit(
      [](const auto& o) -> std::string {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, Pod> || std::is_same_v<T, PodDisruptionBudget> ||
                      std::is_same_v<T, PersistentVolumeClaim> ||
                      std::is_same_v<T, CSIStorageCapacity> || std::is_same_v<T, Service> ||
                      std::is_same_v<T, ReplicationController> ||
                      std::is_same_v<T, ReplicaSet> || std::is_same_v<T, StatefulSet>) {
          return o.ns + "/" + o.name;
        } else {
          return o.name;
        }
      },
      object);
}

StatusOr<AnyObject> DecodeObject(const json& document, const std::string& file,
                                 int document_index) {
  return DecodeAt(FieldReader(document, file, ""), DocumentName(document_index),
                  nullptr);
}

StatusOr<AnyObject> DecodeObjectAt(const FieldReader& at) {
  return DecodeAt(at, at.path().empty() ? "document" : at.path(), nullptr);
}

StatusOr<Objects> DecodeManifests(std::string_view text,
                                  const std::string& file) {
  StatusOr<std::vector<json>> documents = ParseDocuments(text, file);
  if (!documents.ok()) return documents.status();
  Objects objects;
  // "Kind key" -> where it was first defined.
  std::map<std::string, std::string> seen;
  auto add = [&](AnyObject&& object, const std::string& where) -> Status {
    const std::string id = KindOf(object) + " " + KeyOf(object);
    const auto [it, inserted] = seen.emplace(id, where);
    if (!inserted) {
      return Status::Invalid(file + ": " + id + ": defined twice (" +
                             it->second + " and " + where + ")");
    }
    Append(std::move(object), &objects);
    return Status::Ok();
  };

  for (size_t d = 0; d < documents->size(); ++d) {
    const json& doc = (*documents)[d];
    const std::string where = DocumentName(static_cast<int>(d + 1));
    const FieldReader root(doc, file, "<" + where + ">");
    SCHEDREF_RETURN_IF_ERROR(root.ExpectObject());
    std::string kind;
    SCHEDREF_RETURN_IF_ERROR(root.String("kind", &kind));
    const bool is_list = IsListKind(kind) && root.json().contains("items");
    if (!is_list) {
      StatusOr<AnyObject> object = DecodeAt(root, where, nullptr);
      if (!object.ok()) return object.status();
      SCHEDREF_RETURN_IF_ERROR(add(std::move(*object), where));
      continue;
    }
    // A list: "List" holds any kinds; "NodeList" etc. hold one kind, which
    // its items may leave out.
    ItemDefaults defaults;
    if (kind != "List") {
      defaults.kind = kind.substr(0, kind.size() - 4);
      if (FindKind(defaults.kind) == nullptr) {
        return root.ErrorAt("kind", "unsupported kind \"" + kind + "\" (" +
                                        kSupportedKinds + ")");
      }
      SCHEDREF_RETURN_IF_ERROR(root.String("apiVersion", &defaults.api_version));
    }
    StatusOr<std::vector<FieldReader>> items = root.Array("items");
    if (!items.ok()) return items.status();
    for (size_t i = 0; i < items->size(); ++i) {
      const std::string item_where = where + " items[" + std::to_string(i) + "]";
      // Each item is read as a document of its own, so that field paths in
      // messages start at the object.
      static const json kNull;
      const json& value = (*items)[i].present() ? (*items)[i].json() : kNull;
      const FieldReader item(value, file, "");
      StatusOr<AnyObject> object =
          DecodeAt(item, item_where, kind == "List" ? nullptr : &defaults);
      if (!object.ok()) return object.status();
      SCHEDREF_RETURN_IF_ERROR(add(std::move(*object), item_where));
    }
  }
  return objects;
}

void SetPodLifetime(const PodLifetime& lifetime, Pod* pod) {
  pod->annotations[kRunForAnnotation] = FormatDurationMs(lifetime.run_for_ms);
  pod->annotations[kEndPhaseAnnotation] = lifetime.end_phase;
  pod->lifetime = lifetime;
}

Status DecodeLabelSelectorAt(const FieldReader& parent, std::string_view key,
                             std::optional<LabelSelector>* out) {
  return decode_fields::ReadLabelSelector(parent, key, out);
}

}  // namespace schedref::api
