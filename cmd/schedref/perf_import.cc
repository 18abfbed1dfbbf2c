#include "cmd/schedref/perf_import.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/codec/input_file.h"
#include "api/codec/manifest.h"
#include "api/codec/scenario_decode.h"
#include "api/codec/scenario_encode.h"
#include "api/gocompat/go_duration.h"

namespace schedref::cmd {
namespace {

using nlohmann::json;

constexpr char kSupported[] =
    "createNodes, createNamespaces, createPods, deletePods, churn, barrier, sleep";
// Each createPods starts its own instant, this long after the previous
// operation's (the built-in workloads' measured phase starts at 1 s).
constexpr api::TimeMs kPhaseGapMs = 1000;
constexpr int64_t kMaxCount = 1000000;

// upstream makeBaseNode (createNodes without nodeTemplatePath): capacity
// pods 110, cpu 4, memory 32Gi, Ready; allocatable defaults to capacity.
json BaseNode() {
  return json::parse(R"({"apiVersion": "v1", "kind": "Node", "metadata": {},
    "status": {"capacity": {"pods": "110", "cpu": "4", "memory": "32Gi"},
               "conditions": [{"status": "True", "type": "Ready"}], "phase": "Running"}})");
}

class Importer {
 public:
  Importer(std::string file, const json& config, api::TimeMs churn_for_ms)
      : file_(std::move(file)), config_(config), churn_for_ms_(churn_for_ms) {}

  StatusOr<json> Import(const std::string& workload) {
    const size_t slash = workload.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == workload.size()) {
      return Status::Invalid("--workload: expected \"<test case>/<workload>\", got \"" +
                             workload + "\"");
    }
    const std::string tc_name = workload.substr(0, slash);
    const std::string wl_name = workload.substr(slash + 1);
    if (!config_.is_array()) return Error("", "expected a list of test cases");
    std::string names;
    for (size_t i = 0; i < config_.size(); ++i) {
      const json& tc = config_[i];
      if (!tc.is_object() || !tc.contains("name") || !tc["name"].is_string()) continue;
      names += (names.empty() ? "" : ", ") + tc["name"].get<std::string>();
      if (tc["name"] == tc_name) return ImportTestCase(i, tc, wl_name);
    }
    return Status::Invalid(file_ + ": no test case \"" + tc_name + "\" (test cases: " + names +
                           ")");
  }

 private:
  Status Error(const std::string& path, const std::string& problem) const {
    return Status::Invalid(file_ + ": " + (path.empty() ? "" : path + ": ") + problem);
  }

  StatusOr<json> ImportTestCase(size_t index, const json& tc, const std::string& wl_name) {
    const std::string at = "[" + std::to_string(index) + "]";
    const json* workload = nullptr;
    std::string names;
    size_t wl_index = 0;
    if (tc.contains("workloads") && tc["workloads"].is_array()) {
      for (size_t i = 0; i < tc["workloads"].size(); ++i) {
        const json& w = tc["workloads"][i];
        if (!w.is_object() || !w.contains("name") || !w["name"].is_string()) continue;
        names += (names.empty() ? "" : ", ") + w["name"].get<std::string>();
        if (w["name"] == wl_name) {
          workload = &w;
          wl_index = i;
        }
      }
    }
    if (workload == nullptr) {
      return Error(at + ".workloads", "no workload \"" + wl_name + "\" (workloads: " + names +
                                          ")");
    }
    params_at_ = at + ".workloads[" + std::to_string(wl_index) + "].params";
    if (workload->contains("params")) {
      const json& params = (*workload)["params"];
      if (!params.is_object()) return Error(params_at_, "expected object");
      for (auto it = params.begin(); it != params.end(); ++it) {
        if (it->is_number_integer()) params_[it.key()] = it->get<int64_t>();
        if (it->is_string()) string_params_[it.key()] = it->get<std::string>();
      }
    }
    if (tc.contains("defaultPodTemplatePath")) {
      if (!tc["defaultPodTemplatePath"].is_string()) {
        return Error(at + ".defaultPodTemplatePath", "expected string");
      }
      default_pod_template_ = tc["defaultPodTemplatePath"].get<std::string>();
    }
    if (!tc.contains("workloadTemplate") || !tc["workloadTemplate"].is_array()) {
      return Error(at + ".workloadTemplate", "required list is missing");
    }
    scenario_ = {{"schedref", "scenario/v1"},
                 {"name", tc["name"].get<std::string>() + "-" + wl_name},
                 {"description", "Imported by schedref perf-import from " + file_ + ", " +
                                     tc["name"].get<std::string>() + "/" + wl_name + "."},
                 {"upstream", "test/integration/scheduler_perf " +
                                  tc["name"].get<std::string>() + "/" + wl_name},
                 {"objects", json::array()},
                 {"timeline", json::array()}};
    const json& ops = tc["workloadTemplate"];
    for (size_t i = 0; i < ops.size(); ++i) {
      SCHEDREF_RETURN_IF_ERROR(
          Operation(at + ".workloadTemplate[" + std::to_string(i) + "]", static_cast<int>(i),
                    ops[i]));
    }
    // Churn and paced deletions run beside the later operations: the
    // timeline is their entries merged by time, equal instants in the
    // order the operations wrote them.
    std::stable_sort(timeline_.begin(), timeline_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [t, entry] : timeline_) {
      entry["at"] = api::FormatDurationMs(t);
      scenario_["timeline"].push_back(std::move(entry));
    }
    // Namespaces first, as the initial cluster lists them.
    json objects = json::array();
    for (const std::string& ns : namespaces_order_) objects.push_back(namespaces_[ns]);
    for (json& o : scenario_["objects"]) objects.push_back(std::move(o));
    scenario_["objects"] = std::move(objects);
    if (scenario_["timeline"].empty()) scenario_.erase("timeline");
    return scenario_;
  }

  StatusOr<int64_t> Count(const std::string& at, const json& op) {
    if (op.contains("count")) {
      if (!op["count"].is_number_integer()) return Error(at + ".count", "expected integer");
      return CheckCount(at + ".count", op["count"].get<int64_t>());
    }
    if (!op.contains("countParam") || !op["countParam"].is_string()) {
      return Error(at, "needs count or countParam");
    }
    std::string name = op["countParam"].get<std::string>();
    if (name.empty() || name[0] != '$') {
      return Error(at + ".countParam", "expected \"$<param>\", got \"" + name + "\"");
    }
    auto it = params_.find(name.substr(1));
    if (it == params_.end()) {
      return Error(params_at_, "no parameter \"" + name.substr(1) + "\" for countParam \"" +
                                   name + "\"");
    }
    return CheckCount(at + ".countParam", it->second);
  }

  StatusOr<int64_t> CheckCount(const std::string& at, int64_t n) {
    if (n < 0 || n > kMaxCount) {
      return Error(at, "count " + std::to_string(n) + " is not in [0, " +
                           std::to_string(kMaxCount) + "]");
    }
    return n;
  }

  // A template file, relative to the config's directory, with its
  // metadata.generateName taken out.
  StatusOr<std::pair<json, std::string>> Template(const std::string& at, const std::string& path,
                                                  bool needs_generate_name) {
    const std::string full =
        (std::filesystem::path(file_).parent_path() / path).lexically_normal().string();
    StatusOr<std::string> text = api::ReadInputFile(full);
    if (!text.ok()) return Error(at, text.status().message());
    StatusOr<std::vector<json>> docs = api::ParseDocuments(*text, full);
    if (!docs.ok()) return docs.status();
    if (docs->size() != 1 || !(*docs)[0].is_object()) {
      return Status::Invalid(full + ": expected exactly one object");
    }
    json doc = std::move((*docs)[0]);
    json& meta = doc["metadata"];
    if (meta.is_null()) meta = json::object();
    std::string generate_name;
    if (meta.contains("generateName") && meta["generateName"].is_string()) {
      generate_name = meta["generateName"].get<std::string>();
      meta.erase("generateName");
    } else if (needs_generate_name) {
      return Status::Invalid(full + ": metadata.generateName: required field is missing");
    }
    return std::pair{std::move(doc), std::move(generate_name)};
  }

  void AddNamespace(const std::string& name, json object) {
    if (namespaces_.contains(name)) return;
    object["metadata"]["name"] = name;
    namespaces_[name] = std::move(object);
    namespaces_order_.push_back(name);
  }

  void Emit(json object) {
    if (now_ == 0) {
      scenario_["objects"].push_back(std::move(object));
    } else {
      At(now_, {{"create", std::move(object)}});
    }
  }

  // A timeline entry at `t` (its "at" is written when the timeline is
  // sorted).
  void At(api::TimeMs t, json entry) { timeline_.emplace_back(t, std::move(entry)); }

  void CreatePod(api::TimeMs t, json pod) {
    const std::string ns = pod["metadata"]["namespace"].get<std::string>();
    const std::string name = pod["metadata"]["name"].get<std::string>();
    json labels = pod["metadata"].value("labels", json::object());
    pods_.push_back({t, ns, name, std::move(labels), false});
    At(t, {{"create", std::move(pod)}});
  }

  Status Operation(const std::string& at, int index, const json& op) {
    if (!op.is_object() || !op.contains("opcode") || !op["opcode"].is_string()) {
      return Error(at + ".opcode", "required field is missing");
    }
    const std::string opcode = op["opcode"].get<std::string>();
    if (opcode == "createNodes") return CreateNodes(at, index, op);
    if (opcode == "createNamespaces") return CreateNamespaces(at, op);
    if (opcode == "createPods") return CreatePods(at, index, op);
    if (opcode == "barrier") return Status::Ok();  // every instant settles in itself
    if (opcode == "sleep") {
      std::string text;
      if (op.contains("duration") && op["duration"].is_string()) {
        text = op["duration"].get<std::string>();
      } else if (op.contains("durationParam") && op["durationParam"].is_string()) {
        const std::string p = op["durationParam"].get<std::string>();
        auto it = string_params_.find(p.substr(p.empty() ? 0 : 1));
        if (it == string_params_.end()) {
          return Error(params_at_, "no parameter for durationParam \"" + p + "\"");
        }
        text = it->second;
      }
      const std::optional<int64_t> ms = api::ParseDurationMs(text);
      if (!ms.has_value() || *ms < 0) {
        return Error(at + ".duration", "expected a duration such as \"5s\", got \"" + text + "\"");
      }
      now_ += *ms;
      At(now_, {{"advance", json::object()}});
      return Status::Ok();
    }
    if (opcode == "deletePods") return DeletePods(at, op);
    if (opcode == "churn") return Churn(at, index, op);
    return Error(at + ".opcode", "\"" + opcode + "\" is not supported by perf-import (supported: " +
                                     kSupported + ")");
  }

  // nodeAllocatableStrategy, upstream's NodeAllocatableStrategy: each
  // node's allocatable (its capacity, as the API server defaults it) with
  // `nodeAllocatable`'s quantities set, and a CSINode named after it with
  // `csiNodeAllocatable`'s drivers (by name; nodeID the node's name,
  // allocatable.count) and `migratedPlugins` in its migrated-plugins
  // annotation.
  struct AllocatableStrategy {
    json allocatable = json::object();
    json drivers = json::array();
    std::string migrated;
  };
  StatusOr<AllocatableStrategy> ReadAllocatableStrategy(const std::string& at, const json& s) {
    AllocatableStrategy out;
    if (!s.is_object()) return Error(at, "expected object");
    if (s.contains("nodeAllocatable")) {
      const json& a = s["nodeAllocatable"];
      if (!a.is_object()) return Error(at + ".nodeAllocatable", "expected a map of quantities");
      for (auto it = a.begin(); it != a.end(); ++it) {
        if (!it->is_string()) return Error(at + ".nodeAllocatable." + it.key(), "expected string");
        out.allocatable[it.key()] = *it;
      }
    }
    if (s.contains("csiNodeAllocatable")) {
      const json& d = s["csiNodeAllocatable"];
      if (!d.is_object()) return Error(at + ".csiNodeAllocatable", "expected a map of drivers");
      for (auto it = d.begin(); it != d.end(); ++it) {
        const std::string where = at + ".csiNodeAllocatable." + it.key();
        json driver = {{"name", it.key()}};
        if (!it->is_null()) {
          if (!it->is_object()) return Error(where, "expected object");
          if (it->contains("count")) {
            if (!(*it)["count"].is_number_integer()) return Error(where + ".count", "expected integer");
            driver["allocatable"] = {{"count", (*it)["count"]}};
          }
        }
        out.drivers.push_back(std::move(driver));
      }
    }
    if (s.contains("migratedPlugins")) {
      const json& m = s["migratedPlugins"];
      if (!m.is_array()) return Error(at + ".migratedPlugins", "expected a list");
      for (const json& plugin : m) {
        if (!plugin.is_string()) return Error(at + ".migratedPlugins", "expected strings");
        out.migrated += (out.migrated.empty() ? "" : ",") + plugin.get<std::string>();
      }
    }
    return out;
  }

  Status CreateNodes(const std::string& at, int index, const json& op) {
    std::optional<AllocatableStrategy> allocatable;
    if (op.contains("nodeAllocatableStrategy")) {
      StatusOr<AllocatableStrategy> a =
          ReadAllocatableStrategy(at + ".nodeAllocatableStrategy", op["nodeAllocatableStrategy"]);
      if (!a.ok()) return a.status();
      allocatable = std::move(a).value();
    }
    StatusOr<int64_t> count = Count(at, op);
    if (!count.ok()) return count.status();
    json node = BaseNode();
    std::string prefix = "node-" + std::to_string(index) + "-";
    std::string fixed_name;
    if (op.contains("nodeTemplatePath")) {
      if (!op["nodeTemplatePath"].is_string()) {
        return Error(at + ".nodeTemplatePath", "expected string");
      }
      StatusOr<std::pair<json, std::string>> t =
          Template(at + ".nodeTemplatePath", op["nodeTemplatePath"].get<std::string>(), false);
      if (!t.ok()) return t.status();
      node = std::move(t->first);
      prefix = t->second;
      if (prefix.empty()) {
        // A template with a fixed name (upstream's node-with-name.yaml)
        // makes that one node.
        const json& name = node["metadata"]["name"];
        if (!name.is_string() || name.get<std::string>().empty()) {
          return Error(at + ".nodeTemplatePath",
                       "the template needs metadata.generateName or metadata.name");
        }
        if (*count > 1) {
          return Error(at + ".count", "the template names one node (" + name.get<std::string>() +
                                          ", no generateName); count is " +
                                          std::to_string(*count));
        }
        fixed_name = name.get<std::string>();
      }
    }
    std::optional<std::pair<std::string, std::vector<std::string>>> label_values;
    std::string unique_key;
    if (op.contains("labelNodePrepareStrategy")) {
      const json& s = op["labelNodePrepareStrategy"];
      const std::string where = at + ".labelNodePrepareStrategy";
      if (!s.is_object() || !s.contains("labelKey") || !s["labelKey"].is_string() ||
          !s.contains("labelValues") || !s["labelValues"].is_array() ||
          s["labelValues"].empty()) {
        return Error(where, "needs labelKey and a non-empty labelValues");
      }
      std::vector<std::string> values;
      for (const json& v : s["labelValues"]) {
        if (!v.is_string()) return Error(where + ".labelValues", "expected strings");
        values.push_back(v.get<std::string>());
      }
      label_values.emplace(s["labelKey"].get<std::string>(), std::move(values));
    }
    if (op.contains("uniqueNodeLabelStrategy")) {
      const json& s = op["uniqueNodeLabelStrategy"];
      if (!s.is_object() || !s.contains("labelKey") || !s["labelKey"].is_string()) {
        return Error(at + ".uniqueNodeLabelStrategy", "needs labelKey");
      }
      unique_key = s["labelKey"].get<std::string>();
    }
    for (int64_t i = 0; i < *count; ++i) {
      json n = node;
      const std::string name = fixed_name.empty() ? prefix + std::to_string(i) : fixed_name;
      n["metadata"]["name"] = name;
      json& labels = n["metadata"]["labels"];
      labels["kubernetes.io/hostname"] = name;
      if (label_values) {
        labels[label_values->first] =
            label_values->second[static_cast<size_t>(i) % label_values->second.size()];
      }
      // Upstream draws a random unique value; the node's name is unique too.
      if (!unique_key.empty()) labels[unique_key] = name;
      if (allocatable) {
        json& status = n["status"];
        if (!status.contains("allocatable") && status.contains("capacity")) {
          status["allocatable"] = status["capacity"];
        }
        for (auto it = allocatable->allocatable.begin(); it != allocatable->allocatable.end();
             ++it) {
          status["allocatable"][it.key()] = *it;
        }
      }
      Emit(std::move(n));
      if (allocatable) {
        json drivers = allocatable->drivers;
        for (json& d : drivers) d["nodeID"] = name;
        Emit({{"apiVersion", "storage.k8s.io/v1"},
              {"kind", "CSINode"},
              {"metadata",
               {{"name", name},
                {"annotations",
                 {{"storage.alpha.kubernetes.io/migrated-plugins", allocatable->migrated}}}}},
              {"spec", {{"drivers", std::move(drivers)}}}});
      }
    }
    return Status::Ok();
  }

  Status CreateNamespaces(const std::string& at, const json& op) {
    if (!op.contains("prefix") || !op["prefix"].is_string()) {
      return Error(at + ".prefix", "required field is missing");
    }
    StatusOr<int64_t> count = Count(at, op);
    if (!count.ok()) return count.status();
    json object = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", json::object()}};
    if (op.contains("namespaceTemplatePath")) {
      if (!op["namespaceTemplatePath"].is_string()) {
        return Error(at + ".namespaceTemplatePath", "expected string");
      }
      StatusOr<std::pair<json, std::string>> t = Template(
          at + ".namespaceTemplatePath", op["namespaceTemplatePath"].get<std::string>(), false);
      if (!t.ok()) return t.status();
      object = std::move(t->first);
    }
    for (int64_t i = 0; i < *count; ++i) {
      AddNamespace(op["prefix"].get<std::string>() + "-" + std::to_string(i), object);
    }
    return Status::Ok();
  }

  Status CreatePods(const std::string& at, int index, const json& op) {
    // Volumes, upstream's CreatePodWithPersistentVolume (bindVolume): per
    // pod i a claim pvc-<i> and a volume <namespace>-vol-<i> bound to each
    // other, and the pod's one volume "vol" naming the claim. Without a
    // claim template the volume template is not read, as upstream.
    std::optional<json> pv_template, pvc_template;
    if (op.contains("persistentVolumeClaimTemplatePath")) {
      const std::string where = at + ".persistentVolumeClaimTemplatePath";
      if (!op["persistentVolumeClaimTemplatePath"].is_string()) {
        return Error(where, "expected string");
      }
      if (!op.contains("persistentVolumeTemplatePath") ||
          !op["persistentVolumeTemplatePath"].is_string()) {
        return Error(at + ".persistentVolumeTemplatePath",
                     "required with persistentVolumeClaimTemplatePath");
      }
      StatusOr<std::pair<json, std::string>> c =
          Template(where, op["persistentVolumeClaimTemplatePath"].get<std::string>(), false);
      if (!c.ok()) return c.status();
      StatusOr<std::pair<json, std::string>> v =
          Template(at + ".persistentVolumeTemplatePath",
                   op["persistentVolumeTemplatePath"].get<std::string>(), false);
      if (!v.ok()) return v.status();
      pvc_template = std::move(c->first);
      pv_template = std::move(v->first);
    }
    StatusOr<int64_t> count = Count(at, op);
    if (!count.ok()) return count.status();
    std::string path = default_pod_template_;
    if (op.contains("podTemplatePath")) {
      if (!op["podTemplatePath"].is_string()) {
        return Error(at + ".podTemplatePath", "expected string");
      }
      path = op["podTemplatePath"].get<std::string>();
    }
    if (path.empty()) return Error(at + ".podTemplatePath", "required (no defaultPodTemplatePath)");
    StatusOr<std::pair<json, std::string>> t = Template(at + ".podTemplatePath", path, true);
    if (!t.ok()) return t.status();
    std::string ns = "namespace-" + std::to_string(index);
    if (op.contains("namespace")) {
      if (!op["namespace"].is_string()) return Error(at + ".namespace", "expected string");
      ns = op["namespace"].get<std::string>();
    }
    AddNamespace(ns, {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", json::object()}});
    if (pods_created_ > 0) now_ += kPhaseGapMs;
    for (int64_t i = 0; i < *count; ++i) {
      json pod = t->first;
      pod["metadata"]["name"] = t->second + std::to_string(i);
      pod["metadata"]["namespace"] = ns;
      if (pvc_template) {
        const std::string claim = "pvc-" + std::to_string(i);
        const std::string volume = ns + "-vol-" + std::to_string(i);
        json pvc = *pvc_template;
        pvc["metadata"]["name"] = claim;
        pvc["metadata"]["namespace"] = ns;
        pvc["spec"]["volumeName"] = volume;
        pvc["status"]["phase"] = "Bound";
        json pv = *pv_template;
        pv["metadata"]["name"] = volume;
        if (pv["spec"].contains("csi")) pv["spec"]["csi"]["volumeHandle"] = volume;
        if (pv["spec"].contains("awsElasticBlockStore")) {
          pv["spec"]["awsElasticBlockStore"]["volumeID"] = "vol-" + std::to_string(i);
        }
        pv["spec"]["claimRef"] = {{"kind", "PersistentVolumeClaim"},
                                  {"namespace", ns},
                                  {"name", claim},
                                  {"apiVersion", "v1"}};
        pv["status"]["phase"] = "Bound";
        Emit(std::move(pvc));
        Emit(std::move(pv));
        pod["spec"]["volumes"] =
            json::array({{{"name", "vol"}, {"persistentVolumeClaim", {{"claimName", claim}}}}});
      }
      CreatePod(now_, std::move(pod));
    }
    pods_created_ += *count;
    return Status::Ok();
  }

  // deletePods: the pods of `namespace` (matching `labelSelector`, every
  // label equal) that perf-import created before this instant, in creation
  // order, deleted all at once, or one every 1/deletePodsPerSecond s from
  // one period after the operation (a ticker's first tick). Without
  // skipWaitToCompletion the next operation starts at the last deletion.
  Status DeletePods(const std::string& at, const json& op) {
    if (!op.contains("namespace") || !op["namespace"].is_string()) {
      return Error(at + ".namespace", "required field is missing");
    }
    const std::string ns = op["namespace"].get<std::string>();
    std::map<std::string, std::string> selector;
    if (op.contains("labelSelector")) {
      const json& sel = op["labelSelector"];
      if (!sel.is_object()) return Error(at + ".labelSelector", "expected a map of labels");
      for (auto it = sel.begin(); it != sel.end(); ++it) {
        if (!it->is_string()) {
          return Error(at + ".labelSelector." + it.key(), "expected string");
        }
        selector[it.key()] = it->get<std::string>();
      }
    }
    int64_t rate = 0;
    if (op.contains("deletePodsPerSecond")) {
      if (!op["deletePodsPerSecond"].is_number_integer() ||
          op["deletePodsPerSecond"].get<int64_t>() < 0) {
        return Error(at + ".deletePodsPerSecond", "expected a non-negative integer");
      }
      rate = op["deletePodsPerSecond"].get<int64_t>();
    }
    bool skip_wait = false;
    if (op.contains("skipWaitToCompletion")) {
      if (!op["skipWaitToCompletion"].is_boolean()) {
        return Error(at + ".skipWaitToCompletion", "expected boolean");
      }
      skip_wait = op["skipWaitToCompletion"].get<bool>();
    }
    api::TimeMs last = now_;
    int64_t deleted = 0;
    for (CreatedPod& p : pods_) {
      if (p.deleted || p.ns != ns || p.created > now_) continue;
      bool match = true;
      for (const auto& [k, v] : selector) {
        if (!p.labels.contains(k) || p.labels[k] != v) match = false;
      }
      if (!match) continue;
      ++deleted;
      last = rate > 0 ? now_ + deleted * 1000 / rate : now_;
      p.deleted = true;
      At(last, {{"delete", {{"kind", "Pod"}, {"name", p.ns + "/" + p.name}}}});
    }
    if (!skip_wait) now_ = last;
    return Status::Ok();
  }

  // churn: every intervalMilliseconds (default 500) from its instant, for
  // the churn window (churn_for_ms_; upstream churns until the workload
  // ends, which has no virtual-time counterpart), each template's object:
  // mode create makes a new one per tick up to `number` ticks (0: no
  // limit); mode recreate keeps `number` slots per template, a tick
  // deleting the object in slot tick % number if there is one, else
  // creating one there. Objects are named generateName + their serial.
  Status Churn(const std::string& at, int index, const json& op) {
    if (!op.contains("mode") || !op["mode"].is_string() ||
        (op["mode"] != "create" && op["mode"] != "recreate")) {
      return Error(at + ".mode", "expected create or recreate");
    }
    const bool recreate = op["mode"] == "recreate";
    int64_t number = 0;
    if (op.contains("number")) {
      if (!op["number"].is_number_integer() || op["number"].get<int64_t>() < 0) {
        return Error(at + ".number", "expected a non-negative integer");
      }
      number = op["number"].get<int64_t>();
    }
    if (recreate && number == 0) return Error(at + ".number", "must be > 0 in mode recreate");
    if (number > kMaxCount) return CheckCount(at + ".number", number).status();
    api::TimeMs interval = 500;
    if (op.contains("intervalMilliseconds")) {
      if (!op["intervalMilliseconds"].is_number_integer() ||
          op["intervalMilliseconds"].get<int64_t>() < 0) {
        return Error(at + ".intervalMilliseconds", "expected a non-negative integer");
      }
      if (op["intervalMilliseconds"].get<int64_t>() != 0) {
        interval = op["intervalMilliseconds"].get<int64_t>();
      }
    }
    std::string ns = "namespace-" + std::to_string(index);
    if (op.contains("namespace")) {
      if (!op["namespace"].is_string()) return Error(at + ".namespace", "expected string");
      ns = op["namespace"].get<std::string>();
    }
    if (!op.contains("templatePaths") || !op["templatePaths"].is_array() ||
        op["templatePaths"].empty()) {
      return Error(at + ".templatePaths", "at least one template path is required");
    }
    struct Churned {
      json object;
      std::string prefix, kind;
      int64_t serial = 0;
      std::vector<std::string> slots;  // recreate: the live object per slot
    };
    std::vector<Churned> templates;
    for (size_t i = 0; i < op["templatePaths"].size(); ++i) {
      const std::string where = at + ".templatePaths[" + std::to_string(i) + "]";
      const json& path = op["templatePaths"][i];
      if (!path.is_string()) return Error(where, "expected string");
      StatusOr<std::pair<json, std::string>> t = Template(where, path.get<std::string>(), true);
      if (!t.ok()) return t.status();
      const std::string kind = t->first.value("kind", "");
      if (kind != "Pod" && kind != "Node" && kind != "Service") {
        return Error(where, "kind \"" + kind +
                                "\" is not supported by perf-import churn (Node, Pod, Service)");
      }
      Churned c{std::move(t->first), std::move(t->second), kind, 0, {}};
      if (recreate) c.slots.assign(static_cast<size_t>(number), "");
      templates.push_back(std::move(c));
    }
    AddNamespace(ns, {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", json::object()}});
    int64_t ticks = churn_for_ms_ / interval;
    if (!recreate && number > 0) ticks = std::min(ticks, number);
    if (ticks * static_cast<int64_t>(templates.size()) > kMaxCount) {
      return Error(at + ".intervalMilliseconds",
                   std::to_string(ticks) + " ticks in the churn window make too many objects");
    }
    for (int64_t tick = 0; tick < ticks; ++tick) {
      const api::TimeMs t = now_ + (tick + 1) * interval;
      for (Churned& c : templates) {
        std::string* slot = recreate ? &c.slots[static_cast<size_t>(tick % number)] : nullptr;
        if (slot != nullptr && !slot->empty()) {
          At(t, {{"delete", {{"kind", c.kind}, {"name", *slot}}}});
          slot->clear();
          continue;
        }
        json object = c.object;
        const std::string name = c.prefix + std::to_string(c.serial++);
        object["metadata"]["name"] = name;
        std::string key = name;
        if (c.kind == "Node") {
          object["metadata"]["labels"]["kubernetes.io/hostname"] = name;
          At(t, {{"create", std::move(object)}});
        } else {
          object["metadata"]["namespace"] = ns;
          key = ns + "/" + name;
          // Churned pods are not listed by a later deletePods.
          At(t, {{"create", std::move(object)}});
        }
        if (slot != nullptr) *slot = key;
      }
    }
    return Status::Ok();
  }

  struct CreatedPod {
    api::TimeMs created;
    std::string ns, name;
    json labels;
    bool deleted;
  };

  const std::string file_;
  const json& config_;
  const api::TimeMs churn_for_ms_;
  std::vector<std::pair<api::TimeMs, json>> timeline_;
  std::vector<CreatedPod> pods_;
  std::string params_at_;
  std::map<std::string, int64_t> params_;
  std::map<std::string, std::string> string_params_;
  std::string default_pod_template_;
  json scenario_;
  std::map<std::string, json> namespaces_;
  std::vector<std::string> namespaces_order_;
  api::TimeMs now_ = 0;
  int64_t pods_created_ = 0;
};

}  // namespace

CLI::App* AddPerfImportCommand(CLI::App& app, PerfImportOptions* options) {
  CLI::App* cmd = app.add_subcommand(
      "perf-import",
      "Expand one workload of an upstream scheduler_perf performance-config.yaml and its "
      "templates into a scenario (docs/performance.md, \"perf-import\")");
  cmd->add_option("config", options->config, "The performance-config.yaml")->required();
  cmd->add_option("--workload", options->workload,
                  "<test case>/<workload>, e.g. SchedulingBasic/5000Nodes")
      ->required();
  cmd->add_option("-o,--output", options->output, "Write to FILE instead of stdout")
      ->type_name("FILE");
  cmd->add_option("--churn-for", options->churn_for,
                  "Virtual time each churn operation runs from its instant (a Go duration, "
                  "default 10s; upstream churns until the workload ends)");
  return cmd;
}

StatusOr<api::Scenario> ImportPerfWorkload(const std::string& config_path,
                                           const std::string& workload,
                                           api::TimeMs churn_for_ms) {
  StatusOr<std::string> text = api::ReadInputFile(config_path);
  if (!text.ok()) return text.status();
  StatusOr<std::vector<json>> docs = api::ParseDocuments(*text, config_path);
  if (!docs.ok()) return docs.status();
  if (docs->size() != 1) {
    return Status::Invalid(config_path + ": expected one document, got " +
                           std::to_string(docs->size()));
  }
  Importer importer(config_path, (*docs)[0], churn_for_ms);
  StatusOr<json> scenario = importer.Import(workload);
  if (!scenario.ok()) return scenario.status();
  // Through the scenario decoder, so that admission, defaults and every
  // check apply as to a scenario file.
  return api::DecodeScenario(scenario->dump(), config_path + " " + workload);
}

int RunPerfImport(const PerfImportOptions& options, std::ostream& out, std::ostream& err) {
  const std::optional<int64_t> churn_for = api::ParseDurationMs(options.churn_for);
  if (!churn_for.has_value() || *churn_for < 0) {
    err << "error: --churn-for: expected a duration such as \"10s\", got \"" << options.churn_for
        << "\"\n";
    return 1;
  }
  StatusOr<api::Scenario> s = ImportPerfWorkload(options.config, options.workload, *churn_for);
  if (!s.ok()) {
    err << "error: " << s.status().message() << "\n";
    return 1;
  }
  int64_t pods = 0;
  for (const api::Event& e : s->timeline) {
    if (e.op == api::Event::Op::kCreate && std::holds_alternative<api::Pod>(e.object)) ++pods;
  }
  err << "perf-import: " << options.workload << ": " << s->initial.nodes.size() << " nodes, "
      << pods << " pods, " << s->timeline.size() << " timeline events\n";
  const std::string text = api::EncodeScenario(*s);
  if (options.output.empty() || options.output == "-") {
    out << text;
    return out.flush() ? 0 : 1;
  }
  std::ofstream file(options.output, std::ios::binary | std::ios::trunc);
  file << text;
  if (!file.flush()) {
    err << "error: cannot write " << options.output << "\n";
    return 1;
  }
  return 0;
}

}  // namespace schedref::cmd
