// EncodeScenario (scenario_encode.h): a scenario as the YAML golden files
// hold, the inverse of DecodeScenario.
#include "api/codec/scenario_encode.h"

#include <string>
#include <utility>
#include <variant>

#include <nlohmann/json.hpp>

#include "api/codec/encode.h"
#include "api/codec/scenario_decode.h"
#include "api/codec/yaml_emit.h"
#include "api/config/config_decode.h"
#include "api/gocompat/go_duration.h"

namespace schedref::api {
namespace {

using nlohmann::ordered_json;

ordered_json EncodeEvent(const Event& e) {
  ordered_json out = ordered_json::object();
  out["at"] = FormatDurationMs(e.at);
  const auto object = [&e]() -> ordered_json {
    return std::visit(
        [](const auto& o) -> ordered_json {
          if constexpr (std::is_same_v<std::decay_t<decltype(o)>,
                                       std::monostate>) {
            return ordered_json::object();
          } else {
            return ToOrdered(EncodeObject(AnyObject(o)));
          }
        },
        e.object);
  };
  switch (e.op) {
    case Event::Op::kCreate:
      out["create"] = object();
      break;
    case Event::Op::kUpdate:
      out["update"] = object();
      break;
    case Event::Op::kDelete:
      out["delete"] = {{"kind", e.kind}, {"name", e.name}};
      break;
    case Event::Op::kAdvance:
      out["advance"] = ordered_json::object();
      break;
    case Event::Op::kFailBind:
      out["failBind"] = {{"pod", e.name}, {"count", e.count}};
      break;
    case Event::Op::kSetBindLatency: {
      ordered_json body = ordered_json::object();
      if (!e.name.empty()) body["pod"] = e.name;
      body["duration"] = FormatDurationMs(e.duration_ms);
      out["bindLatency"] = std::move(body);
      break;
    }
    case Event::Op::kAllow:
    case Event::Op::kReject:
      out[e.op == Event::Op::kAllow ? "allow" : "reject"] = {
          {"pod", e.name}, {"plugin", e.plugin}};
      break;
  }
  return out;
}

ordered_json EncodeDeclaredNodes(const DeclaredNodes& nodes) {
  ordered_json out = ordered_json::object();
  if (!nodes.names.empty()) out["nodes"] = nodes.names;
  if (nodes.selector.has_value()) {
    ordered_json selector = ordered_json::object();
    if (!nodes.selector->match_labels.empty()) {
      ordered_json labels = ordered_json::object();
      for (const auto& [k, v] : nodes.selector->match_labels) labels[k] = v;
      selector["matchLabels"] = std::move(labels);
    }
    if (!nodes.selector->match_expressions.empty()) {
      ordered_json exprs = ordered_json::array();
      for (const LabelSelectorRequirement& r : nodes.selector->match_expressions) {
        ordered_json e = {{"key", r.key}, {"operator", r.op}};
        if (!r.values.empty()) e["values"] = r.values;
        exprs.push_back(std::move(e));
      }
      selector["matchExpressions"] = std::move(exprs);
    }
    out["selector"] = std::move(selector);
  }
  return out;
}

void EncodeDeclaredReply(const DeclaredReply& r, ordered_json* out) {
  if (r.delay_ms != 0) (*out)["delay"] = FormatDurationMs(r.delay_ms);
  if (r.status != 200) (*out)["status"] = r.status;
  if (!r.error.empty()) (*out)["error"] = r.error;
  if (r.body.has_value()) (*out)["body"] = *r.body;
}

ordered_json EncodeDeclaredExtender(const DeclaredExtender& d) {
  ordered_json out = {{"urlPrefix", d.url_prefix}};
  if (d.filter.has_value()) {
    ordered_json f = ordered_json::object();
    EncodeDeclaredReply(d.filter->reply, &f);
    if (!d.filter->reject.empty()) {
      ordered_json rules = ordered_json::array();
      for (const DeclaredReject& r : d.filter->reject) {
        ordered_json rule = EncodeDeclaredNodes(r.nodes);
        if (!r.reason.empty()) rule["reason"] = r.reason;
        if (r.unresolvable) rule["unresolvable"] = true;
        rules.push_back(std::move(rule));
      }
      f["reject"] = std::move(rules);
    }
    out["filter"] = std::move(f);
  }
  if (d.prioritize.has_value()) {
    ordered_json p = ordered_json::object();
    EncodeDeclaredReply(d.prioritize->reply, &p);
    if (d.prioritize->default_score != 0) p["default"] = d.prioritize->default_score;
    if (!d.prioritize->scores.empty()) {
      ordered_json rules = ordered_json::array();
      for (const DeclaredScore& r : d.prioritize->scores) {
        ordered_json rule = EncodeDeclaredNodes(r.nodes);
        rule["score"] = r.score;
        rules.push_back(std::move(rule));
      }
      p["scores"] = std::move(rules);
    }
    out["prioritize"] = std::move(p);
  }
  if (d.bind.has_value()) {
    ordered_json b = ordered_json::object();
    EncodeDeclaredReply(*d.bind, &b);
    out["bind"] = std::move(b);
  }
  if (d.preempt.has_value()) {
    ordered_json p = ordered_json::object();
    EncodeDeclaredReply(d.preempt->reply, &p);
    if (!d.preempt->drop.empty()) p["drop"] = d.preempt->drop;
    if (d.preempt->keep_victims.has_value()) p["keepVictims"] = *d.preempt->keep_victims;
    out["preempt"] = std::move(p);
  }
  return out;
}

}  // namespace

std::string EncodeScenario(const Scenario& s) {
  return EmitYamlMapping(EncodeScenarioDocument(s));
}

nlohmann::ordered_json EncodeScenarioDocument(const Scenario& s) {
  ordered_json doc = ordered_json::object();
  doc["schedref"] = kScenarioVersionTag;
  doc["name"] = s.name;
  if (!s.description.empty()) doc["description"] = s.description;
  if (!s.upstream_test.empty()) doc["upstream"] = s.upstream_test;
  if (s.seed != 0) doc["seed"] = s.seed;
  doc["startTime"] = FormatRfc3339(s.start_time);
  if (s.bind_latency_ms != 0) {
    doc["bindLatency"] = FormatDurationMs(s.bind_latency_ms);
  }
  if (s.volume_binding_latency_ms != 0) {
    doc["volumeBindingLatency"] = FormatDurationMs(s.volume_binding_latency_ms);
  }
  if (!(s.config == DefaultConfiguration())) {
    doc["config"] = ToOrdered(EncodeConfiguration(s.config));
  }
  if (!s.extenders.empty()) {
    ordered_json extenders = ordered_json::array();
    for (const DeclaredExtender& d : s.extenders) {
      extenders.push_back(EncodeDeclaredExtender(d));
    }
    doc["extenders"] = std::move(extenders);
  }
  ordered_json objects = ordered_json::array();
  const auto add = [&objects](const AnyObject& o) {
    objects.push_back(ToOrdered(EncodeObject(o)));
  };
  for (const Namespace& o : s.initial.namespaces) add(o);
  for (const PriorityClass& o : s.initial.priority_classes) add(o);
  for (const Node& o : s.initial.nodes) add(o);
  for (const Pod& o : s.initial.pods) add(o);
  for (const PodDisruptionBudget& o : s.initial.pdbs) add(o);
  for (const StorageClass& o : s.initial.storage_classes) add(o);
  for (const CSIDriver& o : s.initial.csi_drivers) add(o);
  for (const CSINode& o : s.initial.csi_nodes) add(o);
  for (const PersistentVolume& o : s.initial.persistent_volumes) add(o);
  for (const PersistentVolumeClaim& o : s.initial.persistent_volume_claims) add(o);
  for (const CSIStorageCapacity& o : s.initial.csi_storage_capacities) add(o);
  for (const Service& o : s.initial.services) add(o);
  for (const ReplicationController& o : s.initial.replication_controllers) add(o);
  for (const ReplicaSet& o : s.initial.replica_sets) add(o);
  for (const StatefulSet& o : s.initial.stateful_sets) add(o);
  if (!objects.empty()) doc["objects"] = std::move(objects);
  if (!s.timeline.empty()) {
    ordered_json timeline = ordered_json::array();
    for (const Event& e : s.timeline) timeline.push_back(EncodeEvent(e));
    doc["timeline"] = std::move(timeline);
  }
  if (!s.expected_trace.empty()) {
    std::string trace;
    for (const std::string& line : s.expected_trace) trace += line + "\n";
    doc["expectedTrace"] = trace;
  }
  return doc;
}

}  // namespace schedref::api
