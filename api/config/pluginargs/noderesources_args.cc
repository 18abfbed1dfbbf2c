#include "api/config/pluginargs/noderesources_args.h"

#include <set>
#include <utility>

#include "api/config/pluginargs/json_args.h"
#include "api/types/labels.h"

namespace schedref::api::pluginargs {
namespace {

StatusOr<std::vector<ResourceSpec>> DecodeResources(const nlohmann::json& j,
                                                    const std::string& path) {
  SCHEDREF_RETURN_IF_ERROR(CheckArray(j, path));
  std::vector<ResourceSpec> out;
  if (j.is_null()) return out;
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string at = IndexPath(path, i);
    SCHEDREF_RETURN_IF_ERROR(CheckObject(j[i], at, {"name", "weight"}));
    ResourceSpec spec;
    if (Has(j[i], "name")) {
      auto name = ReadString(j[i]["name"], FieldPath(at, "name"));
      if (!name.ok()) return name.status();
      spec.name = *name;
    }
    if (Has(j[i], "weight")) {
      auto w = ReadInt(j[i]["weight"], FieldPath(at, "weight"),
                               INT64_MIN, INT64_MAX);
      if (!w.ok()) return w.status();
      spec.weight = *w;
    }
    out.push_back(std::move(spec));
  }
  return out;
}

StatusOr<std::vector<UtilizationShapePoint>> DecodeShape(
    const nlohmann::json& j, const std::string& path) {
  SCHEDREF_RETURN_IF_ERROR(CheckArray(j, path));
  std::vector<UtilizationShapePoint> out;
  if (j.is_null()) return out;
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string at = IndexPath(path, i);
    SCHEDREF_RETURN_IF_ERROR(CheckObject(j[i], at, {"utilization", "score"}));
    UtilizationShapePoint p;
    if (Has(j[i], "utilization")) {
      auto u = ReadInt(j[i]["utilization"], FieldPath(at, "utilization"),
                               INT32_MIN, INT32_MAX);
      if (!u.ok()) return u.status();
      p.utilization = static_cast<int32_t>(*u);
    }
    if (Has(j[i], "score")) {
      auto s = ReadInt(j[i]["score"], FieldPath(at, "score"),
                               INT32_MIN, INT32_MAX);
      if (!s.ok()) return s.status();
      p.score = static_cast<int32_t>(*s);
    }
    out.push_back(p);
  }
  return out;
}

void DefaultWeights(std::vector<ResourceSpec>& resources) {
  if (resources.empty()) resources = DefaultResourceSpec();
  for (ResourceSpec& r : resources) {
    if (r.weight == 0) r.weight = 1;
  }
}

void ValidateResourceWeights(const std::vector<ResourceSpec>& resources,
                             const std::string& path,
                             std::vector<std::string>& errors) {
  for (size_t i = 0; i < resources.size(); ++i) {
    const ResourceSpec& r = resources[i];
    if (r.weight <= 0 || r.weight > 100) {
      errors.push_back(FieldInvalid(
          FieldPath(IndexPath(path, i), "weight"), r.weight,
          "resource weight of " + r.name + " not in valid range (0, 100]"));
    }
  }
}

void ValidateFunctionShape(const std::vector<UtilizationShapePoint>& shape,
                           const std::string& path,
                           std::vector<std::string>& errors) {
  if (shape.empty()) {
    errors.push_back(
        FieldRequired(path, "at least one point must be specified"));
    return;
  }
  for (size_t i = 1; i < shape.size(); ++i) {
    if (shape[i - 1].utilization >= shape[i].utilization) {
      errors.push_back(FieldInvalid(
          FieldPath(IndexPath(path, i), "utilization"), shape[i].utilization,
          "utilization values must be sorted in increasing order"));
      break;
    }
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    const UtilizationShapePoint& p = shape[i];
    if (p.utilization < 0 || p.utilization > 100) {
      errors.push_back(FieldInvalid(FieldPath(IndexPath(path, i), "utilization"),
                                    p.utilization, "not in valid range [0, 100]"));
    }
    if (p.score < 0 || p.score > kMaxCustomPriorityScore) {
      errors.push_back(FieldInvalid(FieldPath(IndexPath(path, i), "score"),
                                    p.score, "not in valid range [0, 10]"));
    }
  }
}

}  // namespace

std::vector<ResourceSpec> DefaultResourceSpec() {
  return {{"cpu", 1}, {"memory", 1}};
}

void SetDefaults(NodeResourcesFitArgs& args) {
  if (!args.scoring_strategy) {
    args.scoring_strategy = ScoringStrategy{kLeastAllocated,
                                            DefaultResourceSpec(), std::nullopt};
  }
  DefaultWeights(args.scoring_strategy->resources);
}

void SetDefaults(NodeResourcesBalancedAllocationArgs& args) {
  DefaultWeights(args.resources);
}

std::vector<std::string> NodeResourcesFitArgsErrors(const NodeResourcesFitArgs& args) {
  std::vector<std::string> errors;
  for (size_t i = 0; i < args.ignored_resources.size(); ++i) {
    const std::string& res = args.ignored_resources[i];
    // metav1validation.ValidateLabelName: one error per problem.
    for (const std::string& p : QualifiedNameErrors(res)) {
      errors.push_back(FieldInvalid(IndexPath("ignoredResources", i), res, p));
    }
  }
  for (size_t i = 0; i < args.ignored_resource_groups.size(); ++i) {
    const std::string& group = args.ignored_resource_groups[i];
    const std::string at = IndexPath("ignoredResourceGroups", i);
    if (group.find('/') != std::string::npos) {
      errors.push_back(
          FieldInvalid(at, group, "resource group name can't contain '/'"));
    }
    for (const std::string& p : QualifiedNameErrors(group)) {
      errors.push_back(FieldInvalid(at, group, p));
    }
  }
  if (args.scoring_strategy) {
    const ScoringStrategy& s = *args.scoring_strategy;
    const std::string type = s.type;
    if (type != kLeastAllocated && type != kMostAllocated &&
        type != kRequestedToCapacityRatio) {
      errors.push_back(FieldNotSupported(
          "scoringStrategy.type", type,
          {kLeastAllocated, kMostAllocated, kRequestedToCapacityRatio}));
    }
    ValidateResourceWeights(s.resources, "scoringStrategy.resources", errors);
    // Upstream reports shape errors under "scoringStrategy.shape".
    if (s.shape) {
      ValidateFunctionShape(*s.shape, "scoringStrategy.shape", errors);
    } else if (type == kRequestedToCapacityRatio) {
      ValidateFunctionShape({}, "scoringStrategy.shape", errors);
    }
  }
  return errors;
}

schedref::Status Validate(const NodeResourcesFitArgs& args) {
  return FieldErrors(NodeResourcesFitArgsErrors(args));
}

std::vector<std::string> NodeResourcesBalancedAllocationArgsErrors(const NodeResourcesBalancedAllocationArgs& args) {
  std::vector<std::string> errors;
  std::set<std::string> seen;
  for (size_t i = 0; i < args.resources.size(); ++i) {
    const ResourceSpec& r = args.resources[i];
    const std::string at = IndexPath("resources", i);
    if (!seen.insert(r.name).second) {
      errors.push_back(FieldDuplicate(FieldPath(at, "name"), r.name));
    }
    if (r.weight != 1) {
      errors.push_back(FieldInvalid(FieldPath(at, "weight"), r.weight,
                                    "must be 1"));
    }
  }
  return errors;
}

schedref::Status Validate(const NodeResourcesBalancedAllocationArgs& args) {
  return FieldErrors(NodeResourcesBalancedAllocationArgsErrors(args));
}

StatusOr<NodeResourcesFitArgs> DecodeNodeResourcesFitArgs(
    const nlohmann::json& args) {
  StatusOr<NodeResourcesFitArgs> out = ParseNodeResourcesFitArgs(args);
  if (!out.ok()) return out;
  SCHEDREF_RETURN_IF_ERROR(Validate(*out));
  return out;
}

StatusOr<NodeResourcesBalancedAllocationArgs>
DecodeNodeResourcesBalancedAllocationArgs(const nlohmann::json& args) {
  StatusOr<NodeResourcesBalancedAllocationArgs> out =
      ParseNodeResourcesBalancedAllocationArgs(args);
  if (!out.ok()) return out;
  SCHEDREF_RETURN_IF_ERROR(Validate(*out));
  return out;
}

StatusOr<NodeResourcesFitArgs> ParseNodeResourcesFitArgs(
    const nlohmann::json& args) {
  SCHEDREF_RETURN_IF_ERROR(CheckObject(
      args, "", {"apiVersion", "kind", "ignoredResources",
                 "ignoredResourceGroups", "scoringStrategy"}));
  NodeResourcesFitArgs out;
  if (Has(args, "ignoredResources")) {
    auto v = ReadStringList(args["ignoredResources"], "ignoredResources");
    if (!v.ok()) return v.status();
    out.ignored_resources = *v;
  }
  if (Has(args, "ignoredResourceGroups")) {
    auto v = ReadStringList(args["ignoredResourceGroups"],
                                    "ignoredResourceGroups");
    if (!v.ok()) return v.status();
    out.ignored_resource_groups = *v;
  }
  if (Has(args, "scoringStrategy")) {
    const nlohmann::json& j = args["scoringStrategy"];
    const std::string path = "scoringStrategy";
    SCHEDREF_RETURN_IF_ERROR(CheckObject(
        j, path, {"type", "resources", "requestedToCapacityRatio"}));
    ScoringStrategy s;
    if (Has(j, "type")) {
      auto t = ReadString(j["type"], FieldPath(path, "type"));
      if (!t.ok()) return t.status();
      s.type = *t;
    }
    if (Has(j, "resources")) {
      auto r = DecodeResources(j["resources"], FieldPath(path, "resources"));
      if (!r.ok()) return r.status();
      s.resources = *r;
    }
    if (Has(j, "requestedToCapacityRatio")) {
      const nlohmann::json& rtc = j["requestedToCapacityRatio"];
      const std::string rtc_path = FieldPath(path, "requestedToCapacityRatio");
      SCHEDREF_RETURN_IF_ERROR(CheckObject(rtc, rtc_path, {"shape"}));
      std::vector<UtilizationShapePoint> shape;
      if (Has(rtc, "shape")) {
        auto sh = DecodeShape(rtc["shape"], FieldPath(rtc_path, "shape"));
        if (!sh.ok()) return sh.status();
        shape = *sh;
      }
      s.shape = std::move(shape);
    }
    out.scoring_strategy = std::move(s);
  }
  SetDefaults(out);
  return out;
}

StatusOr<NodeResourcesBalancedAllocationArgs>
ParseNodeResourcesBalancedAllocationArgs(const nlohmann::json& args) {
  SCHEDREF_RETURN_IF_ERROR(
      CheckObject(args, "", {"apiVersion", "kind", "resources"}));
  NodeResourcesBalancedAllocationArgs out;
  if (Has(args, "resources")) {
    auto r = DecodeResources(args["resources"], "resources");
    if (!r.ok()) return r.status();
    out.resources = *r;
  }
  SetDefaults(out);
  return out;
}

}  // namespace schedref::api::pluginargs
