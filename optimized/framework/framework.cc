// Framework construction (upstream NewFramework) and the queueing hints;
// the extension-point runners are in framework_run.cc.
#include "optimized/framework/framework.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace schedref::optimized::framework {
namespace {

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// One extension point: its configured set, upstream's interface name (used
// in errors), and how to recognise and place a plugin there.
struct Point {
  const char* type_name;
  const api::PluginSet* set;
  std::function<bool(Plugin*)> implements;
  std::function<void(Plugin*)> append;
  std::function<void()> clear;
};

template <typename T>
Point MakePoint(const char* type_name, const api::PluginSet& set, std::vector<T*>& list) {
  return Point{type_name, &set, [](Plugin* p) { return dynamic_cast<T*>(p) != nullptr; },
               [&list](Plugin* p) { list.push_back(dynamic_cast<T*>(p)); },
               [&list] { list.clear(); }};
}

// upstream expandMultiPointPlugins for one point: the order after
// expansion, or an error. Explicitly enabled plugins that MultiPoint also
// names keep their explicit position ahead of MultiPoint's; the other
// explicit ones follow.
StatusOr<std::vector<std::string>> ExpandPoint(const Point& p,
                                               const std::vector<api::PluginRef>& multi_point,
                                               const std::function<Plugin*(const std::string&)>& find) {
  std::vector<std::string> enabled;
  for (const api::PluginRef& ref : p.set->enabled) {
    if (!Contains(enabled, ref.name)) enabled.push_back(ref.name);
  }
  std::vector<std::string> disabled;
  for (const api::PluginRef& ref : p.set->disabled) disabled.push_back(ref.name);
  if (Contains(disabled, "*")) return enabled;
  std::vector<std::string> expanded, overrides;
  for (const api::PluginRef& ref : multi_point) {
    Plugin* pl = find(ref.name);
    if (pl == nullptr) {
      return schedref::Status::Invalid(std::string(p.type_name) + " \"" + ref.name +
                                       "\" does not exist");
    }
    if (!p.implements(pl) || Contains(disabled, ref.name)) continue;
    if (Contains(enabled, ref.name)) {
      if (!Contains(overrides, ref.name)) overrides.push_back(ref.name);
      continue;
    }
    if (Contains(expanded, ref.name)) {
      return schedref::Status::Invalid("plugin \"" + ref.name + "\" already registered as \"" +
                                       p.type_name + "\"");
    }
    expanded.push_back(ref.name);
  }
  std::vector<std::string> order;
  for (const std::string& n : enabled) {
    if (Contains(overrides, n)) order.push_back(n);
  }
  order.insert(order.end(), expanded.begin(), expanded.end());
  for (const std::string& n : enabled) {
    if (!Contains(overrides, n)) order.push_back(n);
  }
  return order;
}

}  // namespace

StatusOr<std::unique_ptr<Framework>> Framework::New(const Registry& registry,
                                                    const api::Profile& profile,
                                                    const api::Plugins& plugins,
                                                    Handle* handle) {
  std::unique_ptr<Framework> f(new Framework());
  f->profile_name_ = profile.scheduler_name;
  f->percentage_ = profile.percentage_of_nodes_to_score;
  f->handle_ = handle;

  // Upstream getExtensionPoints order: it decides which error comes first.
  std::vector<Point> points = {
      MakePoint("PreFilterPlugin", plugins.pre_filter, f->pre_filter_),
      MakePoint("FilterPlugin", plugins.filter, f->filter_),
      MakePoint("PostFilterPlugin", plugins.post_filter, f->post_filter_),
      MakePoint("ReservePlugin", plugins.reserve, f->reserve_),
      MakePoint("PreScorePlugin", plugins.pre_score, f->pre_score_),
      MakePoint("ScorePlugin", plugins.score, f->score_),
      MakePoint("PreBindPlugin", plugins.pre_bind, f->pre_bind_),
      MakePoint("BindPlugin", plugins.bind, f->bind_),
      MakePoint("PostBindPlugin", plugins.post_bind, f->post_bind_),
      MakePoint("PermitPlugin", plugins.permit, f->permit_),
      MakePoint("PreEnqueuePlugin", plugins.pre_enqueue, f->pre_enqueue_),
      MakePoint("QueueSortPlugin", plugins.queue_sort, f->queue_sort_),
  };

  std::map<std::string, const nlohmann::json*> args;
  for (const api::PluginConfig& pc : profile.plugin_config) {
    if (!args.emplace(pc.name, &pc.args).second) {
      return schedref::Status::Invalid("repeated config for plugin " + pc.name);
    }
  }

  // Every plugin named anywhere, instantiated in name order.
  std::set<std::string> needed;
  for (const Point& p : points) {
    for (const api::PluginRef& ref : p.set->enabled) needed.insert(ref.name);
  }
  for (const api::PluginRef& ref : plugins.multi_point.enabled) needed.insert(ref.name);
  const nlohmann::json no_args = nlohmann::json::object();
  for (const std::string& name : needed) {
    const PluginFactory* factory = registry.Find(name);
    if (factory == nullptr) continue;  // reported below as "does not exist"
    auto a = args.find(name);
    StatusOr<std::unique_ptr<Plugin>> plugin =
        (*factory)(a == args.end() ? no_args : *a->second, handle);
    if (!plugin.ok()) {
      return plugin.status().WithPrefix("initializing plugin \"" + name + "\"");
    }
    f->plugins_[name] = std::move(plugin).value();
  }
  auto find = [&f](const std::string& name) -> Plugin* {
    auto it = f->plugins_.find(name);
    return it == f->plugins_.end() ? nullptr : it->second.get();
  };

  // The explicit lists.
  for (Point& p : points) {
    std::set<std::string> seen;
    for (const api::PluginRef& ref : p.set->enabled) {
      Plugin* pl = find(ref.name);
      if (pl == nullptr) {
        return schedref::Status::Invalid(std::string(p.type_name) + " \"" + ref.name +
                                         "\" does not exist");
      }
      if (!p.implements(pl)) {
        return schedref::Status::Invalid("plugin \"" + ref.name + "\" does not extend " +
                                         p.type_name + " plugin");
      }
      if (!seen.insert(ref.name).second) {
        return schedref::Status::Invalid("plugin \"" + ref.name + "\" already registered as \"" +
                                         p.type_name + "\"");
      }
      p.append(pl);
    }
  }
  if (!plugins.multi_point.enabled.empty()) {
    for (Point& p : points) {
      StatusOr<std::vector<std::string>> order =
          ExpandPoint(p, plugins.multi_point.enabled, find);
      if (!order.ok()) return order.status();
      p.clear();
      for (const std::string& name : *order) p.append(find(name));
    }
  }
  if (f->queue_sort_.size() != 1) {
    return schedref::Status::Invalid(
        "only one queue sort plugin required for profile with scheduler name \"" +
        profile.scheduler_name + "\", but got " + std::to_string(f->queue_sort_.size()));
  }
  if (f->bind_.empty()) {
    return schedref::Status::Invalid(
        "at least one bind plugin is needed for profile with scheduler name \"" +
        profile.scheduler_name + "\"");
  }
  // Score weights: the Score list's weight wins over MultiPoint's; 0 means 1.
  std::vector<api::PluginRef> weighted = plugins.score.enabled;
  weighted.insert(weighted.end(), plugins.multi_point.enabled.begin(),
                  plugins.multi_point.enabled.end());
  int64_t total = 0;
  for (const api::PluginRef& ref : weighted) {
    Plugin* pl = find(ref.name);
    if (pl == nullptr || dynamic_cast<ScorePlugin*>(pl) == nullptr ||
        f->score_weights_.contains(ref.name)) {
      continue;
    }
    const int64_t weight = ref.weight == 0 ? 1 : ref.weight;
    f->score_weights_[ref.name] = weight;
    if (weight * kMaxNodeScore > std::numeric_limits<int64_t>::max() - total) {
      return schedref::Status::Invalid("total score of Score plugins could overflow");
    }
    total += weight * kMaxNodeScore;
  }
  for (ScorePlugin* p : f->score_) {
    const int64_t weight = f->ScoreWeight(p->Name());
    if (weight == 0) {
      return schedref::Status::Invalid("score plugin \"" + p->Name() +
                                       "\" is not configured with weight");
    }
    f->score_weight_.push_back(weight);
  }
  return f;
}

}  // namespace schedref::optimized::framework

namespace schedref::optimized::framework {

int64_t Framework::ScoreWeight(const std::string& plugin) const {
  auto it = score_weights_.find(plugin);
  return it == score_weights_.end() ? 0 : it->second;
}

std::map<std::string, std::vector<ClusterEventWithHint>> Framework::QueueingHints() const {
  std::map<std::string, std::vector<ClusterEventWithHint>> hints;
  for (const auto& [name, plugin] : plugins_) {
    Plugin* p = plugin.get();
    // Only plugins that can reject a pod register events (upstream
    // shouldHaveEnqueueExtensions).
    const bool can_reject =
        dynamic_cast<PreEnqueuePlugin*>(p) != nullptr || dynamic_cast<PreFilterPlugin*>(p) != nullptr ||
        dynamic_cast<FilterPlugin*>(p) != nullptr || dynamic_cast<ReservePlugin*>(p) != nullptr ||
        dynamic_cast<PermitPlugin*>(p) != nullptr;
    if (!can_reject) continue;
    if (auto* ext = dynamic_cast<EnqueueExtensions*>(p)) {
      hints[name] = ext->EventsToRegister();
    } else {
      hints[name] = {ClusterEventWithHint{ClusterEvent{EventResource::kWildCard, kAll, ""}, nullptr}};
    }
  }
  return hints;
}

}  // namespace schedref::optimized::framework
