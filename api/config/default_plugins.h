// The default plugins of kubescheduler.config.k8s.io/v1 and how a profile's
// plugins are merged into them. Specification:
// pkg/scheduler/apis/config/v1/default_plugins.go (getDefaultPlugins,
// mergePlugins, mergePluginSet) as of v1.31-v1.32.
//
// Upstream's defaults are a single MultiPoint list; the framework expands it
// to the extension points each plugin implements. A profile's own `plugins`
// are merged into that list point by point:
//   - a default named in the profile's `disabled` list is dropped, and
//     disabled "*" drops every default of that point;
//   - a default named in the profile's `enabled` list keeps its default
//     position but takes the profile's entry (so its weight); if the name is
//     enabled twice, the last entry replaces the default and the others are
//     appended;
//   - every other enabled entry is appended, in the profile's order;
//   - the result's `disabled` list is the profile's (names only, weights
//     dropped) followed by the defaults' own, so that MultiPoint expansion
//     can see what was disabled explicitly.
// Duplicates are not detected here; the framework rejects them when it is
// built, as upstream's does.
#ifndef SCHEDREF_API_DEFAULT_PLUGINS_H_
#define SCHEDREF_API_DEFAULT_PLUGINS_H_

#include <array>
#include <optional>
#include <string_view>

#include "api/config/config.h"

namespace schedref::api {

// Note: upstream's v1.32 default MultiPoint list also holds
// DynamicResources when the DynamicResourceAllocation gate is on; it is off
// by default in v1.32, and this project does not implement the plugin
// (docs/deviations.md). Listed here so that the omission can be cited and
// tested.
inline constexpr std::array<std::string_view, 1> kOmittedDefaultPlugins = {"DynamicResources"};

// Upstream's v1.32 defaults minus kOmittedDefaultPlugins, all in
// multi_point, in this order (score weights in brackets):
//   SchedulingGates, PrioritySort, NodeUnschedulable, NodeName,
//   TaintToleration [3], NodeAffinity [2], NodePorts, NodeResourcesFit [1],
//   VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone,
//   PodTopologySpread [2],
//   InterPodAffinity [2], DefaultPreemption,
//   NodeResourcesBalancedAllocation [1], ImageLocality [1], DefaultBinder.
[[nodiscard]] Plugins DefaultPlugins();

// Upstream's mergePlugins: `defaults` when `custom` is absent, otherwise
// every extension point (and multi_point) merged as described above.
[[nodiscard]] Plugins MergePlugins(const Plugins& defaults,
                                   const std::optional<Plugins>& custom);

// The plugin configuration a profile runs with before MultiPoint expansion:
// MergePlugins(DefaultPlugins(), profile.plugins).
[[nodiscard]] Plugins EffectivePlugins(const Profile& profile);

}  // namespace schedref::api

#endif  // SCHEDREF_API_DEFAULT_PLUGINS_H_
