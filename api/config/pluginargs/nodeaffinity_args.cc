#include "api/config/pluginargs/nodeaffinity_args.h"

#include <string>
#include <utility>
#include <vector>

#include "api/config/pluginargs/json_args.h"
#include "api/types/labels.h"

namespace schedref::api::pluginargs {
namespace {

constexpr char kRequiredField[] =
    "requiredDuringSchedulingIgnoredDuringExecution";
constexpr char kPreferredField[] =
    "preferredDuringSchedulingIgnoredDuringExecution";

StatusOr<std::vector<api::NodeSelectorRequirement>> DecodeRequirements(
    const nlohmann::json& j, const std::string& path) {
  SCHEDREF_RETURN_IF_ERROR(CheckArray(j, path));
  std::vector<api::NodeSelectorRequirement> out;
  if (j.is_null()) return out;
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string at = IndexPath(path, i);
    SCHEDREF_RETURN_IF_ERROR(
        CheckObject(j[i], at, {"key", "operator", "values"}));
    api::NodeSelectorRequirement r;
    if (Has(j[i], "key")) {
      auto key = ReadString(j[i]["key"], FieldPath(at, "key"));
      if (!key.ok()) return key.status();
      r.key = *key;
    }
    if (Has(j[i], "operator")) {
      auto op = ReadString(j[i]["operator"], FieldPath(at, "operator"));
      if (!op.ok()) return op.status();
      r.op = *op;
    }
    if (Has(j[i], "values")) {
      auto values =
          ReadStringList(j[i]["values"], FieldPath(at, "values"));
      if (!values.ok()) return values.status();
      r.values = *values;
    }
    out.push_back(std::move(r));
  }
  return out;
}

StatusOr<api::NodeSelectorTerm> DecodeTerm(const nlohmann::json& j,
                                           const std::string& path) {
  SCHEDREF_RETURN_IF_ERROR(
      CheckObject(j, path, {"matchExpressions", "matchFields"}));
  api::NodeSelectorTerm term;
  if (Has(j, "matchExpressions")) {
    auto r = DecodeRequirements(j["matchExpressions"],
                                FieldPath(path, "matchExpressions"));
    if (!r.ok()) return r.status();
    term.match_expressions = *r;
  }
  if (Has(j, "matchFields")) {
    auto r = DecodeRequirements(j["matchFields"], FieldPath(path, "matchFields"));
    if (!r.ok()) return r.status();
    term.match_fields = *r;
  }
  return term;
}

StatusOr<api::NodeAffinity> DecodeAffinity(const nlohmann::json& j,
                                           const std::string& path) {
  SCHEDREF_RETURN_IF_ERROR(
      CheckObject(j, path, {kRequiredField, kPreferredField}));
  api::NodeAffinity affinity;
  if (Has(j, kRequiredField)) {
    const std::string at = FieldPath(path, kRequiredField);
    const nlohmann::json& req = j[kRequiredField];
    SCHEDREF_RETURN_IF_ERROR(CheckObject(req, at, {"nodeSelectorTerms"}));
    api::NodeSelector selector;
    if (Has(req, "nodeSelectorTerms")) {
      const std::string terms_at = FieldPath(at, "nodeSelectorTerms");
      SCHEDREF_RETURN_IF_ERROR(CheckArray(req["nodeSelectorTerms"], terms_at));
      for (size_t i = 0; i < req["nodeSelectorTerms"].size(); ++i) {
        auto term =
            DecodeTerm(req["nodeSelectorTerms"][i], IndexPath(terms_at, i));
        if (!term.ok()) return term.status();
        selector.terms.push_back(*term);
      }
    }
    affinity.required = std::move(selector);
  }
  if (Has(j, kPreferredField)) {
    const std::string at = FieldPath(path, kPreferredField);
    const nlohmann::json& pref = j[kPreferredField];
    SCHEDREF_RETURN_IF_ERROR(CheckArray(pref, at));
    for (size_t i = 0; i < pref.size(); ++i) {
      const std::string item = IndexPath(at, i);
      SCHEDREF_RETURN_IF_ERROR(
          CheckObject(pref[i], item, {"weight", "preference"}));
      api::PreferredSchedulingTerm term;
      if (Has(pref[i], "weight")) {
        auto w = ReadInt(pref[i]["weight"], FieldPath(item, "weight"),
                                 INT32_MIN, INT32_MAX);
        if (!w.ok()) return w.status();
        term.weight = static_cast<int32_t>(*w);
      }
      if (Has(pref[i], "preference")) {
        auto t = DecodeTerm(pref[i]["preference"],
                            FieldPath(item, "preference"));
        if (!t.ok()) return t.status();
        term.preference = *t;
      }
      affinity.preferred.push_back(std::move(term));
    }
  }
  return affinity;
}

}  // namespace

StatusOr<NodeAffinityArgs> DecodeNodeAffinityArgs(const nlohmann::json& args) {
  StatusOr<NodeAffinityArgs> out = ParseNodeAffinityArgs(args);
  if (!out.ok()) return out;
  SCHEDREF_RETURN_IF_ERROR(ValidateNodeAffinityArgs(*out));
  return out;
}

StatusOr<NodeAffinityArgs> ParseNodeAffinityArgs(const nlohmann::json& args) {
  SCHEDREF_RETURN_IF_ERROR(
      CheckObject(args, "", {"apiVersion", "kind", "addedAffinity"}));
  NodeAffinityArgs out;
  if (Has(args, "addedAffinity")) {
    auto affinity = DecodeAffinity(args["addedAffinity"], "addedAffinity");
    if (!affinity.ok()) return affinity.status();
    out.added_affinity = *affinity;
  }
  return out;
}

std::vector<std::string> NodeAffinityArgsErrors(const NodeAffinityArgs& args) {
  if (!args.added_affinity) return {};
  std::vector<std::string> errors;
  const std::string base = "addedAffinity";
  if (args.added_affinity->required) {
    const std::string at =
        FieldPath(FieldPath(base, kRequiredField), "nodeSelectorTerms");
    const auto& terms = args.added_affinity->required->terms;
    for (size_t i = 0; i < terms.size(); ++i) {
      if (api::IsEmptyNodeSelectorTerm(terms[i])) continue;
      if (auto p = api::NodeSelectorTermParseError(terms[i])) {
        errors.push_back(FieldPath(IndexPath(at, i), p->field) + ": " +
                         p->problem);
      }
    }
  }
  const std::string pref_at = FieldPath(base, kPreferredField);
  const auto& pref = args.added_affinity->preferred;
  for (size_t i = 0; i < pref.size(); ++i) {
    if (pref[i].weight == 0 || api::IsEmptyNodeSelectorTerm(pref[i].preference)) {
      continue;
    }
    if (auto p = api::NodeSelectorTermParseError(pref[i].preference)) {
      errors.push_back(
          FieldPath(FieldPath(IndexPath(pref_at, i), "preference"), p->field) +
          ": " + p->problem);
    }
  }
  return errors;
}

schedref::Status ValidateNodeAffinityArgs(const NodeAffinityArgs& args) {
  return FieldErrors(NodeAffinityArgsErrors(args));
}

}  // namespace schedref::api::pluginargs
