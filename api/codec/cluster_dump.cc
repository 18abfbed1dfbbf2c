#include "api/codec/cluster_dump.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/codec/decode.h"
#include "api/codec/input_file.h"
#include "api/codec/manifest.h"
#include "api/codec/scenario_decode.h"
#include "api/codec/scenario_encode.h"
#include "api/codec/yaml_emit.h"
#include "api/config/config_decode.h"

namespace schedref::api {
namespace {

using nlohmann::json;

constexpr char kPreemptLowerPriority[] = "PreemptLowerPriority";

// The kinds api/codec/decode.h decodes: everything else in a dump is
// skipped. (cluster_dump_test checks that each one decodes.)
constexpr std::string_view kReadKinds[] = {
    "Node",         "Pod",          "Namespace",  "PodDisruptionBudget",
    "PriorityClass", "PersistentVolume", "PersistentVolumeClaim", "StorageClass",
    "CSINode",      "CSIDriver",    "CSIStorageCapacity", "Service",
    "ReplicationController", "ReplicaSet", "StatefulSet"};

bool IsReadKind(std::string_view kind) {
  return std::find(std::begin(kReadKinds), std::end(kReadKinds), kind) !=
         std::end(kReadKinds);
}

// How long the run goes on after the last arrival or deletion: room for a
// preemption victim's default 30 s grace period and the preemptor's retry
// after the backoff (at most 10 s by default).
constexpr TimeMs kSettleMs = 60'000;

// The files a --cluster argument stands for.
StatusOr<std::vector<std::string>> ExpandPath(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) return std::vector<std::string>{path};
  std::vector<std::string> files;
  std::filesystem::directory_iterator it(path, ec), end;
  if (ec) return Status::Invalid(path + ": cannot list the directory: " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) return Status::Invalid(path + ": cannot list the directory: " + ec.message());
    const std::string ext = it->path().extension().string();
    if (ext != ".yaml" && ext != ".yml" && ext != ".json") continue;
    if (it->is_directory(ec)) continue;
    files.push_back(it->path().generic_string());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    return Status::Invalid(path + ": the directory holds no *.yaml, *.yml or *.json file");
  }
  return files;
}

bool IsListDocument(const json& doc) {
  if (!doc.is_object()) return false;
  const auto kind = doc.find("kind");
  return kind != doc.end() && kind->is_string() &&
         kind->get<std::string>().ends_with("List") && doc.contains("items");
}

std::string StringField(const json& object, std::string_view key) {
  if (!object.is_object()) return "";
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

void Append(AnyObject&& object, Objects* out) {
  std::visit(
      [out](auto&& o) {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, Node>) out->nodes.push_back(std::move(o));
        if constexpr (std::is_same_v<T, Pod>) out->pods.push_back(std::move(o));
        if constexpr (std::is_same_v<T, PodDisruptionBudget>) out->pdbs.push_back(std::move(o));
        if constexpr (std::is_same_v<T, PriorityClass>) {
          out->priority_classes.push_back(std::move(o));
        }
        if constexpr (std::is_same_v<T, Namespace>) out->namespaces.push_back(std::move(o));
        if constexpr (std::is_same_v<T, PersistentVolume>) {
          out->persistent_volumes.push_back(std::move(o));
        }
        if constexpr (std::is_same_v<T, PersistentVolumeClaim>) {
          out->persistent_volume_claims.push_back(std::move(o));
        }
        if constexpr (std::is_same_v<T, StorageClass>) {
          out->storage_classes.push_back(std::move(o));
        }
        if constexpr (std::is_same_v<T, CSINode>) out->csi_nodes.push_back(std::move(o));
        if constexpr (std::is_same_v<T, CSIDriver>) out->csi_drivers.push_back(std::move(o));
        if constexpr (std::is_same_v<T, CSIStorageCapacity>) {
          out->csi_storage_capacities.push_back(std::move(o));
        }
        if constexpr (std::is_same_v<T, Service>) out->services.push_back(std::move(o));
        if constexpr (std::is_same_v<T, ReplicationController>) {
          out->replication_controllers.push_back(std::move(o));
        }
        if constexpr (std::is_same_v<T, ReplicaSet>) out->replica_sets.push_back(std::move(o));
        if constexpr (std::is_same_v<T, StatefulSet>) out->stateful_sets.push_back(std::move(o));
      },
      std::move(object));
}

std::string Plural(size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// Reads every dump file into `objects`; counts the skipped kinds.
class DumpReader {
 public:
  Status ReadFile(const std::string& file) {
    StatusOr<std::string> text = ReadInputFile(file);
    if (!text.ok()) return text.status();
    StatusOr<std::vector<json>> documents = ParseDocuments(*text, file);
    if (!documents.ok()) return documents.status();
    for (size_t d = 0; d < documents->size(); ++d) {
      json& doc = (*documents)[d];
      const int index = static_cast<int>(d + 1);
      if (!doc.is_object()) {
        return Status::Invalid(file + ": document #" + std::to_string(index) +
                               ": expected object, got " + JsonTypeName(doc));
      }
      if (!IsListDocument(doc)) {
        SCHEDREF_RETURN_IF_ERROR(ReadItem(doc, FieldReader(doc, file, ""), index));
        continue;
      }
      // A typed list (PodList, ...) may leave its items' kind and
      // apiVersion out, as the API server's list responses do.
      const std::string list_kind = StringField(doc, "kind");
      if (list_kind != "List" && doc["items"].is_array()) {
        const std::string item_kind = list_kind.substr(0, list_kind.size() - 4);
        for (json& item : doc["items"]) {
          if (!item.is_object()) continue;
          if (!item.contains("kind")) item["kind"] = item_kind;
          if (!item.contains("apiVersion") && doc.contains("apiVersion")) {
            item["apiVersion"] = doc["apiVersion"];
          }
        }
      }
      const FieldReader root(doc, file, "");
      StatusOr<std::vector<FieldReader>> items = root.Array("items");
      if (!items.ok()) return items.status();
      for (const FieldReader& item : *items) {
        static const json kNull;
        SCHEDREF_RETURN_IF_ERROR(ReadItem(item.present() ? item.json() : kNull, item, 0));
      }
    }
    return Status::Ok();
  }

  Objects& objects() { return objects_; }
  const std::map<std::string, size_t>& skipped() const { return skipped_; }

 private:
  // `document_index` > 0: a document of its own (messages say
  // "document #N" until the name is known); 0: a list item at `at`.
  Status ReadItem(const json& value, const FieldReader& at, int document_index) {
    const std::string kind = StringField(value, "kind");
    if (!kind.empty() && !IsReadKind(kind)) {
      ++skipped_[kind];
      return Status::Ok();
    }
    StatusOr<AnyObject> object = document_index > 0
                                     ? DecodeObject(value, at.file(), document_index)
                                     : DecodeObjectAt(at);
    if (!object.ok()) return object.status();
    const std::string id = KindOf(*object) + " " + KeyOf(*object);
    const std::string where =
        at.file() + (at.path().empty() ? (document_index > 1
                                              ? " (document #" + std::to_string(document_index) + ")"
                                              : "")
                                       : " at " + at.path());
    const auto [it, inserted] = defined_at_.emplace(id, where);
    if (!inserted) {
      return Status::Invalid(at.file() + ": " + id +
                             (at.path().empty() ? "" : ": " + at.path()) +
                             ": defined twice (first in " + it->second + ")");
    }
    // The API server never hands out a uid twice; the scenario would refuse
    // the second pod, so say where it is.
    if (const auto* pod = std::get_if<Pod>(&*object)) {
      const auto [u, fresh] = uids_.emplace(pod->uid, id + " (" + where + ")");
      if (!fresh) {
        return Status::Invalid(at.file() + ": " + id + ": " +
                               (at.path().empty() ? "" : at.path() + ".") +
                               "metadata.uid: Duplicate value: \"" + pod->uid + "\" (the uid of " +
                               u->second + ")");
      }
    }
    Append(std::move(object).value(), &objects_);
    return Status::Ok();
  }

  Objects objects_;
  std::map<std::string, std::string> defined_at_;  // "Kind key" -> where
  std::map<std::string, size_t> skipped_;           // kind -> count
  std::map<std::string, std::string> uids_;         // pod uid -> "Pod key (where)"
};

// (priority, creation time, key): upstream's PrioritySort over pods queued
// at their creation.
struct ArrivalOrder {
  int32_t priority;
  TimeMs created;
  std::string key;
  bool operator<(const ArrivalOrder& o) const {
    return std::tie(o.priority, created, key) < std::tie(priority, o.created, o.key);
  }
};

}  // namespace

StatusOr<SchedulerConfiguration> ReadSchedulerConfigFile(const std::string& path) {
  StatusOr<std::string> text = ReadInputFile(path);
  if (!text.ok()) return text.status();
  StatusOr<std::vector<json>> documents = ParseDocuments(*text, path);
  if (!documents.ok()) return documents.status();
  if (documents->size() != 1) {
    return Status::Invalid(path + ": expected one KubeSchedulerConfiguration document, got " +
                           std::to_string(documents->size()));
  }
  const json& doc = (*documents)[0];
  const FieldReader root(doc, path, "");
  SCHEDREF_RETURN_IF_ERROR(root.ExpectObject());
  // kube-scheduler decodes the file by its apiVersion and kind; a scenario's
  // embedded `config` may leave them out, a --config file may not.
  for (const char* key : {"apiVersion", "kind"}) {
    std::string value;
    SCHEDREF_RETURN_IF_ERROR(root.RequiredString(key, &value));
  }
  if (doc.contains("podMaxInUnschedulablePodsSeconds")) {
    return root.ErrorAt("podMaxInUnschedulablePodsSeconds",
                        "unknown field (kube-scheduler takes it as the flag "
                        "--pod-max-in-unschedulable-pods-duration; a scenario file can set it)");
  }
  return DecodeConfiguration(doc, path);
}

StatusOr<ClusterScenario> BuildClusterScenario(const ClusterInput& input) {
  ClusterScenario out;
  Scenario built;
  built.config = DefaultConfiguration();
  if (!input.config_file.empty()) {
    StatusOr<SchedulerConfiguration> config = ReadSchedulerConfigFile(input.config_file);
    if (!config.ok()) return config.status();
    built.config = std::move(config).value();
  }

  DumpReader reader;
  std::string names;
  for (const std::string& arg : input.files) {
    StatusOr<std::vector<std::string>> files = ExpandPath(arg);
    if (!files.ok()) return files.status();
    for (const std::string& file : *files) {
      SCHEDREF_RETURN_IF_ERROR(reader.ReadFile(file));
      out.inputs.push_back(file);
    }
    names += (names.empty() ? "" : ", ") + arg;
  }
  if (!input.config_file.empty()) out.inputs.push_back(input.config_file);
  for (const auto& [kind, count] : reader.skipped()) {
    out.messages.push_back("warning: skipped " + std::to_string(count) + " " + kind +
                           (count == 1 ? " object" : " objects") +
                           " (the scheduler does not read them)");
  }

  Objects& objects = reader.objects();
  std::set<std::string> profiles;
  for (const Profile& p : built.config.profiles) profiles.insert(p.scheduler_name);

  // Terminal pods: never seen by the scheduler's informer.
  const size_t before = objects.pods.size();
  std::erase_if(objects.pods, [](const Pod& p) { return p.Terminated(); });
  if (const size_t dropped = before - objects.pods.size(); dropped > 0) {
    out.messages.push_back("note: dropped " + Plural(dropped, "pod", "pods") +
                           " in phase Succeeded or Failed (the scheduler's informer selects "
                           "status.phase!=Succeeded,status.phase!=Failed)");
  }

  // --as-pending.
  bool as_pending_found = input.as_pending.empty();
  for (Pod& pod : objects.pods) {
    if (pod.Key() != input.as_pending) continue;
    as_pending_found = true;
    if (pod.node_name.empty()) {
      out.messages.push_back("note: Pod " + pod.Key() +
                             " is pending already; --as-pending changes nothing for it");
      continue;
    }
    out.messages.push_back("note: Pod " + pod.Key() + " is taken off node " + pod.node_name +
                           " and scheduled first, as a pending pod");
    pod.node_name.clear();
    pod.nominated_node_name.clear();
    pod.phase = "Pending";
    pod.start_time.reset();
    pod.conditions.clear();
  }
  if (!as_pending_found) {
    return Status::Invalid("--as-pending " + input.as_pending + ": no such pod in " + names +
                           " (pods in phase Succeeded or Failed are not read)");
  }

  // Admission already ran for every pod of a dump: each keeps its
  // spec.priority and preemptionPolicy. A class name that the dump cannot
  // back is dropped so that the scenario does not admit the pod again.
  std::map<std::string, const PriorityClass*> classes;
  const PriorityClass* global_default = nullptr;
  for (const PriorityClass& pc : objects.priority_classes) {
    classes[pc.name] = &pc;
    if (pc.global_default && (global_default == nullptr || pc.value < global_default->value)) {
      global_default = &pc;
    }
  }
  std::map<std::string, size_t> missing_classes, disagreeing_classes;
  for (Pod& pod : objects.pods) {
    if (pod.priority_class_name.empty()) continue;
    std::optional<int32_t> value;
    std::string policy = kPreemptLowerPriority;
    if (const auto it = classes.find(pod.priority_class_name); it != classes.end()) {
      value = it->second->value;
      policy = it->second->preemption_policy.value_or(kPreemptLowerPriority);
    } else {
      value = SystemPriorityClassValue(pod.priority_class_name);
    }
    if (!value.has_value()) {
      ++missing_classes[pod.priority_class_name];
      pod.priority_class_name.clear();
      if (!pod.priority.has_value()) pod.priority = 0;
      continue;
    }
    if ((pod.priority.has_value() && *pod.priority != *value) ||
        (pod.preemption_policy.has_value() && *pod.preemption_policy != policy)) {
      ++disagreeing_classes[pod.priority_class_name];
      pod.priority_class_name.clear();
    }
  }
  for (const auto& [name, count] : missing_classes) {
    out.messages.push_back("warning: PriorityClass " + name + " is not in the dump: " +
                           Plural(count, "pod keeps", "pods keep") +
                           " the spec.priority admission gave them (0 if none)");
  }
  for (const auto& [name, count] : disagreeing_classes) {
    out.messages.push_back("warning: PriorityClass " + name + " disagrees with the priority or "
                           "preemptionPolicy of " + Plural(count, "pod", "pods") +
                           " that name it; they keep their own");
  }

  // The run starts when the dump can have been taken at the earliest.
  built.start_time = 0;
  for (const Pod& pod : objects.pods) {
    built.start_time = std::max(built.start_time, pod.creation_timestamp);
  }
  if (built.start_time == 0) built.start_time = kDefaultScenarioStartTime;
  for (Pod& pod : objects.pods) {
    if (pod.creation_timestamp == 0) pod.creation_timestamp = built.start_time;
  }

  // Upstream's cache keeps such pods under a node it has not seen; they
  // count on no node the scheduler can choose.
  std::set<std::string> node_names;
  for (const Node& node : objects.nodes) node_names.insert(node.name);
  std::map<std::string, size_t> on_missing_nodes;
  for (const Pod& pod : objects.pods) {
    if (!pod.node_name.empty() && !node_names.contains(pod.node_name)) {
      ++on_missing_nodes[pod.node_name];
    }
  }
  for (const auto& [node, count] : on_missing_nodes) {
    out.messages.push_back("warning: Node " + node + " is not in the dump: " +
                           Plural(count, "pod bound to it takes", "pods bound to it take") +
                           " room on no node that can be chosen");
  }

  // Pending pods of a profile arrive on the timeline; everything else is
  // initial.
  std::vector<std::pair<ArrivalOrder, Pod>> arrivals;
  std::vector<Pod> initial_pods;
  size_t other_scheduler = 0, bound = 0, gated = 0;
  for (Pod& pod : objects.pods) {
    if (!pod.node_name.empty() || !profiles.contains(pod.scheduler_name)) {
      if (pod.node_name.empty()) ++other_scheduler;
      if (!pod.node_name.empty()) ++bound;
      initial_pods.push_back(std::move(pod));
      continue;
    }
    if (!pod.scheduling_gates.empty()) ++gated;
    int32_t priority = pod.priority.value_or(0);
    if (!pod.priority.has_value() && pod.priority_class_name.empty() && global_default) {
      priority = global_default->value;
    } else if (!pod.priority.has_value() && !pod.priority_class_name.empty()) {
      const auto it = classes.find(pod.priority_class_name);
      priority = it != classes.end()
                     ? it->second->value
                     : SystemPriorityClassValue(pod.priority_class_name).value_or(0);
    }
    ArrivalOrder order{priority, pod.creation_timestamp, pod.Key()};
    // The --as-pending pod comes first: where it would go now.
    if (pod.Key() == input.as_pending) order = {INT32_MAX, INT64_MIN, ""};
    arrivals.emplace_back(std::move(order), std::move(pod));
  }
  std::sort(arrivals.begin(), arrivals.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  const TimeMs first_free = static_cast<TimeMs>(arrivals.size());

  // Terminating pods go when their grace period ends.
  std::vector<std::pair<TimeMs, std::string>> deletions;
  for (const Pod& pod : initial_pods) {
    if (pod.deletion_timestamp.has_value()) {
      deletions.emplace_back(std::max(*pod.deletion_timestamp - built.start_time, first_free),
                             pod.Key());
    }
  }
  for (const auto& [order, pod] : arrivals) {
    if (pod.deletion_timestamp.has_value()) {
      deletions.emplace_back(std::max(*pod.deletion_timestamp - built.start_time, first_free),
                             pod.Key());
    }
  }
  std::sort(deletions.begin(), deletions.end());

  objects.pods = std::move(initial_pods);
  built.initial = std::move(objects);
  TimeMs at = 0;
  for (auto& [order, pod] : arrivals) {
    Event e;
    e.at = at++;
    e.op = Event::Op::kCreate;
    e.kind = "Pod";
    e.name = pod.Key();
    e.object = std::move(pod);
    built.timeline.push_back(std::move(e));
  }
  TimeMs last = arrivals.empty() ? 0 : first_free - 1;
  for (const auto& [when, key] : deletions) {
    Event e;
    e.at = when;
    e.op = Event::Op::kDelete;
    e.kind = "Pod";
    e.name = key;
    built.timeline.push_back(std::move(e));
    last = std::max(last, when);
  }
  if (!arrivals.empty()) {
    Event e;
    e.at = last + kSettleMs;
    e.op = Event::Op::kAdvance;
    built.timeline.push_back(std::move(e));
  }

  built.name = "cluster";
  built.description = "Built by schedref from the cluster dump " + names +
                      (input.config_file.empty() ? " with the v1.32 default configuration"
                                                 : " with the configuration " + input.config_file) +
                      (input.as_pending.empty() ? "" : "; " + input.as_pending + " as pending") +
                      " (docs/cluster-input.md).";
  out.messages.push_back(
      "note: " + names + ": " + Plural(built.initial.nodes.size(), "node", "nodes") + ", " +
      Plural(bound, "bound pod", "bound pods") + ", " +
      Plural(arrivals.size(), "pending pod", "pending pods") + " to schedule" +
      (gated > 0 ? " (" + std::to_string(gated) + " gated)" : "") +
      (other_scheduler > 0 ? ", " + Plural(other_scheduler, "pending pod", "pending pods") +
                                 " left to another scheduler"
                           : "") +
      (deletions.empty() ? "" : ", " + Plural(deletions.size(), "terminating pod", "terminating pods")));

  const nlohmann::ordered_json document = EncodeScenarioDocument(built);
  StatusOr<Scenario> decoded =
      DecodeScenario(document.dump(), "the scenario built from " + names);
  if (!decoded.ok()) return decoded.status();
  out.scenario = std::move(decoded).value();
  if (input.want_text) out.text = EmitYamlMapping(document);
  return out;
}

}  // namespace schedref::api
