#include "api/config/pluginargs/plugin_config.h"

#include <string>
#include <utility>

#include "api/config/pluginargs/defaultpreemption_args.h"
#include "api/config/pluginargs/interpodaffinity_args.h"
#include "api/config/pluginargs/json_args.h"
#include "api/config/pluginargs/nodeaffinity_args.h"
#include "api/config/pluginargs/noderesources_args.h"
#include "api/config/pluginargs/podtopologyspread_args.h"
#include "api/config/pluginargs/volumebinding_args.h"

namespace schedref::api::pluginargs {
namespace {

constexpr char kGroup[] = "kubescheduler.config.k8s.io";
constexpr char kGroupVersion[] = "kubescheduler.config.k8s.io/v1";

// Strict decoding of one kind's args, then (when `validated`) its field
// errors: Parse, then Errors, instantiated per args type.
using DecodeFn = StatusOr<std::vector<std::string>> (*)(const nlohmann::json&,
                                                        bool validated);

template <typename Args, StatusOr<Args> (*Parse)(const nlohmann::json&),
          std::vector<std::string> (*Errors)(const Args&)>
StatusOr<std::vector<std::string>> DecodeAs(const nlohmann::json& args,
                                            bool validated) {
  StatusOr<Args> parsed = Parse(args);
  if (!parsed.ok()) return parsed.status();
  if (!validated || Errors == nullptr) return std::vector<std::string>{};
  return Errors(*parsed);
}

struct ArgsKind {
  std::string_view plugin;
  DecodeFn decode;
};

// The modelled kinds. NodeResourcesFit has no Errors here: upstream's
// validatePluginConfig never validates it (see the header).
constexpr ArgsKind kArgsKinds[] = {
    {"DefaultPreemption",
     DecodeAs<DefaultPreemptionArgs, ParseDefaultPreemptionArgs,
              DefaultPreemptionArgsErrors>},
    {"InterPodAffinity",
     DecodeAs<InterPodAffinityArgs, ParseInterPodAffinityArgs,
              InterPodAffinityArgsErrors>},
    {"NodeAffinity",
     DecodeAs<NodeAffinityArgs, ParseNodeAffinityArgs, NodeAffinityArgsErrors>},
    {"NodeResourcesBalancedAllocation",
     DecodeAs<NodeResourcesBalancedAllocationArgs,
              ParseNodeResourcesBalancedAllocationArgs,
              NodeResourcesBalancedAllocationArgsErrors>},
    {"NodeResourcesFit",
     DecodeAs<NodeResourcesFitArgs, ParseNodeResourcesFitArgs, nullptr>},
    {"PodTopologySpread",
     DecodeAs<PodTopologySpreadArgs, ParsePodTopologySpreadArgs,
              PodTopologySpreadArgsErrors>},
    {"VolumeBinding",
     DecodeAs<VolumeBindingArgs, ParseVolumeBindingArgs, VolumeBindingArgsErrors>},
};

// `plugin`'s kind; nullptr when it has none modelled.
const ArgsKind* FindKind(std::string_view plugin) {
  for (const ArgsKind& k : kArgsKinds) {
    if (k.plugin == plugin) return &k;
  }
  return nullptr;
}

// Go's schema.GroupKind String(): "Kind.group".
std::string GroupKind(const std::string& kind) {
  return kind + "." + kGroup;
}

}  // namespace

bool HasArgsKind(std::string_view plugin) { return FindKind(plugin) != nullptr; }

schedref::Status DecodeNestedArgs(std::string_view plugin,
                                  const nlohmann::json& args) {
  const ArgsKind* own = FindKind(plugin);
  if (own == nullptr) return schedref::Status::Ok();
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
  return own->decode(args, false).status().WithPrefix(context);
}

std::vector<std::string> ValidateNestedArgs(std::string_view plugin,
                                            const nlohmann::json& args,
                                            const std::string& path) {
  const ArgsKind* own = FindKind(plugin);
  if (own == nullptr) return {};
  StatusOr<std::vector<std::string>> errors = own->decode(args, true);
  if (!errors.ok()) return {};
  for (std::string& e : *errors) e = path + "." + e;
  return std::move(errors).value();
}

}  // namespace schedref::api::pluginargs
