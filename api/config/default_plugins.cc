#include "api/config/default_plugins.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace schedref::api {
namespace {

PluginSet MergePluginSet(const PluginSet& defaults, const PluginSet& custom) {
  PluginSet out;
  std::set<std::string> disabled;
  // Only names: a weight on a disabled entry means nothing.
  for (const PluginRef& p : custom.disabled) {
    out.disabled.push_back({p.name, 0});
    disabled.insert(p.name);
  }
  for (const PluginRef& p : defaults.disabled) {
    out.disabled.push_back({p.name, 0});
    disabled.insert(p.name);
  }

  // Name -> index of its last entry in custom.enabled: the entry that
  // replaces a default of the same name.
  std::map<std::string, size_t> custom_index;
  for (size_t i = 0; i < custom.enabled.size(); ++i) {
    custom_index[custom.enabled[i].name] = i;
  }
  std::set<size_t> replaced;
  if (!disabled.contains("*")) {
    for (const PluginRef& p : defaults.enabled) {
      if (disabled.contains(p.name)) continue;
      const auto it = custom_index.find(p.name);
      if (it == custom_index.end()) {
        out.enabled.push_back(p);
      } else {
        // In place, so that the default order survives re-configuration.
        out.enabled.push_back(custom.enabled[it->second]);
        replaced.insert(it->second);
      }
    }
  }
  for (size_t i = 0; i < custom.enabled.size(); ++i) {
    if (!replaced.contains(i)) out.enabled.push_back(custom.enabled[i]);
  }
  return out;
}

}  // namespace

Plugins DefaultPlugins() {
  Plugins plugins;
  plugins.multi_point.enabled = {
      {"SchedulingGates", 0},
      {"PrioritySort", 0},
      {"NodeUnschedulable", 0},
      {"NodeName", 0},
      {"TaintToleration", 3},
      {"NodeAffinity", 2},
      {"NodePorts", 0},
      {"NodeResourcesFit", 1},
      {"VolumeRestrictions", 0},
      {"NodeVolumeLimits", 0},
      {"VolumeBinding", 0},
      {"VolumeZone", 0},
      {"PodTopologySpread", 2},
      {"InterPodAffinity", 2},
      // Note: DynamicResources comes here upstream when its gate is on.
      {"DefaultPreemption", 0},
      {"NodeResourcesBalancedAllocation", 1},
      {"ImageLocality", 1},
      {"DefaultBinder", 0},
  };
  return plugins;
}

Plugins MergePlugins(const Plugins& defaults,
                     const std::optional<Plugins>& custom) {
  if (!custom.has_value()) return defaults;
  Plugins out;
  out.multi_point = MergePluginSet(defaults.multi_point, custom->multi_point);
  out.pre_enqueue = MergePluginSet(defaults.pre_enqueue, custom->pre_enqueue);
  out.queue_sort = MergePluginSet(defaults.queue_sort, custom->queue_sort);
  out.pre_filter = MergePluginSet(defaults.pre_filter, custom->pre_filter);
  out.filter = MergePluginSet(defaults.filter, custom->filter);
  out.post_filter = MergePluginSet(defaults.post_filter, custom->post_filter);
  out.pre_score = MergePluginSet(defaults.pre_score, custom->pre_score);
  out.score = MergePluginSet(defaults.score, custom->score);
  out.reserve = MergePluginSet(defaults.reserve, custom->reserve);
  out.permit = MergePluginSet(defaults.permit, custom->permit);
  out.pre_bind = MergePluginSet(defaults.pre_bind, custom->pre_bind);
  out.bind = MergePluginSet(defaults.bind, custom->bind);
  out.post_bind = MergePluginSet(defaults.post_bind, custom->post_bind);
  return out;
}

Plugins EffectivePlugins(const Profile& profile) {
  return MergePlugins(DefaultPlugins(), profile.plugins);
}

}  // namespace schedref::api
