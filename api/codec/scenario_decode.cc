#include "api/codec/scenario_decode.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "api/codec/decode.h"
#include "api/codec/arrivals.h"
#include "api/codec/manifest.h"
#include "api/codec/scenario_fields.h"
#include "api/codec/trace_codec.h"
#include "api/codec/utf8.h"
#include "api/config/config_decode.h"
#include "api/gocompat/go_duration.h"

namespace schedref::api {
namespace {

using nlohmann::json;

constexpr char kPreemptLowerPriority[] = "PreemptLowerPriority";

// The timeline operations, in the order messages list them.
constexpr std::string_view kOps[] = {"create",  "update",   "delete",
                                     "advance", "failBind", "bindLatency",
                                     "allow",   "reject"};

// Classes the API server creates at startup (scheduling/v1
// SystemPriorityClasses); scenarios may use them without defining them.
const std::map<std::string, int32_t>& SystemPriorityClasses() {
  static const auto* classes = new std::map<std::string, int32_t>{
      {"system-cluster-critical", 2000000000},
      {"system-node-critical", 2000001000},
  };
  return *classes;
}

bool IsNamespaced(std::string_view kind) {
  return kind == "Pod" || kind == "PodDisruptionBudget" || kind == "PersistentVolumeClaim" ||
         kind == "CSIStorageCapacity" || kind == "Service" || kind == "ReplicationController" ||
         kind == "ReplicaSet" || kind == "StatefulSet";
}

// --- Reading helpers
// ------------------------------------------------------------

// "<namespace>/<name>" for namespaced kinds, "<name>" otherwise.
Status CheckKeyForm(const FieldReader& at, std::string_view kind,
                    const std::string& key) {
  const size_t slash = key.find('/');
  if (IsNamespaced(kind)) {
    if (slash == std::string::npos || slash == 0 || slash + 1 == key.size() ||
        key.find('/', slash + 1) != std::string::npos) {
      return at.Error("expected \"<namespace>/<name>\" for kind " +
                      std::string(kind) + ", got \"" + key + "\"");
    }
  } else if (slash != std::string::npos) {
    return at.Error("expected a name without a namespace for kind " +
                    std::string(kind) + ", got \"" + key + "\"");
  }
  return Status::Ok();
}

bool HasCreationTimestamp(const FieldReader& object) {
  if (!object.present() || !object.json().is_object()) return false;
  const auto meta = object.json().find("metadata");
  if (meta == object.json().end() || !meta->is_object()) return false;
  const auto ts = meta->find("creationTimestamp");
  return ts != meta->end() && !ts->is_null();
}

std::string Describe(const AnyObject& object) {
  return KindOf(object) + " " + KeyOf(object);
}

// Typed lists (NodeList, ...) may leave kind and apiVersion out of their
// items, as the API server's list responses do; fills them in so that the
// items decode as objects of their own.
void FillListItemDefaults(json* objects) {
  if (!objects->is_array()) return;
  for (json& list : *objects) {
    if (!list.is_object()) continue;
    const auto kind = list.find("kind");
    const auto items = list.find("items");
    if (kind == list.end() || !kind->is_string() || items == list.end() ||
        !items->is_array()) {
      continue;
    }
    const std::string list_kind = kind->get<std::string>();
    if (list_kind.size() <= 4 || !list_kind.ends_with("List")) continue;
    const std::string item_kind = list_kind.substr(0, list_kind.size() - 4);
    const auto api_version = list.find("apiVersion");
    for (json& item : *items) {
      if (!item.is_object()) continue;
      if (!item.contains("kind")) item["kind"] = item_kind;
      if (!item.contains("apiVersion") && api_version != list.end()) {
        item["apiVersion"] = *api_version;
      }
    }
  }
}

// An arrival template has no name of its own; it is decoded under its
// first pod's, so that its errors name a pod (ScenarioDecoder checks that a
// name it did have is that one).
void NameArrivalTemplates(json* arrivals) {
  if (!arrivals->is_array()) return;
  for (json& g : *arrivals) {
    if (!g.is_object()) continue;
    const auto name = g.find("name");
    const auto tmpl = g.find("template");
    if (name == g.end() || !name->is_string() || tmpl == g.end() || !tmpl->is_object()) {
      continue;
    }
    json& meta = (*tmpl)["metadata"];
    if (meta.is_null()) meta = json::object();
    if (meta.is_object() && !meta.contains("name")) {
      meta["name"] = name->get<std::string>() + "-0";
    }
  }
}

bool IsList(const FieldReader& r) {
  if (!r.present() || !r.json().is_object()) return false;
  const auto kind = r.json().find("kind");
  return kind != r.json().end() && kind->is_string() &&
         kind->get<std::string>().ends_with("List") &&
         r.json().contains("items");
}

// --- The decoder
// ----------------------------------------------------------------

class ScenarioDecoder {
 public:
  ScenarioDecoder(const json& document, const std::string& file)
      : root_(document, file, "") {}

  StatusOr<Scenario> Decode() {
    SCHEDREF_RETURN_IF_ERROR(root_.ExpectObject());
    if (!root_.present()) return root_.Error("empty scenario");
    SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(
        root_,
        {"schedref", "name", "description", "upstream", "seed", "startTime",
         "bindLatency", "volumeBindingLatency", "config", "extenders", "objects", "timeline",
         "arrivals",
         "expectedTrace"}));
    scenario_.file = root_.file();
    SCHEDREF_RETURN_IF_ERROR(DecodeHeader());
    StatusOr<FieldReader> config = root_.Field("config");
    if (!config.ok()) return config.status();
    StatusOr<SchedulerConfiguration> c = DecodeConfigurationAt(*config);
    if (!c.ok()) return c.status();
    scenario_.config = std::move(c).value();
    SCHEDREF_RETURN_IF_ERROR(DecodeExtenders());
    SCHEDREF_RETURN_IF_ERROR(DecodeObjects());
    SCHEDREF_RETURN_IF_ERROR(DecodeArrivals());
    SCHEDREF_RETURN_IF_ERROR(DecodeTimeline());
    SCHEDREF_RETURN_IF_ERROR(DecodeExpectedTrace());
    return std::move(scenario_);
  }

 private:
  Status DecodeHeader() {
    std::string version;
    SCHEDREF_RETURN_IF_ERROR(root_.RequiredString("schedref", &version));
    if (version != kScenarioVersionTag) {
      return root_.ErrorAt("schedref", "unsupported scenario version \"" +
                                           version + "\" (want \"" +
                                           kScenarioVersionTag + "\")");
    }
    SCHEDREF_RETURN_IF_ERROR(root_.RequiredString("name", &scenario_.name));
    SCHEDREF_RETURN_IF_ERROR(
        root_.String("description", &scenario_.description));
    SCHEDREF_RETURN_IF_ERROR(
        root_.String("upstream", &scenario_.upstream_test));

    StatusOr<FieldReader> seed = root_.Field("seed");
    if (!seed.ok()) return seed.status();
    if (seed->present()) {
      const json& v = seed->json();
      if (v.is_number_unsigned()) {
        scenario_.seed = v.get<uint64_t>();
      } else if (v.is_number_integer() && v.get<int64_t>() >= 0) {
        scenario_.seed = static_cast<uint64_t>(v.get<int64_t>());
      } else {
        return seed->Error(
            "expected a non-negative integer, got " +
            (v.is_number_integer() ? v.dump() : JsonTypeName(v)));
      }
    }

    scenario_.start_time = kDefaultScenarioStartTime;
    std::optional<std::string> start;
    SCHEDREF_RETURN_IF_ERROR(root_.String("startTime", &start));
    if (start.has_value()) {
      const std::optional<TimeMs> t = ParseRfc3339(*start);
      if (!t.has_value()) {
        return root_.ErrorAt("startTime",
                             "invalid RFC 3339 time \"" + *start + "\"");
      }
      scenario_.start_time = *t;
    }
    SCHEDREF_RETURN_IF_ERROR(ReadDuration(root_, "bindLatency", false,
                                          &scenario_.bind_latency_ms));
    return ReadDuration(root_, "volumeBindingLatency", false,
                        &scenario_.volume_binding_latency_ms);
  }

  // --- declared extenders ---

  Status DecodeDeclaredReply(const FieldReader& r, DeclaredReply* out) {
    SCHEDREF_RETURN_IF_ERROR(ReadDuration(r, "delay", false, &out->delay_ms));
    SCHEDREF_RETURN_IF_ERROR(r.Int32("status", &out->status));
    if (out->status < 100 || out->status > 599) {
      return r.ErrorAt("status", "HTTP status " + std::to_string(out->status) +
                                     " is not in [100, 599]");
    }
    SCHEDREF_RETURN_IF_ERROR(r.String("error", &out->error));
    return r.String("body", &out->body);
  }

  Status DecodeDeclaredNodes(const FieldReader& r, bool names_only,
                             DeclaredNodes* out) {
    SCHEDREF_RETURN_IF_ERROR(r.StringList("nodes", &out->names));
    SCHEDREF_RETURN_IF_ERROR(
        DecodeLabelSelectorAt(r, "selector", &out->selector));
    if (out->selector.has_value()) {
      if (names_only) {
        return r.ErrorAt("selector",
                         "a nodeCacheCapable extender is sent node names "
                         "only; select nodes by name");
      }
    }
    if (out->names.empty() && !out->selector.has_value()) {
      return r.Error("names no nodes: give nodes or selector");
    }
    return Status::Ok();
  }

  Status DecodeExtenders() {
    StatusOr<std::vector<FieldReader>> items = root_.Array("extenders");
    if (!items.ok()) return items.status();
    std::set<std::string> seen;
    for (const FieldReader& item : *items) {
      SCHEDREF_RETURN_IF_ERROR(item.ExpectObject());
      SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(
          item, {"urlPrefix", "filter", "prioritize", "bind", "preempt"}));
      DeclaredExtender d;
      SCHEDREF_RETURN_IF_ERROR(item.RequiredString("urlPrefix", &d.url_prefix));
      if (!seen.insert(d.url_prefix).second) {
        return item.ErrorAt("urlPrefix", "duplicate declared extender \"" +
                                             d.url_prefix + "\"");
      }
      const Extender* config = nullptr;
      for (const Extender& e : scenario_.config.extenders) {
        if (e.url_prefix == d.url_prefix) config = &e;
      }
      if (config == nullptr) {
        return item.ErrorAt("urlPrefix", "no config.extenders[] entry has "
                                         "urlPrefix \"" + d.url_prefix + "\"");
      }
      const bool names_only = config->node_cache_capable;
      // Each declared verb needs the configured verb it answers.
      auto check_verb = [&](const char* key, const std::string& verb,
                            const char* config_key) -> Status {
        if (verb.empty()) {
          return item.ErrorAt(key, std::string("the extender's config has no ") +
                                       config_key);
        }
        return Status::Ok();
      };
      StatusOr<FieldReader> filter = item.Object("filter");
      if (!filter.ok()) return filter.status();
      if (filter->present()) {
        SCHEDREF_RETURN_IF_ERROR(check_verb("filter", config->filter_verb, "filterVerb"));
        SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(
            *filter, {"delay", "status", "error", "body", "reject"}));
        DeclaredFilter f;
        SCHEDREF_RETURN_IF_ERROR(DecodeDeclaredReply(*filter, &f.reply));
        StatusOr<std::vector<FieldReader>> rules = filter->Array("reject");
        if (!rules.ok()) return rules.status();
        for (const FieldReader& rule : *rules) {
          SCHEDREF_RETURN_IF_ERROR(rule.ExpectObject());
          SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(
              rule, {"nodes", "selector", "reason", "unresolvable"}));
          DeclaredReject reject;
          SCHEDREF_RETURN_IF_ERROR(DecodeDeclaredNodes(rule, names_only, &reject.nodes));
          SCHEDREF_RETURN_IF_ERROR(rule.String("reason", &reject.reason));
          SCHEDREF_RETURN_IF_ERROR(rule.Bool("unresolvable", &reject.unresolvable));
          f.reject.push_back(std::move(reject));
        }
        d.filter = std::move(f);
      }
      StatusOr<FieldReader> prioritize = item.Object("prioritize");
      if (!prioritize.ok()) return prioritize.status();
      if (prioritize->present()) {
        SCHEDREF_RETURN_IF_ERROR(
            check_verb("prioritize", config->prioritize_verb, "prioritizeVerb"));
        SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(
            *prioritize, {"delay", "status", "error", "body", "scores", "default"}));
        DeclaredPrioritize p;
        SCHEDREF_RETURN_IF_ERROR(DecodeDeclaredReply(*prioritize, &p.reply));
        if (!p.reply.error.empty()) {
          return prioritize->ErrorAt("error",
                                     "a HostPriorityList has no Error field; "
                                     "use status or body");
        }
        SCHEDREF_RETURN_IF_ERROR(prioritize->Int64("default", &p.default_score));
        StatusOr<std::vector<FieldReader>> rules = prioritize->Array("scores");
        if (!rules.ok()) return rules.status();
        for (const FieldReader& rule : *rules) {
          SCHEDREF_RETURN_IF_ERROR(rule.ExpectObject());
          SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(rule, {"nodes", "selector", "score"}));
          DeclaredScore score;
          SCHEDREF_RETURN_IF_ERROR(DecodeDeclaredNodes(rule, names_only, &score.nodes));
          SCHEDREF_RETURN_IF_ERROR(rule.RequiredInt64("score", &score.score));
          p.scores.push_back(std::move(score));
        }
        d.prioritize = std::move(p);
      }
      StatusOr<FieldReader> bind = item.Object("bind");
      if (!bind.ok()) return bind.status();
      if (bind->present()) {
        SCHEDREF_RETURN_IF_ERROR(check_verb("bind", config->bind_verb, "bindVerb"));
        SCHEDREF_RETURN_IF_ERROR(
            CheckKnownFields(*bind, {"delay", "status", "error", "body"}));
        DeclaredReply b;
        SCHEDREF_RETURN_IF_ERROR(DecodeDeclaredReply(*bind, &b));
        d.bind = std::move(b);
      }
      StatusOr<FieldReader> preempt = item.Object("preempt");
      if (!preempt.ok()) return preempt.status();
      if (preempt->present()) {
        SCHEDREF_RETURN_IF_ERROR(check_verb("preempt", config->preempt_verb, "preemptVerb"));
        SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(
            *preempt, {"delay", "status", "error", "body", "drop", "keepVictims"}));
        DeclaredPreempt p;
        SCHEDREF_RETURN_IF_ERROR(DecodeDeclaredReply(*preempt, &p.reply));
        if (!p.reply.error.empty()) {
          return preempt->ErrorAt("error",
                                  "an ExtenderPreemptionResult has no Error "
                                  "field; use status or body");
        }
        SCHEDREF_RETURN_IF_ERROR(preempt->StringList("drop", &p.drop));
        SCHEDREF_RETURN_IF_ERROR(preempt->Int64("keepVictims", &p.keep_victims));
        if (p.keep_victims.has_value() && *p.keep_victims < 0) {
          return preempt->ErrorAt("keepVictims", "must not be negative");
        }
        d.preempt = std::move(p);
      }
      scenario_.extenders.push_back(std::move(d));
    }
    return Status::Ok();
  }

  // --- objects ---

  Status DecodeObjects() {
    StatusOr<std::vector<FieldReader>> items = root_.Array("objects");
    if (!items.ok()) return items.status();
    // (object, where it was read) in manifest order.
    std::vector<std::pair<AnyObject, FieldReader>> decoded;
    for (const FieldReader& item : *items) {
      std::vector<FieldReader> readers;
      if (IsList(item)) {
        StatusOr<std::vector<FieldReader>> list = item.Array("items");
        if (!list.ok()) return list.status();
        readers = std::move(list).value();
      } else {
        readers.push_back(item);
      }
      for (const FieldReader& r : readers) {
        StatusOr<AnyObject> object = DecodeObjectAt(r);
        if (!object.ok()) return object.status();
        const std::string id = Describe(*object);
        const auto [it, inserted] = defined_at_.emplace(id, r.path());
        if (!inserted) {
          return r.Error(id + " is defined twice (first at " + it->second +
                         ")");
        }
        decoded.emplace_back(std::move(object).value(), r);
      }
    }
    // Classes first: a pod may name a class defined after it.
    for (const auto& [object, at] : decoded) {
      if (const auto* pc = std::get_if<PriorityClass>(&object)) {
        SCHEDREF_RETURN_IF_ERROR(CheckGlobalDefault(*pc, at, /*update=*/false));
        classes_[pc->name] = *pc;
      }
    }
    Objects& out = scenario_.initial;
    for (auto& [object, at] : decoded) {
      existing_.insert(Describe(object));
      if (auto* pod = std::get_if<Pod>(&object)) {
        if (!HasCreationTimestamp(at)) {
          pod->creation_timestamp = scenario_.start_time;
        }
        SCHEDREF_RETURN_IF_ERROR(AdmitNewPod(pod, at));
        SCHEDREF_RETURN_IF_ERROR(ClaimUid(*pod, at));
        ever_pods_.insert(pod->Key());
        pods_[pod->Key()] = *pod;
        out.pods.push_back(std::move(*pod));
      } else if (auto* node = std::get_if<Node>(&object)) {
        out.nodes.push_back(std::move(*node));
      } else if (auto* pdb = std::get_if<PodDisruptionBudget>(&object)) {
        out.pdbs.push_back(std::move(*pdb));
      } else if (auto* pc = std::get_if<PriorityClass>(&object)) {
        out.priority_classes.push_back(std::move(*pc));
      } else if (auto* ns = std::get_if<Namespace>(&object)) {
        out.namespaces.push_back(std::move(*ns));
      } else if (auto* pv = std::get_if<PersistentVolume>(&object)) {
        out.persistent_volumes.push_back(std::move(*pv));
      } else if (auto* pvc = std::get_if<PersistentVolumeClaim>(&object)) {
        out.persistent_volume_claims.push_back(std::move(*pvc));
      } else if (auto* sc = std::get_if<StorageClass>(&object)) {
        out.storage_classes.push_back(std::move(*sc));
      } else if (auto* csi_node = std::get_if<CSINode>(&object)) {
        out.csi_nodes.push_back(std::move(*csi_node));
      } else if (auto* driver = std::get_if<CSIDriver>(&object)) {
        out.csi_drivers.push_back(std::move(*driver));
      } else if (auto* capacity = std::get_if<CSIStorageCapacity>(&object)) {
        out.csi_storage_capacities.push_back(std::move(*capacity));
      } else if (auto* service = std::get_if<Service>(&object)) {
        out.services.push_back(std::move(*service));
      } else if (auto* rc = std::get_if<ReplicationController>(&object)) {
        out.replication_controllers.push_back(std::move(*rc));
      } else if (auto* rs = std::get_if<ReplicaSet>(&object)) {
        out.replica_sets.push_back(std::move(*rs));
      } else if (auto* ss = std::get_if<StatefulSet>(&object)) {
        out.stateful_sets.push_back(std::move(*ss));
      }
    }
    return Status::Ok();
  }

  // --- Priority admission (plugin/pkg/admission/priority) ---

  // The global default class; with several (a race upstream tolerates),
  // the one with the lowest value.
  const PriorityClass* DefaultClass() const {
    const PriorityClass* best = nullptr;
    for (const auto& [name, pc] : classes_) {
      if (pc.global_default && (best == nullptr || pc.value < best->value)) {
        best = &pc;
      }
    }
    return best;
  }

  Status CheckGlobalDefault(const PriorityClass& pc, const FieldReader& at,
                            bool update) const {
    if (!pc.global_default) return Status::Ok();
    const PriorityClass* current = DefaultClass();
    if (current != nullptr && (!update || current->name != pc.name)) {
      return at.Error("PriorityClass " + current->name +
                      " is already marked as default. Only one default can "
                      "exist");
    }
    return Status::Ok();
  }

  // A new pod's priority, class name and preemption policy, resolved like
  // the Priority admission plugin does on create.
  Status AdmitNewPod(Pod* pod, const FieldReader& at) const {
    if (pod->priority_class_name.empty()) {
      // Note: a pod that states spec.priority (or spec.preemptionPolicy)
      // without a class keeps it; upstream's admission would reject any
      // value other than the default it computes. Scenarios state
      // priorities directly as upstream's scheduler tests do, which bypass
      // admission (docs/deviations.md).
      if (!pod->priority.has_value()) {
        if (const PriorityClass* dpc = DefaultClass()) {
          pod->priority_class_name = dpc->name;
          pod->priority = dpc->value;
          if (!pod->preemption_policy.has_value()) {
            pod->preemption_policy =
                dpc->preemption_policy.value_or(kPreemptLowerPriority);
          }
        } else {
          pod->priority = 0;
        }
      }
      if (!pod->preemption_policy.has_value()) {
        pod->preemption_policy = kPreemptLowerPriority;
      }
      return Status::Ok();
    }

    int32_t value = 0;
    // PriorityClass defaulting (scheduling/v1) sets PreemptLowerPriority.
    std::string policy = kPreemptLowerPriority;
    const auto it = classes_.find(pod->priority_class_name);
    if (it != classes_.end()) {
      value = it->second.value;
      policy = it->second.preemption_policy.value_or(kPreemptLowerPriority);
    } else if (const auto sys =
                   SystemPriorityClasses().find(pod->priority_class_name);
               sys != SystemPriorityClasses().end()) {
      value = sys->second;
    } else {
      return at.ErrorAt("spec.priorityClassName",
                        "no PriorityClass with name " +
                            pod->priority_class_name + " was found");
    }
    if (pod->priority.has_value() && *pod->priority != value) {
      return at.ErrorAt(
          "spec.priority",
          "the integer value of priority (" + std::to_string(*pod->priority) +
              ") must not be provided in pod spec; priority admission "
              "controller computed " +
              std::to_string(value) + " from the given PriorityClass name");
    }
    pod->priority = value;
    if (pod->preemption_policy.has_value() &&
        *pod->preemption_policy != policy) {
      return at.ErrorAt("spec.preemptionPolicy",
                        "the string value of PreemptionPolicy (" +
                            *pod->preemption_policy +
                            ") must not be provided in pod spec; priority "
                            "admission controller computed " +
                            policy + " from the given PriorityClass name");
    }
    pod->preemption_policy = policy;
    return Status::Ok();
  }

  // On update upstream keeps what admission set on create; the class name
  // and creation time cannot change either, so an update that leaves them
  // out keeps the old ones.
  static void AdmitUpdatedPod(Pod* pod, const Pod& old, bool has_timestamp) {
    if (!pod->priority.has_value()) pod->priority = old.priority;
    if (!pod->preemption_policy.has_value()) {
      pod->preemption_policy = old.preemption_policy;
    }
    if (pod->priority_class_name.empty()) {
      pod->priority_class_name = old.priority_class_name;
    }
    if (!has_timestamp) pod->creation_timestamp = old.creation_timestamp;
    // Immutable, and defaulted on create: an update that leaves it out
    // keeps it, as a patch would.
    if (!pod->termination_grace_period_seconds.has_value()) {
      pod->termination_grace_period_seconds = old.termination_grace_period_seconds;
    }
  }

  // The API server generates a UID per object and never reuses one: a pod
  // (created in `objects` or by the timeline) may not carry the UID of
  // another pod of the scenario.
  Status ClaimUid(const Pod& pod, const FieldReader& at) {
    auto [it, fresh] = uids_.try_emplace(pod.uid, pod.Key());
    if (!fresh && it->second != pod.Key()) {
      return at.ErrorAt("metadata.uid", "Duplicate value: \"" + pod.uid +
                                            "\" (the uid of Pod " + it->second + ")");
    }
    if (!fresh) {
      return at.ErrorAt("metadata.uid", "Duplicate value: \"" + pod.uid +
                                            "\" (a pod created again needs a new uid)");
    }
    return Status::Ok();
  }

  // The API server's ValidatePodUpdate, for the fields the scheduler reads
  // that it never lets an update change: scheduling gates may only be
  // removed (validateOnlyDeletedSchedulingGates); spec.schedulerName and
  // spec.terminationGracePeriodSeconds are not among the mutable fields
  // (the latter may go from a negative value to 1).
  static Status ValidatePodUpdate(const Pod& pod, const Pod& old,
                                  const FieldReader& at) {
    for (size_t i = 0; i < pod.scheduling_gates.size(); ++i) {
      const std::string& gate = pod.scheduling_gates[i];
      if (std::find(old.scheduling_gates.begin(), old.scheduling_gates.end(),
                    gate) == old.scheduling_gates.end()) {
        return at.ErrorAt(
            "spec.schedulingGates[" + std::to_string(i) + "].name",
            "Forbidden: only deletion is allowed, but found new scheduling "
            "gate '" + gate + "'");
      }
    }
    if (pod.uid != old.uid) {
      return at.ErrorAt("metadata.uid", "Invalid value: \"" + pod.uid +
                                            "\": field is immutable");
    }
    if (!pod.node_name.empty() && !old.node_name.empty() && pod.node_name != old.node_name) {
      return at.ErrorAt("spec.nodeName",
                        "Forbidden: pod updates may not change the node (\"" +
                            old.node_name + "\" -> \"" + pod.node_name + "\")");
    }
    if (pod.scheduler_name != old.scheduler_name) {
      return at.ErrorAt("spec.schedulerName",
                        "Forbidden: pod updates may not change the scheduler "
                        "name (\"" + old.scheduler_name + "\" -> \"" +
                            pod.scheduler_name + "\")");
    }
    const int64_t old_grace = old.TerminationGracePeriodSeconds();
    const int64_t grace = pod.TerminationGracePeriodSeconds();
    if (pod.termination_grace_period_seconds.has_value() && grace != old_grace &&
        !(old_grace < 0 && grace == 1)) {
      return at.ErrorAt("spec.terminationGracePeriodSeconds",
                        "Forbidden: pod updates may not change the termination "
                        "grace period (" + std::to_string(old_grace) + " -> " +
                            std::to_string(grace) + ")");
    }
    return Status::Ok();
  }

  // --- arrivals ---

  // The generators, their templates and every arrival, in the order they
  // join the timeline: by time, then generator, then index.
  Status DecodeArrivals() {
    StatusOr<std::vector<ArrivalGenerator>> generators = ReadArrivalGenerators(root_);
    if (!generators.ok()) return generators.status();
    generators_ = std::move(generators).value();
    StatusOr<std::vector<FieldReader>> entries = root_.Array("arrivals");
    if (!entries.ok()) return entries.status();
    for (size_t k = 0; k < generators_.size(); ++k) {
      const FieldReader& e = (*entries)[k];
      StatusOr<FieldReader> at = e.Field("template");
      if (!at.ok()) return at.status();
      // DecodeScenario named the template's first pod when it had no name.
      const ArrivalGenerator& g = generators_[k];
      const json& tmpl = at->json();
      if (tmpl.is_object()) {
        const auto meta = tmpl.find("metadata");
        if (meta != tmpl.end() && meta->is_object()) {
          for (const char* key : {"uid", "creationTimestamp", "generateName"}) {
            if (meta->contains(key)) {
              return at->ErrorAt(std::string("metadata.") + key,
                                 "set by the generator for each pod");
            }
          }
          const auto name = meta->find("name");
          if (name != meta->end() && *name != g.name + "-0") {
            return at->ErrorAt("metadata.name",
                               "set by the generator (pods are named \"" + g.name +
                                   "-<index>\")");
          }
        }
      }
      StatusOr<AnyObject> object = DecodeObjectAt(*at);
      if (!object.ok()) return object.status();
      auto* pod = std::get_if<Pod>(&*object);
      if (pod == nullptr) {
        return at->ErrorAt("kind", "expected Pod, got " + KindOf(*object));
      }
      templates_.push_back(std::move(*pod));
      template_at_.push_back(*at);
      for (Arrival& a : ExpandArrivals(g, k)) {
        constexpr TimeMs kMaxAtMs = TimeMs{1000} * 3600 * 1000;
        if (a.at > kMaxAtMs) {
          return e.Error("pod " + g.name + "-" + std::to_string(a.index) + " would arrive at " +
                         FormatDurationMs(a.at) +
                         ", later than 1000h, the longest timeline schedref runs");
        }
        arrivals_.push_back(std::move(a));
      }
    }
    std::stable_sort(arrivals_.begin(), arrivals_.end(),
                     [](const Arrival& a, const Arrival& b) { return a.at < b.at; });
    return Status::Ok();
  }

  // The pod of arrival `a`, created at a.at as a timeline `create` would.
  Status CreateArrival(const Arrival& a) {
    const ArrivalGenerator& g = generators_[a.generator];
    const FieldReader& at = template_at_[a.generator];
    Pod pod = templates_[a.generator];
    pod.name = g.name + "-" + std::to_string(a.index);
    pod.uid = pod.ns + "/" + pod.name;
    pod.creation_timestamp = scenario_.start_time + a.at;
    if (a.lifetime.has_value()) SetPodLifetime(*a.lifetime, &pod);
    const std::string id = "Pod " + pod.Key();
    if (existing_.contains(id)) {
      return at.Error("generated " + id + " already exists");
    }
    SCHEDREF_RETURN_IF_ERROR(AdmitNewPod(&pod, at));
    SCHEDREF_RETURN_IF_ERROR(ClaimUid(pod, at));
    existing_.insert(id);
    ever_pods_.insert(pod.Key());
    pods_[pod.Key()] = pod;
    Event event;
    event.at = a.at;
    event.op = Event::Op::kCreate;
    SetObject(AnyObject(std::move(pod)), &event);
    scenario_.timeline.push_back(std::move(event));
    return Status::Ok();
  }

  // --- timeline ---

  Status DecodeTimeline() {
    StatusOr<std::vector<FieldReader>> entries = root_.Array("timeline");
    if (!entries.ok()) return entries.status();
    TimeMs previous = 0;
    size_t next_arrival = 0;
    for (size_t i = 0; i < entries->size(); ++i) {
      const FieldReader& e = (*entries)[i];
      if (!e.present()) return e.Error("expected object, got null");
      SCHEDREF_RETURN_IF_ERROR(e.ExpectObject());
      SCHEDREF_RETURN_IF_ERROR(
          CheckKnownFields(e, {"at", "create", "update", "delete", "advance",
                               "failBind", "bindLatency", "allow", "reject"}));
      std::vector<std::string_view> ops;
      for (std::string_view op : kOps) {
        if (e.json().contains(op)) ops.push_back(op);
      }
      if (ops.size() != 1) {
        std::string list;
        for (std::string_view op : kOps) {
          list += list.empty() ? "" : ", ";
          list += op;
        }
        std::string got = ops.empty() ? "none" : "";
        for (size_t k = 0; k < ops.size(); ++k) {
          got += (k == 0 ? "" : ", ") + std::string(ops[k]);
        }
        return e.Error("expected exactly one of " + list + "; got " + got);
      }

      Event event;
      SCHEDREF_RETURN_IF_ERROR(ReadDuration(e, "at", true, &event.at));
      // The virtual clock visits every second up to the last event, so a
      // timeline of centuries would run for days: schedref's own limit.
      constexpr TimeMs kMaxAtMs = TimeMs{1000} * 3600 * 1000;
      if (event.at > kMaxAtMs) {
        return e.ErrorAt("at", FormatDurationMs(event.at) +
                                   " is later than 1000h, the longest timeline "
                                   "schedref runs");
      }
      if (i > 0 && event.at < previous) {
        return e.ErrorAt("at", FormatDurationMs(event.at) +
                                   " is earlier than timeline[" +
                                   std::to_string(i - 1) + "].at (" +
                                   FormatDurationMs(previous) +
                                   "): entries must be in time order");
      }
      previous = event.at;
      // Arrivals before this entry's time come first; at its time, after.
      while (next_arrival < arrivals_.size() && arrivals_[next_arrival].at < event.at) {
        SCHEDREF_RETURN_IF_ERROR(CreateArrival(arrivals_[next_arrival++]));
      }

      StatusOr<FieldReader> body = e.Field(ops[0]);
      if (!body.ok()) return body.status();
      const std::string_view op = ops[0];
      Status s;
      if (op == "create") {
        s = DecodeCreate(*body, &event);
      } else if (op == "update") {
        s = DecodeUpdate(*body, &event);
      } else if (op == "delete") {
        s = DecodeDelete(*body, &event);
      } else if (op == "advance") {
        event.op = Event::Op::kAdvance;
        if (!body->present()) {
          s = body->Error("expected object, got null");
        } else {
          s = body->ExpectObject();
          if (s.ok()) s = CheckKnownFields(*body, {});
        }
      } else {
        s = DecodePodOp(op, *body, &event);
      }
      SCHEDREF_RETURN_IF_ERROR(s);
      scenario_.timeline.push_back(std::move(event));
    }
    while (next_arrival < arrivals_.size()) {
      SCHEDREF_RETURN_IF_ERROR(CreateArrival(arrivals_[next_arrival++]));
    }
    // Pod-directed operations may name a pod the timeline creates later
    // (an injected failure is armed before the pod exists).
    for (const auto& [at, key] : pod_references_) {
      if (!ever_pods_.contains(key)) {
        return at.Error("Pod " + key +
                        " does not exist (it is neither in objects nor "
                        "created by the timeline)");
      }
    }
    return Status::Ok();
  }

  static void SetObject(AnyObject&& object, Event* event) {
    event->kind = KindOf(object);
    event->name = KeyOf(object);
    std::visit([event](auto&& o) { event->object = std::move(o); },
               std::move(object));
  }

  Status DecodeCreate(const FieldReader& body, Event* event) {
    event->op = Event::Op::kCreate;
    StatusOr<AnyObject> object = DecodeObjectAt(body);
    if (!object.ok()) return object.status();
    const std::string id = Describe(*object);
    if (existing_.contains(id)) return body.Error(id + " already exists");
    if (auto* pod = std::get_if<Pod>(&*object)) {
      if (!HasCreationTimestamp(body)) {
        pod->creation_timestamp = scenario_.start_time + event->at;
      }
      SCHEDREF_RETURN_IF_ERROR(AdmitNewPod(pod, body));
      SCHEDREF_RETURN_IF_ERROR(ClaimUid(*pod, body));
      ever_pods_.insert(pod->Key());
      pods_[pod->Key()] = *pod;
    } else if (const auto* pc = std::get_if<PriorityClass>(&*object)) {
      SCHEDREF_RETURN_IF_ERROR(CheckGlobalDefault(*pc, body, false));
      classes_[pc->name] = *pc;
    }
    existing_.insert(id);
    SetObject(std::move(object).value(), event);
    return Status::Ok();
  }

  Status DecodeUpdate(const FieldReader& body, Event* event) {
    event->op = Event::Op::kUpdate;
    StatusOr<AnyObject> object = DecodeObjectAt(body);
    if (!object.ok()) return object.status();
    const std::string id = Describe(*object);
    if (!existing_.contains(id)) return body.Error(id + " does not exist");
    if (auto* pod = std::get_if<Pod>(&*object)) {
      const Pod& old = pods_.at(pod->Key());
      SCHEDREF_RETURN_IF_ERROR(ValidatePodUpdate(*pod, old, body));
      AdmitUpdatedPod(pod, old, HasCreationTimestamp(body));
      pods_[pod->Key()] = *pod;
    } else if (const auto* pc = std::get_if<PriorityClass>(&*object)) {
      SCHEDREF_RETURN_IF_ERROR(CheckGlobalDefault(*pc, body, true));
      classes_[pc->name] = *pc;
    }
    SetObject(std::move(object).value(), event);
    return Status::Ok();
  }

  Status DecodeDelete(const FieldReader& body, Event* event) {
    event->op = Event::Op::kDelete;
    if (!body.present()) return body.Error("expected object, got null");
    SCHEDREF_RETURN_IF_ERROR(body.ExpectObject());
    SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(body, {"kind", "name"}));
    SCHEDREF_RETURN_IF_ERROR(body.RequiredString("kind", &event->kind));
    SCHEDREF_RETURN_IF_ERROR(body.Enum(
        "kind",
        {"Node", "Pod", "PodDisruptionBudget", "PriorityClass", "Namespace",
         "PersistentVolume", "PersistentVolumeClaim", "StorageClass", "CSINode", "CSIDriver",
         "CSIStorageCapacity", "Service", "ReplicationController", "ReplicaSet", "StatefulSet"},
        &event->kind));
    SCHEDREF_RETURN_IF_ERROR(body.RequiredString("name", &event->name));
    StatusOr<FieldReader> name = body.Field("name");
    if (!name.ok()) return name.status();
    SCHEDREF_RETURN_IF_ERROR(CheckKeyForm(*name, event->kind, event->name));
    const std::string id = event->kind + " " + event->name;
    if (!existing_.contains(id)) return name->Error(id + " does not exist");
    existing_.erase(id);
    if (event->kind == "Pod") pods_.erase(event->name);
    if (event->kind == "PriorityClass") classes_.erase(event->name);
    return Status::Ok();
  }

  // failBind, bindLatency, allow, reject.
  Status DecodePodOp(std::string_view op, const FieldReader& body,
                     Event* event) {
    if (!body.present()) return body.Error("expected object, got null");
    SCHEDREF_RETURN_IF_ERROR(body.ExpectObject());
    const bool pod_optional = op == "bindLatency";
    if (op == "failBind") {
      event->op = Event::Op::kFailBind;
      SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(body, {"pod", "count"}));
      SCHEDREF_RETURN_IF_ERROR(body.Int32("count", &event->count));
      if (event->count < 1) {
        return body.ErrorAt(
            "count", "must be at least 1, got " + std::to_string(event->count));
      }
    } else if (op == "bindLatency") {
      event->op = Event::Op::kSetBindLatency;
      SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(body, {"pod", "duration"}));
      SCHEDREF_RETURN_IF_ERROR(
          ReadDuration(body, "duration", true, &event->duration_ms));
    } else {
      event->op = op == "allow" ? Event::Op::kAllow : Event::Op::kReject;
      SCHEDREF_RETURN_IF_ERROR(CheckKnownFields(body, {"pod", "plugin"}));
      SCHEDREF_RETURN_IF_ERROR(body.RequiredString("plugin", &event->plugin));
    }
    if (pod_optional) {
      SCHEDREF_RETURN_IF_ERROR(body.String("pod", &event->name));
    } else {
      SCHEDREF_RETURN_IF_ERROR(body.RequiredString("pod", &event->name));
    }
    if (!event->name.empty()) {
      event->kind = "Pod";
      StatusOr<FieldReader> pod = body.Field("pod");
      if (!pod.ok()) return pod.status();
      SCHEDREF_RETURN_IF_ERROR(CheckKeyForm(*pod, "Pod", event->name));
      pod_references_.emplace_back(*pod, event->name);
    }
    return Status::Ok();
  }

  Status DecodeExpectedTrace() {
    std::string text;
    SCHEDREF_RETURN_IF_ERROR(root_.String("expectedTrace", &text));
    if (text.empty()) return Status::Ok();
    // Checked now so that a broken golden file fails where it is read, not
    // as a mismatch later.
    StatusOr<Trace> trace = DecodeTrace(text, root_.file() + ": expectedTrace");
    if (!trace.ok()) return trace.status();
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      scenario_.expected_trace.push_back(text.substr(start, end - start));
      start = end + 1;
    }
    return Status::Ok();
  }

  const FieldReader root_;
  Scenario scenario_;
  // "Kind key" of every object that exists at the point being decoded.
  std::set<std::string> existing_;
  // "Kind key" -> path of its definition in `objects`.
  std::map<std::string, std::string> defined_at_;
  // Current PriorityClasses and Pods, for admission.
  std::map<std::string, PriorityClass> classes_;
  std::map<std::string, Pod> pods_;
  // Every pod key the scenario ever defines, and the pod-directed
  // operations' references to check against it at the end.
  std::set<std::string> ever_pods_;
  std::map<std::string, std::string> uids_;  // pod uid -> its pod's key
  std::vector<std::pair<FieldReader, std::string>> pod_references_;
  // The arrival generators, their templates (decoded, and where they are)
  // and their arrivals in timeline order.
  std::vector<ArrivalGenerator> generators_;
  std::vector<Pod> templates_;
  std::vector<FieldReader> template_at_;
  std::vector<Arrival> arrivals_;
};

}  // namespace

std::optional<int32_t> SystemPriorityClassValue(std::string_view name) {
  const auto it = SystemPriorityClasses().find(std::string(name));
  if (it == SystemPriorityClasses().end()) return std::nullopt;
  return it->second;
}

StatusOr<Scenario> DecodeScenario(std::string_view text,
                                  const std::string& file) {
  StatusOr<std::vector<json>> documents = ParseDocuments(text, file);
  if (!documents.ok()) return documents.status();
  if (documents->size() != 1) {
    return Status::Invalid(file + ": expected one scenario document, got " +
                           std::to_string(documents->size()));
  }
  json& document = (*documents)[0];
  if (document.is_object() && document.contains("objects")) {
    FillListItemDefaults(&document["objects"]);
  }
  if (document.is_object() && document.contains("arrivals")) {
    NameArrivalTemplates(&document["arrivals"]);
  }
  return ScenarioDecoder(document, file).Decode();
}

}  // namespace schedref::api
