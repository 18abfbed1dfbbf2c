#include "api/extender/protocol.h"

#include <cmath>
#include <limits>
#include <string_view>
#include <utility>

#include "api/codec/encode.h"

namespace schedref::api::extender {
namespace {

using nlohmann::json;

// encoding/json's field lookup: the exact key, else the first key equal
// under ASCII case folding.
const json* Get(const json& object, std::string_view key) {
  const auto exact = object.find(std::string(key));
  if (exact != object.end()) return &*exact;
  for (auto it = object.begin(); it != object.end(); ++it) {
    const std::string& k = it.key();
    if (k.size() != key.size()) continue;
    bool same = true;
    for (size_t i = 0; i < k.size() && same; ++i) {
      same = std::tolower(static_cast<unsigned char>(k[i])) ==
             std::tolower(static_cast<unsigned char>(key[i]));
    }
    if (same) return &*it;
  }
  return nullptr;
}

// The JSON type word encoding/json uses in its errors.
std::string JsonType(const json& v) {
  if (v.is_string()) return "string";
  if (v.is_number()) return "number";
  if (v.is_boolean()) return "bool";
  if (v.is_array()) return "array";
  return "object";
}

Status Mismatch(const json& v, const std::string& field,
                const std::string& go_type) {
  return Status::Invalid("json: cannot unmarshal " + JsonType(v) +
                         " into Go struct field " + field + " of type " +
                         go_type);
}

Status TopMismatch(const json& v, const std::string& go_type) {
  return Status::Invalid("json: cannot unmarshal " + JsonType(v) +
                         " into Go value of type " + go_type);
}

// A Go string field; null leaves it unchanged.
Status ReadString(const json* v, const std::string& field, std::string* out) {
  if (v == nullptr || v->is_null()) return Status::Ok();
  if (!v->is_string()) return Mismatch(*v, field, "string");
  *out = v->get<std::string>();
  return Status::Ok();
}

// A Go int64 field.
Status ReadInt64(const json* v, const std::string& field, int64_t* out) {
  if (v == nullptr || v->is_null()) return Status::Ok();
  if (v->is_number_integer()) {
    if (v->is_number_unsigned() &&
        v->get<uint64_t>() >
            static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Status::Invalid("json: cannot unmarshal number " + v->dump() +
                             " into Go struct field " + field +
                             " of type int64");
    }
    *out = v->get<int64_t>();
    return Status::Ok();
  }
  if (v->is_number_float()) {
    return Status::Invalid("json: cannot unmarshal number " + v->dump() +
                           " into Go struct field " + field +
                           " of type int64");
  }
  return Mismatch(*v, field, "int64");
}

// *[]string: null or absent is nullopt.
Status ReadStrings(const json* v, const std::string& field,
                   std::optional<std::vector<std::string>>* out) {
  if (v == nullptr || v->is_null()) return Status::Ok();
  if (!v->is_array()) return Mismatch(*v, field, "[]string");
  std::vector<std::string> names;
  for (const json& e : *v) {
    if (!e.is_string()) return Mismatch(e, field, "string");
    names.push_back(e.get<std::string>());
  }
  *out = std::move(names);
  return Status::Ok();
}

Status ReadFailedNodes(const json* v, const std::string& field,
                       FailedNodes* out) {
  if (v == nullptr || v->is_null()) return Status::Ok();
  if (!v->is_object()) return Mismatch(*v, field, "v1.FailedNodesMap");
  for (auto it = v->begin(); it != v->end(); ++it) {
    if (it->is_null()) {
      (*out)[it.key()] = "";
      continue;
    }
    if (!it->is_string()) return Mismatch(*it, field, "string");
    (*out)[it.key()] = it->get<std::string>();
  }
  return Status::Ok();
}

// The names of a NodeList's items.
Status ReadNodeList(const json* v, const std::string& field,
                    std::optional<std::vector<std::string>>* out,
                    std::vector<Labels>* labels) {
  if (v == nullptr || v->is_null()) return Status::Ok();
  if (!v->is_object()) return Mismatch(*v, field, "v1.NodeList");
  std::vector<std::string> names;
  const json* items = Get(*v, "items");
  if (items != nullptr && !items->is_null()) {
    if (!items->is_array()) return Mismatch(*items, "NodeList.items", "[]v1.Node");
    for (const json& node : *items) {
      if (node.is_null()) {
        names.emplace_back();
        if (labels != nullptr) labels->emplace_back();
        continue;
      }
      if (!node.is_object()) return Mismatch(node, "NodeList.items", "v1.Node");
      std::string name;
      Labels node_labels;
      const json* meta = Get(node, "metadata");
      if (meta != nullptr && meta->is_object()) {
        SCHEDREF_RETURN_IF_ERROR(
            ReadString(Get(*meta, "name"), "Node.metadata.name", &name));
        const json* l = Get(*meta, "labels");
        if (l != nullptr && l->is_object()) {
          for (auto it = l->begin(); it != l->end(); ++it) {
            if (it->is_string()) node_labels[it.key()] = it->get<std::string>();
          }
        }
      } else if (meta != nullptr && !meta->is_null()) {
        return Mismatch(*meta, "Node.metadata", "v1.ObjectMeta");
      }
      names.push_back(std::move(name));
      if (labels != nullptr) labels->push_back(std::move(node_labels));
    }
  }
  *out = std::move(names);
  return Status::Ok();
}

json PodJson(const Pod& pod) { return EncodeObject(AnyObject(pod)); }

json MetaVictimsJson(const MetaVictims& v) {
  json pods = json::array();
  for (const std::string& uid : v.pod_uids) pods.push_back({{"UID", uid}});
  return {{"Pods", std::move(pods)}, {"NumPDBViolations", v.num_pdb_violations}};
}

Status ReadMetaVictims(const json& v, MetaVictims* out) {
  if (!v.is_object()) {
    return Mismatch(v, "ExtenderPreemptionResult.NodeNameToMetaVictims",
                    "v1.MetaVictims");
  }
  SCHEDREF_RETURN_IF_ERROR(ReadInt64(Get(v, "NumPDBViolations"),
                                     "MetaVictims.NumPDBViolations",
                                     &out->num_pdb_violations));
  const json* pods = Get(v, "Pods");
  if (pods == nullptr || pods->is_null()) return Status::Ok();
  if (!pods->is_array()) {
    return Mismatch(*pods, "MetaVictims.Pods", "[]*v1.MetaPod");
  }
  for (const json& p : *pods) {
    std::string uid;
    if (!p.is_null()) {
      if (!p.is_object()) return Mismatch(p, "MetaVictims.Pods", "v1.MetaPod");
      SCHEDREF_RETURN_IF_ERROR(ReadString(Get(p, "UID"), "MetaPod.UID", &uid));
    }
    out->pod_uids.push_back(std::move(uid));
  }
  return Status::Ok();
}

}  // namespace

json EncodeArgs(const Pod& pod, const std::vector<const Node*>& nodes,
                bool node_cache_capable) {
  json out = {{"Pod", PodJson(pod)}, {"Nodes", nullptr}, {"NodeNames", nullptr}};
  if (node_cache_capable) {
    json names = json::array();
    for (const Node* n : nodes) names.push_back(n->name);
    out["NodeNames"] = std::move(names);
  } else {
    json items = json::array();
    for (const Node* n : nodes) items.push_back(EncodeObject(AnyObject(*n)));
    out["Nodes"] = {{"metadata", json::object()}, {"items", std::move(items)}};
  }
  return out;
}

json EncodeBindingArgs(const Pod& pod, const std::string& node) {
  return {{"PodName", pod.name},
          {"PodNamespace", pod.ns},
          {"PodUID", pod.uid},
          {"Node", node}};
}

json EncodePreemptionArgs(const Pod& pod,
                          const std::map<std::string, Victims>& victims,
                          bool node_cache_capable) {
  json out = {{"Pod", PodJson(pod)},
              {"NodeNameToVictims", nullptr},
              {"NodeNameToMetaVictims", nullptr}};
  json map = json::object();
  for (const auto& [node, v] : victims) {
    if (node_cache_capable) {
      MetaVictims meta;
      meta.num_pdb_violations = v.num_pdb_violations;
      for (const Pod* p : v.pods) meta.pod_uids.push_back(p->uid);
      map[node] = MetaVictimsJson(meta);
    } else {
      json pods = json::array();
      for (const Pod* p : v.pods) pods.push_back(PodJson(*p));
      map[node] = {{"Pods", std::move(pods)},
                   {"NumPDBViolations", v.num_pdb_violations}};
    }
  }
  out[node_cache_capable ? "NodeNameToMetaVictims" : "NodeNameToVictims"] =
      std::move(map);
  return out;
}

StatusOr<FilterResult> DecodeFilterResult(const json& reply) {
  FilterResult out;
  if (reply.is_null()) return out;
  if (!reply.is_object()) return TopMismatch(reply, "v1.ExtenderFilterResult");
  SCHEDREF_RETURN_IF_ERROR(ReadNodeList(Get(reply, "Nodes"),
                                        "ExtenderFilterResult.Nodes",
                                        &out.nodes, nullptr));
  SCHEDREF_RETURN_IF_ERROR(ReadStrings(Get(reply, "NodeNames"),
                                       "ExtenderFilterResult.NodeNames",
                                       &out.node_names));
  SCHEDREF_RETURN_IF_ERROR(ReadFailedNodes(Get(reply, "FailedNodes"),
                                           "ExtenderFilterResult.FailedNodes",
                                           &out.failed_nodes));
  SCHEDREF_RETURN_IF_ERROR(ReadFailedNodes(
      Get(reply, "FailedAndUnresolvableNodes"),
      "ExtenderFilterResult.FailedAndUnresolvableNodes",
      &out.failed_and_unresolvable_nodes));
  SCHEDREF_RETURN_IF_ERROR(
      ReadString(Get(reply, "Error"), "ExtenderFilterResult.Error", &out.error));
  return out;
}

StatusOr<std::vector<HostPriority>> DecodeHostPriorityList(const json& reply) {
  std::vector<HostPriority> out;
  if (reply.is_null()) return out;
  if (!reply.is_array()) return TopMismatch(reply, "v1.HostPriorityList");
  for (const json& e : reply) {
    HostPriority hp;
    if (!e.is_null()) {
      if (!e.is_object()) return TopMismatch(e, "v1.HostPriority");
      SCHEDREF_RETURN_IF_ERROR(
          ReadString(Get(e, "Host"), "HostPriority.Host", &hp.host));
      SCHEDREF_RETURN_IF_ERROR(
          ReadInt64(Get(e, "Score"), "HostPriority.Score", &hp.score));
    }
    out.push_back(std::move(hp));
  }
  return out;
}

StatusOr<std::string> DecodeBindingResult(const json& reply) {
  std::string error;
  if (reply.is_null()) return error;
  if (!reply.is_object()) return TopMismatch(reply, "v1.ExtenderBindingResult");
  SCHEDREF_RETURN_IF_ERROR(
      ReadString(Get(reply, "Error"), "ExtenderBindingResult.Error", &error));
  return error;
}

StatusOr<std::map<std::string, std::optional<MetaVictims>>>
DecodePreemptionResult(const json& reply) {
  std::map<std::string, std::optional<MetaVictims>> out;
  if (reply.is_null()) return out;
  if (!reply.is_object()) {
    return TopMismatch(reply, "v1.ExtenderPreemptionResult");
  }
  const json* map = Get(reply, "NodeNameToMetaVictims");
  if (map == nullptr || map->is_null()) return out;
  if (!map->is_object()) {
    return Mismatch(*map, "ExtenderPreemptionResult.NodeNameToMetaVictims",
                    "map[string]*v1.MetaVictims");
  }
  for (auto it = map->begin(); it != map->end(); ++it) {
    if (it->is_null()) {
      out[it.key()] = std::nullopt;
      continue;
    }
    MetaVictims v;
    SCHEDREF_RETURN_IF_ERROR(ReadMetaVictims(*it, &v));
    out[it.key()] = std::move(v);
  }
  return out;
}

StatusOr<ReceivedArgs> DecodeArgs(const json& body) {
  ReceivedArgs out;
  if (!body.is_object()) return TopMismatch(body, "v1.ExtenderArgs");
  if (const json* pod = Get(body, "Pod"); pod != nullptr) out.pod = *pod;
  std::optional<std::vector<std::string>> names;
  SCHEDREF_RETURN_IF_ERROR(
      ReadStrings(Get(body, "NodeNames"), "ExtenderArgs.NodeNames", &names));
  std::optional<std::vector<std::string>> nodes;
  std::vector<Labels> labels;
  SCHEDREF_RETURN_IF_ERROR(
      ReadNodeList(Get(body, "Nodes"), "ExtenderArgs.Nodes", &nodes, &labels));
  if (nodes.has_value()) {
    out.node_names = std::move(*nodes);
    out.node_labels = std::move(labels);
  } else if (names.has_value()) {
    out.names_only = true;
    out.node_names = std::move(*names);
    out.node_labels.resize(out.node_names.size());
  }
  return out;
}

StatusOr<std::map<std::string, MetaVictims>> DecodePreemptionArgs(
    const json& body) {
  std::map<std::string, MetaVictims> out;
  if (!body.is_object()) return TopMismatch(body, "v1.ExtenderPreemptionArgs");
  if (const json* meta = Get(body, "NodeNameToMetaVictims");
      meta != nullptr && meta->is_object()) {
    for (auto it = meta->begin(); it != meta->end(); ++it) {
      MetaVictims v;
      if (!it->is_null()) SCHEDREF_RETURN_IF_ERROR(ReadMetaVictims(*it, &v));
      out[it.key()] = std::move(v);
    }
    return out;
  }
  const json* full = Get(body, "NodeNameToVictims");
  if (full == nullptr || !full->is_object()) return out;
  for (auto it = full->begin(); it != full->end(); ++it) {
    MetaVictims v;
    if (it->is_object()) {
      SCHEDREF_RETURN_IF_ERROR(ReadInt64(Get(*it, "NumPDBViolations"),
                                         "Victims.NumPDBViolations",
                                         &v.num_pdb_violations));
      const json* pods = Get(*it, "Pods");
      if (pods != nullptr && pods->is_array()) {
        for (const json& p : *pods) {
          std::string uid;
          const json* meta = p.is_object() ? Get(p, "metadata") : nullptr;
          if (meta != nullptr && meta->is_object()) {
            SCHEDREF_RETURN_IF_ERROR(
                ReadString(Get(*meta, "uid"), "Pod.metadata.uid", &uid));
          }
          v.pod_uids.push_back(std::move(uid));
        }
      }
    }
    out[it.key()] = std::move(v);
  }
  return out;
}

json EncodeFilterResult(const FilterResult& r) {
  json out = {{"Nodes", nullptr},
              {"NodeNames", nullptr},
              {"FailedNodes", r.failed_nodes},
              {"FailedAndUnresolvableNodes", r.failed_and_unresolvable_nodes},
              {"Error", r.error}};
  if (r.nodes.has_value()) {
    json items = json::array();
    for (const std::string& n : *r.nodes) {
      items.push_back({{"metadata", {{"name", n}}}});
    }
    out["Nodes"] = {{"metadata", json::object()}, {"items", std::move(items)}};
  }
  if (r.node_names.has_value()) out["NodeNames"] = *r.node_names;
  return out;
}

json EncodeHostPriorityList(const std::vector<HostPriority>& list) {
  json out = json::array();
  for (const HostPriority& hp : list) {
    out.push_back({{"Host", hp.host}, {"Score", hp.score}});
  }
  return out;
}

json EncodeBindingResult(const std::string& error) {
  return {{"Error", error}};
}

json EncodePreemptionResult(const std::map<std::string, MetaVictims>& victims) {
  json map = json::object();
  for (const auto& [node, v] : victims) map[node] = MetaVictimsJson(v);
  return {{"NodeNameToMetaVictims", std::move(map)}};
}

}  // namespace schedref::api::extender
