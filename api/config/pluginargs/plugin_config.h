// The args of one pluginConfig entry, as upstream's configuration loader
// treats them before any framework is built.
//
// Specification: staging/src/k8s.io/kube-scheduler/config/v1/types.go
// (PluginConfig.decodeNestedObjects: args of a kind the scheme registers,
// "<Name>Args", are decoded strictly whether or not any profile enables
// the plugin) and pkg/scheduler/apis/config/validation/validation.go
// (validatePluginConfig: the args of the plugins in its table are
// validated there, with field paths from the configuration's root), v1.32.
//
// The kinds modelled are those of the in-tree plugins schedref implements:
// DefaultPreemption, InterPodAffinity, NodeAffinity,
// NodeResourcesBalancedAllocation, NodeResourcesFit, PodTopologySpread.
// Note: VolumeBindingArgs and DynamicResourcesArgs are not modelled (nor
// are their plugins); their entries are accepted as written
// (docs/deviations.md "Plugin args").
#ifndef SCHEDREF_API_PLUGINARGS_PLUGIN_CONFIG_H_
#define SCHEDREF_API_PLUGINARGS_PLUGIN_CONFIG_H_

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/status.h"

namespace schedref::api::pluginargs {

// True iff `plugin`'s args have a kind ("<plugin>Args") modelled here.
bool HasArgsKind(std::string_view plugin);

// decodeNestedObjects for one entry: Ok when `plugin` has no modelled kind
// (an out-of-tree plugin decodes its own args). Otherwise apiVersion, when
// set, must be kubescheduler.config.k8s.io/v1 and kind, when set, must be
// "<plugin>Args"; then the args are decoded strictly. Errors (Invalid):
//   "args for plugin NodeResourcesFit were not of type
//    NodeResourcesFitArgs.kubescheduler.config.k8s.io, got
//    InterPodAffinityArgs.kubescheduler.config.k8s.io"
//   "decoding args for plugin InterPodAffinity: strict decoding error:
//    unknown field \"hardPodAffinityWeigth\""
[[nodiscard]] schedref::Status DecodeNestedArgs(std::string_view plugin,
                                                const nlohmann::json& args);

// validatePluginConfig's validation of one entry's args, each field error
// with `path` in front ("profiles[0].pluginConfig[1].args"): for the
// plugins in upstream's table (DefaultPreemption, InterPodAffinity,
// NodeAffinity, NodeResourcesBalancedAllocation, PodTopologySpread).
// NodeResourcesFit is absent from it (upstream keys it by the misspelt
// "NodeResourcesFitArgs"), so its args are validated only when a framework
// builds the plugin, with paths relative to the args.
// REQUIRES: DecodeNestedArgs(plugin, args).ok().
std::vector<std::string> ValidateNestedArgs(std::string_view plugin,
                                            const nlohmann::json& args,
                                            const std::string& path);

}  // namespace schedref::api::pluginargs

#endif  // SCHEDREF_API_PLUGINARGS_PLUGIN_CONFIG_H_
