// Framework construction (upstream NewFramework) and the queueing hints;
// the extension-point runners are in framework_run.cc.
#include "optimized/framework/framework.h"

#include <algorithm>

#include "api/config/plugin_expansion.h"

namespace schedref::optimized::framework {
namespace {

using api::ExtensionPoint;

template <typename T>
void AddIf(Plugin* p, ExtensionPoint point, api::ExtensionPointSet& set) {
  if (dynamic_cast<T*>(p) != nullptr) set.Add(point);
}

api::ExtensionPointSet Implements(Plugin* p) {
  api::ExtensionPointSet set;
  AddIf<PreEnqueuePlugin>(p, ExtensionPoint::kPreEnqueue, set);
  AddIf<QueueSortPlugin>(p, ExtensionPoint::kQueueSort, set);
  AddIf<PreFilterPlugin>(p, ExtensionPoint::kPreFilter, set);
  AddIf<FilterPlugin>(p, ExtensionPoint::kFilter, set);
  AddIf<PostFilterPlugin>(p, ExtensionPoint::kPostFilter, set);
  AddIf<PreScorePlugin>(p, ExtensionPoint::kPreScore, set);
  AddIf<ScorePlugin>(p, ExtensionPoint::kScore, set);
  AddIf<ReservePlugin>(p, ExtensionPoint::kReserve, set);
  AddIf<PermitPlugin>(p, ExtensionPoint::kPermit, set);
  AddIf<PreBindPlugin>(p, ExtensionPoint::kPreBind, set);
  AddIf<BindPlugin>(p, ExtensionPoint::kBind, set);
  AddIf<PostBindPlugin>(p, ExtensionPoint::kPostBind, set);
  return set;
}

// REQUIRES: every name was instantiated and implements T (ExpandPlugins
// checked it).
template <typename T>
void Place(const api::ExpandedPlugins& expanded, ExtensionPoint point,
           const std::map<std::string, std::unique_ptr<Plugin>>& plugins,
           std::vector<T*>& list) {
  for (const std::string& name : expanded.at(point)) {
    list.push_back(dynamic_cast<T*>(plugins.at(name).get()));
  }
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

  std::map<std::string, const nlohmann::json*> args;
  for (const api::PluginConfig& pc : profile.plugin_config) {
    if (!args.emplace(pc.name, &pc.args).second) {
      return schedref::Status::Invalid("repeated config for plugin " + pc.name);
    }
  }
  // Every plugin named anywhere, instantiated in name order (only errors
  // can observe the order).
  std::set<std::string> needed;
  for (const api::PluginSet* set :
       {&plugins.pre_enqueue, &plugins.queue_sort, &plugins.pre_filter, &plugins.filter,
        &plugins.post_filter, &plugins.pre_score, &plugins.score, &plugins.reserve,
        &plugins.permit, &plugins.pre_bind, &plugins.bind, &plugins.post_bind,
        &plugins.multi_point}) {
    for (const api::PluginRef& ref : set->enabled) needed.insert(ref.name);
  }
  const nlohmann::json no_args = nlohmann::json::object();
  for (const std::string& name : needed) {
    const PluginFactory* factory = registry.Find(name);
    if (factory == nullptr) continue;  // ExpandPlugins reports it
    auto a = args.find(name);
    StatusOr<std::unique_ptr<Plugin>> plugin =
        (*factory)(a == args.end() ? no_args : *a->second, handle);
    if (!plugin.ok()) return plugin.status().WithPrefix("initializing plugin \"" + name + "\"");
    f->plugins_[name] = std::move(plugin).value();
  }

  // Placement, MultiPoint expansion, the queue sort and bind checks and the
  // score weights are configuration rules (api/config/plugin_expansion.h).
  StatusOr<api::ExpandedPlugins> expanded = api::ExpandPlugins(
      plugins, profile.scheduler_name,
      [&f](const std::string& name) -> std::optional<api::ExtensionPointSet> {
        auto it = f->plugins_.find(name);
        if (it == f->plugins_.end()) return std::nullopt;
        return Implements(it->second.get());
      });
  if (!expanded.ok()) return expanded.status();
  Place(*expanded, ExtensionPoint::kPreEnqueue, f->plugins_, f->pre_enqueue_);
  Place(*expanded, ExtensionPoint::kQueueSort, f->plugins_, f->queue_sort_);
  Place(*expanded, ExtensionPoint::kPreFilter, f->plugins_, f->pre_filter_);
  Place(*expanded, ExtensionPoint::kFilter, f->plugins_, f->filter_);
  for (const FilterPlugin* pl : f->filter_) f->filter_names_.push_back(pl->Name());
  for (const PreFilterPlugin* pl : f->pre_filter_) f->pre_filter_names_.push_back(pl->Name());
  Place(*expanded, ExtensionPoint::kPostFilter, f->plugins_, f->post_filter_);
  Place(*expanded, ExtensionPoint::kPreScore, f->plugins_, f->pre_score_);
  Place(*expanded, ExtensionPoint::kScore, f->plugins_, f->score_);
  for (const PreScorePlugin* pl : f->pre_score_) f->pre_score_names_.push_back(pl->Name());
  for (const ScorePlugin* pl : f->score_) f->score_names_.push_back(pl->Name());
  auto slots = [](const std::vector<std::string>& names, const std::vector<std::string>& of) {
    std::vector<int> out;
    for (const std::string& name : names) {
      auto it = std::find(of.begin(), of.end(), name);
      out.push_back(it == of.end() ? -1 : static_cast<int>(it - of.begin()));
    }
    return out;
  };
  f->filter_skip_slot_ = slots(f->filter_names_, f->pre_filter_names_);
  f->score_skip_slot_ = slots(f->score_names_, f->pre_score_names_);
  Place(*expanded, ExtensionPoint::kReserve, f->plugins_, f->reserve_);
  Place(*expanded, ExtensionPoint::kPermit, f->plugins_, f->permit_);
  Place(*expanded, ExtensionPoint::kPreBind, f->plugins_, f->pre_bind_);
  Place(*expanded, ExtensionPoint::kBind, f->plugins_, f->bind_);
  Place(*expanded, ExtensionPoint::kPostBind, f->plugins_, f->post_bind_);
  f->score_weights_ = std::move(expanded->score_weights);
  // Upstream looks a Score plugin's weight up under its own Name().
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

int64_t Framework::ScoreWeight(const std::string& plugin) const {
  auto it = score_weights_.find(plugin);
  return it == score_weights_.end() ? 0 : it->second;
}

namespace {

// upstream buildQueueingHintMap's workaround for kubernetes#109437: a
// plugin that registers Node/Add but not Node/UpdateNodeTaint is also
// registered for Node/UpdateNodeTaint, always Queue, because the node
// pre-check can keep its Node/Add hint from being consulted.
void AddNodeTaintWorkaround(std::vector<ClusterEventWithHint>& events) {
  bool node_added = false, node_taint_updated = false;
  for (const ClusterEventWithHint& e : events) {
    if (e.event.resource != EventResource::kNode) continue;
    node_added = node_added || (e.event.action & kAdd) != 0;
    node_taint_updated =
        node_taint_updated || (e.event.action & kUpdateNodeTaint) != 0;
  }
  if (node_added && !node_taint_updated) {
    events.push_back(ClusterEventWithHint{
        ClusterEvent{EventResource::kNode, kUpdateNodeTaint, ""}, nullptr});
  }
}

}  // namespace

std::map<std::string, std::vector<ClusterEventWithHint>> Framework::QueueingHints() const {
  std::map<std::string, std::vector<ClusterEventWithHint>> hints;
  for (const auto& [name, plugin] : plugins_) {
    Plugin* p = plugin.get();
    // Only plugins that can reject a pod register events (upstream
    // shouldHaveEnqueueExtensions).
    const api::ExtensionPointSet points = Implements(p);
    const bool can_reject = points.Has(ExtensionPoint::kPreEnqueue) ||
                            points.Has(ExtensionPoint::kPreFilter) ||
                            points.Has(ExtensionPoint::kFilter) ||
                            points.Has(ExtensionPoint::kReserve) ||
                            points.Has(ExtensionPoint::kPermit);
    if (!can_reject) continue;
    if (auto* ext = dynamic_cast<EnqueueExtensions*>(p)) {
      hints[name] = ext->EventsToRegister();
      AddNodeTaintWorkaround(hints[name]);
    } else {
      hints[name] = {ClusterEventWithHint{ClusterEvent{EventResource::kWildCard, kAll, ""}, nullptr}};
    }
  }
  return hints;
}

}  // namespace schedref::optimized::framework
