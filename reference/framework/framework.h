// Framework: one profile's plugins, instantiated from the configuration, and
// the rules for running them at each extension point. Specification: upstream
// pkg/scheduler/framework/runtime/framework.go (NewFramework, Run*Plugins;
// placement and expandMultiPointPlugins are api/config/plugin_expansion.h) and
// waiting_pods_map.go, v1.32.
#ifndef SCHEDREF_REFERENCE_FRAMEWORK_FRAMEWORK_H_
#define SCHEDREF_REFERENCE_FRAMEWORK_FRAMEWORK_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/config/config.h"
#include "api/status.h"
#include "api/types/objects.h"
#include "reference/framework/interface.h"
#include "reference/framework/registry.h"

namespace schedref::reference::framework {

// One plugin's view of one node, recorded for full-detail traces.
struct PluginNodeScore {
  int64_t raw = 0;
  int64_t normalized = 0;
  int64_t weighted = 0;
};

struct NodeScoreResult {
  std::string name;
  int64_t total_score = 0;
  // Score plugin name -> its scores for this node (plugins skipped by
  // PreScore are absent).
  std::map<std::string, PluginNodeScore> plugin_scores;
};

// A pod held at Permit. Each waiting plugin has a deadline; the pod proceeds
// once every plugin allowed it and is rejected by the first Reject or
// timeout (upstream waitingPod).
struct WaitingPod {
  api::Pod pod;
  std::string node_name;
  // Plugin -> absolute deadline.
  std::map<std::string, api::TimeMs> pending;
  // Plugin -> the timeout it asked for (for the rejection message).
  std::map<std::string, int64_t> timeouts_ms;
  // Set once resolved: Success, or Unschedulable with the rejection message.
  std::optional<Status> result;
};

class Framework : public PluginsRunner {
 public:
  // Builds the profile's framework: instantiates every plugin the effective
  // plugin set names, with args from pluginConfig, then places them at
  // their extension points (multiPoint expansion included) with the score
  // weights api::ExpandPlugins computes. Errors are upstream's
  // configuration errors.
  static StatusOr<std::unique_ptr<Framework>> New(
      const Registry& registry, const api::Profile& profile,
      const api::Plugins& effective_plugins, Handle* handle);

  const std::string& ProfileName() const { return profile_name_; }
  std::optional<int32_t> PercentageOfNodesToScore() const {
    return percentage_of_nodes_to_score_;
  }

  const QueueSortPlugin* QueueSort() const { return queue_sort_[0]; }
  const std::vector<PreEnqueuePlugin*>& PreEnqueuePlugins() const {
    return pre_enqueue_;
  }
  // Enabled plugin name -> the events it registered (EnqueueExtensions).
  std::map<std::string, std::vector<ClusterEventWithHint>> QueueingHints()
      const;
  // Names of the plugins at each extension point, in run order (for the
  // configuration tests and for `explain`).
  std::map<std::string, std::vector<std::string>> ListPlugins() const;
  int64_t ScoreWeight(const std::string& plugin) const;

  bool HasFilterPlugins() const { return !filter_.empty(); }
  bool HasScorePlugins() const { return !score_.empty(); }
  bool HasPostFilterPlugins() const { return !post_filter_.empty(); }

  // PreFilter (upstream RunPreFilterPlugins). On rejection the status names
  // the rejecting plugin. `plugins_with_nodes` receives the plugins that
  // restricted the node set (upstream's third return value).
  // `verdicts`, when given, receives each plugin that ran, in run order,
  // with its result as full-detail traces write it: "Skip", "Success",
  // "Success: nodes a, b" (a PreFilterResult), "<code>: <message>".
  PreFilterOutput RunPreFilterPlugins(
      CycleState& state, const api::Pod& pod,
      const std::vector<const NodeInfo*>& nodes,
      std::set<std::string>* plugins_with_nodes,
      std::vector<std::pair<std::string, std::string>>* verdicts = nullptr);
  Status RunPreFilterExtensionAddPod(CycleState& state,
                                     const api::Pod& pod_to_schedule,
                                     const api::Pod& pod_to_add,
                                     const NodeInfo& node) override;
  Status RunPreFilterExtensionRemovePod(CycleState& state,
                                        const api::Pod& pod_to_schedule,
                                        const api::Pod& pod_to_remove,
                                        const NodeInfo& node) override;
  // Filters in order; the first non-success stops. `detail`, when given,
  // receives plugin -> status for every plugin that ran.
  Status RunFilterPlugins(CycleState& state, const api::Pod& pod,
                          const NodeInfo& node,
                          std::map<std::string, Status>* detail = nullptr);
  // Upstream's two-pass rule for nominated pods.
  Status RunFilterPluginsWithNominatedPods(
      CycleState& state, const api::Pod& pod, const NodeInfo& node,
      std::map<std::string, Status>* detail = nullptr) override;
  PostFilterOutput RunPostFilterPlugins(CycleState& state, const api::Pod& pod,
                                        const NodeToStatus& statuses);
  Status RunPreScorePlugins(CycleState& state, const api::Pod& pod,
                            const std::vector<const NodeInfo*>& nodes);
  // Score, NormalizeScore, range check, weights.
  StatusOr<std::vector<NodeScoreResult>> RunScorePlugins(
      CycleState& state, const api::Pod& pod,
      const std::vector<const NodeInfo*>& nodes);
  Status RunReservePluginsReserve(CycleState& state, const api::Pod& pod,
                                  const std::string& node_name);
  void RunReservePluginsUnreserve(CycleState& state, const api::Pod& pod,
                                  const std::string& node_name);
  // Wait: the pod is registered as waiting (see WaitingPods).
  Status RunPermitPlugins(CycleState& state, const api::Pod& pod,
                          const std::string& node_name, api::TimeMs now);
  // From plugin *next_plugin (0 when null) on. With next_plugin set, a
  // plugin's Wait stops the run with that Wait and leaves *next_plugin at
  // the plugin, to be called again later (VolumeBinding's poll for the
  // binding: upstream's PreBind blocks in its goroutine instead).
  Status RunPreBindPlugins(CycleState& state, const api::Pod& pod,
                           const std::string& node_name, size_t* next_plugin = nullptr);
  Status RunBindPlugins(CycleState& state, const api::Pod& pod,
                        const std::string& node_name);
  void RunPostBindPlugins(CycleState& state, const api::Pod& pod,
                          const std::string& node_name);

  // Waiting pods by UID.
  std::map<std::string, WaitingPod>& WaitingPods() { return waiting_pods_; }
  // Resolve a waiting pod: Allow by one plugin, Reject by one plugin.
  // Return false iff the pod is not waiting on that plugin.
  bool Allow(const std::string& uid, const std::string& plugin);
  bool Reject(const std::string& uid, const std::string& plugin,
              const std::string& message);
  // Rejects every waiting plugin whose deadline is <= now.
  void ExpireWaitingPods(api::TimeMs now);

 private:
  Framework() = default;

  std::string profile_name_;
  std::optional<int32_t> percentage_of_nodes_to_score_;
  Handle* handle_ = nullptr;

  // Instantiated plugins, by name; the vectors below point into these.
  std::map<std::string, std::unique_ptr<Plugin>> plugins_;
  std::vector<PreEnqueuePlugin*> pre_enqueue_;
  std::vector<QueueSortPlugin*> queue_sort_;
  std::vector<PreFilterPlugin*> pre_filter_;
  std::vector<FilterPlugin*> filter_;
  std::vector<PostFilterPlugin*> post_filter_;
  std::vector<PreScorePlugin*> pre_score_;
  std::vector<ScorePlugin*> score_;
  std::vector<ReservePlugin*> reserve_;
  std::vector<PermitPlugin*> permit_;
  std::vector<PreBindPlugin*> pre_bind_;
  std::vector<BindPlugin*> bind_;
  std::vector<PostBindPlugin*> post_bind_;
  std::map<std::string, int64_t> score_weights_;
  // Every enabled plugin name, for QueueingHints.
  std::vector<std::string> enabled_;

  std::map<std::string, WaitingPod> waiting_pods_;
};

}  // namespace schedref::reference::framework

#endif  // SCHEDREF_REFERENCE_FRAMEWORK_FRAMEWORK_H_
