#include "reference/framework/framework.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "api/config/plugin_expansion.h"
#include "api/gocompat/go_duration.h"

namespace schedref::reference::framework {
namespace {

// Permit waits are capped (upstream framework.go maxTimeout).
constexpr int64_t kMaxPermitTimeoutMs = 15 * 60 * 1000;

template <typename T>
void AddIfImplements(Plugin* p, api::ExtensionPoint point,
                     api::ExtensionPointSet& set) {
  if (dynamic_cast<T*>(p) != nullptr) set.Add(point);
}

// The extension points `p` implements, found by dynamic_cast as upstream
// finds them by type assertion.
api::ExtensionPointSet Implements(Plugin* p) {
  using api::ExtensionPoint;
  api::ExtensionPointSet set;
  AddIfImplements<PreEnqueuePlugin>(p, ExtensionPoint::kPreEnqueue, set);
  AddIfImplements<QueueSortPlugin>(p, ExtensionPoint::kQueueSort, set);
  AddIfImplements<PreFilterPlugin>(p, ExtensionPoint::kPreFilter, set);
  AddIfImplements<FilterPlugin>(p, ExtensionPoint::kFilter, set);
  AddIfImplements<PostFilterPlugin>(p, ExtensionPoint::kPostFilter, set);
  AddIfImplements<PreScorePlugin>(p, ExtensionPoint::kPreScore, set);
  AddIfImplements<ScorePlugin>(p, ExtensionPoint::kScore, set);
  AddIfImplements<ReservePlugin>(p, ExtensionPoint::kReserve, set);
  AddIfImplements<PermitPlugin>(p, ExtensionPoint::kPermit, set);
  AddIfImplements<PreBindPlugin>(p, ExtensionPoint::kPreBind, set);
  AddIfImplements<BindPlugin>(p, ExtensionPoint::kBind, set);
  AddIfImplements<PostBindPlugin>(p, ExtensionPoint::kPostBind, set);
  return set;
}

// Fills `list` with the named plugins, each cast to the point's interface.
// REQUIRES: every name is in `plugins` and implements T (ExpandPlugins
// checked it).
template <typename T>
void Place(const std::vector<std::string>& names,
           const std::map<std::string, std::unique_ptr<Plugin>>& plugins,
           std::vector<T*>& list) {
  for (const std::string& name : names) {
    list.push_back(dynamic_cast<T*>(plugins.at(name).get()));
  }
}

// A PreFilter plugin's result as full-detail traces write it.
std::string PreFilterVerdict(const PreFilterOutput& out) {
  if (out.status.IsSkip()) return "Skip";
  if (!out.status.IsSuccess()) {
    return std::string(CodeName(out.status.code())) + ": " + out.status.Message();
  }
  if (!out.result.has_value()) return "Success";
  std::string nodes;
  for (const std::string& n : *out.result) nodes += (nodes.empty() ? "" : ", ") + n;
  return "Success: nodes " + (nodes.empty() ? std::string("(none)") : nodes);
}

}  // namespace

StatusOr<std::unique_ptr<Framework>> Framework::New(
    const Registry& registry, const api::Profile& profile,
    const api::Plugins& plugins, Handle* handle) {
  std::unique_ptr<Framework> f(new Framework());
  f->profile_name_ = profile.scheduler_name;
  f->percentage_of_nodes_to_score_ = profile.percentage_of_nodes_to_score;
  f->handle_ = handle;

  // Plugin args by name; a repeated name is an error.
  std::map<std::string, nlohmann::json> args;
  for (const api::PluginConfig& pc : profile.plugin_config) {
    if (args.count(pc.name) != 0) {
      return schedref::Status::Invalid("repeated config for plugin " +
                                       pc.name);
    }
    args[pc.name] = pc.args;
  }

  // Instantiate every plugin named anywhere, in name order (upstream walks
  // the registry map; the order is unobservable except through errors).
  std::set<std::string> needed;
  for (const api::PluginSet* set :
       {&plugins.pre_enqueue, &plugins.queue_sort, &plugins.pre_filter,
        &plugins.filter, &plugins.post_filter, &plugins.pre_score,
        &plugins.score, &plugins.reserve, &plugins.permit, &plugins.pre_bind,
        &plugins.bind, &plugins.post_bind}) {
    for (const api::PluginRef& ref : set->enabled) needed.insert(ref.name);
  }
  for (const api::PluginRef& ref : plugins.multi_point.enabled) {
    needed.insert(ref.name);
  }
  for (const std::string& name : needed) {
    const PluginFactory* factory = registry.Find(name);
    if (factory == nullptr) continue;  // reported below as "does not exist"
    auto it = args.find(name);
    StatusOr<std::unique_ptr<Plugin>> plugin =
        (*factory)(it == args.end() ? nlohmann::json::object() : it->second,
                   handle);
    if (!plugin.ok()) {
      return plugin.status().WithPrefix("initializing plugin \"" + name +
                                        "\"");
    }
    f->plugins_[name] = std::move(plugin).value();
    f->enabled_.push_back(name);
  }

  // Placement, multiPoint expansion, the queue sort and bind checks and the
  // score weights are configuration rules (api/config/plugin_expansion.h).
  StatusOr<api::ExpandedPlugins> expanded = api::ExpandPlugins(
      plugins, profile.scheduler_name,
      [&f](const std::string& name) -> std::optional<api::ExtensionPointSet> {
        auto it = f->plugins_.find(name);
        if (it == f->plugins_.end()) return std::nullopt;
        return Implements(it->second.get());
      });
  if (!expanded.ok()) return expanded.status();
  using api::ExtensionPoint;
  Place(expanded->at(ExtensionPoint::kPreEnqueue), f->plugins_,
        f->pre_enqueue_);
  Place(expanded->at(ExtensionPoint::kQueueSort), f->plugins_, f->queue_sort_);
  Place(expanded->at(ExtensionPoint::kPreFilter), f->plugins_, f->pre_filter_);
  Place(expanded->at(ExtensionPoint::kFilter), f->plugins_, f->filter_);
  Place(expanded->at(ExtensionPoint::kPostFilter), f->plugins_,
        f->post_filter_);
  Place(expanded->at(ExtensionPoint::kPreScore), f->plugins_, f->pre_score_);
  Place(expanded->at(ExtensionPoint::kScore), f->plugins_, f->score_);
  Place(expanded->at(ExtensionPoint::kReserve), f->plugins_, f->reserve_);
  Place(expanded->at(ExtensionPoint::kPermit), f->plugins_, f->permit_);
  Place(expanded->at(ExtensionPoint::kPreBind), f->plugins_, f->pre_bind_);
  Place(expanded->at(ExtensionPoint::kBind), f->plugins_, f->bind_);
  Place(expanded->at(ExtensionPoint::kPostBind), f->plugins_, f->post_bind_);
  f->score_weights_ = std::move(expanded->score_weights);
  // Upstream looks a Score plugin's weight up under its own Name(), which
  // only the plugin object knows.
  for (ScorePlugin* p : f->score_) {
    if (f->ScoreWeight(p->Name()) == 0) {
      return schedref::Status::Invalid("score plugin \"" + p->Name() +
                                       "\" is not configured with weight");
    }
  }
  return f;
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

std::map<std::string, std::vector<ClusterEventWithHint>>
Framework::QueueingHints() const {
  std::map<std::string, std::vector<ClusterEventWithHint>> hints;
  for (const auto& [name, plugin] : plugins_) {
    Plugin* p = plugin.get();
    // Only plugins that can reject a pod register events (upstream
    // shouldHaveEnqueueExtensions).
    bool can_reject = dynamic_cast<PreEnqueuePlugin*>(p) != nullptr ||
                      dynamic_cast<PreFilterPlugin*>(p) != nullptr ||
                      dynamic_cast<FilterPlugin*>(p) != nullptr ||
                      dynamic_cast<ReservePlugin*>(p) != nullptr ||
                      dynamic_cast<PermitPlugin*>(p) != nullptr;
    if (!can_reject) continue;
    if (auto* ext = dynamic_cast<EnqueueExtensions*>(p)) {
      hints[name] = ext->EventsToRegister();
      AddNodeTaintWorkaround(hints[name]);
    } else {
      // No EnqueueExtensions: interested in everything, always Queue.
      hints[name] = {ClusterEventWithHint{
          ClusterEvent{EventResource::kWildCard, kAll, ""}, nullptr}};
    }
  }
  return hints;
}

std::map<std::string, std::vector<std::string>> Framework::ListPlugins()
    const {
  std::map<std::string, std::vector<std::string>> out;
  auto add = [&out](const char* point, const auto& list) {
    for (const auto* p : list) out[point].push_back(p->Name());
  };
  add("preEnqueue", pre_enqueue_);
  add("queueSort", queue_sort_);
  add("preFilter", pre_filter_);
  add("filter", filter_);
  add("postFilter", post_filter_);
  add("preScore", pre_score_);
  add("score", score_);
  add("reserve", reserve_);
  add("permit", permit_);
  add("preBind", pre_bind_);
  add("bind", bind_);
  add("postBind", post_bind_);
  return out;
}

int64_t Framework::ScoreWeight(const std::string& plugin) const {
  auto it = score_weights_.find(plugin);
  return it == score_weights_.end() ? 0 : it->second;
}

PreFilterOutput Framework::RunPreFilterPlugins(
    CycleState& state, const api::Pod& pod,
    const std::vector<const NodeInfo*>& nodes,
    std::set<std::string>* plugins_with_nodes_out,
    std::vector<std::pair<std::string, std::string>>* verdicts) {
  state.skip_filter_plugins.clear();
  PreFilterResult result;  // nullopt: all nodes
  std::set<std::string> plugins_with_nodes;
  Status return_status;
  for (PreFilterPlugin* pl : pre_filter_) {
    PreFilterOutput out = pl->PreFilter(state, pod, nodes);
    if (verdicts != nullptr) verdicts->emplace_back(pl->Name(), PreFilterVerdict(out));
    if (out.status.IsSkip()) {
      state.skip_filter_plugins.insert(pl->Name());
      continue;
    }
    if (!out.status.IsSuccess()) {
      out.status.WithPlugin(pl->Name());
      if (out.status.code() == Code::kUnschedulableAndUnresolvable) {
        return PreFilterOutput{std::nullopt, out.status};
      }
      if (out.status.code() == Code::kUnschedulable) {
        // Later PreFilters still run so that preemption has their state.
        return_status = out.status;
        continue;
      }
      Status err = Status::Error("running PreFilter plugin \"" + pl->Name() +
                                 "\": " + out.status.Message());
      err.WithPlugin(pl->Name());
      return PreFilterOutput{std::nullopt, err};
    }
    if (out.result.has_value()) {
      plugins_with_nodes.insert(pl->Name());
      if (!result.has_value()) {
        result = out.result;
      } else {
        std::set<std::string> both;
        for (const std::string& n : *result) {
          if (out.result->count(n) != 0) both.insert(n);
        }
        result = std::move(both);
      }
    }
    if (result.has_value() && result->empty()) {
      std::string msg;
      if (plugins_with_nodes.size() == 1) {
        msg = "node(s) didn't satisfy plugin " + *plugins_with_nodes.begin();
      } else {
        msg = "node(s) didn't satisfy plugin(s) [";
        bool first = true;
        for (const std::string& n : plugins_with_nodes) {
          msg += (first ? "" : " ") + n;
          first = false;
        }
        msg += "] simultaneously";
      }
      *plugins_with_nodes_out = plugins_with_nodes;
      return PreFilterOutput{
          result, Status(Code::kUnschedulableAndUnresolvable, msg)};
    }
  }
  *plugins_with_nodes_out = plugins_with_nodes;
  return PreFilterOutput{result, return_status};
}

Status Framework::RunPreFilterExtensionAddPod(CycleState& state,
                                              const api::Pod& pod_to_schedule,
                                              const api::Pod& pod_to_add,
                                              const NodeInfo& node) {
  for (PreFilterPlugin* pl : pre_filter_) {
    if (!pl->HasPreFilterExtensions() ||
        state.skip_filter_plugins.count(pl->Name()) != 0) {
      continue;
    }
    Status s = pl->AddPod(state, pod_to_schedule, pod_to_add, node);
    if (!s.IsSuccess()) {
      return Status::Error("running AddPod on PreFilter plugin \"" +
                           pl->Name() + "\": " + s.Message());
    }
  }
  return Status::Success();
}

Status Framework::RunPreFilterExtensionRemovePod(
    CycleState& state, const api::Pod& pod_to_schedule,
    const api::Pod& pod_to_remove, const NodeInfo& node) {
  for (PreFilterPlugin* pl : pre_filter_) {
    if (!pl->HasPreFilterExtensions() ||
        state.skip_filter_plugins.count(pl->Name()) != 0) {
      continue;
    }
    Status s = pl->RemovePod(state, pod_to_schedule, pod_to_remove, node);
    if (!s.IsSuccess()) {
      return Status::Error("running RemovePod on PreFilter plugin \"" +
                           pl->Name() + "\": " + s.Message());
    }
  }
  return Status::Success();
}

Status Framework::RunFilterPlugins(CycleState& state, const api::Pod& pod,
                                   const NodeInfo& node,
                                   std::map<std::string, Status>* detail) {
  for (FilterPlugin* pl : filter_) {
    if (state.skip_filter_plugins.count(pl->Name()) != 0) continue;
    Status s = pl->Filter(state, pod, node);
    if (detail != nullptr) (*detail)[pl->Name()] = s;
    if (!s.IsSuccess()) {
      if (!s.IsRejected()) {
        s = Status::Error("running \"" + pl->Name() +
                          "\" filter plugin: " + s.Message());
      }
      s.WithPlugin(pl->Name());
      return s;
    }
  }
  return Status::Success();
}

Status Framework::RunFilterPluginsWithNominatedPods(
    CycleState& state, const api::Pod& pod, const NodeInfo& node,
    std::map<std::string, Status>* detail) {
  // Pass 1: with every nominated pod of equal or higher priority added.
  std::vector<api::Pod> nominated = handle_->NominatedPodsForNode(node.Name());
  NodeInfo with_nominated = node;
  CycleState state_with_nominated = state;
  bool pods_added = false;
  int32_t priority = pod.priority.value_or(0);
  for (const api::Pod& other : nominated) {
    if (other.priority.value_or(0) >= priority && other.uid != pod.uid) {
      with_nominated.AddPod(other);
      Status s = RunPreFilterExtensionAddPod(state_with_nominated, pod, other,
                                             with_nominated);
      if (!s.IsSuccess()) return s;
      pods_added = true;
    }
  }
  if (!pods_added) return RunFilterPlugins(state, pod, node, detail);
  Status first =
      RunFilterPlugins(state_with_nominated, pod, with_nominated, detail);
  if (!first.IsSuccess()) return first;
  // Pass 2: without them, since some filters (affinity) may need them absent.
  if (detail != nullptr) detail->clear();
  return RunFilterPlugins(state, pod, node, detail);
}

PostFilterOutput Framework::RunPostFilterPlugins(CycleState& state,
                                                 const api::Pod& pod,
                                                 const NodeToStatus& statuses) {
  std::optional<PostFilterResult> result;
  std::vector<std::string> reasons;
  std::string rejector;
  for (PostFilterPlugin* pl : post_filter_) {
    PostFilterOutput out = pl->PostFilter(state, pod, statuses);
    if (out.status.IsSuccess()) return out;
    if (out.status.code() == Code::kUnschedulableAndUnresolvable) {
      out.status.WithPlugin(pl->Name());
      return out;
    }
    if (!out.status.IsRejected()) {
      Status err = Status::Error(out.status.Message());
      err.WithPlugin(pl->Name());
      return PostFilterOutput{std::nullopt, err};
    }
    if (out.result.has_value() && out.result->nominated_node_name.has_value()) {
      result = out.result;
    }
    for (const std::string& r : out.status.reasons()) reasons.push_back(r);
    if (rejector.empty()) rejector = pl->Name();
  }
  Status s(Code::kUnschedulable, reasons);
  s.WithPlugin(rejector);
  return PostFilterOutput{result, s};
}

Status Framework::RunPreScorePlugins(CycleState& state, const api::Pod& pod,
                                     const std::vector<const NodeInfo*>& nodes) {
  state.skip_score_plugins.clear();
  for (PreScorePlugin* pl : pre_score_) {
    Status s = pl->PreScore(state, pod, nodes);
    if (s.IsSkip()) {
      state.skip_score_plugins.insert(pl->Name());
      continue;
    }
    if (!s.IsSuccess()) {
      return Status::Error("running PreScore plugin \"" + pl->Name() +
                           "\": " + s.Message());
    }
  }
  return Status::Success();
}

StatusOr<std::vector<NodeScoreResult>> Framework::RunScorePlugins(
    CycleState& state, const api::Pod& pod,
    const std::vector<const NodeInfo*>& nodes) {
  std::vector<NodeScoreResult> out(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) out[i].name = nodes[i]->Name();
  for (ScorePlugin* pl : score_) {
    if (state.skip_score_plugins.count(pl->Name()) != 0) continue;
    NodeScoreList scores(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
      ScoreOutput s = pl->Score(state, pod, *nodes[i]);
      if (!s.status.IsSuccess()) {
        return schedref::Status::Invalid(
            "running Score plugins: plugin \"" + pl->Name() +
            "\" failed with: " + s.status.Message());
      }
      scores[i] = NodePluginScore{nodes[i]->Name(), s.score};
      out[i].plugin_scores[pl->Name()].raw = s.score;
    }
    if (pl->HasScoreExtensions()) {
      Status s = pl->NormalizeScore(state, pod, scores);
      if (!s.IsSuccess()) {
        return schedref::Status::Invalid(
            "running Normalize on Score plugins: plugin \"" + pl->Name() +
            "\" failed with: " + s.Message());
      }
    }
    int64_t weight = ScoreWeight(pl->Name());
    for (size_t i = 0; i < nodes.size(); ++i) {
      int64_t score = scores[i].score;
      if (score > kMaxNodeScore || score < kMinNodeScore) {
        return schedref::Status::Invalid(
            "applying score defaultWeights on Score plugins: plugin \"" +
            pl->Name() + "\" returns an invalid score " +
            std::to_string(score) + ", it should in the range of [0, 100] " +
            "after normalizing");
      }
      PluginNodeScore& ps = out[i].plugin_scores[pl->Name()];
      ps.normalized = score;
      ps.weighted = score * weight;
      out[i].total_score += score * weight;
    }
  }
  return out;
}

Status Framework::RunReservePluginsReserve(CycleState& state,
                                           const api::Pod& pod,
                                           const std::string& node_name) {
  for (ReservePlugin* pl : reserve_) {
    Status s = pl->Reserve(state, pod, node_name);
    if (s.IsSuccess()) continue;
    if (s.IsRejected()) {
      s.WithPlugin(pl->Name());
      return s;
    }
    return Status::Error("running Reserve plugin \"" + pl->Name() +
                         "\": " + s.Message());
  }
  return Status::Success();
}

void Framework::RunReservePluginsUnreserve(CycleState& state,
                                           const api::Pod& pod,
                                           const std::string& node_name) {
  for (auto it = reserve_.rbegin(); it != reserve_.rend(); ++it) {
    (*it)->Unreserve(state, pod, node_name);
  }
}

Status Framework::RunPermitPlugins(CycleState& state, const api::Pod& pod,
                                   const std::string& node_name,
                                   api::TimeMs now) {
  std::map<std::string, api::TimeMs> waits;
  std::map<std::string, int64_t> timeouts;
  for (PermitPlugin* pl : permit_) {
    PermitOutput out = pl->Permit(state, pod, node_name);
    if (out.status.IsSuccess()) continue;
    if (out.status.IsRejected()) {
      out.status.WithPlugin(pl->Name());
      return out.status;
    }
    if (out.status.IsWait()) {
      timeouts[pl->Name()] = std::min(out.timeout_ms, kMaxPermitTimeoutMs);
      waits[pl->Name()] = now + timeouts[pl->Name()];
      continue;
    }
    Status err = Status::Error("running Permit plugin \"" + pl->Name() +
                               "\": " + out.status.Message());
    err.WithPlugin(pl->Name());
    return err;
  }
  if (waits.empty()) return Status::Success();
  waiting_pods_[pod.uid] = WaitingPod{pod, node_name, std::move(waits),
                                      std::move(timeouts), {}};
  return Status(Code::kWait,
                "one or more plugins asked to wait and no plugin rejected "
                "pod \"" + pod.name + "\"");
}

Status Framework::RunPreBindPlugins(CycleState& state, const api::Pod& pod,
                                    const std::string& node_name, size_t* next_plugin) {
  for (size_t i = next_plugin == nullptr ? 0 : *next_plugin; i < pre_bind_.size(); ++i) {
    PreBindPlugin* pl = pre_bind_[i];
    Status s = pl->PreBind(state, pod, node_name);
    if (s.IsSuccess()) continue;
    if (s.IsWait() && next_plugin != nullptr) {
      *next_plugin = i;
      s.WithPlugin(pl->Name());
      return s;
    }
    if (s.IsRejected()) {
      s.WithPlugin(pl->Name());
      return s;
    }
    return Status::Error("running PreBind plugin \"" + pl->Name() +
                         "\": " + s.Message());
  }
  return Status::Success();
}

Status Framework::RunBindPlugins(CycleState& state, const api::Pod& pod,
                                 const std::string& node_name) {
  Status status = Status::Skip();
  for (BindPlugin* pl : bind_) {
    status = pl->Bind(state, pod, node_name);
    if (status.IsSkip()) continue;
    if (!status.IsSuccess()) {
      if (status.IsRejected()) {
        status.WithPlugin(pl->Name());
        return status;
      }
      return Status::Error("running Bind plugin \"" + pl->Name() +
                           "\": " + status.Message());
    }
    return status;
  }
  return status;
}

void Framework::RunPostBindPlugins(CycleState& state, const api::Pod& pod,
                                   const std::string& node_name) {
  for (PostBindPlugin* pl : post_bind_) pl->PostBind(state, pod, node_name);
}

bool Framework::Allow(const std::string& uid, const std::string& plugin) {
  auto it = waiting_pods_.find(uid);
  if (it == waiting_pods_.end() || it->second.result.has_value()) return false;
  if (it->second.pending.erase(plugin) == 0) return false;
  if (it->second.pending.empty()) it->second.result = Status::Success();
  return true;
}

bool Framework::Reject(const std::string& uid, const std::string& plugin,
                       const std::string& message) {
  auto it = waiting_pods_.find(uid);
  if (it == waiting_pods_.end() || it->second.result.has_value()) return false;
  // Any plugin may reject a waiting pod, pending or not, and so may the
  // scheduler itself with plugin "" (upstream waitingPod.Reject).
  Status s(Code::kUnschedulable, message);
  s.WithPlugin(plugin);
  it->second.result = s;
  return true;
}

void Framework::ExpireWaitingPods(api::TimeMs now) {
  for (auto& [uid, wp] : waiting_pods_) {
    if (wp.result.has_value()) continue;
    // The earliest deadline rejects first; equal deadlines go by plugin name.
    const std::string* plugin = nullptr;
    for (const auto& [name, deadline] : wp.pending) {
      if (deadline <= now && (plugin == nullptr || deadline < wp.pending[*plugin])) {
        plugin = &name;
      }
    }
    if (plugin == nullptr) continue;
    Status s(Code::kUnschedulable,
             "rejected due to timeout after waiting " +
                 api::FormatDurationMs(wp.timeouts_ms[*plugin]) + " at plugin " +
                 *plugin);
    s.WithPlugin(*plugin);
    wp.result = s;
  }
}


}  // namespace schedref::reference::framework
