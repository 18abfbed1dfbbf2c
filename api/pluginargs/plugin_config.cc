#include "api/pluginargs/plugin_config.h"

#include <string>
#include <utility>

#include "api/pluginargs/defaultpreemption_args.h"
#include "api/pluginargs/interpodaffinity_args.h"
#include "api/pluginargs/json_args.h"
#include "api/pluginargs/nodeaffinity_args.h"
#include "api/pluginargs/noderesources_args.h"
#include "api/pluginargs/podtopologyspread_args.h"

namespace schedref::api::pluginargs {
namespace {

constexpr char kGroup[] = "kubescheduler.config.k8s.io";
constexpr char kGroupVersion[] = "kubescheduler.config.k8s.io/v1";

// Decodes and defaults with Parse, then lists Errors, for one args type.
template <typename Args>
StatusOr<std::vector<std::string>> ParseAndList(
    StatusOr<Args> (*parse)(const nlohmann::json&),
    std::vector<std::string> (*errors)(const Args&),
    const nlohmann::json& args) {
  StatusOr<Args> parsed = parse(args);
  if (!parsed.ok()) return parsed.status();
  if (errors == nullptr) return std::vector<std::string>{};
  return errors(*parsed);
}

// Strict decoding (and, where `validated`, the field errors) of `plugin`'s
// args; NotFound when the plugin has no modelled kind.
StatusOr<std::vector<std::string>> DecodeAndList(std::string_view plugin,
                                                 const nlohmann::json& args,
                                                 bool validated) {
  if (plugin == "DefaultPreemption") {
    return ParseAndList<DefaultPreemptionArgs>(
        ParseDefaultPreemptionArgs,
        validated ? DefaultPreemptionArgsErrors : nullptr, args);
  }
  if (plugin == "InterPodAffinity") {
    return ParseAndList<InterPodAffinityArgs>(
        ParseInterPodAffinityArgs,
        validated ? InterPodAffinityArgsErrors : nullptr, args);
  }
  if (plugin == "NodeAffinity") {
    return ParseAndList<NodeAffinityArgs>(
        ParseNodeAffinityArgs, validated ? NodeAffinityArgsErrors : nullptr,
        args);
  }
  if (plugin == "NodeResourcesBalancedAllocation") {
    return ParseAndList<NodeResourcesBalancedAllocationArgs>(
        ParseNodeResourcesBalancedAllocationArgs,
        validated ? NodeResourcesBalancedAllocationArgsErrors : nullptr, args);
  }
  if (plugin == "NodeResourcesFit") {
    // Never validated here (see the header).
    return ParseAndList<NodeResourcesFitArgs>(ParseNodeResourcesFitArgs,
                                              nullptr, args);
  }
  if (plugin == "PodTopologySpread") {
    return ParseAndList<PodTopologySpreadArgs>(
        ParsePodTopologySpreadArgs,
        validated ? PodTopologySpreadArgsErrors : nullptr, args);
  }
  return schedref::Status::NotFound("no args kind");
}

// Go's schema.GroupKind String(): "Kind.group".
std::string GroupKind(const std::string& kind) {
  return kind + "." + kGroup;
}

}  // namespace

bool HasArgsKind(std::string_view plugin) {
  return !DecodeAndList(plugin, nlohmann::json::object(), false)
              .status()
              .IsNotFound();
}

schedref::Status DecodeNestedArgs(std::string_view plugin,
                                  const nlohmann::json& args) {
  if (!HasArgsKind(plugin)) return schedref::Status::Ok();
  const std::string name(plugin);
  const std::string want = name + "Args";
  const std::string context = "decoding args for plugin " + name;
  if (args.is_object()) {
    // A missing apiVersion or kind is the plugin's own.
    std::string group_version = kGroupVersion;
    std::string kind = want;
    for (auto [key, slot] : {std::pair{"apiVersion", &group_version},
                             std::pair{"kind", &kind}}) {
      if (!Has(args, key)) continue;
      StatusOr<std::string> v = ReadString(args[key], key);
      if (!v.ok()) return v.status().WithPrefix(context);
      *slot = *v;
    }
    // Only v1 is registered (v1beta3 went in v1.29), each args kind under
    // its plugin's name.
    const bool registered =
        group_version == kGroupVersion && kind.ends_with("Args") &&
        HasArgsKind(std::string_view(kind).substr(0, kind.size() - 4));
    if (!registered) {
      return schedref::Status::Invalid(context + ": no kind \"" + kind +
                                       "\" is registered for version \"" +
                                       group_version + "\"");
    }
    if (kind != want) {
      return schedref::Status::Invalid("args for plugin " + name +
                                       " were not of type " + GroupKind(want) +
                                       ", got " + GroupKind(kind));
    }
  }
  return DecodeAndList(plugin, args, false).status().WithPrefix(context);
}

std::vector<std::string> ValidateNestedArgs(std::string_view plugin,
                                            const nlohmann::json& args,
                                            const std::string& path) {
  StatusOr<std::vector<std::string>> errors = DecodeAndList(plugin, args, true);
  if (!errors.ok()) return {};
  for (std::string& e : *errors) e = path + "." + e;
  return std::move(errors).value();
}

}  // namespace schedref::api::pluginargs
