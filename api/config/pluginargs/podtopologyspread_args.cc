#include "api/config/pluginargs/podtopologyspread_args.h"

#include <cstdint>
#include <string>
#include <utility>

#include "api/config/pluginargs/json_args.h"
#include "api/types/labels.h"

namespace schedref::api::pluginargs {
namespace {

StatusOr<std::string> OptString(const nlohmann::json& obj, const char* key,
                                const std::string& path) {
  if (!Has(obj, key)) return std::string();
  return ReadString(obj[key], FieldPath(path, key));
}

StatusOr<api::LabelSelector> DecodeLabelSelector(const nlohmann::json& j,
                                                 const std::string& path) {
  SCHEDREF_RETURN_IF_ERROR(
      CheckObject(j, path, {"matchLabels", "matchExpressions"}));
  api::LabelSelector out;
  if (Has(j, "matchLabels")) {
    const std::string at = FieldPath(path, "matchLabels");
    if (!j["matchLabels"].is_object()) {
      return schedref::Status::Invalid(at + ": expected an object");
    }
    for (const auto& [k, v] : j["matchLabels"].items()) {
      StatusOr<std::string> value = ReadString(v, FieldPath(at, k));
      if (!value.ok()) return value.status();
      out.match_labels[k] = *value;
    }
  }
  if (Has(j, "matchExpressions")) {
    const std::string at = FieldPath(path, "matchExpressions");
    SCHEDREF_RETURN_IF_ERROR(CheckArray(j["matchExpressions"], at));
    for (size_t i = 0; i < j["matchExpressions"].size(); ++i) {
      const nlohmann::json& r = j["matchExpressions"][i];
      const std::string rat = IndexPath(at, i);
      SCHEDREF_RETURN_IF_ERROR(CheckObject(r, rat, {"key", "operator", "values"}));
      api::LabelSelectorRequirement req;
      StatusOr<std::string> key = OptString(r, "key", rat);
      if (!key.ok()) return key.status();
      req.key = *key;
      StatusOr<std::string> op = OptString(r, "operator", rat);
      if (!op.ok()) return op.status();
      req.op = *op;
      if (Has(r, "values")) {
        auto values = ReadStringList(r["values"], FieldPath(rat, "values"));
        if (!values.ok()) return values.status();
        req.values = *values;
      }
      out.match_expressions.push_back(std::move(req));
    }
  }
  return out;
}

StatusOr<api::TopologySpreadConstraint> DecodeConstraint(
    const nlohmann::json& j, const std::string& path) {
  SCHEDREF_RETURN_IF_ERROR(CheckObject(
      j, path,
      {"maxSkew", "topologyKey", "whenUnsatisfiable", "labelSelector",
       "minDomains", "nodeAffinityPolicy", "nodeTaintsPolicy",
       "matchLabelKeys"}));
  api::TopologySpreadConstraint c;
  if (Has(j, "maxSkew")) {
    auto v = ReadInt(j["maxSkew"], FieldPath(path, "maxSkew"),
                             INT32_MIN, INT32_MAX);
    if (!v.ok()) return v.status();
    c.max_skew = static_cast<int32_t>(*v);
  }
  StatusOr<std::string> key = OptString(j, "topologyKey", path);
  if (!key.ok()) return key.status();
  c.topology_key = *key;
  StatusOr<std::string> when = OptString(j, "whenUnsatisfiable", path);
  if (!when.ok()) return when.status();
  c.when_unsatisfiable = *when;
  if (Has(j, "labelSelector")) {
    auto sel = DecodeLabelSelector(j["labelSelector"],
                                   FieldPath(path, "labelSelector"));
    if (!sel.ok()) return sel.status();
    c.label_selector = *sel;
  }
  if (Has(j, "minDomains")) {
    auto v = ReadInt(j["minDomains"], FieldPath(path, "minDomains"),
                             INT32_MIN, INT32_MAX);
    if (!v.ok()) return v.status();
    c.min_domains = static_cast<int32_t>(*v);
  }
  for (auto [field, slot] :
       {std::pair{"nodeAffinityPolicy", &c.node_affinity_policy},
        std::pair{"nodeTaintsPolicy", &c.node_taints_policy}}) {
    if (!Has(j, field)) continue;
    StatusOr<std::string> v = OptString(j, field, path);
    if (!v.ok()) return v.status();
    *slot = *v;
  }
  if (Has(j, "matchLabelKeys")) {
    auto keys = ReadStringList(j["matchLabelKeys"],
                                       FieldPath(path, "matchLabelKeys"));
    if (!keys.ok()) return keys.status();
    c.match_label_keys = *keys;
  }
  return c;
}

}  // namespace

std::vector<api::TopologySpreadConstraint> SystemDefaultConstraints() {
  api::TopologySpreadConstraint host;
  host.topology_key = kLabelHostname;
  host.when_unsatisfiable = kScheduleAnyway;
  host.max_skew = 3;
  api::TopologySpreadConstraint zone;
  zone.topology_key = kLabelTopologyZone;
  zone.when_unsatisfiable = kScheduleAnyway;
  zone.max_skew = 5;
  return {host, zone};
}

StatusOr<PodTopologySpreadArgs> DecodePodTopologySpreadArgs(
    const nlohmann::json& args) {
  StatusOr<PodTopologySpreadArgs> out = ParsePodTopologySpreadArgs(args);
  if (!out.ok()) return out;
  SCHEDREF_RETURN_IF_ERROR(ValidatePodTopologySpreadArgs(*out));
  return out;
}

StatusOr<PodTopologySpreadArgs> ParsePodTopologySpreadArgs(
    const nlohmann::json& args) {
  SCHEDREF_RETURN_IF_ERROR(CheckObject(
      args, "", {"apiVersion", "kind", "defaultConstraints", "defaultingType"}));
  PodTopologySpreadArgs out;
  if (Has(args, "defaultConstraints")) {
    SCHEDREF_RETURN_IF_ERROR(
        CheckArray(args["defaultConstraints"], "defaultConstraints"));
    for (size_t i = 0; i < args["defaultConstraints"].size(); ++i) {
      auto c = DecodeConstraint(args["defaultConstraints"][i],
                                IndexPath("defaultConstraints", i));
      if (!c.ok()) return c.status();
      out.default_constraints.push_back(*c);
    }
  }
  StatusOr<std::string> type = OptString(args, "defaultingType", "");
  if (!type.ok()) return type.status();
  // v1 SetDefaults_PodTopologySpreadArgs.
  out.defaulting_type = type->empty() ? kSystemDefaulting : *type;
  return out;
}

std::vector<std::string> PodTopologySpreadArgsErrors(const PodTopologySpreadArgs& args) {
  std::vector<std::string> errors;
  if (args.defaulting_type != kSystemDefaulting &&
      args.defaulting_type != kListDefaulting) {
    errors.push_back(FieldNotSupported(
        "defaultingType", args.defaulting_type,
        {kSystemDefaulting, kListDefaulting}));
  } else if (args.defaulting_type == kSystemDefaulting &&
             !args.default_constraints.empty()) {
    errors.push_back(FieldInvalid("defaultingType",
                                          args.defaulting_type,
                                          "when .defaultConstraints are not "
                                          "empty"));
  }
  const auto& cs = args.default_constraints;
  for (size_t i = 0; i < cs.size(); ++i) {
    const api::TopologySpreadConstraint& c = cs[i];
    const std::string p = IndexPath("defaultConstraints", i);
    if (c.max_skew <= 0) {
      errors.push_back(FieldInvalid(FieldPath(p, "maxSkew"), c.max_skew,
                                            "not in valid range (0, inf)"));
    }
    const std::string key_path = FieldPath(p, "topologyKey");
    if (c.topology_key.empty()) {
      errors.push_back(FieldRequired(key_path, "can not be empty"));
    } else {
      // metav1validation.ValidateLabelName: one error per problem.
      for (const std::string& problem : api::QualifiedNameErrors(c.topology_key)) {
        errors.push_back(FieldInvalid(key_path, c.topology_key, problem));
      }
    }
    const std::string when_path = FieldPath(p, "whenUnsatisfiable");
    if (c.when_unsatisfiable.empty()) {
      errors.push_back(FieldRequired(when_path, "can not be empty"));
    } else if (c.when_unsatisfiable != kDoNotSchedule &&
               c.when_unsatisfiable != kScheduleAnyway) {
      errors.push_back(FieldNotSupported(
          when_path, c.when_unsatisfiable, {kDoNotSchedule, kScheduleAnyway}));
    }
    if (c.label_selector.has_value()) {
      errors.push_back(FieldPath(p, "labelSelector") +
                       ": Forbidden: constraint must not define a selector, "
                       "as they deduced for each pod");
    }
    for (size_t j = 0; j < i; ++j) {
      if (cs[j].topology_key == c.topology_key &&
          cs[j].when_unsatisfiable == c.when_unsatisfiable) {
        errors.push_back(FieldDuplicate(
            p, "{" + c.topology_key + ", " + c.when_unsatisfiable + "}"));
        break;
      }
    }
  }
  return errors;
}

schedref::Status ValidatePodTopologySpreadArgs(const PodTopologySpreadArgs& args) {
  return FieldErrors(PodTopologySpreadArgsErrors(args));
}

}  // namespace schedref::api::pluginargs
